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


# Playwright's sync API runs an event loop in the test thread; Django's ORM would
# otherwise refuse to run there. Only tests set this.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(autouse=True)
def _empty_cache():
    # Each test starts with nothing remembered from the one before.
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def player(db):
    from tests.factories import UserFactory

    return UserFactory()


@pytest.fixture
def player_client(client, player):
    client.force_login(player)
    return client
