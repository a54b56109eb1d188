"""Save and Enter after live saves: the form must post the version the live saves moved
the army to, or the player's own tab is refused as "changed in another tab"."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import log_in
from tests.factories import ArmyFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.races]


def _open_unit(page):
    player = UserFactory(username="saver")
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[{"kind": "guy", "flavor": "troop"}])
    unit = army.units.get()
    log_in(page, "saver")
    page.goto(f"/armies/{army.pk}/?unit={unit.pk}")
    return unit


@pytest.mark.parametrize("submit", ["button", "enter"])
def test_save_after_live_saves_is_not_refused_as_another_tab(page, submit):
    unit = _open_unit(page)
    form = page.locator("#unit-form")
    form.get_by_label("Name", exact=True).fill("Live saved")
    expect(page.locator("#unit-list")).to_contain_text("Live saved")
    # Typed and saved at once, before the live save's pause is over: the change, the
    # live save and the Save all go out, one after the other, each with the newest version.
    form.get_by_label("Quantity").fill("4")
    if submit == "button":
        form.get_by_role("button", name="Save").click()
    else:
        form.get_by_label("Quantity").press("Enter")

    expect(page.locator("#unit-list")).to_contain_text("× 4")
    page.wait_for_load_state("networkidle")
    expect(page.locator("#editor-status")).to_contain_text("Saved.")
    expect(page.get_by_test_id("conflict")).to_have_count(0)
    unit.refresh_from_db()
    assert (unit.name, unit.quantity) == ("Live saved", 4)


def _slow_network(page) -> None:
    """Every request takes 300 ms more, as on a phone: a save is still on its way when
    the player's next click comes."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    conditions = {"offline": False, "latency": 300, "downloadThroughput": -1}
    cdp.send("Network.emulateNetworkConditions", {**conditions, "uploadThroughput": -1})


def test_adding_a_unit_straight_after_typing_waits_for_the_save(page):
    unit = _open_unit(page)
    page.get_by_role("link", name="Add unit").click()  # the picker opens below the list
    picker = page.get_by_test_id("unit-picker")
    expect(picker).to_be_visible()
    _slow_network(page)
    form = page.locator("#unit-form")
    form.get_by_label("Name", exact=True).fill("Typed just now")
    # No pause: the click's blur sends one more save, and the plain form must wait for it.
    picker.get_by_role("button", name="Start blank").click()
    # Meanwhile the unit being left takes no more typing.
    expect(page.locator("#unit-form[inert]")).to_have_count(1)

    expect(page.locator("#unit-form").get_by_label("Name", exact=True)).to_have_value("New unit")
    expect(page.get_by_text("changed in another tab")).to_have_count(0)
    unit.refresh_from_db()
    assert unit.name == "Typed just now"
    assert unit.army.units.count() == 2


def test_duplicating_straight_after_typing_keeps_both(page):
    unit = _open_unit(page)
    page.locator("#unit-list .unit-more > summary").first.click()
    _slow_network(page)
    page.locator("#unit-form").get_by_label("Quantity").fill("7")
    page.locator("#unit-list").get_by_role("button", name="Duplicate").first.click()

    expect(page.locator("#unit-list .unit-row")).to_have_count(2)
    page.wait_for_load_state("networkidle")
    expect(page.get_by_text("changed in another tab")).to_have_count(0)
    assert sorted(u.quantity for u in unit.army.units.all()) == [7, 7]
