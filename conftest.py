"""Root fixtures shared by every test package."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

# Property tests: a quick, repeatable `ci` profile by default; `thorough` on request
# (HYPOTHESIS_PROFILE=thorough bin/test) digs far deeper. No test sets its own count.
_SLOW_IS_FINE = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile(
    "ci", max_examples=30, derandomize=True, deadline=None, suppress_health_check=_SLOW_IS_FINE
)
settings.register_profile(
    "thorough", max_examples=400, deadline=None, suppress_health_check=_SLOW_IS_FINE
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Marks by folder, so a run can pick what can differ between databases (see pyproject.toml).
_MARKS_BY_FOLDER = {"points": "engine", "browser": "browser"}


def pytest_collection_modifyitems(items):
    for item in items:
        parts = item.path.parts
        if "tests" in parts and len(parts) > parts.index("tests") + 1:
            mark = _MARKS_BY_FOLDER.get(parts[parts.index("tests") + 1])
            if mark:
                item.add_marker(mark)
    # pytest-django has put the tests in Django's order: in a transaction, then emptying
    # the database (after which what the migrations wrote is gone), then no database.
    # Keep that, but start the `slow` ones first within it, and the slow ones with no
    # database before everything: a parallel run then never ends on one worker running a
    # long test after the other has finished (xdist hands tests out in this order).
    items.sort(key=_start_order)


_TRANSACTIONAL_FIXTURES = {"transactional_db", "live_server", "django_db_reset_sequences"}


def _start_order(item) -> tuple[int, int]:
    slow = item.get_closest_marker("slow") is not None
    marker = item.get_closest_marker("django_db")
    fixtures = set(getattr(item, "fixturenames", ()))
    emptying = marker and (marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences"))
    if emptying or fixtures & _TRANSACTIONAL_FIXTURES:
        group = 2
    elif marker or "db" in fixtures:
        group = 1
    else:
        group = 0 if slow else 3
    return group, 0 if slow else 1


# Playwright's sync API runs an event loop in the test thread; Django's ORM would
# otherwise refuse to run there. Only tests set this.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(autouse=True)
def _empty_cache():
    # Each test starts with nothing remembered from the one before.
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _english_again():
    # A request through the test client leaves its language active in the thread
    # (LocaleMiddleware activates it and nothing deactivates it): a test that asked for
    # /de/ would otherwise make the next one's reverse() answer German addresses.
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture
def player(db):
    from tests.factories import UserFactory

    return UserFactory()


@pytest.fixture
def player_client(client, player):
    client.force_login(player)
    return client
