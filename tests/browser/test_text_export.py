"""Copy as text: each Copy button puts the army on the clipboard, ready to paste into
Discord, Reddit or a forum, from the owner's builder and from the share link."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armies import services
from tests.browser.helpers import PHONE, log_in
from tests.factories import ArmyFactory, UserFactory
from tests.samples import EXPORT_ARMIES, GOLDEN

pytestmark = pytest.mark.django_db(transaction=True)

BUTTONS = {"Plain text": "txt", "Markdown": "md", "BBCode": "bbcode"}


def _clipboard(page) -> str:
    return page.evaluate("navigator.clipboard.readText()")


def test_an_opponent_copies_a_shared_army_in_each_format(page, live_server, artifacts):
    army = ArmyFactory(owner=UserFactory(), file=EXPORT_ARMIES["vsgmr"])
    token = services.share_army(army)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])

    page.goto(f"/s/{token}/")
    block = page.get_by_test_id("export-text")
    share_url = f"{live_server.url}/s/{token}/"
    for label, kind in BUTTONS.items():
        block.get_by_role("button", name=f"Copy as {label}").click()
        expect(block.get_by_role("status")).to_have_text(
            f"Copied as {label}: paste it where you like."
        )
        expected = (GOLDEN / f"vsgmr.{kind}").read_text().replace("{share_url}", share_url)
        assert _clipboard(page) == expected
    block.screenshot(path=artifacts / "export-copy-shared.png")


def test_the_owner_copies_the_army_from_the_builder(page, artifacts):
    owner = UserFactory(username="duke")
    army = ArmyFactory(owner=owner, file=EXPORT_ARMIES["gem"])
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    log_in(page, "duke")

    page.goto(f"/armies/{army.pk}/")
    block = page.get_by_test_id("export-text")
    block.get_by_role("button", name="Copy as Markdown").click()
    expect(block.get_by_role("status")).to_contain_text("Copied as Markdown")
    text = _clipboard(page)
    assert text.startswith("## Iron Duke's Guard\n")
    assert "- 1 × **Archer \\[veteran\\]** — 25.3 pts  \n" in text
    assert "/s/" not in text  # not shared: no link

    block.get_by_role("button", name="Copy as BBCode").click()
    expect(block.get_by_role("status")).to_contain_text("Copied as BBCode")
    assert _clipboard(page).startswith("[size=150][b]Iron Duke's Guard[/b][/size]\n")

    block.get_by_role("button", name="Copy as Plain text").click()
    expect(block.get_by_role("status")).to_contain_text("Copied as Plain text")
    assert "Total: 38.3 / 30 pts · NOT LEGAL\n" in _clipboard(page)
    page.set_viewport_size(PHONE)
    block.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "export-copy-builder-phone.png")
