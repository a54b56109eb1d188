"""The roster sheet as an opponent prints it: shared link, no login, print media."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from armies import services
from tests.browser.helpers import shared_gem_army
from tests.factories import ArmyFactory, UserFactory
from tests.samples import VSGMR_SAMPLES

pytestmark = pytest.mark.django_db(transaction=True)


def test_opponent_prints_a_shared_roster_without_chrome(page, artifacts):
    token = shared_gem_army()
    # SPEC 3.2 worked examples: 6.5 + 25.3 + 3 × 54.3 + 1348.1 + 5.3, and two more tanks
    # (the Gemini characteristics are not priced) at 1348.1.
    total = "4244.3"

    # The `page` fixture starts with no cookie: nobody is logged in.
    page.goto(f"/s/{token}/")
    expect(page.get_by_test_id("army-total")).to_have_text(total)
    page.get_by_role("link", name="Roster sheet").click()
    expect(page).to_have_url(f"/s/{token}/roster/")
    expect(page.get_by_test_id("army-total")).to_have_text(total)
    expect(page.get_by_test_id("share-qr").locator("svg")).to_be_visible()
    # The Print button is revealed by static/js/print.js (no inline script under the CSP).
    expect(page.get_by_role("button", name="Print")).to_be_visible()
    expect(page.get_by_role("link", name="Back")).to_have_attribute("href", f"/s/{token}/")

    page.screenshot(path=artifacts / "roster-screen.png", full_page=True)

    page.emulate_media(media="print")
    expect(page.locator("nav")).not_to_be_visible()
    expect(page.get_by_role("navigation")).to_have_count(0)
    expect(page.get_by_test_id("roster-toolbar")).not_to_be_visible()
    expect(page.get_by_role("button", name="Print")).not_to_be_visible()
    expect(page.get_by_test_id("roster-sheet")).to_be_visible()
    # No wider than 180 mm (680 CSS px), so it fits A4 and US Letter inside 12 mm margins.
    width = page.get_by_test_id("roster-sheet").evaluate("el => el.getBoundingClientRect().width")
    assert width <= 180 / 25.4 * 96 + 0.5
    units = page.get_by_test_id("roster-unit")
    expect(units).to_have_count(6)
    assert units.first.evaluate("el => getComputedStyle(el).breakInside") == "avoid"
    page.screenshot(path=artifacts / "roster-print.png", full_page=True)
    page.pdf(path=artifacts / "roster-print-a4.pdf", format="A4")
    page.pdf(path=artifacts / "roster-print-letter.pdf", format="Letter")


@pytest.mark.parametrize("system", ["vsgmr", "goms", "d10"])
def test_each_systems_roster_prints_cleanly(page, artifacts, system):
    owner = UserFactory()
    if system == "vsgmr":
        doc = json.loads((VSGMR_SAMPLES / "justice-team.json").read_text())
    elif system == "goms":
        doc = {
            "format": "muster-army/1",
            "name": "2nd Platoon, B Company",
            "system": "goms",
            "points_limit": 12,
            "options": {"rerolls": 2, "setup_extensions": 1, "dug_in": True},
            "units": [
                {"name": "1st Section", "quantity": 4, "profile": {"kind": "rifle-section"}},
                {"name": "Platoon HQ", "profile": {"kind": "platoon-hq", "morale": "veteran"}},
                {
                    "name": "Sappers",
                    "profile": {"kind": "engineer-section", "morale": "elite", "men": 6},
                },
                {"name": "Sherman", "profile": {"kind": "vehicle", "vehicle_class": "medium"}},
            ],
        }
    else:
        doc = {
            "format": "muster-army/1",
            "name": "Kilo Team",
            "system": "d10",
            "points_limit": 12,
            "options": {},
            "units": [
                {
                    "name": "Sgt. Hale",
                    "profile": {
                        "leader": True,
                        "shooting": 7,
                        "willpower": 6,
                        "defence": 12,
                        "weapons": ["Carbine/AR", "Pistol (9mm)"],
                    },
                },
                {"name": "Rifleman", "quantity": 3, "profile": {"weapons": ["Carbine/AR"]}},
                {
                    "name": "Gunner",
                    "profile": {"physique": 6, "defence": 11, "weapons": ["SAW/LSW"]},
                },
                {"name": "Marksman", "profile": {"shooting": 8, "weapons": ["DMR/Battle rifle"]}},
            ],
        }
    army = ArmyFactory(owner=owner, file=doc)
    token = services.share_army(army)
    page.goto(f"/s/{token}/roster/")
    page.emulate_media(media="print")
    expect(page.get_by_test_id("roster-toolbar")).not_to_be_visible()
    expect(page.get_by_test_id("roster-unit")).to_have_count(len(doc["units"]))
    page.screenshot(path=artifacts / f"roster-print-{system}.png", full_page=True)
