"""The pricing benchmark's /api/price/ bodies are armies the API takes and prices: a body
refused at the door would print a fast figure for work never done."""

from __future__ import annotations

import pytest

from benchmarks.price_bench import API_BODIES, largest_body
from points.armyfile import MAX_FILE_BYTES

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("label", API_BODIES)
def test_each_benchmark_body_is_priced_by_the_api_near_its_size_limit(client, label):
    system, unit = API_BODIES[label]
    body = largest_body(system, unit)

    response = client.post("/api/price/", body, content_type="application/json")

    assert response.status_code == 200, response.content[:300]
    units = response.json()["units"]
    # Either as many units as a file may hold, or as many as fit in 1 MB.
    assert len(units) == 1000 or len(body) > 0.8 * MAX_FILE_BYTES
    assert all(unit["breakdown"] for unit in units)
