"""`POST /api/price/`: the army file in, the `price` command's JSON out (SPEC 4 and 5)."""

from __future__ import annotations

import json
import time
from datetime import timedelta
from unittest import mock

import pytest
from django.test import Client
from django.utils import timezone

import points
from benchmarks.price_bench import army_body, gem_unit_of_stats, longest_decimal, longest_dice
from tests.samples import GEM_WORKED_EXAMPLES, VSGMR_SAMPLES

pytestmark = pytest.mark.django_db

URL = "/api/price/"
DWARVES = (VSGMR_SAMPLES / "dwarves.json").read_text(encoding="utf-8")
GEM_EXAMPLES = GEM_WORKED_EXAMPLES.read_text(encoding="utf-8")


def _post(client: Client, body: str):
    return client.post(URL, data=body, content_type="application/json")


def _engine_json(body: str) -> dict:
    """What the engine says, as it would look after a trip through JSON."""
    return json.loads(json.dumps(points.price_army(points.loads(body)).to_json()))


def _with(text: str, **change: object) -> str:
    return json.dumps(json.loads(text) | change)


def test_legal_army_is_priced_with_200(client):
    response = _post(client, DWARVES)

    assert response.status_code == 200
    out = response.json()
    assert out == _engine_json(DWARVES)
    assert (out["system"], out["name"], out["total"], out["points_limit"]) == (
        "vsgmr",
        "Dwarves",
        28,
        28,
    )
    assert [(u["name"], u["each"], u["cost"]) for u in out["units"]] == [
        ("Thane", 4, 4),
        ("Runepriest", 6, 6),
        ("Guards", 6, 18),
    ]
    assert (out["errors"], out["warnings"]) == ([], [])


def test_army_breaking_a_rule_is_still_priced_with_200(client):
    body = _with(DWARVES, points_limit=20)

    response = _post(client, body)

    assert response.status_code == 200
    out = response.json()
    assert out == _engine_json(body)
    assert (out["total"], out["points_limit"]) == (28, 20)
    assert [(e["code"], e["unit"]) for e in out["errors"]] == [("over-limit", None)]


def test_gem_worked_examples_are_priced_per_model(client):
    response = _post(client, GEM_EXAMPLES)

    assert response.status_code == 200
    out = response.json()
    assert [u["each"] for u in out["units"]] == [6.5, 25.3, 54.3, 1348.1, 5.3]
    assert out["total"] == 1439.5


def test_a_vehicle_with_an_off_is_priced_as_without_one(client):
    # SPEC 3.2: a vehicle's OFF is kept but not priced: the Tank stays 1348.1 and the
    # worked examples 1439.5, and its breakdown says why.
    army = json.loads(GEM_EXAMPLES)
    army["units"][3]["profile"]["off"] = 4

    response = _post(client, json.dumps(army))

    assert response.status_code == 200
    out = response.json()
    assert out["units"][3]["each"] == 1348.1
    assert out["total"] == 1439.5
    [off] = [line for line in out["units"][3]["breakdown"] if line["label"] == "OFF"]
    assert off["value"] == "not priced"


def _gem_swordsman(**profile: object) -> str:
    army = json.loads(GEM_EXAMPLES)
    army["units"] = [army["units"][0]]
    army["units"][0]["profile"] |= profile
    return json.dumps(army)


def _dwarves_unit(index: int, **change: object) -> str:
    army = json.loads(DWARVES)
    army["units"][index] |= change
    return json.dumps(army)


def _dwarves_profile(index: int, **change: object) -> str:
    army = json.loads(DWARVES)
    army["units"][index]["profile"] |= change
    return json.dumps(army)


def _dwarves_with_horse(armor: str) -> str:
    army = json.loads(DWARVES)
    horse = {"kind": "cavalry", "armor": armor}
    army["units"].append({"name": "Pony", "quantity": 1, "profile": horse})
    return json.dumps(army)


@pytest.mark.parametrize(
    ("body", "path"),
    [
        pytest.param(_gem_swordsman(off=11), "units[0].profile.off", id="gem-off-11"),
        pytest.param(_gem_swordsman(mov="2d"), "units[0].profile.mov", id="malformed-dice"),
        pytest.param(_gem_swordsman(mov="101d6"), "units[0].profile.mov", id="dice-over-limits"),
        pytest.param(_with(DWARVES, format="muster-army/2"), "format", id="wrong-format"),
        pytest.param(_with(DWARVES, system="warhammer"), "system", id="unknown-system"),
        pytest.param(_dwarves_unit(2, quantity="3"), "units[2].quantity", id="quantity-string"),
        pytest.param(_dwarves_unit(1, quantity=0), "units[1].quantity", id="quantity-zero"),
        pytest.param(
            _dwarves_profile(1, colour="red"), "units[1].profile.colour", id="unknown-profile-key"
        ),
        pytest.param(
            _dwarves_profile(0, traits=["beard-wrath"]),
            "units[0].profile.traits",
            id="unknown-trait",
        ),
        pytest.param(_dwarves_with_horse("none"), "units[3].profile.armor", id="cavalry-no-armor"),
    ],
)
def test_unreadable_army_is_400_naming_the_field(client, body: str, path: str):
    response = _post(client, body)

    assert response.status_code == 400
    out = response.json()
    assert set(out) == {"error"}
    assert out["error"].startswith(path), out["error"]
    assert "\n" not in out["error"]


def test_off_out_of_range_message_is_the_spec_example(client):
    response = _post(client, _gem_swordsman(off=11))

    assert response.json() == {"error": "units[0].profile.off: must be between 1 and 10"}


@pytest.mark.parametrize(
    "body",
    [
        pytest.param('{"format": "muster-army/1", "units": [', id="truncated"),
        pytest.param("name=Dwarves&system=vsgmr", id="form-encoded"),
        pytest.param("", id="empty"),
    ],
)
def test_body_that_is_not_json_is_400(client, body: str):
    response = _post(client, body)

    assert response.status_code == 400
    out = response.json()
    assert set(out) == {"error"}
    assert "JSON" in out["error"]


@pytest.mark.parametrize("body", ["[]", '"Dwarves"', "28", "null"], ids=repr)
def test_json_that_is_not_an_army_object_is_400(client, body: str):
    response = _post(client, body)

    assert response.status_code == 400
    assert set(response.json()) == {"error"}


def test_unknown_top_level_key_is_400_naming_it(client):
    response = _post(client, _with(DWARVES, colour="red"))

    assert response.status_code == 400
    assert response.json()["error"].startswith("colour")


def test_works_without_login_or_csrf_token():
    client = Client(enforce_csrf_checks=True)

    response = client.post(URL, data=DWARVES, content_type="application/json")

    assert response.status_code == 200
    assert response.json()["total"] == 28


def test_body_over_one_megabyte_is_413(client):
    # Valid JSON padded past 1 MiB, so only the size can be the reason.
    body = DWARVES + " " * (1024 * 1024 + 1)

    response = _post(client, body)

    assert response.status_code == 413


def test_get_is_405(client):
    assert client.get(URL).status_code == 405


def _gem_army(units: int, run: str, stat) -> str:
    """A GEM army whose every number is stat(i, k), named `run`."""
    unit = gem_unit_of_stats(stat)
    return army_body("gem", [unit(i) for i in range(units)], name=run)


def _plain_number(i: int, k: int) -> str:
    return str(2 + (i + k) % 3)


def _cpu_seconds_per_byte(client: Client, run: str, stat) -> float:
    best = float("inf")
    for attempt in range(3):
        body = _gem_army(250, f"{run}{attempt}", stat)
        started = time.process_time()
        response = _post(client, body)
        best = min(best, time.process_time() - started)
        assert response.status_code == 200
    return best / len(body)


def test_long_decimals_cost_no_more_per_byte_than_plain_numbers(client):
    # Every stat may carry 62 decimals, and the products of those have 400-digit
    # denominators: measuring their decimals one division at a time made a 1 MB body cost
    # 3.3 s of CPU (2.5 s of it counting decimals), 0.5 s now, on a busy 2-core machine.
    # Measured against plain numbers, so a slow machine slows both: per byte, long
    # decimals cost 2.7 times what plain numbers do before, 0.6 times now.
    decimals = _cpu_seconds_per_byte(client, "long", longest_decimal)
    plain = _cpu_seconds_per_byte(client, "plain", _plain_number)

    assert decimals < plain, (decimals, plain)


def test_long_dice_expressions_cost_no_more_per_byte_than_plain_numbers(client):
    # A 64-character stat holds 21 dice terms: read one regex match and one Fraction
    # sum per term, they cost 1.8 times what plain numbers do per byte; 0.7 times now.
    dice = _cpu_seconds_per_byte(client, "dice", longest_dice)
    plain = _cpu_seconds_per_byte(client, "plain", _plain_number)

    assert dice < plain, (dice, plain)


def test_one_address_may_price_only_so_many_armies_a_minute(client, settings):
    settings.PRICE_API_PER_MINUTE = 3
    answered = [_post(client, DWARVES).status_code for _ in range(3)]

    refused = _post(client, DWARVES)
    elsewhere = client.post(URL, DWARVES, "application/json", REMOTE_ADDR="192.0.2.7")

    assert answered == [200, 200, 200]
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert set(refused.json()) == {"error"}
    assert elsewhere.status_code == 200


def test_refused_requests_are_not_read_and_the_count_starts_again_after_a_minute(client, settings):
    settings.PRICE_API_PER_MINUTE = 1
    _post(client, DWARVES)

    with mock.patch("armies.api.points.loads") as loads:
        assert _post(client, DWARVES).status_code == 429
    later = timezone.now() + timedelta(seconds=61)
    with mock.patch("django.utils.timezone.now", return_value=later):
        again = _post(client, DWARVES)

    loads.assert_not_called()
    assert again.status_code == 200


def test_behind_the_load_balancer_the_limit_is_per_forwarded_address(client, settings):
    settings.PRICE_API_PER_MINUTE = 1
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    balancer = {"REMOTE_ADDR": "10.0.0.2"}

    def post(forwarded: str) -> int:
        return client.post(
            URL, DWARVES, "application/json", HTTP_X_FORWARDED_FOR=forwarded, **balancer
        ).status_code

    # A client cannot dodge the count by sending its own X-Forwarded-For first.
    assert [post("198.51.100.1, 203.0.113.9"), post("198.51.100.2, 203.0.113.9")] == [200, 429]
    assert post("192.0.2.7") == 200
