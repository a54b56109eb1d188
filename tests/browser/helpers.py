"""What a player does in the browser again and again, for every browser test to use."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import ArmyFactory, UserFactory

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
