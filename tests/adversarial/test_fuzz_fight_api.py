"""Fuzzing POST /api/fight/: any body gets JSON back with 200, 400, 413 or 422, never a 500."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from tests.adversarial.strategies import FUZZING, bodies, json_values

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

URL = "/api/fight/"


@pytest.fixture(autouse=True)
def _no_request_limit(settings):
    settings.PRICE_API_PER_MINUTE = 1_000_000
    settings.PRICE_API_BYTES_PER_MINUTE = 1_000_000_000


def _fight(client: Client, body: str):
    response = client.post(URL, data=body, content_type="application/json")
    assert response.status_code in {200, 400, 413, 422}, response.content[:200]
    out = response.json()
    if response.status_code == 200:
        assert {"a_wins", "b_wins", "draw", "lines"} <= set(out)
    else:
        assert "error" in out and "\n" not in out["error"]
    return response


@FUZZING
@given(body=bodies)
def test_any_body_is_answered_with_json(client, body):
    _fight(client, body)


units = st.fixed_dictionaries(
    {
        "name": st.text(max_size=5),
        "profile": st.dictionaries(
            st.sampled_from(
                [
                    "kind",
                    "flavor",
                    "type",
                    "base",
                    "off",
                    "def",
                    "hit",
                    "att",
                    "siz",
                    "cqc",
                    "armor",
                    "traits",
                    "weapons",
                    "defence",
                    "physique",
                ]
            ),
            json_values,
            max_size=6,
        ),
    },
    optional={"quantity": json_values},
)


@FUZZING
@given(
    system=st.sampled_from(["vsgmr", "gem", "d10"]),
    a=units,
    b=units,
    extra=st.dictionaries(
        st.sampled_from(["fight", "cover", "modifiers", "frontage"]), json_values, max_size=3
    ),
)
def test_fights_with_hostile_values(client, system, a, b, extra):
    _fight(client, json.dumps({"system": system, "a": a, "b": b, **extra}))
