"""Degraded, not down (SPEC 6, #28.10): a stuck cache is a miss, a stuck database a 503."""

from __future__ import annotations

import socket
import sqlite3
import threading
import time

import psycopg
import pytest
from django.db import connection

from armies import services
from config.settings import redis_cache
from tests.factories import ArmyFactory
from tests.processes import manage

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

SWORDSMAN = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}


@pytest.fixture
def hung_redis(settings):
    """The cache as REDIS_URL configures it, at a port that accepts and never answers."""
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    settings.CACHES = {"default": redis_cache(f"redis://127.0.0.1:{port}/0", 0.2)}
    yield
    server.close()


def test_with_a_hung_redis_army_pages_are_drawn_without_the_cache(client, player, hung_redis):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * 3, name="Iron Guard")
    token = services.share_army(army)
    client.force_login(player)
    pages = [
        f"/armies/{army.pk}/",
        f"/s/{token}/",
        f"/armies/{army.pk}/roster/",
        f"/armies/{army.pk}/export.txt",
        f"/s/{token}/cards/",
    ]

    started = time.monotonic()
    answers = [client.get(page) for page in pages]
    seconds = time.monotonic() - started

    assert [a.status_code for a in answers] == [200] * len(pages)
    assert all("Iron Guard" in a.content.decode() for a in answers)
    # One short timeout, then the cache is left alone for a while: not one per fragment.
    assert seconds < 3, seconds


def test_healthz_says_the_cache_is_unreachable_while_the_node_still_serves(client, hung_redis):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "degraded", "cache": "unreachable"}


def test_healthz_says_the_cache_answers(client):
    assert client.get("/healthz").json() == {"status": "ok", "cache": "ok"}


def test_the_redis_url_setting_bounds_each_cache_call():
    cache = redis_cache("redis://cache.example:6379/0", 0.25)
    assert cache["BACKEND"] == "config.cache.ResilientRedisCache"
    assert cache["OPTIONS"] == {"socket_timeout": 0.25, "socket_connect_timeout": 0.25}


@pytest.fixture
def locked_armies():
    """Another connection holding the army table's write lock, as a long migration or a
    stuck transaction does; this test's connection waits at most a fifth of a second."""
    release = threading.Event()
    held = threading.Event()
    settings_dict = connection.settings_dict

    def hold_sqlite():
        other = sqlite3.connect(settings_dict["NAME"], isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        held.set()
        release.wait(30)
        other.execute("ROLLBACK")
        other.close()

    def hold_postgres():
        with psycopg.connect(
            host=settings_dict["HOST"],
            port=settings_dict["PORT"] or 5432,
            user=settings_dict["USER"],
            password=settings_dict["PASSWORD"] or None,
            dbname=settings_dict["NAME"],
        ) as other:
            other.execute("LOCK TABLE armies_army IN ACCESS EXCLUSIVE MODE")
            held.set()
            release.wait(30)

    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET statement_timeout = 200")
        else:
            cursor.execute("PRAGMA busy_timeout = 200")
    holder = threading.Thread(
        target=hold_postgres if connection.vendor == "postgresql" else hold_sqlite
    )
    holder.start()
    held.wait(10)
    yield
    release.set()
    holder.join()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET statement_timeout = 5000")
        else:
            cursor.execute("PRAGMA busy_timeout = 5000")


@pytest.mark.django_db(transaction=True)
def test_a_locked_database_answers_503_with_a_short_message(client, player, request):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN], name="Iron Guard")
    client.force_login(player)
    request.getfixturevalue("locked_armies")

    # A write waits for the lock (SQLite) or any query on the table does (PostgreSQL).
    response = client.post(f"/armies/{army.pk}/settings/", {"name": "Renamed", "version": 1})

    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    html = response.content.decode()
    assert "did not answer in time" in html and "Try again in" in html
    assert "Traceback" not in html and "Server Error" not in html


@pytest.fixture
def silent_database():
    """A port that accepts connections and never says a word, as a stuck database does."""
    server = socket.create_server(("127.0.0.1", 0))
    yield server.getsockname()[1]
    server.close()


def test_a_page_whose_database_never_answers_is_a_503_within_seconds(silent_database):
    # End to end, in a process of its own: a signed-in visitor's session is looked up in
    # a PostgreSQL that accepts and never answers.
    result = manage(
        "shell",
        "-c",
        "import time\n"
        "from django.test import Client\n"
        "client = Client(HTTP_HOST='localhost', raise_request_exception=False)\n"
        "client.cookies['sessionid'] = 'x' * 32\n"
        "started = time.monotonic()\n"
        "response = client.get('/armies/')\n"
        "print(response.status_code, response['Retry-After'], b'did not answer' in "
        "response.content, round(time.monotonic() - started, 1))",
        timeout=60,
        DATABASE_URL=f"postgres://muster@127.0.0.1:{silent_database}/muster",
    )
    assert result.returncode == 0, result.stderr
    status, retry_after, message, seconds = result.stdout.strip().splitlines()[-1].split()
    assert (status, retry_after, message) == ("503", "30", "True")
    assert float(seconds) < 5


def test_an_error_that_is_not_the_databases_still_answers_500(rf):
    from config import errors

    try:
        raise ValueError("a bug, not the database")
    except ValueError:
        response = errors.server_error(rf.get("/armies/"))

    assert response.status_code == 500
    assert b"Server Error (500)" in response.content
    assert "Retry-After" not in response
