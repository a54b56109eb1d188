"""The acquisition roll in a real browser: roll, spend a reroll, see the seed, no errors."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from armies import services
from tests.browser.helpers import PHONE, log_in, page_width
from tests.factories import ArmyFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.databases]


def test_roll_then_spend_the_only_reroll_and_the_seed_appears(page):
    player = UserFactory(username="kompanie")
    army = ArmyFactory(
        owner=player, system="goms", profiles=[{"kind": "rifle-section"}, {"kind": "platoon-hq"}]
    )
    services.save_settings(army, {"options": {"rerolls": 1}}, None)
    log_in(page, "kompanie")
    page.set_viewport_size(PHONE)  # a phone
    page.goto(f"/armies/{army.pk}/")
    page.get_by_role("link", name="Acquisition roll").click()
    page.get_by_role("button", name="Roll alone (solo play)").click()

    dice = page.get_by_test_id("acquisition-die")
    expect(dice).to_have_count(2)
    expect(page.get_by_test_id("acquisition-commitment")).to_be_visible()
    page.get_by_role("button", name="Reroll die 2 (Unit 2)").click()
    expect(page.get_by_text("Rerolled die 2 (Unit 2)")).to_be_visible()
    expect(page.get_by_test_id("acquisition-final")).to_be_visible()
    expect(page.get_by_test_id("acquisition-seed")).to_contain_text("rerolls spent on dice 2")
    expect(page.get_by_role("button", name="Roll alone (solo play)")).to_have_count(0)


def test_a_fair_roll_the_opponent_completes_from_the_share_link(page, opponent, artifacts):
    player = UserFactory(username="fairplay")
    army = ArmyFactory(
        owner=player, system="goms", profiles=[{"kind": "rifle-section"}, {"kind": "platoon-hq"}]
    )
    services.share_army(army)
    log_in(page, "fairplay")
    page.set_viewport_size(PHONE)
    page.goto(f"/armies/{army.pk}/acquisition/")
    page.get_by_role("button", name="Start a fair roll with my opponent").click()
    expect(page.get_by_test_id("acquisition-waiting")).to_contain_text("Waiting for the opponent")
    committed = page.get_by_test_id("acquisition-committed").inner_text()
    link = page.get_by_test_id("acquisition-opponent-link").inner_text()
    assert page_width(page) <= 390  # fits the phone

    # The opponent: another browser, no account, just the link.
    opponent.set_viewport_size(PHONE)
    opponent.goto(link)
    # They are on the roll's own page: it points them at the form above, not elsewhere.
    waiting = opponent.get_by_test_id("acquisition-waiting")
    expect(waiting).to_contain_text("Add your seed in the form above")
    expect(waiting).not_to_contain_text("own page")
    seed = opponent.get_by_label("Your seed")
    expect(seed).to_have_value(re.compile(r"^[0-9a-f]{32}$"))  # filled in by their browser
    chosen = seed.input_value()
    opponent.get_by_role("button", name="Add my seed and roll").click()
    expect(opponent.get_by_text("Your seed is in")).to_be_visible()
    expect(opponent.get_by_test_id("acquisition-die")).to_have_count(2)
    expect(opponent.get_by_test_id("acquisition-opponent-seed")).to_have_text(chosen)
    expect(opponent.get_by_test_id("acquisition-hash-ok")).to_be_visible()
    assert committed in opponent.content()
    assert page_width(opponent) <= 390
    opponent.screenshot(path=artifacts / "fair-roll-opponent.png", full_page=True)

    page.reload()
    expect(page.get_by_test_id("acquisition-die")).to_have_count(2)
    expect(page.get_by_test_id("acquisition-fair")).to_be_visible()
