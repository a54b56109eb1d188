"""Issue 19, item 5 in a browser: copy the share link with one click, read the units on
the share page, and pick a matchup from a select on a phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from armies import services
from tests.browser.helpers import LONG, PHONE, log_in, page_width
from tests.factories import ArmyFactory, UserFactory, sample_file
from tests.helpers import rename_units

pytestmark = pytest.mark.django_db(transaction=True)


def _dwarves(owner):
    return ArmyFactory(owner=owner, file=sample_file("dwarves"))


def test_the_copy_button_puts_the_share_link_on_the_clipboard(page, live_server, artifacts):
    owner = UserFactory(username="sharer")
    army = _dwarves(owner)
    token = services.share_army(army)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    log_in(page, "sharer")
    page.goto(f"/armies/{army.pk}/#share")

    page.get_by_role("button", name="Copy link").click()
    expect(page.locator("#share-copied")).to_have_text("Copied.")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == f"{live_server.url}/s/{token}/"
    page.locator("#share").screenshot(
        path=str(artifacts / "i19-share-copy-link.png"), caret="initial"
    )

    # The link copied opens the share page, which shows what each unit is.
    page.goto(copied)
    guards = page.get_by_test_id("unit-row").filter(has_text="Guards")
    expect(guards.get_by_test_id("unit-profile")).to_contain_text(re.compile(r"Armour\s*heavy"))
    expect(guards.get_by_test_id("unit-traits")).to_contain_text("Tough:")
    page.screenshot(path=str(artifacts / "i19-share-page.png"), full_page=True)


def test_the_matchup_is_picked_from_selects_on_a_phone_without_overflow(
    page, live_server, artifacts
):
    owner = UserFactory(username="matcher")
    mine = _dwarves(owner)
    theirs = ArmyFactory(owner=UserFactory(), file=sample_file("elves"))
    token = services.share_army(theirs)
    page.set_viewport_size(PHONE)
    log_in(page, "matcher")
    page.goto("/matchup/")
    page.get_by_label("Army A: pick one").select_option(label="Dwarves (VSGMR)")
    page.locator("#b-link").fill(f"{live_server.url}/s/{token}/")
    page.get_by_role("button", name="Compare").click()

    expect(page.get_by_test_id("side-a")).to_contain_text("Dwarves")
    expect(page.get_by_test_id("side-b")).to_contain_text("Elves")
    # The pasted army is in B's select now, chosen.
    expect(page.get_by_label("Army B: pick one")).to_have_value(token)
    assert page_width(page) <= PHONE["width"]
    page.screenshot(path=str(artifacts / "i19-matchup-phone-picked.png"), full_page=True)

    # Share Dwarves too: both shared, the matchup gets a link, and it still fits.
    services.share_army(mine)
    page.reload()
    link = page.get_by_test_id("matchup-link")
    expect(link).to_be_visible()
    assert page_width(page) <= PHONE["width"]
    box = link.bounding_box()
    assert box["x"] + box["width"] <= PHONE["width"]
    page.screenshot(path=str(artifacts / "i19-matchup-phone-link.png"), full_page=True)


def test_a_suggestion_naming_a_long_unspaced_unit_wraps_on_a_phone(page, artifacts):
    owner = UserFactory(username="balancer")
    heroes = ArmyFactory(owner=owner, file=sample_file("justice-team"))
    zombies = ArmyFactory(owner=owner, file=sample_file("zombie-horde"))
    rename_units(zombies, {"First Infected": LONG})  # 200 characters without a space
    page.set_viewport_size(PHONE)
    log_in(page, "balancer")

    page.goto(f"/matchup/?a={heroes.pk}&b={zombies.pk}")

    suggestions = page.get_by_test_id("suggestions")
    expect(suggestions).to_contain_text(f"× {LONG} (+")
    assert page_width(page) <= PHONE["width"]
    box = suggestions.bounding_box()
    assert box["x"] + box["width"] <= PHONE["width"]
    page.screenshot(path=str(artifacts / "matchup-long-suggestion-phone.png"), full_page=True)
