"""`POST /api/price/` weighs each address by what it posts: a budget of bytes a minute
on top of the request count (#28.9), counted in the database every worker shares."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from accounts.models import Strikes
from benchmarks.price_bench import gem_unit_of_stats, largest_body, longest_decimal
from tests.samples import VSGMR_SAMPLES

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

URL = "/api/price/"
DWARVES = (VSGMR_SAMPLES / "dwarves.json").read_bytes()


def _post(client, body: bytes | str, **extra):
    return client.post(URL, data=body, content_type="application/json", **extra)


def test_an_address_that_has_posted_its_bytes_for_the_minute_is_refused_unread(client, settings):
    settings.PRICE_API_PER_MINUTE = 100
    settings.PRICE_API_BYTES_PER_MINUTE = 3 * len(DWARVES) + len(DWARVES) // 2  # 3.5 armies

    answered = [_post(client, DWARVES).status_code for _ in range(3)]
    with mock.patch("armies.api.points.loads") as loads:
        refused = _post(client, DWARVES)
    elsewhere = _post(client, DWARVES, REMOTE_ADDR="192.0.2.7")

    assert answered == [200, 200, 200]
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert "bytes a minute" in refused.json()["error"]
    loads.assert_not_called()
    assert elsewhere.status_code == 200


def test_a_smaller_body_still_fits_what_is_left_of_the_budget(client, settings):
    settings.PRICE_API_PER_MINUTE = 100
    settings.PRICE_API_BYTES_PER_MINUTE = len(DWARVES) + 100

    assert _post(client, DWARVES).status_code == 200
    assert _post(client, DWARVES).status_code == 429
    # 100 bytes are left: a short (unreadable) body is still read and answered.
    assert _post(client, b"{}").status_code == 400


def test_the_budget_comes_back_after_a_minute(client, settings):
    settings.PRICE_API_PER_MINUTE = 100
    settings.PRICE_API_BYTES_PER_MINUTE = len(DWARVES)
    assert _post(client, DWARVES).status_code == 200
    assert _post(client, DWARVES).status_code == 429

    later = timezone.now() + timedelta(seconds=61)
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert _post(client, DWARVES).status_code == 200


def test_by_default_one_largest_army_a_minute_is_priced_in_full(client):
    # The 1 MB limit stays, and so does every line of the explanation.
    body = largest_body("gem", gem_unit_of_stats(longest_decimal))
    assert 900_000 < len(body) <= 1_000_000

    first = _post(client, body)
    second = _post(client, body)

    assert first.status_code == 200
    units = first.json()["units"]
    assert len(units) == body.count('"name": "unit ') and all(u["breakdown"] for u in units)
    assert second.status_code == 429 and "Retry-After" in second


def test_the_bytes_are_counted_where_every_worker_reads_them(client, settings):
    settings.PRICE_API_PER_MINUTE = 100
    _post(client, DWARVES)
    _post(client, DWARVES)

    # In the database (Strikes), as the request count is: not in one process's memory.
    assert Strikes.objects.get(key="api-price:bytes:127.0.0.1").count == 2 * len(DWARVES)


@pytest.mark.parametrize("url", ["/api/price/", "/api/fight/"])
def test_a_content_length_that_is_not_a_number_is_read_as_nothing_declared(client, url):
    # The body is still read and charged to the address's byte budget, and answered.
    response = client.post(url, data="{}", content_type="application/json", CONTENT_LENGTH="x")
    assert response.status_code in {400, 413}
    assert response["Content-Type"] == "application/json"
