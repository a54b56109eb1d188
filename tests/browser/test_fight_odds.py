"""Issue #29 in a browser: "Odds against…" on a builder unit or a roster card opens the
fight calculator with that unit filled in, and the worked odds show, on a desktop and on a phone."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.utils.http import urlencode
from playwright.sync_api import expect

from armies import services
from tests.browser.helpers import DESK, PHONE, log_in
from tests.factories import ArmyFactory, UserFactory, sample_file
from tests.samples import sample_army

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/fight-shots")  # noqa: S108  (COMMON.md: screenshots go here)
TROOP = json.dumps({"kind": "guy", "flavor": "troop"})


def test_odds_against_from_a_builder_unit_shows_the_numbers(page, live_server):
    owner = UserFactory(username="duellist")
    army = ArmyFactory(owner=owner, file=sample_file("dwarves"))
    log_in(page, "duellist")
    page.set_viewport_size(DESK)
    page.goto(f"/armies/{army.pk}/")

    thane = page.get_by_test_id("unit-row").filter(has_text="Thane")
    thane.locator("summary").first.click()
    # What "More" opens loads above the link and pushes it down: a player clicks the link
    # where it then is (a click as the breakdown arrived once hit the breakdown instead).
    expect(thane.locator(".unit-more table.breakdown")).to_be_visible()
    thane.get_by_test_id("odds-against").click()

    expect(page).to_have_url(re.compile(r"/rules/vsgmr/fight/\?a_unit=\d+"))
    expect(page.locator("#id_a_unit")).to_have_value(str(army.units.get(name="Thane").pk))
    page.locator("#id_b_name").fill("Grunt")
    page.locator("#id_b_profile").fill(TROOP)
    page.get_by_role("button", name="Work it out").click()

    # By hand: the Thane (hero, heavy armour, Tough) hits 2/3; a troop's hit stands 1/3 of
    # 1/2. A round: Thane 11/18, troop 1/9, on 5/18; the Thane wins 11/13 (84.6%).
    outcomes = page.get_by_test_id("outcome-percent")
    expect(outcomes).to_have_text(["84.6%", "0.0%", "15.4%"])
    expect(page.get_by_test_id("outcomes")).to_contain_text("11/13")
    expect(page.get_by_test_id("chart").first.locator("rect.chart-bar")).to_have_count(3)
    expect(page).to_have_url(re.compile(r"b_profile="))
    page.get_by_test_id("fight-working").locator("summary").click()
    expect(page.get_by_test_id("fight-working")).to_contain_text("heavy armour turns a hit on 4+")

    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "fight-1366.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.reload()
    expect(page.get_by_test_id("outcome-percent")).to_have_text(["84.6%", "0.0%", "15.4%"])
    overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert not overflow
    page.screenshot(path=str(SHOTS / "fight-390.png"), full_page=True)


def test_odds_against_on_a_roster_opens_the_calculator_by_either_door(page, opponent, live_server):
    owner = UserFactory(username="sheeter")
    army = ArmyFactory(owner=owner, file=sample_file("dwarves"))
    token = services.share_army(army)
    thane = army.units.get(name="Thane")
    log_in(page, "sheeter")
    page.set_viewport_size(DESK)
    page.goto(f"/armies/{army.pk}/roster/")
    card = page.get_by_test_id("roster-unit").filter(has_text="Thane")
    card.get_by_test_id("odds-against").click()
    expect(page).to_have_url(re.compile(rf"/rules/vsgmr/fight/\?a_unit={thane.pk}$"))
    expect(page.locator("#id_a_unit")).to_have_value(str(thane.pk))

    # The opponent, on a phone, from the roster the share link prints.
    opponent.set_viewport_size(PHONE)
    opponent.goto(f"/s/{token}/roster/")
    card = opponent.get_by_test_id("roster-unit").filter(has_text="Thane")
    card.get_by_test_id("odds-against").click()
    expect(opponent).to_have_url(re.compile(r"/rules/vsgmr/fight/\?a_name=Thane&"))
    expect(opponent.locator("#id_a_name")).to_have_value("Thane")
    opponent.locator("#id_b_name").fill("Grunt")
    opponent.locator("#id_b_profile").fill(TROOP)
    opponent.get_by_role("button", name="Work it out").click()
    # By hand, as above: the Thane wins 11/13.
    expect(opponent.get_by_test_id("outcome-percent")).to_have_text(["84.6%", "0.0%", "15.4%"])


def test_long_and_marked_up_names_stay_text_and_inside_the_page(page, live_server):
    name = ("<b>Grim</b> [b]bold[/b] " + "Longname" * 24)[:200]
    page.set_viewport_size(PHONE)
    query = urlencode({"a_name": name, "a_profile": TROOP, "b_profile": TROOP})
    page.goto(f"/rules/vsgmr/fight/?{query}")

    expect(page.get_by_test_id("outcome-percent")).to_have_text(["50.0%", "0.0%", "50.0%"])
    expect(page.locator("#fight-result h2")).to_contain_text("<b>Grim</b>")
    assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "fight-long-name-390.png"), full_page=True)


def test_matchup_shows_points_against_odds_on_a_desktop_and_a_phone(page, live_server):
    owner = UserFactory(username="balancer")
    orcs = ArmyFactory(owner=owner, file=sample_file("orcs"))
    zombies = ArmyFactory(owner=owner, file=sample_file("zombie-horde"))
    log_in(page, "balancer")
    SHOTS.mkdir(exist_ok=True)

    for width, height in ((1366, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/matchup/?a={orcs.pk}&b={zombies.pk}")
        expect(page.get_by_test_id("odds-buys")).to_contain_text("1 point of A buys")
        # Warriors v Minions, worked by hand in tests/sharing/test_matchup_odds.py.
        cell = page.get_by_test_id("odds-row").nth(2).get_by_test_id("odds-cell").nth(2)
        expect(cell).to_contain_text("55.9 / 44.1")
        assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
        page.screenshot(path=str(SHOTS / f"matchup-odds-{width}.png"), full_page=True)


RIFLEMAN = json.dumps({"weapons": ["Carbine/AR"]})


def test_who_acts_first_is_picked_on_the_d10_calculator_and_changes_the_odds(page, live_server):
    SHOTS.mkdir(exist_ok=True)
    for size, width in ((DESK, 1366), (PHONE, 390)):
        page.set_viewport_size(size)
        page.goto("/rules/d10/fight/")
        choice = page.get_by_test_id("choice-first")
        expect(choice.get_by_label("Either, each half the time")).to_be_checked()
        page.locator("#id_a_name").fill("Rifleman")
        page.locator("#id_a_profile").fill(RIFLEMAN)
        page.locator("#id_b_name").fill("Twin")
        page.locator("#id_b_profile").fill(RIFLEMAN)
        page.get_by_role("button", name="Work it out").click()
        # By hand (tests/points/test_d10_fights.py): twins, each first half the time, 1/2.
        outcomes = page.get_by_test_id("outcome-percent")
        expect(outcomes).to_have_text(["50.0%", "0.0%", "50.0%"])

        page.get_by_test_id("choice-first").get_by_label("Side A").check()
        page.get_by_role("button", name="Work it out").click()
        # Side A always acting first wins the tied close fights: 15/28 against 13/28.
        expect(outcomes).to_have_text(["53.6%", "0.0%", "46.4%"])
        expect(page).to_have_url(re.compile(r"first=a"))
        expect(page.get_by_test_id("choice-first").get_by_label("Side A")).to_be_checked()
        assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
        page.screenshot(path=str(SHOTS / f"fight-d10-first-{width}.png"), full_page=True)

        page.reload()
        expect(page.get_by_test_id("outcome-percent")).to_have_text(["53.6%", "0.0%", "46.4%"])


def test_a_d10_army_against_itself_buys_one_for_one_on_the_matchup(page, live_server):
    owner = UserFactory(username="mirror")
    squad = ArmyFactory(owner=owner, file=sample_army("d10", "rifle-squad"))
    twin = ArmyFactory(owner=owner, file=sample_army("d10", "rifle-squad"))
    log_in(page, "mirror")
    page.set_viewport_size(DESK)
    page.goto(f"/matchup/?a={squad.pk}&b={twin.pk}")

    expect(page.get_by_test_id("odds-buys")).to_contain_text("1 point of A buys 100.0%")


BIG = json.dumps({"type": "skirmisher", "base": "25mm", "off": 4, "def": 4, "hit": 3, "att": 3})


def test_a_large_melee_shows_its_losses_and_says_it_is_worked_in_double_precision(
    page, live_server
):
    # Issue #44: 30 models of HIT 3 a side is walked in double precision; the answer says
    # so once, and each side's losses show as a chart and a table. Names a player typed
    # stay text and wrap, on a desk and on a phone.
    long_name = "Longname" * 25  # 200 characters, one word
    marked = "<b>BBCode</b>[b]x[/b]"
    SHOTS.mkdir(exist_ok=True)
    for size, shot in ((DESK, "calc-desk.png"), (PHONE, "calc-phone.png")):
        page.set_viewport_size(size)
        page.goto("/rules/gem/fight/")
        page.locator("#id_a_name").fill(long_name)
        page.locator("#id_a_profile").fill(BIG)
        page.locator("#id_a_quantity").fill("30")
        page.locator("#id_b_name").fill(marked)
        page.locator("#id_b_profile").fill(BIG)
        page.locator("#id_b_quantity").fill("30")
        page.locator("#id_a_ranks").fill("1")
        page.get_by_role("button", name="Work it out").click()

        note = page.get_by_test_id("double-precision")
        expect(note).to_have_count(1)
        expect(note).to_contain_text("Worked out in double precision: each chance is within")
        losses = page.get_by_test_id("fight-losses")
        expect(losses.get_by_test_id("losses-table")).to_have_count(2)
        # A row for at most 30 models lost (90 HIT): certain, whatever else happens.
        last_row = losses.get_by_test_id("losses-table").first.locator("tbody tr").last
        expect(last_row).to_have_text(re.compile(r"^\s*30\s*90\s*100\.0%\s*$"))
        charts = losses.locator("svg[role=img]")
        expect(charts).to_have_count(2)
        expect(charts.first.locator("rect.chart-bar")).to_have_count(31)
        expect(charts.first.locator("desc")).to_contain_text("the table beside the chart")
        expect(page.locator("#fight-result h2")).to_contain_text(marked)
        expect(page.get_by_test_id("losses-b").locator("h4")).to_contain_text(marked)
        expect(page.locator("#fight-result b")).to_have_count(0)
        assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
        page.screenshot(path=str(SHOTS / shot), full_page=True)
        # The working says the ranks as a player does.
        page.get_by_test_id("fight-working").locator("summary").click()
        expect(page.get_by_test_id("fight-working")).to_contain_text("1 rank deeper +2")


def test_odds_against_says_to_pick_the_opponent_and_takes_the_keyboard_there(page, live_server):
    owner = UserFactory(username="challenger")
    army = ArmyFactory(owner=owner, file=sample_file("dwarves"))
    log_in(page, "challenger")
    page.set_viewport_size(PHONE)
    page.goto(f"/armies/{army.pk}/roster/")
    card = page.get_by_test_id("roster-unit").filter(has_text="Thane")
    card.get_by_test_id("odds-against").click()

    expect(page).to_have_url(re.compile(r"/rules/vsgmr/fight/\?a_unit=\d+$"))
    prompt = page.get_by_test_id("side-b").get_by_test_id("pick-opponent")
    expect(prompt).to_be_visible()
    expect(prompt).to_contain_text("pick the opponent")
    expect(prompt).to_be_in_viewport()
    # The focus is on side B's first field: the player's own units, on the phone's screen.
    expect(page.locator("#id_b_unit")).to_be_focused()
    expect(page.locator("#id_b_unit")).to_be_in_viewport()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "odds-against-prompt-390.png"), caret="initial")
    # A VSGMR duel is one figure against one: the box says so where it is typed.
    expect(page.locator("#id_b_quantity_helptext")).to_have_text(
        "A duel is one figure against one: quantity is not used"
    )
    page.keyboard.press("Tab")  # on to the share link box, as the keyboard goes
    expect(page.locator("#id_b_share")).to_be_focused()
    page.locator("#id_b_name").fill("Grunt")
    page.locator("#id_b_profile").fill(TROOP)
    page.get_by_role("button", name="Work it out").click()
    # By hand (above): the Thane wins 11/13; the prompt has gone once B is picked.
    expect(page.get_by_test_id("outcome-percent")).to_have_text(["84.6%", "0.0%", "15.4%"])
    expect(page.get_by_test_id("pick-opponent")).to_have_count(0)
