"""Issue 28, item 21, in a browser: the editor's title follows a rename, an empty army
offers no find or group, and a points limit the army cannot take is said beside the field
with what was typed kept."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armies.models import Army
from tests.browser.helpers import log_in
from tests.factories import ArmyFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

SWORDSMAN = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}


def test_the_editor_title_follows_a_rename(page):
    army = ArmyFactory(owner=UserFactory(username="renamer"), system="gem", profiles=[SWORDSMAN])
    unit = army.units.get()
    log_in(page, "renamer")
    page.goto(f"/armies/{army.pk}/?unit={unit.pk}")
    expect(page.locator("#editor-title")).to_have_text("Edit Unit 1")
    page.locator("#unit-form").get_by_label("Name", exact=True).fill("Sword of the west")
    expect(page.locator("#editor-status")).to_contain_text("Saved.")
    expect(page.locator("#editor-title")).to_have_text("Edit Sword of the west")
    expect(page.get_by_role("link", name="Sword of the west", exact=True)).to_be_visible()


def test_an_empty_army_offers_no_find_or_group(page):
    army = ArmyFactory(owner=UserFactory(username="empty"), system="gem")
    log_in(page, "empty")
    page.goto(f"/armies/{army.pk}/")
    expect(page.get_by_label("Find a unit by name")).to_be_hidden()
    expect(page.get_by_text("Group by type")).to_be_hidden()
    # With a unit they are there.
    full = ArmyFactory(owner=army.owner, system="gem", profiles=[SWORDSMAN], name="Full")
    page.goto(f"/armies/{full.pk}/")
    expect(page.get_by_label("Find a unit by name")).to_be_visible()


@pytest.mark.parametrize("typed", ["12e", "350.55"])
def test_a_points_limit_it_cannot_take_is_said_beside_the_field(refusing_page, typed):
    page = refusing_page
    owner = UserFactory(username="limiter")
    log_in(page, "limiter")
    page.goto("/armies/new/")
    page.get_by_label("Name").fill("Border host")
    page.get_by_label("Points limit").fill(typed)
    page.get_by_role("button", name="Create army").click()
    limit = page.get_by_label("Points limit")
    expect(limit).to_have_value(typed)  # what was typed, kept
    message = page.locator("#id_points_limit").locator("xpath=..").get_by_text("decimal place")
    expect(message).to_be_visible()
    expect(page.get_by_text("whole number")).to_have_count(0)
    assert not Army.objects.filter(owner=owner).exists()

    # One decimal place is a limit like any other.
    limit.fill("350.5")
    page.get_by_role("button", name="Create army").click()
    expect(page.get_by_role("heading", name="Border host")).to_be_visible()
    assert str(Army.objects.get(owner=owner).points_limit) == "350.5"
