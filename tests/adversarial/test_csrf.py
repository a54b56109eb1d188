"""CSRF on every write, including htmx posts, for every route in the URLconf.

/api/price/ is the one exemption: it reads no cookie and no session and writes nothing,
so a forged cross-site request can learn or change nothing a direct one could not.
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from tests.adversarial.routes import IGNORED_NAMESPACES, all_routes, fill
from tests.factories import sample_file

# An army file, as a client of the price API sends it.
DWARVES = json.dumps(sample_file("dwarves"))

pytestmark = pytest.mark.django_db

# The stateless APIs: they read no cookie and write nothing but a request count.
CSRF_EXEMPT = {"api-price", "api-fight"}


def _postable_routes() -> list[str]:
    # Admin routes with arguments need admin objects to fill them; the admin is Django's.
    return sorted(
        r.name for r in all_routes() if not (r.kwargs and r.namespace in IGNORED_NAMESPACES)
    )


@pytest.fixture
def owner_client(world) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.owner)
    return client


def test_the_only_csrf_exempt_views_are_the_stateless_apis():
    exempt = {r.name for r in all_routes() if getattr(r.callback, "csrf_exempt", False)}
    assert exempt == CSRF_EXEMPT


@pytest.mark.parametrize("name", sorted(set(_postable_routes()) - CSRF_EXEMPT))
def test_a_post_without_a_csrf_token_is_refused(name, world, owner_client):
    client = owner_client
    route = next(r for r in all_routes() if r.name == name)
    url, data = fill(route, world)

    plain = client.post(url, data)
    htmx = client.post(url, data, headers={"HX-Request": "true"})

    assert (plain.status_code, htmx.status_code) == (403, 403), url
    assert b"CSRF verification failed" in htmx.content


def _htmx_token(client: Client, world) -> str:
    # The token exactly as htmx sends it: from the page's data-hx-headers attribute.
    html = client.get(world.army.get_absolute_url()).content.decode()
    headers = re.search(r"data-hx-headers='([^']+)'", html).group(1)
    return json.loads(headers)["X-CSRFToken"]


@pytest.mark.parametrize("name", _postable_routes())
def test_an_htmx_post_with_the_header_token_gets_past_csrf(name, world, owner_client):
    client = owner_client
    route = next(r for r in all_routes() if r.name == name)
    url, data = fill(route, world)
    token = _htmx_token(client, world)

    response = client.post(url, data, headers={"HX-Request": "true", "X-CSRFToken": token})

    assert response.status_code != 403, url


def test_a_forged_header_token_is_refused(world, owner_client):
    client = owner_client
    _htmx_token(client, world)  # the real cookie is set; the header does not match it
    url = f"/armies/{world.army.pk}/units/add/"

    response = client.post(url, headers={"HX-Request": "true", "X-CSRFToken": "x" * 64})

    assert response.status_code == 403
    assert world.army.units.count() == 2


def test_the_pricing_api_never_reads_the_session(owner_client):
    client = owner_client

    response = client.post("/api/price/", data=DWARVES, content_type="application/json")

    assert response.status_code == 200
    # Reading the session (or request.user) would add "Vary: Cookie"; setting one, a cookie.
    assert "Cookie" not in response.headers.get("Vary", "")
    assert not response.cookies
    anonymous = Client(enforce_csrf_checks=True).post(
        "/api/price/", data=DWARVES, content_type="application/json"
    )
    assert anonymous.json() == response.json()
