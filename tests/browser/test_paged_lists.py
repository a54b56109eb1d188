"""Paged lists in a real browser (#28.7, #28.8): the library, the trash and the share
page's rolls each turn to their next page, and each page fits a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armies import services
from armies.models import LibraryEntry
from table import rolls
from tests.browser.helpers import DESK, log_in
from tests.factories import ArmyFactory, LibraryEntryFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = {"desk": (1366, 900), "phone": (390, 844)}
LONG = "Ogre" * 50  # 200 characters, no space


def _shoot(page, artifacts, name: str) -> None:
    for label, (width, height) in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=artifacts / f"{name}-{label}.png", full_page=True)
    page.set_viewport_size(DESK)


def test_the_library_turns_to_its_next_page(page, artifacts):
    owner = UserFactory(username="brewer")
    entries = LibraryEntryFactory.build_batch(60, owner=owner, name=LONG)
    entries[0].name = "[url=javascript:alert(1)]click[/url] <b>bold</b>"
    LibraryEntry.objects.bulk_create(entries)
    log_in(page, "brewer")

    page.goto("/library/")
    expect(page.get_by_test_id("library-limit")).to_have_text(
        "A library keeps up to 200 entries: yours has 60."
    )
    expect(page.get_by_test_id("library-entry")).to_have_count(50)
    _shoot(page, artifacts, "library-page-1")
    page.get_by_role("link", name="Next").click()

    expect(page.get_by_test_id("library-entry")).to_have_count(10)
    expect(page.get_by_text("Page 2 of 2")).to_be_visible()
    _shoot(page, artifacts, "library-page-2")


def test_the_trash_turns_to_its_next_page_of_armies(page, artifacts):
    owner = UserFactory(username="tidy")
    for i in range(55):
        services.trash_army(owner, ArmyFactory(owner=owner, profiles=[], name=f"Army {i:02}").pk)
    log_in(page, "tidy")

    page.goto("/armies/trash/")
    expect(page.get_by_test_id("trashed-army")).to_have_count(50)
    _shoot(page, artifacts, "trash-page-1")
    page.get_by_role("navigation", name="Pages of deleted armies").get_by_role(
        "link", name="Next"
    ).click()

    expect(page.get_by_test_id("trashed-army")).to_have_count(5)
    expect(page.get_by_text("Page 2 of 2 (55 armies)")).to_be_visible()
    expect(page.get_by_text("Army 00")).to_be_visible()  # the first deleted: still there
    _shoot(page, artifacts, "trash-page-2")


def test_the_opponent_turns_to_the_oldest_rolls_on_the_share_page(opponent, artifacts):
    owner = UserFactory(username="roller")
    army = ArmyFactory(owner=owner, system="goms", profiles=[{"kind": "rifle-section"}])
    token = services.share_army(army)
    # Rolled on the server through the roll view's own write path: the view itself
    # (103 rolls posted) is tested in tests/armies/test_paged_trash_and_rolls.py.
    for _ in range(103):  # a fair roll still waiting may be dropped for a new one
        rolls.roll(army, fair=True, by="roller", session_key=None)
    assert army.acquisitions.count() == 103

    opponent.goto(f"/s/{token}/")
    listed = opponent.get_by_test_id("acquisition-roll-item")
    expect(listed).to_have_count(100)
    opponent.get_by_role("link", name="Older rolls").click()

    expect(listed).to_have_count(3)
    expect(opponent.get_by_text("Page 2 of 2 (103 rolls)")).to_be_visible()
    _shoot(opponent, artifacts, "share-rolls-page-2")
