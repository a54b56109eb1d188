"""Keeping many lists tidy in a browser: tags, the archive, bulk delete and its undo."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armies.models import Army
from tests.browser.helpers import PHONE, log_in
from tests.factories import ArmyFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

TROOP = {"kind": "guy", "flavor": "troop"}


def _rows(page):
    return page.get_by_test_id("army-row")


def test_a_player_tags_archives_and_restores_armies(page, artifacts):
    owner = UserFactory(username="tidy")
    for name in ("Dwarves", "Elves", "Goblins"):
        ArmyFactory(owner=owner, system="vsgmr", profiles=[TROOP], name=name)
    log_in(page, "tidy")
    page.goto("/armies/?sort=name")
    expect(_rows(page)).to_have_count(3)

    # Tag two armies at once.
    page.get_by_label("Pick Dwarves").check()
    page.get_by_label("Pick Goblins").check()
    page.get_by_label("Tag for the picked armies").fill("tournament")
    page.get_by_role("button", name="Tag picked", exact=True).click()
    expect(page.get_by_role("alert").filter(has_text="Tagged 2 armies")).to_be_visible()
    expect(page.get_by_test_id("army-tag")).to_have_count(2)

    # Filter by the tag.
    page.get_by_label("Filter by tag").select_option("tournament")
    page.get_by_role("button", name="Show").click()
    expect(_rows(page)).to_have_count(2)
    expect(page).to_have_url("/armies/?q=&sort=name&tag=tournament")
    page.set_viewport_size(PHONE)
    page.screenshot(path=artifacts / "army-list-tags-phone.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})

    # The × takes the tag off one army; the filtered list shows what is left.
    page.get_by_role("button", name="Remove tag tournament from Goblins").click()
    expect(_rows(page)).to_have_count(1)
    expect(_rows(page).first).to_contain_text("Dwarves")

    # Archive one army: it leaves the list for the archive, and Undo brings it back.
    page.goto("/armies/?sort=name")
    page.get_by_role("button", name="Archive Elves").click()
    expect(_rows(page)).to_have_count(2)
    expect(page.get_by_text("Archived: Elves.")).to_be_visible()
    page.get_by_role("button", name="Undo").click()
    expect(_rows(page)).to_have_count(3)

    page.get_by_role("button", name="Archive Elves").click()
    page.get_by_test_id("archive-tab").click()
    expect(_rows(page)).to_have_count(1)
    expect(_rows(page).first).to_contain_text("Elves")
    page.screenshot(path=artifacts / "army-list-archive.png", full_page=True)
    page.get_by_role("button", name="Restore Elves from the archive").click()
    expect(page.get_by_text("Nothing in the archive.")).to_be_visible()
    assert Army.objects.filter(owner=owner, archived_at__isnull=True).count() == 3


def test_bulk_delete_is_undone_with_one_click(page, artifacts):
    owner = UserFactory(username="bulk")
    for name in ("Alpha", "Beta", "Gamma"):
        ArmyFactory(owner=owner, system="gem", profiles=[], name=name)
    log_in(page, "bulk")
    page.goto("/armies/?sort=name")

    page.get_by_label("Pick Alpha").check()
    page.get_by_label("Pick Gamma").check()
    page.get_by_role("button", name="Delete picked").click()

    expect(_rows(page)).to_have_count(1)
    expect(page.get_by_text("Moved to the trash: Alpha, Gamma.")).to_be_visible()
    page.screenshot(path=artifacts / "army-list-undo.png", full_page=True)
    page.get_by_role("button", name="Undo").click()
    expect(_rows(page)).to_have_count(3)
    expect(page.get_by_text("Restored from the trash: Alpha, Gamma.")).to_be_visible()


def test_search_finds_an_army_by_its_name(page):
    owner = UserFactory(username="finder")
    ArmyFactory(owner=owner, system="vsgmr", profiles=[TROOP], name="Dwarves")
    ArmyFactory(owner=owner, system="vsgmr", profiles=[TROOP], name="Ogre mercenaries")
    log_in(page, "finder")
    page.goto("/armies/")

    page.get_by_placeholder("Search by army name or tag").fill("ogre")
    page.get_by_role("button", name="Show").click()

    expect(_rows(page)).to_have_count(1)
    expect(_rows(page).first).to_contain_text("Ogre mercenaries")
