"""The language switcher on a phone (issue #47): a player picks another language by
keyboard or by tapping, and stays on the same page, now in that language."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PHONE

pytestmark = pytest.mark.django_db(transaction=True)


def phone_page(own_context):
    """A page at a phone's size whose script errors (a CSP refusal of the scripts' words
    among them) are collected, for the test to find none."""
    page = own_context(viewport=PHONE).new_page()
    page.errors = []
    page.on("console", lambda msg: msg.type == "error" and page.errors.append(msg.text))
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def test_switching_to_german_by_tapping_keeps_the_page(own_context):
    page = phone_page(own_context)
    page.goto("/rules/gem/")
    heading = page.get_by_role("heading", level=1).inner_text()
    page.get_by_role("button", name="Toggle navigation").click()
    page.get_by_label("Language").select_option(label="Deutsch")
    page.get_by_role("button", name="Switch").click()

    expect(page).to_have_url(re.compile(r"/de/rules/gem/$"))
    expect(page.locator("html")).to_have_attribute("lang", "de")
    # The same page (its own words are the seed's and the rules summary's), Muster's
    # words around it in German.
    expect(page.get_by_role("heading", level=1)).to_have_text(heading)
    page.get_by_role("button", name="Navigation ein- oder ausblenden").click()
    expect(page.get_by_role("link", name="Anmelden", exact=True)).to_be_visible()
    expect(page.get_by_label("Sprache")).to_have_value("de")
    # theme.js names its button from the German catalog.
    expect(page.get_by_role("button", name="Dunkler Modus")).to_be_visible()
    assert page.errors == []


def test_switching_language_by_keyboard_alone(own_context):
    page = phone_page(own_context)
    page.goto("/rules/gem/")
    toggle = page.get_by_role("button", name="Toggle navigation")
    toggle.focus()
    page.keyboard.press("Enter")
    choice = page.get_by_label("Language")
    expect(choice).to_be_visible()
    choice.focus()
    # English, Deutsch, Français: two steps down is French, then on to the button.
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(choice).to_have_value("fr")
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Switch")).to_be_focused()
    page.keyboard.press("Enter")

    expect(page).to_have_url(re.compile(r"/fr/rules/gem/$"))
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("link", name="Aller au contenu")).to_be_attached()
    assert page.errors == []
