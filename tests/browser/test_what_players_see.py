"""What a player sees, at 1366×900 and 390×844 (issue 28, items 12–18): long names and
names with markup never widen a page, phone rows tell units apart, the share page is a
card a unit, the editor opens clear of the total, the phone shows the rules version, a
dead share link explains itself, the quick reference and the GEM cards read cleanly."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from armies import services
from rules import catalog
from rules.catalog import SAMPLES
from rules.models import SampleArmy
from tests.browser.helpers import (
    DESK,
    LONG,
    MARKUP,
    PHONE,
    log_in,
    named_army,
    page_width,
    start_blank_unit,
)
from tests.factories import ArmyFactory, LibraryEntryFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

# Screenshots to look at (COMMON.md: /tmp/<branch>-shots/).
SHOTS = Path(tempfile.gettempdir()) / "ui-shots"
SIZES = [pytest.param(DESK, id="desk"), pytest.param(PHONE, id="phone")]
SKIRMISHER = {"type": "skirmisher", "base": "25mm", "def": 3}


def shot(page, name: str, viewport: dict, full_page: bool = True) -> None:
    SHOTS.mkdir(exist_ok=True)
    # Playwright's caret-hiding style would be copied by htmx's settle and refused by CSP.
    page.screenshot(
        path=SHOTS / f"{name}-{viewport['width']}.png", full_page=full_page, caret="initial"
    )


# ----------------------------------------------------------------- 12: long names


@pytest.mark.parametrize("viewport", SIZES)
def test_a_200_character_name_keeps_the_builder_and_a_game_on_the_screen(page, viewport):
    # Every main page with these names, at both sizes, is checked in test_pages_valid.py:
    # none wider than the screen.
    owner = UserFactory(username="longnames")
    gem = named_army(owner, "gem")
    first = gem.units.order_by("position").first()
    page.set_viewport_size(viewport)
    log_in(page, "longnames")
    # Table mode with a game under way: a card a unit, each headed by its name.
    page.goto(f"/armies/{gem.pk}/play/")
    page.get_by_role("button", name="Start a game").click()
    expect(page.get_by_role("heading", name=LONG)).to_be_visible()
    shot(page, "i12-gem-play-game", viewport)
    assert page_width(page) <= viewport["width"]

    # The builder: total, editor and every row's controls stay on the screen; a row
    # cut short keeps the whole name for the pointer (title) and for screen readers.
    page.goto(f"/armies/{gem.pk}/?unit={first.pk}")
    right = viewport["width"]
    for testid in ("army-total", "legality"):
        box = page.get_by_test_id(testid).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= right, testid
    name_field = page.locator("#unit-form").get_by_label("Name", exact=True)
    expect(name_field).to_have_value(LONG)
    box = name_field.bounding_box()
    assert box["x"] + box["width"] <= right
    rows = page.get_by_test_id("unit-row")
    for i in range(rows.count()):
        row = rows.nth(i)
        for part in (row.get_by_test_id("unit-cost"), row.locator(".unit-more > summary")):
            box = part.bounding_box()
            assert box["x"] + box["width"] <= right, (i, box)
    link = rows.first.locator(".unit-name")
    expect(link).to_have_attribute("title", LONG)
    expect(link).to_have_accessible_name(LONG)
    # Markup in a name is shown as typed, never obeyed.
    expect(rows.nth(1).locator(".unit-name")).to_have_text(MARKUP)
    assert page.locator("#unit-list b").count() == 0
    shot(page, "i12-builder", viewport, full_page=False)


# ------------------------------------------------------------- 13: phone unit rows


def test_phone_rows_show_enough_of_each_name_to_tell_units_apart(page):
    owner = UserFactory(username="phonerows")
    hero = {"kind": "guy", "flavor": "hero", "commander": True}
    army = ArmyFactory(
        owner=owner, system="vsgmr", profiles=[hero, hero, {"kind": "guy", "flavor": "troop"}]
    )
    names = ["Hero of the Day", "Hero of the Day (copy)", LONG]
    for unit, name in zip(army.units.order_by("position"), names, strict=True):
        services.save_unit(army, unit.pk, services.UnitSpec(name, 1, unit.profile), None)
    page.set_viewport_size(PHONE)
    log_in(page, "phonerows")
    page.goto(f"/armies/{army.pk}/")
    shot(page, "i13-phone-rows", PHONE)

    shown = []
    for i in range(3):
        link = page.get_by_test_id("unit-row").nth(i).locator(".unit-name")
        clipped = link.evaluate(
            "e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1"
        )
        shown.append((link.inner_text(), clipped))
    # The two heroes are shown whole; only the 200-character name is cut (at two lines).
    assert shown[0] == ("Hero of the Day", False)
    assert shown[1] == ("Hero of the Day (copy)", False)
    assert shown[2][1] is True
    long_box = page.get_by_test_id("unit-row").nth(2).locator(".unit-name").bounding_box()
    line = page.get_by_test_id("unit-row").nth(0).locator(".unit-name").bounding_box()
    assert long_box["height"] <= 2 * line["height"] + 1  # two lines at most
    # Neither the page nor the list scrolls sideways.
    assert page_width(page) <= PHONE["width"]
    assert page.evaluate(
        "(() => { const l = document.getElementById('unit-list');"
        " return l.scrollWidth <= l.clientWidth; })()"
    )

    # The list of armies does not scroll sideways either, its table included.
    for sample in SAMPLES[:3]:
        ArmyFactory(owner=owner, file=sample.army())
    page.goto("/armies/")
    shot(page, "i13-army-list", PHONE)
    assert page_width(page) <= PHONE["width"]
    table = page.locator(".table-responsive")
    assert table.evaluate("t => t.scrollWidth <= t.clientWidth"), table.evaluate(
        "t => [t.scrollWidth, t.clientWidth]"
    )


# -------------------------------------------------------------- 14: the share page


@pytest.mark.parametrize("viewport", SIZES)
def test_the_share_page_is_a_clean_card_a_unit(page, viewport):
    owner = UserFactory(username="sharecards")
    bolter = {"name": "Homebrew Bolter", "off": 5, "range": 24}
    archer = {"type": "skirmisher", "base": "25mm", "off": 3, "def": 3, "missile": [bolter]}
    block = {"type": "block", "base": "20mm", "off": 3, "att": 3, "def": 4, "hit": 9}
    army = ArmyFactory(owner=owner, system="gem", profiles=[archer, block, archer])
    token = services.share_army(army)
    page.set_viewport_size(viewport)
    page.goto(f"/s/{token}/")
    shot(page, "i14-share", viewport)

    cards = page.get_by_test_id("unit-row")
    assert cards.count() == 3
    costs = []
    for i in range(3):
        card = cards.nth(i)
        name = card.locator(".unit-name").bounding_box()
        cost = card.get_by_test_id("unit-cost").bounding_box()
        profile = card.get_by_test_id("unit-profile").bounding_box()
        how = card.locator("summary").first.bounding_box()
        odds = card.get_by_test_id("unit-odds").bounding_box()
        # The cost is never run into what follows: the profile starts below it.
        assert profile["y"] >= cost["y"] + cost["height"], i
        assert cost["x"] >= name["x"] + name["width"] or cost["y"] >= name["y"] + name["height"]
        # "how?" and "Odds on Table 1" are on lines of their own.
        assert how["y"] >= odds["y"] + odds["height"] or odds["y"] >= how["y"] + how["height"]
        # Both odds links start at the same edge, one under the other.
        against = card.get_by_test_id("odds-against").bounding_box()
        assert abs(against["x"] - odds["x"]) <= 1 and against["y"] >= odds["y"] + odds["height"]
        costs.append(cost["x"] + cost["width"])
    # The costs line up on the cards' right edge.
    assert max(costs) - min(costs) <= 1
    # Read as text, every figure is apart from the words beside it.
    text = cards.nth(0).inner_text()
    assert re.search(r"pts\S", text) is None, text
    assert "how?Odds" not in text and "pts\nHomebrew" not in text.replace(" ", "")
    assert page_width(page) <= viewport["width"]
    # The army's warning is there to read in full: no line of it scrolled out of sight.
    issues = page.get_by_test_id("army-issues")
    expect(issues).to_contain_text("out of range")
    assert issues.evaluate("box => box.scrollHeight <= box.clientHeight")


# ------------------------------------------- 15: a new unit's editor clear of the total


@pytest.mark.parametrize("viewport", SIZES)
def test_after_add_unit_the_editors_top_is_below_the_total(page, viewport):
    catalog.load_samples(SampleArmy)  # the picker's figures: a test before may have flushed them
    owner = UserFactory(username="adder")
    swordsman = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}
    # Over its limit: the total carries an error and a warning, and stands taller.
    army = ArmyFactory(owner=owner, system="gem", profiles=[swordsman] * 12, points_limit=10)
    LibraryEntryFactory(owner=owner, system="gem", name="Spare archer", data=swordsman)
    page.set_viewport_size(viewport)
    log_in(page, "adder")

    def editor_top_is_clear(how: str) -> None:
        title = page.locator("#unit-form .card-header")
        expect(title).to_be_visible()
        page.wait_for_load_state("load")
        page.wait_for_timeout(200)  # the scroll after load
        shot(page, f"i15-{how}", viewport, full_page=False)
        summary = page.locator("#army-summary").bounding_box()
        top = title.bounding_box()
        assert top["y"] >= summary["y"] + summary["height"] - 1, (how, top, summary)
        assert top["y"] + top["height"] <= viewport["height"], (how, top)
        label = page.locator("#unit-form").get_by_text("Name", exact=True).first.bounding_box()
        assert label["y"] >= summary["y"] + summary["height"] - 1, (how, label, summary)

    page.goto(f"/armies/{army.pk}/")
    start_blank_unit(page)
    expect(page.locator("#unit-form").get_by_label("Name", exact=True)).to_have_value(
        re.compile(".+")
    )
    editor_top_is_clear("start-blank")

    page.goto(f"/armies/{army.pk}/")
    page.get_by_role("link", name="Add unit").click()
    picker = page.get_by_test_id("unit-picker")
    picker.get_by_label("Find a figure").fill("archer rules")
    archer = picker.get_by_test_id("pick-choice").filter(has_text="Rules example")
    expect(archer).to_have_count(1)
    expect(page.get_by_test_id("picker-count")).to_contain_text("archer rules")
    page.wait_for_load_state("networkidle")  # the search's answer is in
    archer.get_by_role("button", name="Add Archer").click()
    expect(page.locator("#unit-form").get_by_label("Name", exact=True)).to_have_value("Archer")
    editor_top_is_clear("picker")

    page.goto(f"/armies/{army.pk}/")
    page.get_by_role("button", name="Add copy").click()
    expect(page.locator("#unit-form").get_by_label("Name", exact=True)).to_have_value(
        "Spare archer"
    )
    editor_top_is_clear("add-copy")


# ------------------------------------------------- 16: the phone shows the rules version


def test_the_phone_builder_shows_the_rules_version(page):
    owner = UserFactory(username="versions")
    army = ArmyFactory(owner=owner, system="gem", profiles=[{**SKIRMISHER, "off": 4, "def": 4}])
    page.set_viewport_size(PHONE)
    log_in(page, "versions")
    page.goto(f"/armies/{army.pk}/")
    version = page.get_by_test_id("rules-version")
    expect(version).to_be_visible()
    expect(version).to_contain_text(f"rules {army.rules_version}")
    shot(page, "i16-phone-builder", PHONE, full_page=False)


# ------------------------------------------------------- 17: a dead share link explains


@pytest.mark.parametrize("viewport", SIZES)
def test_a_revoked_or_unknown_share_link_says_what_happened(refusing_page, viewport):
    # The dead link answers 404, which the browser logs: refusing_page collects no console.
    page = refusing_page
    owner = UserFactory(username="revoker")
    army = ArmyFactory(
        owner=owner, system="vsgmr", profiles=[{"kind": "guy", "flavor": "hero", "commander": True}]
    )
    old = services.share_army(army)
    services.unshare_army(army)
    page.set_viewport_size(viewport)
    for name, url in (("revoked", f"/s/{old}/"), ("unknown", "/s/no-such-link/roster/")):
        response = page.goto(url)
        assert response.status == 404, url
        heading = page.get_by_role("heading", level=1)
        expect(heading).to_contain_text("link")
        body = page.locator("main")
        expect(body).to_contain_text("turned the link off")
        expect(body).to_contain_text("renewed")
        expect(body).to_contain_text("send you a new one")
        expect(page.get_by_role("link", name="Go to Muster's home page")).to_be_visible()
        expect(page.get_by_text("Not Found", exact=True)).to_have_count(0)
        shot(page, f"i17-{name}", viewport)
        assert page_width(page) <= viewport["width"]


# ------------------------------------------- 18: the quick reference and the GEM cards


def _overlaps(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


@pytest.mark.parametrize("viewport", SIZES)
def test_the_gem_quick_reference_reads_cleanly(page, viewport):
    page.set_viewport_size(viewport)
    page.goto("/print/gem/quick-reference/")
    shot(page, "i18-quick-reference", viewport)
    reference = page.get_by_test_id("quick-reference")
    table_1 = reference.locator("table.table-1").bounding_box()
    for heading in ("Army checks", "Points for a figure"):
        section = reference.locator("section").filter(has=page.get_by_role("heading", name=heading))
        assert not _overlaps(table_1, section.bounding_box()), heading
    fire = reference.get_by_text(re.compile("^Fire divisor")).bounding_box()
    assert not _overlaps(table_1, fire)
    # Every table is whole inside the sheet: none clipped, none past the screen.
    sheet = reference.bounding_box()
    for i in range(reference.locator("table").count()):
        box = reference.locator("table").nth(i).bounding_box()
        assert box["x"] >= sheet["x"] and box["x"] + box["width"] <= sheet["x"] + sheet["width"]
    assert page_width(page) <= viewport["width"]


@pytest.mark.parametrize("viewport", SIZES)
def test_gem_unit_cards_keep_their_headings_whole(page, viewport):
    owner = UserFactory(username="cardsgem")
    army = named_army(owner, "gem")
    sample = next(s for s in SAMPLES if s.system == "gem")
    plain = ArmyFactory(owner=owner, file=sample.army())
    page.set_viewport_size(viewport)
    log_in(page, "cardsgem")
    for label, one in (("plain", plain), ("long-names", army)):
        page.goto(f"/armies/{one.pk}/cards/")
        shot(page, f"i18-gem-cards-{label}", viewport)
        # A heading of one word (OFF, ATT, RANGE, HEAVY...) is drawn on one line.
        broken = page.evaluate(
            """() => [...document.querySelectorAll('.cards thead th')]
                .filter(th => /^\\S+$/.test(th.textContent.trim()))
                .filter(th => { const r = document.createRange(); r.selectNodeContents(th);
                                return r.getClientRects().length > 1; })
                .map(th => th.textContent.trim())"""
        )
        assert broken == [], (label, broken)
        assert page_width(page) <= viewport["width"]


@pytest.mark.parametrize("viewport", SIZES)
def test_a_200_character_unit_name_takes_the_cards_width_on_the_roster_and_cards(page, viewport):
    # The name once shared its line with the cost and "Odds against": on a phone's roster
    # or a poker card it was squeezed into a column a word wide, 14 to 18 lines tall. A
    # name too long for the line now has the line, and the cost goes below it, on the
    # right; a short name keeps its cost beside it.
    owner = UserFactory(username="cardnames")
    army = named_army(owner, "gem")  # unit 1 is named LONG, unit 2 MARKUP (short)
    page.set_viewport_size(viewport)
    log_in(page, "cardnames")
    for where in ("roster", "cards"):
        page.goto(f"/armies/{army.pk}/{where}/")
        shot(page, f"long-unit-name-{where}", viewport)
        cards = page.get_by_test_id("roster-unit")
        head = cards.first.locator(".unit-head").bounding_box()
        name = cards.first.get_by_role("heading", name=LONG).bounding_box()
        cost = cards.first.get_by_test_id("unit-cost").bounding_box()
        assert name["width"] >= 0.75 * head["width"], (where, name, head)
        assert cost["y"] >= name["y"] + name["height"] - 2, (where, cost, name)
        assert cost["x"] + cost["width"] > head["x"] + head["width"] * 0.6, (where, cost, head)
        short = cards.nth(1).get_by_role("heading", name=MARKUP).bounding_box()
        beside = cards.nth(1).get_by_test_id("unit-cost").bounding_box()
        assert abs(beside["y"] - short["y"]) < short["height"], (where, beside, short)


@pytest.mark.parametrize("viewport", SIZES)
def test_a_message_quoting_a_200_character_name_stays_inside_its_box(page, viewport):
    # "<name> is ready: add your first unit." after New army: the name breaks inside the
    # message box instead of running out of it (the page itself does not widen either).
    UserFactory(username="newcomer")
    page.set_viewport_size(viewport)
    log_in(page, "newcomer")
    page.goto("/armies/new/")
    name = f"{MARKUP} {LONG}"[:200]  # as long as a name may be
    page.get_by_label("Name").first.fill(name)
    page.get_by_role("button", name="Create army").click()

    message = page.get_by_role("alert").filter(has_text="is ready")
    expect(message).to_contain_text(name)
    shot(page, "message-long-name", viewport, full_page=False)
    assert message.evaluate("e => e.scrollWidth <= e.clientWidth"), message.evaluate(
        "e => [e.scrollWidth, e.clientWidth]"
    )
    assert page_width(page) <= viewport["width"]
