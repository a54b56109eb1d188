from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import TROOP, log_in, start_blank_unit
from tests.factories import ArmyFactory, UserFactory
from tests.helpers import rename_units

pytestmark = pytest.mark.django_db(transaction=True)


def add_unit(
    page, name: str, *, flavor: str, quantity: int = 1, armour: str = "", commander=False, traits=()
):
    start_blank_unit(page)
    editor = page.locator("#unit-form")
    # The new unit opens once the saves still on their way are in: type into it, as a
    # player would, not into the unit before it.
    expect(editor.get_by_label("Name", exact=True)).to_have_value("New unit")
    editor.get_by_label("Name", exact=True).fill(name)
    editor.get_by_label("Quantity").fill(str(quantity))
    editor.get_by_label("Flavour").select_option(flavor)
    if armour:
        editor.get_by_label("Armour", exact=True).select_option(armour)
    if commander:
        editor.get_by_label("Commander").check()
    for trait in traits:
        editor.get_by_label(trait).check()
    # The unit list re-prices through htmx as the player types: wait for this unit's row.
    expect(page.locator("#unit-list").get_by_role("link", name=name)).to_be_visible()


def test_player_builds_the_dwarves_by_hand_then_breaks_a_rule(page):
    UserFactory(username="thane")
    log_in(page, "thane")
    page.goto("/armies/new/")
    page.get_by_role("textbox", name="Name").fill("Dwarves")
    page.get_by_label("System").select_option("vsgmr")
    page.get_by_label("Points limit").fill("30")
    page.get_by_role("button", name="Create army").click()

    # VSGMR section VII: Dwarves, 28 points.
    add_unit(page, "Thane", flavor="hero", commander=True, traits=["Tough (+2)"])
    add_unit(page, "Runepriest", flavor="hero", traits=["Inspiration (+2)", "Tough (+2)"])
    add_unit(page, "Guards", flavor="hero", quantity=3, armour="heavy", traits=["Tough (+2)"])
    expect(page.get_by_test_id("army-total")).to_have_text("28")
    expect(page.get_by_test_id("remaining")).to_have_text("2")
    expect(page.get_by_test_id("legality")).to_have_text("legal")

    # Automatic fire without a distance attack breaks a rule: the error sits on the Guards.
    page.locator("#unit-form").get_by_label("Automatic fire").check()
    guards = page.get_by_test_id("unit-row").filter(has_text="Guards")
    expect(guards.get_by_test_id("unit-issues")).to_contain_text("Error")
    expect(page.get_by_test_id("legality")).to_have_text("not legal")
    thane = page.get_by_test_id("unit-row").filter(has_text="Thane")
    expect(thane.get_by_test_id("unit-issues")).to_have_count(0)
    # The focus stays in the editor: nothing was reloaded under the player's hands.
    expect(page.locator("#unit-form").get_by_label("Automatic fire")).to_be_focused()


def test_editor_shows_a_bad_stat_beside_its_field_without_losing_what_was_typed(page):
    UserFactory(username="general")
    log_in(page, "general")
    page.goto("/armies/new/")
    page.get_by_role("textbox", name="Name").fill("Warband")
    page.get_by_label("System").select_option("gem")
    page.get_by_role("button", name="Create army").click()
    start_blank_unit(page)
    editor = page.locator("#unit-form")
    editor.get_by_label("OFF", exact=True).fill("14")
    expect(page.locator("#fb-off")).to_have_text("must be between 1 and 10")
    expect(editor.get_by_label("OFF", exact=True)).to_have_value("14")
    expect(editor.get_by_label("OFF", exact=True)).to_be_focused()
    editor.get_by_label("OFF", exact=True).fill("4")
    editor.get_by_label("DEF", exact=True).fill("4")
    # The Swordsman of SPEC 3.2: skirmisher, 25mm, OFF 4, DEF 4 -> 6.5 points.
    expect(page.get_by_test_id("army-total")).to_have_text("6.5")
    expect(page.locator("#fb-off")).to_have_text("")


def test_what_is_typed_before_the_page_is_ready_is_saved_once_it_is(page):
    # On a slow network the editor shows (and takes typing) before the scripts that save
    # it have arrived: what was typed then is saved as soon as they run, not left in the
    # field to vanish with the page, and the field typed in keeps the focus.
    army = ArmyFactory(owner=UserFactory(username="slow"), system="vsgmr", profiles=[TROOP])
    unit = army.units.get()
    log_in(page, "slow")
    held = []
    # Only this first load's script is held: the reloads below fetch it at once.
    page.route("**/js/builder*.js", lambda route: route.continue_() if held else held.append(route))
    page.goto(f"/armies/{army.pk}/?unit={unit.pk}#editor", wait_until="commit")
    editor = page.locator("#unit-form")
    editor.get_by_label("Name", exact=True).fill("Scouts")
    editor.get_by_label("Quantity").fill("0")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    held[0].continue_()
    expect(page.locator("#fb-quantity")).to_contain_text("Type 1 or more")
    expect(editor.get_by_label("Quantity")).to_be_focused()
    editor.get_by_label("Quantity").fill("3")
    expect(page.locator("#unit-list").get_by_role("link", name="Scouts")).to_be_visible()
    page.reload()
    expect(editor.get_by_label("Name", exact=True)).to_have_value("Scouts")
    expect(editor.get_by_label("Quantity")).to_have_value("3")
    # A page loaded as it was saved sends nothing: the fields hold what it brought.
    sent = []
    page.on("request", lambda request: request.method == "POST" and sent.append(request.url))
    page.reload()
    page.wait_for_timeout(500)  # a save would be on its way by now (it went within 0.1 s)
    assert sent == []


def test_going_back_to_the_builder_never_sends_older_values_over_newer_ones(page):
    # The player renames a unit and leaves; another tab renames it again; Back shows the
    # builder as the server has it now, and sends nothing (nothing typed there since).
    army = ArmyFactory(owner=UserFactory(username="back"), system="vsgmr", profiles=[TROOP])
    unit = army.units.get()
    log_in(page, "back")
    page.goto(f"/armies/{army.pk}/?unit={unit.pk}#editor")
    name = page.locator("#unit-form").get_by_label("Name", exact=True)
    name.fill("Scouts")
    expect(page.locator("#unit-list").get_by_role("link", name="Scouts")).to_be_visible()
    page.get_by_role("link", name="Roster sheet (print)").click()
    expect(page).to_have_url(re.compile("/roster/"))
    rename_units(army, {"Scouts": "Rangers"})
    sent = []
    page.on("request", lambda request: request.method == "POST" and sent.append(request.url))
    page.go_back()
    expect(name).to_have_value("Rangers")
    page.wait_for_timeout(500)  # a save would be on its way by now
    assert sent == []
    unit.refresh_from_db()
    assert unit.name == "Rangers"
