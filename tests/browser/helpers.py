"""What a player does in the browser again and again, for every browser test to use."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.factories import DEFAULT_PASSWORD


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.locator("#id_password").fill(DEFAULT_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("username")).to_have_text(username)
