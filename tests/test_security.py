from __future__ import annotations

import socket
from unittest import mock

import pytest
from django.db import OperationalError, connection, connections
from django.urls import URLPattern, URLResolver, get_resolver

from armies import services
from armies.models import Army
from tests.factories import UserFactory
from tests.processes import manage

pytestmark = pytest.mark.django_db


def _paths_without_arguments(patterns=None, prefix: str = "") -> list[str]:
    """Every URL in the project that takes no argument: the pages a GET can reach blind."""
    found: list[str] = []
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        route = str(entry.pattern)
        if "<" in route or "(?P" in route:
            continue
        route = route.lstrip("^").rstrip("$")
        if isinstance(entry, URLResolver):
            found += _paths_without_arguments(entry.url_patterns, prefix + route)
        elif isinstance(entry, URLPattern):
            found.append("/" + prefix + route)
    return found


def test_the_url_walk_finds_the_account_pages():
    paths = _paths_without_arguments()
    assert {"/", "/accounts/login/", "/accounts/signup/", "/healthz"} <= set(paths)


@pytest.mark.parametrize("logged_in", [False, True], ids=["anonymous", "logged-in"])
def test_every_page_sends_a_content_security_policy_without_inline_code(client, logged_in):
    if logged_in:
        client.force_login(UserFactory(is_staff=True, is_superuser=True))
    for path in _paths_without_arguments():
        response = client.get(path)
        policy = response.headers.get("Content-Security-Policy", "")
        assert "default-src 'self'" in policy, path
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, path
        assert "frame-ancestors 'none'" in policy, path


def test_pages_send_security_headers(client):
    response = client.get("/")
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert response.headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_pages_have_no_inline_scripts_or_styles(client):
    client.force_login(UserFactory())
    html = client.get("/").content.decode()
    assert "<script>" not in html and "style=" not in html
    assert "<script src=" in html


def _cache_control(response) -> set[str]:
    return {part.strip() for part in response.headers.get("Cache-Control", "").split(",")}


def test_no_page_drawn_for_a_signed_in_player_may_be_kept_by_any_cache(client):
    player = UserFactory()
    army = Army.objects.create(owner=player, name="Orcs", system="gem")
    services.share_army(army)
    client.force_login(player)
    # Not the pricing and fight APIs, the web app manifest, the service worker's code or
    # the scripts' words: they read no session, so what they answer is nobody's.
    unread = (
        "/admin/",
        "/api/price/",
        "/api/fight/",
        "/manifest.webmanifest",
        "/sw.js",
        "/jsi18n/",
    )
    pages = [p for p in _paths_without_arguments() if not p.startswith(unread)]
    pages += [f"/armies/{army.pk}/", f"/armies/{army.pk}/export.json"]
    pages += [f"/armies/{army.pk}/roster/", f"/armies/{army.pk}/settings/"]

    for path in pages:
        response = client.get(path)
        assert {"private", "no-store"} <= _cache_control(response), path
    htmx = client.get(f"/armies/{army.pk}/settings/", headers={"HX-Request": "true"})
    assert {"private", "no-store"} <= _cache_control(htmx)


@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "signed-in"])
def test_share_pages_are_kept_by_no_cache_so_revoking_works_at_once(client, signed_in):
    owner = UserFactory()
    army = Army.objects.create(owner=owner, name="Orcs", system="gem")
    token = services.share_army(army)
    if signed_in:
        client.force_login(UserFactory())

    pages = [client.get(f"/s/{token}/"), client.get(f"/s/{token}/roster/")]
    services.share_army(army)  # regenerated: the old link is revoked
    revoked = client.get(f"/s/{token}/")

    assert [page.status_code for page in pages] == [200, 200]
    for page in pages:
        assert "no-store" in _cache_control(page)
    assert revoked.status_code == 404
    assert "no-store" in _cache_control(revoked)


def test_public_pages_for_anonymous_visitors_may_still_be_cached(client):
    assert "no-store" not in _cache_control(client.get("/rules/interpretations/"))


def test_htmx_requests_carry_the_csrf_token(client):
    client.get("/")
    html = client.get("/").content.decode()
    token = client.cookies["csrftoken"].value
    assert 'data-hx-headers=\'{"X-CSRFToken": "' in html
    assert len(token) >= 32
    assert "htmx-2.min.js" in html


def test_healthz_says_ok_when_the_database_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "cache": "ok"}


def test_healthz_answers_503_when_the_database_cannot_be_reached(client):
    broken = OperationalError("connection to server at 127.0.0.1 port 5432 failed")
    with mock.patch.object(connections["default"], "cursor", side_effect=broken):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "database": "unreachable"}
    assert "no-cache" in response.headers["Cache-Control"]


def test_a_load_balancer_probing_a_node_by_its_ip_gets_an_answer(client, settings):
    # Probes often send the node's own address as the Host, which no ALLOWED_HOSTS lists.
    settings.ALLOWED_HOSTS = ["muster.example.org"]
    by_ip = {"HTTP_HOST": "10.0.3.17:8000"}

    assert client.get("/healthz", **by_ip).json() == {"status": "ok", "cache": "ok"}
    broken = OperationalError("connection to server at 127.0.0.1 port 5432 failed")
    with mock.patch.object(connections["default"], "cursor", side_effect=broken):
        assert client.get("/healthz", **by_ip).status_code == 503
    # Only the probe: every page still refuses a Host it does not know.
    client.raise_request_exception = False
    assert client.get("/", **by_ip).status_code == 400
    assert client.get("/healthz/", **by_ip).status_code == 400
    # With its own name the probe goes through every middleware, as pages do.
    named = client.get("/healthz", HTTP_HOST="muster.example.org")
    assert named.json() == {"status": "ok", "cache": "ok"}
    assert "default-src 'self'" in named.headers["Content-Security-Policy"]


def test_healthz_answers_503_from_a_server_whose_database_is_down():
    # End to end: a real process configured for a PostgreSQL nobody listens on.
    result = manage(
        "shell",
        "-c",
        "from django.test import Client\n"
        "response = Client(HTTP_HOST='localhost').get('/healthz')\n"
        "print(response.status_code, response.json()['database'])",
        DATABASE_URL="postgres://muster@127.0.0.1:1/muster",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "503 unreachable"


@pytest.fixture
def silent_database():
    """A port that accepts connections and never says a word, as a stuck database does."""
    server = socket.create_server(("127.0.0.1", 0))
    yield server.getsockname()[1]
    server.close()


def test_healthz_gives_up_on_a_database_that_never_answers(silent_database):
    # Without a connect timeout psycopg waited 130 s, past gunicorn's 30 s worker timeout:
    # every page hung, and so did the probe meant to take the node out of rotation.
    result = manage(
        "shell",
        "-c",
        "import time\n"
        "from django.test import Client\n"
        "started = time.monotonic()\n"
        "response = Client(HTTP_HOST='localhost').get('/healthz')\n"
        "print(response.status_code, round(time.monotonic() - started, 1))",
        timeout=60,
        DATABASE_URL=f"postgres://muster@127.0.0.1:{silent_database}/muster",
    )
    assert result.returncode == 0, result.stderr
    status, seconds = result.stdout.strip().splitlines()[-1].split()
    assert status == "503"
    assert float(seconds) < 5  # 2 s, the shortest connect timeout PostgreSQL's client takes


def test_a_request_waits_at_most_five_seconds_for_the_database():
    # A query stuck behind a lock or a busy server ends the request, not the worker:
    # PostgreSQL stops the statement; SQLite gives up waiting for the write lock.
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SHOW statement_timeout")
            assert cursor.fetchone()[0] == "5s"
    else:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA busy_timeout")
            assert cursor.fetchone()[0] == 5000


def test_sqlite_database_runs_in_wal_mode(tmp_path):
    # The embedded default: a real SQLite file, opened the way the settings open it.
    database = tmp_path / "muster.sqlite3"
    result = manage(
        "shell",
        "-c",
        "from django.db import connection\n"
        "with connection.cursor() as c:\n"
        "    c.execute('PRAGMA journal_mode'); print(c.fetchone()[0])",
        DATABASE_URL=f"sqlite:///{database}",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "wal"


def test_production_settings_pass_the_deploy_check():
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="false",
        SECRET_KEY="a-real-secret-" + "x7Qp2" * 12,
        ALLOWED_HOSTS="muster.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout + result.stderr


def test_production_without_a_secret_key_refuses_to_start_with_a_clear_message():
    result = manage("check", DEBUG="false", SECRET_KEY="", ALLOWED_HOSTS="muster.example.org")
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_every_page_the_phone_may_keep_says_whose_it_is_without_naming_them(client):
    """Issue #45: the service worker keeps a page for the account it was drawn for, and
    wipes what it keeps when an answer names another. The tag says nothing of who."""
    owner = UserFactory(username="tagowner")
    army = Army.objects.create(owner=owner, name="Orcs", system="gem")
    token = services.share_army(army)
    kept = ["/armies/", f"/armies/{army.pk}/play/", f"/armies/{army.pk}/roster/", f"/s/{token}/"]

    def tags() -> set[str]:
        found = set()
        for path in kept:
            page = client.get(path, follow=True)
            html = page.content.decode()
            tag = page["X-Muster-Account"]
            assert f'data-account="{tag}"' in html, path
            found.add(tag)
        return found

    assert tags() == {"anon"}  # signed out: the log-in page, and the share page
    client.force_login(owner)
    [mine] = tags()
    assert mine != "anon" and len(mine) == 32
    assert "tagowner" not in mine and mine != str(owner.pk)
    client.force_login(UserFactory())
    other = client.get(f"/s/{token}/")["X-Muster-Account"]
    assert other not in {mine, "anon"}
    logged_out = client.post("/accounts/logout/")
    assert logged_out["X-Muster-Account"] == "anon"
    # An answer that is nobody's page says nothing: the pricing API.
    assert "X-Muster-Account" not in client.post("/api/price/", "{}", "application/json")
