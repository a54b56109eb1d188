"""The editor shows what applies to the unit: a GEM skirmisher no vehicle fields, a
vehicle no melee rows; picking another type brings its fields; weapon rows are readable
at desk and phone width."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PHONE, log_in
from tests.factories import ArmyFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

SKIRMISHER = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}
DESK = {"width": 1280, "height": 800}


def test_picking_vehicle_brings_the_vehicle_fields_and_back(page):
    army = ArmyFactory(owner=UserFactory(username="mechanic"), system="gem", profiles=[SKIRMISHER])
    log_in(page, "mechanic")
    page.goto(f"/armies/{army.pk}/")
    page.get_by_role("link", name="Unit 1", exact=True).click()
    editor = page.locator("#unit-form")
    expect(editor.get_by_label("ATT", exact=True)).to_be_visible()
    expect(editor.get_by_label("Max speed")).to_have_count(0)
    expect(editor.get_by_text("Extra melee attacks", exact=True)).to_be_visible()
    # The no-JavaScript button is not needed here: the editor redraws by itself.
    expect(editor.get_by_role("button", name="Show its fields")).to_be_hidden()

    editor.get_by_label("Type", exact=True).focus()
    editor.get_by_label("Type", exact=True).select_option("vehicle")
    expect(editor.get_by_label("Max speed")).to_be_visible()
    expect(editor.get_by_label("Armour front")).to_be_visible()
    expect(editor.get_by_label("ATT", exact=True)).to_have_count(0)
    expect(editor.get_by_label("SIZ", exact=True)).to_have_count(0)
    expect(editor.get_by_text("Extra melee attacks", exact=True)).to_have_count(0)
    expect(editor.get_by_label("Type", exact=True)).to_be_focused()
    # A vehicle needs a max speed: said beside the field, and nothing saved yet.
    expect(page.locator("#fb-max_speed")).not_to_be_empty()
    editor.get_by_label("Max speed").fill("12")
    expect(page.get_by_test_id("not-saved")).to_have_count(0)
    expect(page.locator("#editor-status")).to_contain_text("Saved.")

    editor.get_by_label("Type", exact=True).select_option("skirmisher")
    expect(editor.get_by_label("Max speed")).to_have_count(0)
    expect(editor.get_by_label("ATT", exact=True)).to_be_visible()


@pytest.mark.parametrize(("size", "viewport"), [("desk", DESK), ("phone", PHONE)])
def test_missile_rows_show_whole_names_and_fires_labels(page, artifacts, size, viewport):
    bow = {"name": "Cannon of the north gate", "off": 5, "att": 1, "range": 24}
    slow = bow | {"name": "Heavy mortar", "fire": "every-other-turn"}
    archers = SKIRMISHER | {"missile": [bow, slow]}
    username = f"gunner{size}"
    army = ArmyFactory(owner=UserFactory(username=username), system="gem", profiles=[archers])
    page.set_viewport_size(viewport)
    log_in(page, username)
    page.goto(f"/armies/{army.pk}/")
    page.get_by_role("link", name="Unit 1", exact=True).click()
    editor = page.locator("#unit-form")
    name = editor.get_by_label("Missile weapons row 1: Name")
    expect(name).to_have_value("Cannon of the north gate")
    fires = editor.get_by_label("Missile weapons row 2: Fires")
    expect(fires).to_have_value("every-other-turn")
    name.scroll_into_view_if_needed()
    # The whole name fits its box, and the select is wide enough for its longest label.
    assert name.evaluate("e => e.scrollWidth <= e.clientWidth")
    width = fires.bounding_box()["width"]
    text = fires.evaluate(
        """e => { const c = document.createElement('canvas').getContext('2d');
                 c.font = getComputedStyle(e).font;
                 return Math.max(...[...e.options].map(o => c.measureText(o.text).width)); }"""
    )
    assert width >= text + 24, (width, text)  # + the arrow and padding
    editor.locator(".weapon-rows").last.screenshot(
        path=artifacts / f"editor-missiles-{size}.png", caret="initial"
    )
