"""Rules versions players can see (SPEC 3.7): which rules priced an army, and a new
version that changes its numbers is never silent."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from io import StringIO

import pytest
from django.core.management import call_command

import points
from armies import services
from armies.models import Army
from points import vsgmr
from tests.factories import ArmyFactory, sample_file
from tests.helpers import HX, as_page, editor_post

pytestmark = pytest.mark.databases

NEXT = "vsgmr/2026.2"


def move_rules(monkeypatch, hero: int = 3, version: str = NEXT) -> None:
    """A simulated rules change: a VSGMR hero costs `hero` points under a new version."""
    monkeypatch.setitem(vsgmr.FIGURE_COST, "hero", Fraction(hero))
    moved = dataclasses.replace(points.SYSTEMS["vsgmr"], version=version)
    monkeypatch.setitem(points.SYSTEMS, "vsgmr", moved)


QUIET = {"stdout": StringIO()}


def _import(client, name: str) -> Army:
    client.post("/armies/import/", {"text": json.dumps(sample_file(name))})
    return Army.objects.get(name=sample_file(name)["name"])


def test_every_page_names_the_rules_version(player_client, player):
    army = _import(player_client, "dwarves")
    token = services.share_army(army)
    assert army.rules_version == "vsgmr/2026.1"
    for url in (f"/armies/{army.pk}/", f"/s/{token}/", f"/armies/{army.pk}/roster/"):
        html = player_client.get(url).content.decode()
        assert "vsgmr/2026.1" in html, url
    matchup = player_client.get(f"/matchup/?a={army.pk}&b={token}").content.decode()
    assert 'data-testid="rules-version-a">Priced under rules vsgmr/2026.1' in matchup
    exported = player_client.get(f"/armies/{army.pk}/export.json").json()
    assert exported["rules_version"] == "vsgmr/2026.1"


def test_a_new_version_shows_the_owner_and_the_opponent_exactly_what_changed(
    client, player_client, player, monkeypatch
):
    army = _import(player_client, "dwarves")  # 28 points of heroes, limit 28: legal
    troops = ArmyFactory(
        owner=player,
        system="vsgmr",
        profiles=[{"kind": "guy", "flavor": "troop", "commander": True}],
    )
    swords = ArmyFactory(
        owner=player,
        system="gem",
        profiles=[{"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}],
    )
    token = services.share_army(army)
    move_rules(monkeypatch)
    call_command("reprice", "--army", str(army.pk), **QUIET)

    army.refresh_from_db()
    # By hand: each hero costs one more. Thane 4 → 5, Runepriest 6 → 7, each of the
    # three Guards 6 → 7: 28 → 33, five over the limit of 28.
    assert army.rules_version == NEXT and army.total == "33" and not army.legal
    notice = army.rules_notice
    assert notice["from"] == "vsgmr/2026.1" and notice["to"] == NEXT
    assert notice["total"] == ["28", "33"] and notice["legal"] == [True, False]
    assert [(u["name"], u["each"]) for u in notice["units"]] == [
        ("Thane", ["4", "5"]),
        ("Runepriest", ["6", "7"]),
        ("Guards", ["6", "7"]),
    ]
    # The new error is stored as a message id with its numbers; the pages below say it.
    assert len(notice["army"]["appeared"]) == 1

    # Armies whose numbers did not move get no notice.
    call_command("reprice", **QUIET)
    troops.refresh_from_db()
    swords.refresh_from_db()
    assert troops.rules_version == NEXT and troops.rules_notice is None
    assert swords.rules_version == "gem/2026.1" and swords.rules_notice is None

    builder = player_client.get(f"/armies/{army.pk}/").content.decode()
    assert 'data-testid="rules-notice"' in builder and "Thane: 4 → <strong>5</strong>" in builder
    assert "New error: The army costs 33 points, 5 over its limit of 28." in builder
    listing = player_client.get("/armies/").content.decode()
    assert listing.count('data-testid="rules-changed"') == 1
    shared = client.get(f"/s/{token}/").content.decode()
    assert "Priced under an older rules version" in shared and "28 → <strong>33" in shared
    assert "I have checked" not in shared  # the opponent reads, only the owner accepts
    roster = client.get(f"/s/{token}/roster/").content.decode()
    assert "Priced under an older rules version" in roster

    player_client.post(f"/armies/{army.pk}/accept-rules/", as_page(army))
    army.refresh_from_db()
    assert army.rules_notice is None
    assert "Priced under an older rules version" not in client.get(f"/s/{token}/").content.decode()


def test_a_second_move_before_accepting_keeps_the_numbers_the_owner_knew(
    player_client, player, monkeypatch
):
    army = _import(player_client, "dwarves")
    move_rules(monkeypatch)
    call_command("reprice", **QUIET)
    move_rules(monkeypatch, hero=4, version="vsgmr/2026.3")
    call_command("reprice", **QUIET)
    army.refresh_from_db()
    # 28 under 2026.1, then 33, now 38: the notice still counts from what was accepted.
    assert army.rules_notice["from"] == "vsgmr/2026.1"
    assert army.rules_notice["total"] == ["28", "38"]


def test_reprice_reports_how_many_totals_changed(player_client, player, monkeypatch):
    _import(player_client, "dwarves")
    ArmyFactory(
        owner=player,
        system="vsgmr",
        profiles=[{"kind": "guy", "flavor": "troop", "commander": True}],
    )
    move_rules(monkeypatch)
    out = StringIO()
    call_command("reprice", "--system", "vsgmr", stdout=out)
    assert "Re-priced 2 armies: 1 totals changed." in out.getvalue()
    assert "Dwarves: 28 → 33" in out.getvalue()


def test_a_matchup_under_two_versions_says_so(player_client, player):
    mine = _import(player_client, "dwarves")
    theirs = _import(player_client, "orcs")
    Army.objects.filter(pk=theirs.pk).update(rules_version="vsgmr/2025.9")  # not re-priced
    html = player_client.get(f"/matchup/?a={mine.pk}&b={theirs.pk}").content.decode()
    assert 'data-testid="versions-differ"' in html
    assert "vsgmr/2026.1" in html and "vsgmr/2025.9" in html


def test_importing_a_file_priced_under_another_version_says_so(player_client, player):
    doc = {**sample_file("dwarves"), "rules_version": "vsgmr/2025.9"}
    response = player_client.post("/armies/import/", {"text": json.dumps(doc)}, follow=True)
    html = response.content.decode()
    assert "The file was priced under rules vsgmr/2025.9" in html
    assert "under vsgmr/2026.1 today, so its total here is 28" in html
    # A file that names today's version, or none, imports without a word about it.
    for same in ({**doc, "rules_version": "vsgmr/2026.1"}, sample_file("orcs")):
        again = player_client.post("/armies/import/", {"text": json.dumps(same)}, follow=True)
        assert "The file was priced under" not in again.content.decode()


def test_the_api_names_the_rules_version(client, db):
    response = client.post(
        "/api/price/", data=json.dumps(sample_file("dwarves")), content_type="application/json"
    )
    assert response.json()["rules_version"] == "vsgmr/2026.1"


def test_an_htmx_save_shows_the_version_it_was_priced_under(player_client, player):
    army = ArmyFactory(owner=player, system="d10", profiles=[{}])
    unit = army.units.get()
    data = editor_post(player_client, unit, {"name": "Rifleman", "quantity": "2"})
    html = player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/", data, headers=HX
    ).content.decode()
    assert "Priced under rules d10/2026.1" in html
