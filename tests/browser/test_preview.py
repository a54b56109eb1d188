"""Typing in the editor moves its numbers and the army's total at once, from a preview
that saves nothing, while the saves go through one by one; the numbers never step back
to an older value when a save of earlier typing answers late."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from armies.models import Army, Unit
from tests.browser.helpers import TROOP, log_in, two_troops
from tests.factories import ArmyFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.databases]


# Saves (htmx's requests to …/units/<id>/) leave 600 ms late, as behind a busy server:
# the save of the first keystroke answers after the second keystroke's preview.
SLOW_SAVES = """() => {
  const open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.__url = String(url);
    return open.call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (body) {
    if (/\\/units\\/[0-9]+\\/$/.test(this.__url)) setTimeout(() => send.call(this, body), 600);
    else send.call(this, body);
  };
}"""

WATCH_TOTAL = """() => {
  window.__totals = [];
  let answered = 0;  // saves of the editor answered so far
  document.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.elt.id === "unit-form") answered += 1;
  });
  const record = () => {
    const total = document.querySelector('[data-testid="army-total"]');
    const text = total ? total.textContent.trim() : null;
    const last = window.__totals[window.__totals.length - 1];
    if (!last || last.text !== text) window.__totals.push({text, saves: answered});
  };
  const watched = {subtree: true, childList: true, characterData: true};
  new MutationObserver(record).observe(document.body, watched);
}"""


def test_the_total_follows_typing_before_the_saves_finish_and_never_steps_back(page, artifacts):
    player = UserFactory(username="typist")
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[TROOP], name="Militia")
    unit = army.units.get()
    log_in(page, "typist")
    page.goto(f"/armies/{army.pk}/?unit={unit.pk}")
    expect(page.get_by_test_id("army-total")).to_have_text("1")
    page.evaluate(SLOW_SAVES)
    page.evaluate(WATCH_TOTAL)

    quantity = page.locator("#unit-form").get_by_label("Quantity")
    quantity.focus()
    page.keyboard.press("Control+A")
    page.keyboard.press("2")
    page.wait_for_timeout(500)  # a pause: the save of "2" leaves (late, see SLOW_SAVES)
    page.keyboard.press("5")

    expect(page.get_by_test_id("army-total")).to_have_text("25")
    expect(page.get_by_test_id("editor-cost")).to_have_text("25")
    page.wait_for_load_state("networkidle")
    expect(page.locator("#editor-status")).to_contain_text("Saved.")
    page.screenshot(path=artifacts / "preview-typed-25.png", caret="initial")

    totals = page.evaluate("window.__totals")
    shown = [t["text"] for t in totals]
    # 25 showed before any save had answered ...
    first_25 = shown.index("25")
    assert totals[first_25]["saves"] == 0, totals
    # ... and once shown, the total never went back to what the earlier keystroke made.
    assert "2" not in shown[first_25:], shown
    assert shown[-1] == "25"
    stored = Army.objects.get(pk=army.pk)
    assert stored.total == "25"
    assert stored.units.get().quantity == 25


def test_typing_then_at_once_opening_another_unit_keeps_what_was_typed(page):
    _, first, _ = two_troops(page, "hasty")
    page.locator("#unit-form").get_by_label("Quantity").fill("7")
    # Straight away, before the pause the save waits for.
    page.get_by_role("link", name="Unit 2", exact=True).click()

    expect(page.locator("#unit-form").get_by_label("Name", exact=True)).to_have_value("Unit 2")
    expect(page.get_by_test_id("army-total")).to_have_text("8")
    page.wait_for_load_state("networkidle")
    first.refresh_from_db()
    assert first.quantity == 7


def test_typing_then_at_once_leaving_the_page_keeps_what_was_typed(page):
    army, first, _ = two_troops(page, "hasty")
    page.locator("#unit-form").get_by_label("Quantity").fill("9")
    page.goto("/armies/")  # before the pause the save waits for

    # The page sent it as it went (a beacon, answered in the background): it arrives.
    deadline = time.monotonic() + 10
    while Unit.objects.get(pk=first.pk).quantity != 9 and time.monotonic() < deadline:
        time.sleep(0.05)
    page.goto(f"/armies/{army.pk}/")
    expect(page.get_by_test_id("army-total")).to_have_text("10")
