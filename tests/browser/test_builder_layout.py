"""The builder of a big army in a real browser, at desk and phone width: the total and the
editor stay in view while the unit list scrolls, and the list is one line per unit."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PHONE, TROOP, log_in, row_shades
from tests.factories import ArmyFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

# GEM, SPEC 3.2: OFF 4, DEF 4 on a 25 mm base costs 6.5 points.
SWORDSMAN = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}
DESK = {"width": 1280, "height": 800}
# Before issue 19 a 200-unit army was a 28,800 px page of 142 px rows.
OLD_PAGE_PX = 28_800


def _open_builder(page, username: str, viewport: dict | None, profiles: list, **army):
    """A new player's army of `profiles` (VSGMR unless `army` says), open in the builder
    at `viewport` (None: the page's own): the army."""
    made = ArmyFactory(
        owner=UserFactory(username=username), **{"system": "vsgmr", **army}, profiles=profiles
    )
    log_in(page, username)
    if viewport:
        page.set_viewport_size(viewport)
    page.goto(f"/armies/{made.pk}/")
    return made


@pytest.mark.parametrize(("size", "viewport"), [("desk", DESK), ("phone", PHONE)])
def test_opening_unit_120_of_200_keeps_the_editor_and_the_total_in_view(
    page, artifacts, size, viewport
):
    _open_builder(
        page, f"marshal{size}", viewport, [SWORDSMAN] * 200, system="gem", points_limit=1000
    )
    # 200 × 6.5 = 1300 points against a limit of 1000: 300 over, not legal.
    expect(page.get_by_test_id("army-total")).to_have_text("1300")
    expect(page.get_by_test_id("remaining")).to_have_text("-300")
    expect(page.get_by_test_id("legality")).to_have_text("not legal")

    page.get_by_role("link", name="Unit 120", exact=True).click()
    editor = page.locator("#unit-form")
    name = editor.get_by_label("Name", exact=True)
    expect(name).to_have_value("Unit 120")
    expect(name).to_be_in_viewport()
    expect(page.get_by_test_id("army-total")).to_be_in_viewport()
    expect(page.get_by_test_id("legality")).to_be_in_viewport()

    # Typing re-prices while both stay in view: three of unit 120 add 2 × 6.5 = 13.
    editor.get_by_label("Quantity").fill("3")
    expect(page.get_by_test_id("army-total")).to_have_text("1313")
    expect(page.get_by_test_id("army-total")).to_be_in_viewport()
    expect(editor.get_by_label("Quantity")).to_be_in_viewport()
    page.wait_for_load_state("networkidle")  # the save, once typing paused
    # Playwright's caret-hiding style would be copied by htmx's settle and refused by CSP.
    page.screenshot(path=artifacts / f"builder-after-{size}.png", caret="initial")

    if size == "phone":  # from the editor back to the unit's row, the total still on top
        editor.get_by_role("link", name="Back to Unit 120 in the list").click()
        link = page.get_by_role("link", name="Unit 120", exact=True)
        expect(link).to_be_in_viewport()
        expect(page.get_by_test_id("army-total")).to_be_in_viewport()
        bar = page.locator("#army-summary").bounding_box()
        assert link.bounding_box()["y"] >= bar["y"] + bar["height"]  # not under the bar

    # The list scrolled to its very end: the total is still on screen.
    page.get_by_role("link", name="Unit 200", exact=True).scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    expect(page.get_by_test_id("army-total")).to_be_in_viewport()
    if size == "desk":
        expect(name).to_be_in_viewport()

    # One line per unit on a desk; on a phone the name has a line of its own, above the
    # quantity and cost (issue 28: "Her…" told no unit apart). Still a fraction of the page.
    height = page.evaluate("document.documentElement.scrollHeight")
    row = page.get_by_test_id("unit-row").nth(5).bounding_box()
    print(f"{size}: page {height} px, row {row['height']:.0f} px")
    assert row["height"] <= (48 if size == "desk" else 64)
    assert height < OLD_PAGE_PX / (2.5 if size == "desk" else 2)


def test_the_summary_lists_every_error_and_each_opens_its_unit(page):
    # VSGMR: an army needs exactly one commander; both heroes here are commanders.
    commander = {"kind": "guy", "flavor": "hero", "commander": True}
    troop = {"kind": "guy", "flavor": "troop"}
    _open_builder(page, "twocaptains", DESK, [commander, troop, commander])
    issues = page.get_by_test_id("army-issues")
    expect(issues).to_contain_text("Error:")
    links = issues.get_by_test_id("error-link")
    expect(links.first).to_be_visible()
    named = links.first.inner_text()
    links.first.click()
    expect(page.locator("#unit-form").get_by_label("Name", exact=True)).to_have_value(named)
    expect(page.get_by_test_id("unit-row").filter(has_text=named)).to_have_attribute(
        "aria-current", "true"
    )


def test_on_a_phone_a_one_sentence_army_error_shows_whole_in_the_total_bar(page):
    # VSGMR: an army of troops alone has no commander, an error of one sentence. The bar
    # that sticks to the top of a phone's screen holds two lines of errors and scrolls
    # past that; this one fits, without the rule's code (it shows at a desk's width).
    _open_builder(page, "nochief", PHONE, [TROOP, TROOP])
    issues = page.get_by_test_id("army-issues")
    expect(issues).to_contain_text("The army has no commander")
    assert issues.evaluate("box => box.scrollHeight <= box.clientHeight")
    expect(issues.locator("code")).to_be_hidden()
    assert max(_edge_shades(issues)) < 2  # nothing out of sight: no shadow
    page.set_viewport_size(DESK)
    expect(issues.locator("code")).to_have_text("exactly-one-commander")


def _edge_shades(issues) -> tuple[float, float]:
    """How dark the top and bottom 4 rows of pixels of the issues box are, its text hidden
    (through CSSOM, which the page's CSP allows) so that only what is drawn behind it counts."""
    issues.evaluate("box => box.querySelectorAll('*').forEach(e => e.style.visibility = 'hidden')")
    shades = row_shades(issues)
    return sum(shades[:4]) / 4, sum(shades[-4:]) / 4


def test_on_a_phone_a_shadow_says_more_errors_lie_past_the_total_bars_edge(page):
    # VSGMR: three commanders, a trait taken twice and 11 points over a limit of 1: more
    # errors than the bar's two lines hold.
    commander = {"kind": "guy", "flavor": "hero", "commander": True}
    twice = {"kind": "guy", "flavor": "troop", "traits": ["tough", "tough"]}
    _open_builder(page, "shadows", PHONE, [commander, commander, twice, commander], points_limit=1)
    issues = page.get_by_test_id("army-issues")
    expect(issues).to_contain_text("has the Tough trait 2 times")
    # Two whole lines show, none cut through the middle.
    shown, line, full = issues.evaluate(
        "box => [box.clientHeight, parseFloat(getComputedStyle(box).lineHeight), box.scrollHeight]"
    )
    assert shown == 2 * line < full
    top, bottom = _edge_shades(issues)
    assert bottom > 8 > 2 > top, (top, bottom)  # more below: a shadow along the bottom only
    issues.evaluate("box => { box.scrollTop = box.scrollHeight; }")
    top, bottom = _edge_shades(issues)
    assert top > 8 > 2 > bottom, (top, bottom)  # at the end: along the top only


def _rows_named(page):
    return page.get_by_test_id("unit-row").locator(".unit-name")


def test_find_group_count_and_reorder_units_from_the_list(page):
    # VSGMR, SPEC 3.3: a troop guy is 1 point, a hero 2, cavalry 2 (light armour free):
    # 1 + 2 + 2 + 1 = 6.
    troop, hero = {"kind": "guy", "flavor": "troop"}, {"kind": "guy", "flavor": "hero"}
    cavalry = {"kind": "cavalry"}
    army = _open_builder(page, "quartermaster", DESK, [troop, cavalry, hero, troop])
    total = page.get_by_test_id("army-total")
    expect(total).to_have_text("6")
    rows = page.get_by_test_id("unit-row")

    # Find by name.
    page.get_by_label("Find a unit by name").fill("unit 3")
    expect(rows.filter(visible=True)).to_have_count(1)
    expect(page.locator("#unit-filter-count")).to_have_text("1 of 4 units match “unit 3”.")
    page.get_by_label("Find a unit by name").fill("")
    expect(rows.filter(visible=True)).to_have_count(4)

    # Group by kind: guys together, then cavalry, each under a heading with its count.
    page.get_by_label("Group by kind").check()
    expect(page.locator(".unit-group-head")).to_have_text(["Guy (3)", "Cavalry (1)"])
    expect(_rows_named(page)).to_have_text(["Unit 1", "Unit 3", "Unit 4", "Unit 2"])
    page.get_by_label("Group by kind").uncheck()
    expect(_rows_named(page)).to_have_text(["Unit 1", "Unit 2", "Unit 3", "Unit 4"])

    # + and −: each a save; the row, the total and the disabled − at one model follow.
    first = rows.nth(0)
    expect(first.get_by_role("button", name="One fewer Unit 1")).to_be_disabled()
    first.get_by_role("button", name="One more Unit 1").click()
    expect(first.get_by_test_id("unit-quantity")).to_have_text("× 2")
    expect(total).to_have_text("7")
    first.get_by_role("button", name="One more Unit 1").click()
    expect(total).to_have_text("8")
    first.get_by_role("button", name="One fewer Unit 1").click()
    expect(total).to_have_text("7")
    expect(first.get_by_test_id("unit-cost")).to_have_text("2 pts")

    # Move to position with the keyboard: Enter in the box moves the unit.
    fourth = rows.nth(3)
    fourth.get_by_text("More about Unit 4").click()
    fourth.get_by_label("Move to position").fill("1")
    fourth.get_by_label("Move to position").press("Enter")
    expect(_rows_named(page)).to_have_text(["Unit 4", "Unit 1", "Unit 2", "Unit 3"])

    # Drag and drop by the handle: Unit 3 dropped on Unit 1 takes its place (2nd).
    rows.nth(3).locator(".drag-handle").drag_to(rows.nth(1))
    expect(_rows_named(page)).to_have_text(["Unit 4", "Unit 3", "Unit 1", "Unit 2"])
    assert list(army.units.values_list("name", flat=True)) == [
        "Unit 4",
        "Unit 3",
        "Unit 1",
        "Unit 2",
    ]
    expect(page.get_by_text("changed in another tab")).to_have_count(0)


@pytest.mark.databases
def test_a_quantity_button_redraws_the_open_editor_so_its_next_save_keeps_it(page):
    troop = {"kind": "guy", "flavor": "troop"}
    army = _open_builder(page, "sergeant", None, [troop, troop])
    page.get_by_role("link", name="Unit 1", exact=True).click()
    editor = page.locator("#unit-form")
    expect(editor.get_by_label("Quantity")).to_have_value("1")
    page.get_by_role("button", name="One more Unit 1").click()
    expect(editor.get_by_label("Quantity")).to_have_value("2")
    editor.get_by_label("Name", exact=True).fill("Spearmen")
    expect(page.get_by_role("link", name="Spearmen")).to_be_visible()
    # Two spearmen (1 point each) and a troop: 3 points.
    expect(page.get_by_test_id("army-total")).to_have_text("3")
    unit = army.units.get(name="Spearmen")
    assert unit.quantity == 2
