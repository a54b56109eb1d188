"""Fuzzing POST /api/price/: any body gets JSON back with 200, 400 or 413, never a 500."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from hypothesis import event, given
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from tests.adversarial.strategies import FUZZING, bodies, broken_army, deep
from tests.points.strategies import army_file

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

URL = "/api/price/"


@pytest.fixture(autouse=True)
def _no_request_limit(settings):
    # Hundreds of bodies from one address: past the per-address limits on requests and on
    # bytes (each tested on its own).
    settings.PRICE_API_PER_MINUTE = 1_000_000
    settings.PRICE_API_BYTES_PER_MINUTE = 1_000_000_000


def _price(client: Client, body: bytes | str, content_type: str = "application/json"):
    response = client.post(URL, data=body, content_type=content_type)
    assert response.status_code in {200, 400, 413}, response.content[:200]
    assert response["Content-Type"] == "application/json"
    out = response.json()
    if response.status_code == 200:
        assert {"total", "units", "errors", "warnings"} <= set(out)
    else:
        assert set(out) == {"error"} and "\n" not in out["error"]
    if currently_in_test_context():
        event(f"status {response.status_code}")
    return response


@FUZZING
@given(body=bodies)
def test_any_body_is_answered_with_json(client, body):
    _price(client, body)


@FUZZING
@given(army=broken_army())
def test_valid_armies_with_hostile_values_swapped_in(client, army):
    _price(client, json.dumps(army))


@FUZZING
@given(
    raw=st.binary(max_size=300),
    content_type=st.sampled_from(
        [
            "application/json",
            "text/plain",
            "multipart/form-data",
            "application/x-www-form-urlencoded",
        ]
    ),
)
def test_raw_bytes_of_any_content_type(client, raw, content_type):
    _price(client, raw, content_type)


@FUZZING
@given(army=army_file())
def test_valid_armies_are_priced(client, army):
    assert _price(client, json.dumps(army)).status_code == 200


@pytest.mark.parametrize(
    "body",
    [
        deep(10_000, "list"),
        deep(10_000, "dict"),
        '{"format": "muster-army/1", "name": "x", "system": "gem", "units": '
        + deep(10_000, "list")
        + "}",
        "1e308",
        "1e400",
        "9" * 5000,
        '{"format": "muster-army/1", "name": "x", "system": "gem", "points_limit": 1e308, '
        '"units": []}',
        '{"format": "muster-army/1", "name": "x", "system": "gem", "points_limit": '
        + "1" * 400
        + ', "units": []}',
        '{"name": "\\u0000"}',
        "\x00",
    ],
    ids=lambda b: b[:30],
)
def test_hostile_bodies_named_in_the_issue_are_400(client, body):
    assert _price(client, body).status_code == 400


@pytest.mark.parametrize("stat", ["1000d1000", "100d1000+100d1000", "d6", "101d6", "1d1001"])
def test_dice_bombs_in_a_thousand_units_are_priced_or_refused(client, stat):
    army = {
        "format": "muster-army/1",
        "name": "Bombs",
        "system": "gem",
        "units": [
            {
                "name": "Cannon",
                "quantity": 1000,
                "profile": {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4, "mov": stat},
            }
        ]
        * 1000,
    }
    response = _price(client, json.dumps(army))
    if stat in {"d6", "100d1000+100d1000"}:
        assert response.json()["total"] > 0
    else:
        assert response.json()["error"].startswith("units[0].profile.mov")
