"""Issue 28, item 19: one field the unit cannot take stops its save (valid fields
included). The field is marked where it is, and leaving the page asks first: what was
typed is never dropped without a word."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from armies.models import Unit
from tests.browser.helpers import log_in
from tests.factories import ArmyFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.races]

SWORDSMAN = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}


def test_a_refused_field_is_marked_and_leaving_asks_first(page):
    army = ArmyFactory(owner=UserFactory(username="typist"), system="gem", profiles=[SWORDSMAN])
    unit = army.units.get()
    log_in(page, "typist")
    page.goto(f"/armies/{army.pk}/?unit={unit.pk}")
    editor = page.locator("#unit-form")
    editor.get_by_label("Name", exact=True).fill("Sword of the west")
    editor.get_by_label("OFF", exact=True).fill("99")  # GEM's OFF is 1 to 10

    # Marked where it is: the message beside it, the box itself, and the save refused.
    expect(page.get_by_test_id("not-saved")).to_be_visible()
    expect(page.locator("#fb-off")).not_to_be_empty()
    expect(editor.get_by_label("OFF", exact=True)).to_have_attribute("aria-invalid", "true")
    expect(editor.get_by_label("OFF", exact=True)).to_have_class(re.compile(r"\bis-invalid\b"))
    expect(editor.get_by_label("Name", exact=True)).not_to_have_attribute("aria-invalid", "true")
    page.wait_for_load_state("networkidle")
    assert Unit.objects.get(pk=unit.pk).name == "Unit 1"  # nothing of it stored yet

    # Leaving asks first; staying keeps everything typed.
    asked: list[str] = []

    def stay(dialog) -> None:
        asked.append(dialog.type)
        dialog.dismiss()

    page.once("dialog", stay)
    editor.get_by_role("link", name="Close").click()
    page.wait_for_timeout(300)
    assert asked == ["beforeunload"]
    expect(editor.get_by_label("Name", exact=True)).to_have_value("Sword of the west")
    expect(editor.get_by_label("OFF", exact=True)).to_have_value("99")

    # Fixed, it saves (every field), and leaving no longer asks.
    editor.get_by_label("OFF", exact=True).fill("5")
    expect(page.get_by_test_id("not-saved")).to_have_count(0)
    expect(page.locator("#editor-status")).to_contain_text("Saved.")
    expect(editor.get_by_label("OFF", exact=True)).not_to_have_attribute("aria-invalid", "true")
    page.wait_for_load_state("networkidle")
    stored = Unit.objects.get(pk=unit.pk)
    assert (stored.name, stored.profile["off"]) == ("Sword of the west", 5)
    page.once("dialog", stay)
    page.reload()
    assert asked == ["beforeunload"]  # not asked again
    expect(page.locator("#unit-form").get_by_label("Name", exact=True)).to_have_value(
        "Sword of the west"
    )
