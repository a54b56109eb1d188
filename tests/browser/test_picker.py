"""Issue 19, item 3 in a browser: Add unit opens a picker; a figure's price is shown
before it is added and is what the unit costs once it is in the army."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from armies.models import Army
from rules import catalog
from rules.models import SampleArmy
from tests.browser.helpers import PHONE, log_in, page_width
from tests.factories import DEFAULT_PASSWORD, ArmyFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def samples():
    """The sample armies, as migrations load them: a transactional test before this one
    may have flushed them."""
    catalog.load_samples(SampleArmy)


def saved(unit, read, expected, tries: int = 100):
    """What `read` finds on the stored unit once the editor's saves are in (or at last)."""
    for _ in range(tries):
        unit.refresh_from_db()
        if read(unit) == expected:
            break
        time.sleep(0.05)
    return read(unit)


def test_adding_a_catalog_figure_costs_what_the_picker_showed(page, artifacts):
    player = UserFactory(username="picker")
    army = ArmyFactory(owner=player, system="gem", profiles=[], name="Warband")
    log_in(page, "picker")
    page.goto(f"/armies/{army.pk}/")

    page.get_by_role("link", name="Add unit").click()
    picker = page.get_by_test_id("unit-picker")
    expect(picker.get_by_label("Find a figure")).to_be_focused()
    picker.get_by_label("Find a figure").fill("archer rules")
    archer = picker.get_by_test_id("pick-choice").filter(has_text="Rules example")
    expect(archer).to_have_count(1)
    # SPEC 3.2's Archer, by hand: 25mm skirmisher, OFF 3, DEF 3, bow OFF 4 range 24.
    # M = 4 × 1 × 24 / 4 = 24; O = 3 + 24 = 27; D = 3; B = 3 + 27 + 81/16 + 1/18 = 35.118…
    # V = B × 9/10 (25mm) × 4/5 (skirmisher) = 25.285 → 25.3 points.
    expect(archer.get_by_test_id("pick-cost")).to_have_text("25.3 pts")
    expect(archer.get_by_test_id("unit-weapons")).to_contain_text("Bow")
    page.screenshot(path=str(artifacts / "i19-picker-desk.png"), full_page=True, caret="initial")

    archer.get_by_role("button", name="Add Archer").click()
    row = page.get_by_test_id("unit-row").filter(has_text="Archer")
    expect(row.get_by_test_id("unit-cost")).to_have_text("25.3 pts")
    expect(page.get_by_test_id("army-total")).to_have_text("25.3")
    expect(page.locator("#unit-form").get_by_label("Name", exact=True)).to_have_value("Archer")
    unit = Army.objects.get(pk=army.pk).units.get()
    assert (unit.name, unit.cost, unit.profile["missile"][0]["name"]) == ("Archer", "25.3", "Bow")


def test_the_picker_works_on_a_phone_and_without_javascript(own_context, artifacts):
    player = UserFactory(username="nojs")
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[], name="Hold")
    context = own_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("nojs")
    page.locator("#id_password").fill(DEFAULT_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"/armies/{army.pk}/")
    page.get_by_role("link", name="Add unit").click()
    assert page.url.endswith(f"/armies/{army.pk}/units/pick/")
    page.get_by_label("Find a figure").fill("guards")
    page.get_by_role("button", name="Search").click()
    guards = page.get_by_test_id("pick-choice").filter(has_text="Sample: Dwarves")
    # Dwarves' Guards by hand (SPEC 3.3): hero 2 + heavy armour 2 + Tough 2 = 6, × 3.
    expect(guards.get_by_test_id("pick-cost")).to_have_text("3 × 6 = 18 pts")
    assert page_width(page) <= 390
    page.screenshot(path=str(artifacts / "i19-picker-phone-nojs.png"), full_page=True)
    guards.get_by_role("button", name="Add Guards").click()
    expect(page.get_by_test_id("army-total")).to_have_text("18")
    assert Army.objects.get(pk=army.pk).units.get().quantity == 3


def test_a_d10_weapon_picked_from_the_table_reaches_the_roster_with_its_stats(page, artifacts):
    player = UserFactory(username="gunner")
    army = ArmyFactory(owner=player, system="d10", profiles=[{}], name="Squad")
    unit = Army.objects.get(pk=army.pk).units.get()
    log_in(page, "gunner")
    page.goto(f"/armies/{army.pk}/?unit={unit.pk}")
    editor = page.locator("#unit-form")
    editor.get_by_label("Add a weapon from the table").select_option("SAW/LSW")
    box = editor.get_by_label("Weapons", exact=True)
    expect(box).to_have_value("SAW/LSW")
    expect(editor.get_by_label("Add a weapon from the table")).to_have_value("")
    editor.get_by_label("Add a weapon from the table").select_option("Pistol (9mm)")
    expect(box).to_have_value("SAW/LSW\nPistol (9mm)")
    # Saved as typed: once each, in the order picked.
    stored = saved(unit, lambda u: u.profile.get("weapons"), ["SAW/LSW", "Pistol (9mm)"])
    assert stored == ["SAW/LSW", "Pistol (9mm)"]
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    # caret="initial": Playwright's caret-hiding style would be copied by an htmx settle.
    page.locator("#editor").screenshot(
        path=str(artifacts / "i19-editor-d10-weapons.png"), caret="initial"
    )

    page.goto(f"/armies/{army.pk}/roster/")
    saw = page.locator("tr").filter(has_text="SAW/LSW")
    # The seed's SAW/LSW: 24 inches, no long range, 4 auto, damage 5, Auto and Bulky.
    expect(saw).to_contain_text("24/-")
    expect(saw).to_contain_text("Bulky")


def test_a_gem_weapon_picked_by_name_brings_its_stats(page):
    player = UserFactory(username="gem-gunner")
    army = ArmyFactory(
        owner=player,
        system="gem",
        profiles=[{"type": "vehicle", "base": "huge", "def": 9, "max_speed": 8}],
    )
    unit = Army.objects.get(pk=army.pk).units.get()
    log_in(page, "gem-gunner")
    page.goto(f"/armies/{army.pk}/?unit={unit.pk}")
    editor = page.locator("#unit-form")
    editor.get_by_label("Missile weapons row 1: Name").fill("Cannon")
    expect(editor.get_by_label("Missile weapons row 1: OFF")).to_have_value("9")
    expect(editor.get_by_label("Missile weapons row 1: Range")).to_have_value("48")
    expect(editor.get_by_label("Missile weapons row 1: Radius")).to_have_value("2")
    expect(editor.get_by_label("Missile weapons row 1: Fires")).to_have_value("every-other-turn")
    expect(editor.locator("[name=missile-0-heavy]")).to_be_checked()
    cannon = {
        "name": "Cannon",
        "off": 9,
        "att": 1,
        "range": 48,
        "radius": 2,
        "fire": "every-other-turn",
        "heavy": True,
    }
    assert saved(unit, lambda u: u.profile.get("missile"), [cannon]) == [cannon]
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
