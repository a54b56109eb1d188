"""Languages on a phone (issue #47): a player picks another language with the switcher,
by keyboard or by tapping, and stays on the same page, now in that language; the phone
keeps each language's copy of a page apart, and says it is offline in the page's language."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PHONE
from tests.browser.test_offline import BLOCK, KEPT_PAGES, SW_WAIT, controlled, kept, owner_phone
from tests.factories import ArmyFactory, UserFactory

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


OFFLINE_PAGE_KEPT = """async (path) =>
  Boolean(await (await caches.open('muster-static-v1')).match(path))"""


def test_a_phone_keeps_each_languages_copy_of_a_page_apart(devices, live_server):
    player = UserFactory(username="zweisprachig")
    army = ArmyFactory(owner=player, system="gem", name="Paper Tigers", profiles=[BLOCK])
    context, page, errors = owner_phone(devices, "zweisprachig")
    english, german = f"/armies/{army.pk}/roster/", f"/de/armies/{army.pk}/roster/"
    page.goto(english)
    controlled(page)
    kept(page, english)
    page.goto(german)
    kept(page, german)
    # The German offline page is kept once a German page was opened with a network.
    deadline = time.monotonic() + SW_WAIT
    while not page.evaluate(OFFLINE_PAGE_KEPT, "/de/offline/"):
        assert time.monotonic() < deadline, "no German offline page on the device"
        time.sleep(0.1)
    assert {english, german} <= set(page.evaluate(KEPT_PAGES))

    context.set_offline(True)
    page.goto(english)
    expect(page.locator("html")).to_have_attribute("lang", "en-gb")
    expect(page.get_by_test_id("offline-status")).to_contain_text("Offline copy from")
    page.goto(german)
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_test_id("offline-status")).to_contain_text("Offline-Kopie von")
    # A German page the phone does not keep: the offline page, in German.
    page.goto(f"/de/armies/{army.pk}/play/")
    expect(
        page.get_by_role("heading", name="Offline – und diese Seite ist auf diesem Gerät")
    ).to_be_visible()
    assert errors == []
