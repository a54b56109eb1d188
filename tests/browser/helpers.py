"""What a player does in the browser again and again, for every browser test to use."""

from __future__ import annotations

import copy

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from armies import services
from rules.catalog import SAMPLES
from tests.factories import ArmyFactory, UserFactory, sample_file
from tests.samples import GEMINI_TANK

# The live server this test process runs (pytest-django's live_server): conftest.py
# fills it in before each browser test.
LIVE_SERVER: dict[str, str] = {}


def log_in(page, username: str) -> None:
    """The browser is signed in as `username`, as the log-in form would leave it.

    The session is made on the server through Django's own login (what the form's view
    calls) and its cookie handed to the browser: no log-in page is drawn for each test.
    tests/browser/test_smoke.py signs up and logs in through the form itself."""
    client = Client()
    client.force_login(User.objects.get(username=username))
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": cookie.value,
                "url": LIVE_SERVER["url"],
                "httpOnly": settings.SESSION_COOKIE_HTTPONLY,
                "sameSite": settings.SESSION_COOKIE_SAMESITE or "Lax",
            }
        ]
    )


def start_blank_unit(page) -> None:
    """Add unit opens the picker; a blank unit is its first choice."""
    page.get_by_role("link", name="Add unit").click()
    page.get_by_test_id("unit-picker").get_by_role("button", name="Start blank").click()


# The screens players use: a laptop's and a phone's, as players hold it.
DESK = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
# What players' screens are (issue 28): a page checked for them is checked at both.
WIDTHS = {"desk": DESK, "phone": PHONE}

# VSGMR (SPEC 3.3): a troop guy is 1 point, so a unit of them costs its quantity.
TROOP = {"kind": "guy", "flavor": "troop"}


def two_troops(page, username: str):
    """`username`'s VSGMR army of two units of one troop guy (1 point each), on its
    builder with the first unit open in the editor: (army, first unit, second unit)."""
    army = ArmyFactory(
        owner=UserFactory(username=username),
        system="vsgmr",
        profiles=[TROOP, TROOP],
        name="Militia",
    )
    first, second = army.units.order_by("position")
    log_in(page, username)
    page.goto(f"/armies/{army.pk}/?unit={first.pk}")
    return army, first, second


# A name as long as a name may be, without a space to break at; and one with markup.
LONG = ("Longname" * 25)[:200]
MARKUP = "[b]x[/b] <b>y</b>"


def named_army(owner, system: str):
    """The system's first sample army with every name at its worst: 200 characters
    without a space, or markup a player might type."""
    sample = next(s for s in SAMPLES if s.system == system)
    data = copy.deepcopy(sample.army())
    data["name"] = f"{MARKUP} {LONG[:150]}"
    data["units"][0]["name"] = LONG
    data["units"][1]["name"] = MARKUP
    data["units"][2]["name"] = LONG[:185] + MARKUP[:15]
    for unit in data["units"]:
        for key in ("melee", "missile"):
            for weapon in unit["profile"].get(key, []):
                weapon["name"] = LONG
    return ArmyFactory(owner=owner, file=data)


def page_width(page) -> int:
    """How wide the page is drawn: wider than the window, it scrolls sideways."""
    return page.evaluate("document.documentElement.scrollWidth")


def shared_gem_army() -> str:
    """A shared GEM army (the SPEC 3.2 worked examples, three knights, a Gemini tank, notes):
    its share token."""
    doc = sample_file("worked_examples", "gem")
    doc["name"] = "Iron Duke's warband"
    doc["points_limit"] = 4000
    doc["units"][2]["quantity"] = 3  # Knights
    doc["units"].append(GEMINI_TANK)
    army = ArmyFactory(owner=UserFactory(), file=doc)
    services.save_settings(
        army, {"notes": "Deploys on the left flank; the tanks hold the road."}, None
    )
    return services.share_army(army)


# How dark each row of pixels is drawn, from a PNG: Chromium decodes it in a blank page
# (no Content-Security-Policy there to refuse a data: image) and reads its canvas.
ROW_SHADE = """async (data) => {
  const image = new Image();
  image.src = "data:image/png;base64," + data;
  await image.decode();
  const canvas = new OffscreenCanvas(image.width, image.height);
  const drawn = canvas.getContext("2d");
  drawn.drawImage(image, 0, 0);
  const pixels = drawn.getImageData(0, 0, image.width, image.height).data;
  const rows = [];
  for (let y = 0; y < image.height; y++) {
    let dark = 0;
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 4;
      dark += 255 - (0.2126 * pixels[i] + 0.7152 * pixels[i + 1] + 0.0722 * pixels[i + 2]);
    }
    rows.push(dark / image.width);
  }
  return rows;
}"""


def row_shades(locator) -> list[float]:
    """How dark each row of pixels of `locator`'s box is drawn, top to bottom (0: white,
    255: black). Captured through Chromium's DevTools protocol, which a whole run's
    switched-off screenshots (conftest.py) leave alone: this test reads what it captures."""
    page = locator.page
    box = locator.bounding_box()
    clip = {**box, "scale": 1}
    devtools = page.context.new_cdp_session(page)
    try:
        png = devtools.send("Page.captureScreenshot", {"format": "png", "clip": clip})["data"]
    finally:
        devtools.detach()
    blank = page.context.new_page()
    try:
        return blank.evaluate(ROW_SHADE, png)
    finally:
        blank.close()
