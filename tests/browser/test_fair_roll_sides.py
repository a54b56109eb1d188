"""A fair roll in real browsers, from the cheating side: the owner opening the opponent's
link finds no seed form; the opponent's seed is recorded as theirs; a copy says its roll
history starts at the copy (issue 28, item 2). Screenshots at both widths."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from armies import services
from armies.models import Army
from tests.browser.helpers import WIDTHS, log_in, page_width
from tests.factories import ArmyFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/writes-shots")  # noqa: S108  (screenshots for a person to look at)
LONG_NAME = "Kompanie [b]bold[/b] <i>x</i> " + "Wehr " * 34  # 200 characters, markup typed in


@pytest.mark.parametrize("width", WIDTHS)
def test_the_owner_cannot_seed_their_own_fair_roll_and_the_record_names_the_visitor(
    page, opponent, width
):
    SHOTS.mkdir(exist_ok=True)
    player = UserFactory(username="schuetze")
    army = ArmyFactory(
        owner=player,
        system="goms",
        profiles=[{"kind": "rifle-section"}, {"kind": "platoon-hq"}],
        name=LONG_NAME,
    )
    services.share_army(army)
    log_in(page, "schuetze")
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"/armies/{army.pk}/acquisition/")
    page.get_by_role("button", name="Start a fair roll with my opponent").click()
    link = page.get_by_test_id("acquisition-opponent-link").inner_text()

    # The owner follows the link meant for the opponent: no form, a plain refusal.
    page.goto(link)
    expect(page.get_by_test_id("own-roll")).to_contain_text("This is your own army's roll")
    expect(page.get_by_test_id("opponent-seed-form")).to_have_count(0)
    assert page_width(page) <= WIDTHS[width]["width"]
    page.screenshot(path=SHOTS / f"own-roll-{width}.png", full_page=True)

    # The opponent, signed out in another browser, adds theirs.
    opponent.set_viewport_size(WIDTHS[width])
    opponent.goto(link)
    opponent.get_by_role("button", name="Add my seed and roll").click()
    expect(opponent.get_by_text("Your seed is in")).to_be_visible()
    expect(opponent.get_by_test_id("acquisition-seeded-by")).to_contain_text(
        "The owner's seed came from schuetze; the opponent's from a visitor with the link"
    )
    opponent.screenshot(path=SHOTS / f"seeded-by-{width}.png", full_page=True)


def test_a_forked_copy_says_where_its_roll_history_starts(page):
    SHOTS.mkdir(exist_ok=True)
    player = UserFactory(username="kopie")
    army = ArmyFactory(
        owner=player, system="goms", profiles=[{"kind": "rifle-section"}], name=LONG_NAME
    )
    token = services.share_army(army)
    log_in(page, "kopie")
    page.set_viewport_size(WIDTHS["phone"])
    page.goto(f"/s/{token}/")
    page.get_by_role("button", name="Copy to my armies").click()
    copy = Army.objects.filter(owner=player).exclude(pk=army.pk).get()
    page.goto(f"/armies/{copy.pk}/acquisition/")

    expect(page.get_by_test_id("roll-history-starts")).to_contain_text("copied from a share link")
    assert page_width(page) <= 390
    page.screenshot(path=SHOTS / "roll-history-phone.png", full_page=True)
