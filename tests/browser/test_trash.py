"""Deleting a unit by mistake in a real browser: one click undoes it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import log_in
from tests.factories import ArmyFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.races]


def test_delete_then_undo_brings_the_unit_back_and_editing_goes_on(page):
    player = UserFactory(username="clumsy")
    # VSGMR: a hero is 2 points, a troop 1 (SPEC 3.3), so the total is 3.
    hero, troop = {"kind": "guy", "flavor": "hero"}, {"kind": "guy", "flavor": "troop"}
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[hero, troop])
    log_in(page, "clumsy")
    page.goto(f"/armies/{army.pk}/")
    expect(page.get_by_test_id("army-total")).to_have_text("3")

    page.get_by_text("More about Unit 1").click()
    page.get_by_role("button", name="Delete Unit 1").click()
    expect(page.get_by_test_id("army-total")).to_have_text("1")
    expect(page.get_by_test_id("unit-row")).to_have_count(1)
    page.get_by_test_id("undo").get_by_role("button", name="Undo").click()
    expect(page.get_by_test_id("army-total")).to_have_text("3")
    expect(page.get_by_test_id("unit-row")).to_have_count(2)
    expect(page.get_by_test_id("undo")).to_have_count(0)

    # The version moved on twice; the editor still saves without a conflict.
    page.get_by_role("link", name="Unit 2").click()
    page.locator("#unit-form").get_by_label("Quantity").fill("4")
    expect(page.get_by_test_id("army-total")).to_have_text("6")
