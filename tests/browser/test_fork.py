"""Copying a shared army in a real browser: only Chromium sends the share page's Origin
header as it really is, so only a browser test shows whether the CSRF check lets it in."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armies import services
from armies.models import Army
from tests.browser.helpers import log_in
from tests.factories import DEFAULT_PASSWORD, ArmyFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

HERO = {"kind": "guy", "flavor": "hero", "commander": True, "traits": ["tough"]}


def _shared_army():
    owner = UserFactory(username="sharer")
    army = ArmyFactory(owner=owner, system="vsgmr", profiles=[HERO], name="Dwarf host")
    return army, services.share_army(army)


def test_a_signed_in_opponent_copies_a_shared_army_with_the_button(page):
    _, token = _shared_army()
    UserFactory(username="opponent")
    log_in(page, "opponent")
    page.goto(f"/s/{token}/")
    page.get_by_role("button", name="Copy to my armies").click()

    expect(page.get_by_role("heading", name="Dwarf host")).to_be_visible()
    expect(page.get_by_test_id("army-total")).to_have_text("4")
    copy = Army.objects.get(owner__username="opponent")
    assert page.url.endswith(f"/armies/{copy.pk}/")


def test_a_visitor_logs_in_from_the_share_page_and_then_copies_it(page):
    _, token = _shared_army()
    UserFactory(username="visitor")
    page.goto(f"/s/{token}/")
    page.get_by_role("link", name="Log in to copy it").click()
    page.get_by_label("Username").fill("visitor")
    page.locator("#id_password").fill(DEFAULT_PASSWORD)
    page.get_by_role("button", name="Log in").click()

    # Back on the share page, now signed in.
    page.get_by_role("button", name="Copy to my armies").click()
    expect(page.get_by_role("heading", name="Dwarf host")).to_be_visible()
    assert Army.objects.filter(owner__username="visitor").count() == 1


def test_past_the_hours_units_the_copy_and_the_import_say_so_and_keep_the_text(
    refusing_page, settings, artifacts
):
    # Issue 45.3: imports and copies share one budget of units an hour per account.
    settings.IMPORT_UNITS_PER_HOUR = 1
    page = refusing_page  # the import is answered 429, which Chromium logs
    _, token = _shared_army()
    UserFactory(username="collector")
    log_in(page, "collector")
    page.goto(f"/s/{token}/")
    page.get_by_role("button", name="Copy to my armies").click()
    expect(page.get_by_role("heading", name="Dwarf host")).to_be_visible()

    page.goto(f"/s/{token}/")
    page.get_by_role("button", name="Copy to my armies").click()
    expect(page.get_by_role("alert").filter(has_text="at most 1 unit an hour")).to_be_visible()
    assert page.url.endswith(f"/s/{token}/")

    page.goto("/armies/import/")
    typed = '{"format": "muster-army/1", "name": "Elves", "system": "vsgmr", "units": []}'
    page.get_by_label("…or paste the JSON").fill(typed)
    page.get_by_role("button", name="Import").click()
    box = page.get_by_label("…or paste the JSON")
    expect(box).to_have_value(typed)
    expect(page.get_by_text("An account may import or copy at most 1 unit an hour")).to_be_visible()
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=artifacts / "import-refused-phone.png", full_page=True)
    assert Army.objects.filter(owner__username="collector").count() == 1
