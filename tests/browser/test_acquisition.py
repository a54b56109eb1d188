"""The acquisition roll in a real browser: roll, spend a reroll, see the seed, no errors."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armies import services
from tests.armies.conftest import make_army
from tests.browser.test_builder import log_in
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_roll_then_spend_the_only_reroll_and_the_seed_appears(page):
    player = UserFactory(username="kompanie")
    army = make_army(player, "goms", [{"kind": "rifle-section"}, {"kind": "platoon-hq"}])
    services.save_settings(army, {"options": {"rerolls": 1}}, None)
    log_in(page, "kompanie")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    page.goto(f"/armies/{army.pk}/")
    page.get_by_role("link", name="Acquisition roll").click()
    page.get_by_role("button", name="Roll for acquisition").click()

    dice = page.get_by_test_id("acquisition-die")
    expect(dice).to_have_count(2)
    expect(page.get_by_test_id("acquisition-commitment")).to_be_visible()
    page.get_by_role("button", name="Reroll die 2 (Unit 2)").click()
    expect(page.get_by_text("Rerolled die 2 (Unit 2)")).to_be_visible()
    expect(page.get_by_test_id("acquisition-final")).to_be_visible()
    expect(page.get_by_test_id("acquisition-seed")).to_contain_text("rerolls spent on dice 2")
    expect(page.get_by_role("button", name="Roll for acquisition")).to_have_count(0)
