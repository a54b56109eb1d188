"""Copying a shared army in a real browser: only Chromium sends the share page's Origin
header as it really is, so only a browser test shows whether the CSRF check lets it in."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armies.models import Army
from tests.browser.helpers import log_in
from tests.factories import DEFAULT_PASSWORD, ArmyFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

HERO = {"kind": "guy", "flavor": "hero", "commander": True, "traits": ["tough"]}


def _shared_army():
    owner = UserFactory(username="sharer")
    army = ArmyFactory(owner=owner, system="vsgmr", profiles=[HERO], name="Dwarf host")
    return army, army.share()


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
