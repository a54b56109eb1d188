"""Army settings in a real browser: they load when opened and save without a reload."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import log_in
from tests.factories import ArmyFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_open_settings_rename_and_set_a_limit(page):
    player = UserFactory(username="marshal")
    # VSGMR: a hero costs 2 points (SPEC 3.3).
    army = ArmyFactory(
        owner=player, system="vsgmr", profiles=[{"kind": "guy", "flavor": "hero"}], name="Elves"
    )
    log_in(page, "marshal")
    page.goto(f"/armies/{army.pk}/")
    page.locator("#settings-card summary").click()
    form = page.locator("#army-settings")
    form.get_by_role("textbox", name="Name").fill("Wood Elves")
    form.get_by_label("Points limit").fill("1")
    form.get_by_role("button", name="Save settings").click()
    expect(page.locator("#army-name")).to_have_text("Wood Elves")
    expect(page.get_by_test_id("legality")).to_have_text("not legal")
    # Saved with the page's version; the editor can still save afterwards.
    page.get_by_role("link", name="Unit 1").click()
    page.locator("#unit-form").get_by_label("Flavour").select_option("troop")
    expect(page.get_by_test_id("army-total")).to_have_text("1")
    expect(page.get_by_test_id("remaining")).to_have_text("0")
    expect(page.get_by_test_id("conflict")).to_have_count(0)
