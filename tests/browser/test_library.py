"""The homebrew library in a browser: an entry edited in two tabs is never silently
overwritten, nor deleted from a page drawn before the edit."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armies.models import LibraryEntry
from tests.browser.helpers import PHONE, log_in, start_blank_unit
from tests.factories import ArmyFactory, LibraryEntryFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_entry_saved_in_one_tab_is_not_overwritten_from_another(refusing_page, artifacts):
    # The refused save answers 409, which the browser logs as a failed load.
    page = refusing_page
    owner = UserFactory(username="brewer")
    entry = LibraryEntryFactory(owner=owner, kind="trait", name="Brave", data={"cost": 1})
    log_in(page, "brewer")
    other = page.context.new_page()
    for tab in (page, other):
        tab.goto(f"/library/{entry.pk}/")
    page.get_by_label("Name").fill("Fearless")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Saved Fearless")).to_be_visible()

    other.get_by_label("Name").fill("Bold")
    other.get_by_role("button", name="Save").click()
    refused = other.locator("#fb-all")
    expect(refused).to_contain_text("changed in another tab or device")
    expect(refused).to_contain_text("it is called Fearless now")
    expect(other.get_by_label("Name")).to_have_value("Bold")  # what was typed, kept
    assert LibraryEntry.objects.get(pk=entry.pk).name == "Fearless"
    other.set_viewport_size(PHONE)
    other.screenshot(path=artifacts / "library-refused-as-stale.png", full_page=True)

    # The player means it: saving again replaces the entry.
    other.get_by_role("button", name="Save").click()
    expect(other.get_by_text("Saved Bold")).to_be_visible()
    assert LibraryEntry.objects.get(pk=entry.pk).name == "Bold"


def test_a_delete_clicked_on_a_list_older_than_an_edit_keeps_the_edit(page, artifacts):
    owner = UserFactory(username="brewer")
    entry = LibraryEntryFactory(owner=owner, kind="trait", name="Brave", data={"cost": 1})
    log_in(page, "brewer")
    page.goto("/library/")
    other = page.context.new_page()
    other.goto(f"/library/{entry.pk}/")
    other.get_by_label("Name").fill("Fearless")
    other.get_by_role("button", name="Save").click()
    expect(other.get_by_text("Saved Fearless")).to_be_visible()

    # The first tab's list still shows Brave; its Delete does not take the edit with it.
    page.get_by_role("button", name="Delete Brave").click()
    expect(page.get_by_role("alert")).to_contain_text("Not deleted")
    expect(page.get_by_role("alert")).to_contain_text("it is called Fearless now")
    assert LibraryEntry.objects.get(pk=entry.pk).name == "Fearless"
    page.set_viewport_size(PHONE)
    page.screenshot(path=artifacts / "library-delete-refused-as-stale.png", full_page=True)

    # The list is drawn afresh: the player means it, and the entry goes.
    page.get_by_role("button", name="Delete Fearless").click()
    expect(page.get_by_role("alert")).to_contain_text("Removed Fearless from your library.")
    expect(page.get_by_test_id("library-entry")).to_have_count(0)
    assert not LibraryEntry.objects.filter(pk=entry.pk).exists()


def test_a_new_gem_figure_starts_on_the_base_a_new_unit_starts_on(page):
    owner = UserFactory(username="brewer")
    army = ArmyFactory(owner=owner, system="gem", profiles=[])
    log_in(page, "brewer")
    page.goto(f"/armies/{army.pk}/")
    start_blank_unit(page)
    expect(page.get_by_label("Base")).to_have_value("25mm")

    page.goto("/library/")
    page.get_by_role("link", name="New GEM figure").click()
    expect(page.get_by_label("Base")).to_have_value("25mm")  # it started on 20mm
    page.get_by_label("Name", exact=True).fill("Sergeant")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Added Sergeant to your library")).to_be_visible()
    assert LibraryEntry.objects.get(owner=owner, name="Sergeant").data["base"] == "25mm"


def test_a_homebrew_d10_weapon_is_made_in_the_library_and_copied_onto_a_unit(page, artifacts):
    owner = UserFactory(username="armourer")
    army = ArmyFactory(owner=owner, system="d10", profiles=[{"weapons": ["Carbine/AR"]}])
    unit = army.units.get()
    log_in(page, "armourer")
    page.set_viewport_size(PHONE)
    page.goto("/library/")
    page.get_by_role("link", name="New d10 weapon").click()
    page.get_by_label("Name").fill("Rail pistol")
    page.get_by_label("Range").fill("12/24")
    page.get_by_label("Rate of fire").fill("1")
    page.get_by_label("Damage").fill("6")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Added Rail pistol to your library")).to_be_visible()
    expect(page.get_by_test_id("d10-weapon-line")).to_have_text("12/24″, RoF 1, damage 6")
    page.screenshot(path=artifacts / "library-d10-weapon-phone.png", full_page=True)

    page.goto(f"/armies/{army.pk}/?unit={unit.pk}")
    page.get_by_label("Copy from my library onto this unit").select_option(
        label="d10 weapon: Rail pistol"
    )
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.get_by_text("Added Rail pistol to Unit 1")).to_be_visible()
    expect(page.get_by_label("Weapons")).to_have_value("Carbine/AR\nRail pistol")
