"""The print set beside the roster: unit cards, blank cards, the quick reference, and the
print options kept in the URL (Chromium's PDFs are checked in tests/browser/test_print_set.py)."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache

from armies import services
from tests.factories import ArmyFactory

pytestmark = pytest.mark.django_db

SWORDSMAN = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}
SYSTEMS = ("gem", "vsgmr", "goms", "d10")


def _classes(html: str) -> set[str]:
    found = re.search(r'<div class="print-set ([^"]*)"', html)
    return set(found[1].split()) if found else set()


def test_unit_cards_show_each_unit_with_its_stored_cost(player_client, player):
    army = ArmyFactory(
        owner=player, system="gem", profiles=[SWORDSMAN, SWORDSMAN], name="Iron Duke's Guard"
    )

    html = player_client.get(f"/armies/{army.pk}/cards/").content.decode()

    assert html.count('data-testid="roster-unit"') == 2
    # SPEC 3.2: a swordsman is 6.5 points.
    assert html.count('data-testid="unit-cost"><strong>6.5</strong> pts') == 2
    assert 'data-print-header="Iron Duke&#x27;s Guard · unit cards"' in html


@pytest.mark.parametrize(
    ("query", "classes"),
    [
        ("", set()),
        ("?breakdowns=1", {"show-breakdowns"}),
        ("?o=1&table1=1&aids=1&notes=1", set()),
        ("?o=1&breakdowns=1", {"show-breakdowns", "hide-table1", "hide-aids", "hide-notes"}),
        ("?o=1&table1=1", {"hide-aids", "hide-notes"}),
    ],
)
def test_print_options_come_from_the_url(player_client, player, query, classes):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN])

    for page in ("roster", "cards"):
        html = player_client.get(f"/armies/{army.pk}/{page}/{query}").content.decode()
        assert _classes(html) == classes, page


def test_the_roster_links_to_the_cards_with_the_same_options(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN])
    token = services.share_army(army)

    mine = player_client.get(f"/armies/{army.pk}/roster/?o=1&notes=1").content.decode()
    player_client.logout()
    theirs = player_client.get(f"/s/{token}/roster/").content.decode()

    assert f'href="/armies/{army.pk}/cards/?o=1&amp;notes=1" data-testid="cards-link"' in mine
    assert f'href="/s/{token}/cards/" data-testid="cards-link"' in theirs


def test_every_card_carries_its_breakdown_for_the_option_to_show(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN])

    html = player_client.get(f"/armies/{army.pk}/cards/?breakdowns=1").content.decode()

    breakdown = html.split('data-testid="unit-breakdown"')[1].split("</table>")[0]
    assert "How 6.5 each is worked out" in breakdown


def test_shared_cards_open_with_the_link_and_close_when_it_is_revoked(client, player):
    army = ArmyFactory(
        owner=player, system="vsgmr", profiles=[{"kind": "guy", "flavor": "hero"}], name="Dwarves"
    )
    token = services.share_army(army)

    assert client.get(f"/s/{token}/cards/").status_code == 200
    services.share_army(army)
    assert client.get(f"/s/{token}/cards/").status_code == 404


@pytest.mark.parametrize("size", [1, 60])
def test_unit_cards_cost_the_same_queries_at_any_size(
    client, player, size, django_assert_num_queries
):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * size)
    token = services.share_army(army)
    client.force_login(player)
    # session, user, army, each unit's stored card
    with django_assert_num_queries(4):
        assert client.get(f"/armies/{army.pk}/cards/").status_code == 200
    client.logout()
    cache.clear()
    # the army with its owner's name, each unit's stored card
    with django_assert_num_queries(2):
        assert client.get(f"/s/{token}/cards/").status_code == 200


@pytest.mark.parametrize("system", SYSTEMS)
def test_blank_cards_and_the_quick_reference_are_public_and_read_nothing(
    client, system, django_assert_num_queries
):
    with django_assert_num_queries(0):
        blank = client.get(f"/print/{system}/blank-cards/")
        reference = client.get(f"/print/{system}/quick-reference/")

    assert blank.status_code == reference.status_code == 200
    assert blank.content.decode().count('data-testid="blank-card"') == 9


def test_an_unknown_system_has_no_blank_cards_or_reference(client):
    assert client.get("/print/chess/blank-cards/").status_code == 404
    assert client.get("/print/chess/quick-reference/").status_code == 404


def test_the_quick_reference_states_the_systems_numbers(client):
    vsgmr = client.get("/print/vsgmr/quick-reference/").content.decode()
    goms = client.get("/print/goms/quick-reference/").content.decode()
    d10 = client.get("/print/d10/quick-reference/").content.decode()
    gem = client.get("/print/gem/quick-reference/").content.decode()

    # SPEC 3.3: a hero costs 2, a mook ½, each trait +2; within 5 points is balanced.
    assert '<tr><th scope="row">Hero</th><td>2</td></tr>' in vsgmr
    assert '<tr><th scope="row">Mook</th><td>0.5</td></tr>' in vsgmr
    assert '<tr><th scope="row">Each trait</th><td>+2</td></tr>' in vsgmr
    assert "within 5 points" in vsgmr
    # SPEC 3.4: game sizes small 5, medium 12, large 30; elite morale is 10.
    assert "small 5, medium 12, large 30 points" in goms
    assert '<tr><th scope="row">Highly motivated elite</th><td>10</td></tr>' in goms
    # SPEC 3.5: stat + d10 reaching 10; a stat of 5 succeeds on 5 to 0 of the die: 60%.
    assert "reach 10" in d10 and "<td>60%</td>" in d10
    # SPEC 3.2: base and type modifiers.
    assert "25mm ×0.9" in gem and "cavalry ×1.5" in gem
