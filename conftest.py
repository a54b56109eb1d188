"""Root fixtures shared by every test package."""

from __future__ import annotations

import os

import pytest

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
