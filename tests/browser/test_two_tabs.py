"""Two tabs on one army in a real browser: the stale tab is told, and loses nothing."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import log_in
from tests.factories import ArmyFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.races]


def test_a_stale_tab_is_refused_with_the_current_values_and_then_saves(page):
    player = UserFactory(username="twotabs")
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[{"kind": "guy", "flavor": "troop"}])
    unit = army.units.get()
    log_in(page, "twotabs")
    url = f"/armies/{army.pk}/?unit={unit.pk}"
    page.goto(url)
    # A second tab of the same browser session, opened before the first one saves.
    # (It is the one answered 409, which Chromium logs, so the fixture does not watch it.)
    other = page.context.new_page()
    other.goto(url)

    page.locator("#unit-form").get_by_label("Name", exact=True).fill("Saved in tab one")
    expect(page.locator("#unit-list")).to_contain_text("Saved in tab one")
    # Several saves in a row from one tab all go through: each carries the newest version.
    page.locator("#unit-form").get_by_label("Quantity").fill("3")
    expect(page.locator("#unit-list")).to_contain_text("× 3")

    other.locator("#unit-form").get_by_label("Name", exact=True).fill("Typed in tab two")
    conflict = other.get_by_test_id("conflict")
    expect(conflict).to_contain_text("changed in another tab")
    expect(conflict).to_contain_text("Typed in tab two")
    name = other.locator("#unit-form").get_by_label("Name", exact=True)
    expect(name).to_have_value("Saved in tab one")
    expect(other.locator("#unit-list")).to_contain_text("× 3")

    # Now up to date, the second tab saves normally.
    name.fill("Typed in tab two")
    expect(other.locator("#unit-list")).to_contain_text("Typed in tab two")
    expect(other.get_by_test_id("conflict")).to_have_count(0)
    unit.refresh_from_db()
    assert (unit.name, unit.quantity) == ("Typed in tab two", 3)
