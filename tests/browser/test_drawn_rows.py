"""Rows and cards are stored as drawn, without their place in the list: in a real browser
the first row still cannot move up nor the last down, the open unit's row is marked and
carries its actions, and the roster numbers its cards in list order."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armies import services
from tests.browser.helpers import log_in
from tests.factories import ArmyFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.databases]

SWORDSMAN = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}
LONG = "Very long name " * 13 + "end"  # 200 characters
TRICKY = "<b>Bold</b> [b]bb[/b] & <script>x</script>"


def army_of(username: str, names: list[str]):
    army = ArmyFactory(owner=UserFactory(username=username), system="gem", profiles=[SWORDSMAN])
    first = army.units.get()
    services.save_unit(army, first.pk, services.UnitSpec(names[0], 1, SWORDSMAN), None)
    services.add_units(army, [services.UnitSpec(n, 1, SWORDSMAN) for n in names[1:]])
    return army


def test_first_row_cannot_move_up_nor_last_down_and_the_open_unit_carries_its_actions(
    page, artifacts
):
    army = army_of("drawer", ["Unit 1", LONG, TRICKY])
    log_in(page, "drawer")
    page.goto(f"/armies/{army.pk}/")
    rows = page.get_by_test_id("unit-row")
    for i in range(3):
        rows.nth(i).locator(".unit-more > summary").click()
    expect(rows.nth(0).get_by_role("button", name="Move Unit 1 down")).to_be_visible()
    expect(rows.nth(0).get_by_role("button", name="Move Unit 1 up")).to_be_hidden()
    expect(rows.nth(1).get_by_role("button", name=f"Move {LONG} up")).to_be_visible()
    expect(rows.nth(1).get_by_role("button", name=f"Move {LONG} down")).to_be_visible()
    expect(rows.nth(2).get_by_role("button", name=f"Move {TRICKY} down")).to_be_hidden()
    expect(rows.nth(2).locator(".unit-name")).to_have_text(TRICKY)  # escaped, not markup

    # After a move the old first row is second: it may move up now.
    rows.nth(2).get_by_role("button", name=f"Move {TRICKY} up").click()
    expect(rows.locator(".unit-name")).to_have_text(["Unit 1", TRICKY, LONG])
    rows.nth(0).locator(".unit-more > summary").click()
    expect(rows.nth(0).get_by_role("button", name="Duplicate")).to_be_visible()
    expect(rows.nth(0).get_by_role("button", name="Move Unit 1 up")).to_be_hidden()

    # The unit open in the editor: its row is marked, and its actions are there at once.
    unit = army.units.get(name=LONG)
    page.goto(f"/armies/{army.pk}/?unit={unit.pk}")
    row = page.locator(f"#unit-{unit.pk}")
    expect(row).to_have_class("list-group-item unit-row active-unit")
    expect(row.locator(".unit-actions")).to_have_count(1)
    for width, height in ((1366, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        row.locator(".unit-more > summary").click()
        row.scroll_into_view_if_needed()
        page.screenshot(path=artifacts / f"builder-open-{width}.png", full_page=True)
        row.locator(".unit-more > summary").click()


def test_roster_cards_are_numbered_in_list_order(page, artifacts):
    army = army_of("sheeter", ["Unit 1", LONG, TRICKY])
    log_in(page, "sheeter")
    page.goto(f"/armies/{army.pk}/roster/")
    numbers = page.locator(".unit-number")
    expect(numbers).to_have_count(3)
    shown = numbers.evaluate_all("els => els.map(e => getComputedStyle(e, '::before').content)")
    assert shown == ["counter(unit)"] * 3
    # The counter counts the cards as they come: the card of the third unit is third.
    order = page.locator(".unit h2").all_inner_texts()
    assert order == ["Unit 1", LONG, TRICKY]
    for width, height in ((1366, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=artifacts / f"roster-{width}.png", full_page=True)
