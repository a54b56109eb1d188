"""The Table 1 calculator in a real browser: htmx re-works the odds as boxes are ticked,
and the SVG chart renders with no CSP complaint (console errors fail the test)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)


def test_ticking_a_missile_modifier_reworks_the_odds_in_place(page):
    page.goto("/rules/gem/table-1/?off=5&att=2&def=5")
    chances = page.get_by_test_id("chance")
    # OFF 5 vs DEF 5 needs 11: 10 of 20, in melee and as a missile alike.
    expect(chances.nth(1)).to_have_text("10 in 20 (50%)")
    expect(page.locator("svg[role=img] rect.chart-bar")).to_have_count(10)
    expect(page.locator("rect.chart-bar-current")).to_have_count(1)

    page.get_by_label("Target moved (−2)").check()
    # 13..20 once the target has moved: 8 of 20, and the URL follows for sharing.
    expect(chances.nth(1)).to_have_text("8 in 20 (40%)")
    expect(chances.nth(0)).to_have_text("10 in 20 (50%)")  # melee takes no missile modifier
    expect(page).to_have_url(re.compile(r"modifiers=target-moved"))

    page.get_by_role("spinbutton", name="DEF").fill("99")
    page.get_by_role("spinbutton", name="DEF").press("Enter")
    expect(page.locator("#fb-def")).to_have_text(re.compile("DEF runs from 1 to 10"))
    expect(page.get_by_role("spinbutton", name="DEF")).to_have_value("99")
