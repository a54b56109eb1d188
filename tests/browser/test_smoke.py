from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)


def test_player_signs_up_logs_out_and_back_in_and_sees_their_name(page):
    page.goto("/")
    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username").fill("warlord")
    page.get_by_label("Email").fill("warlord@example.com")
    page.get_by_label(re.compile(r"Password\W*$")).fill("a long and sturdy passphrase")
    page.get_by_label("Password confirmation").fill("a long and sturdy passphrase")
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_test_id("username")).to_have_text("warlord")

    page.get_by_test_id("username").click()
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("heading", name="Logged out")).to_be_visible()
    expect(page.get_by_test_id("username")).to_have_count(0)

    page.get_by_role("link", name="Log in").first.click()
    page.get_by_label("Username").fill("warlord")
    page.get_by_label(re.compile(r"Password\W*$")).fill("a long and sturdy passphrase")
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.get_by_test_id("username")).to_have_text("warlord")


def test_colour_mode_toggle_switches_to_dark_and_is_remembered(page):
    page.goto("/")
    html = page.locator("html")
    expect(html).to_have_attribute("data-bs-theme", "light")
    page.get_by_role("button", name="Dark mode").click()
    expect(html).to_have_attribute("data-bs-theme", "dark")
    page.reload()
    expect(html).to_have_attribute("data-bs-theme", "dark")
