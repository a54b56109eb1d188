"""The benchmark's floors (benchmarks/floor.py) take the steps they are named after, so
what `http_bench.py` prints for them is what those steps cost a save."""

from __future__ import annotations

import pytest

from tests.armies.conftest import make_army
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.urls("benchmarks.floor")]

# SPEC 3.2's worked example: a 25 mm skirmisher with OFF 4 and DEF 4 costs 6.5 points.
SWORDSMAN = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}


def _post(client, level, army, unit, version, name="Renamed"):
    return client.post(
        f"/floor/{level}/{army.pk}/{unit.pk}/", {"version": str(version), "name": name}
    )


def test_saved_floor_claims_the_next_version_and_writes_the_name(player_client, player):
    army = make_army(player, "gem", [SWORDSMAN])
    unit, seen = army.units.get(), army.version

    response = _post(player_client, "saved", army, unit, seen)

    assert response.status_code == 200
    army.refresh_from_db()
    unit.refresh_from_db()
    assert army.version == seen + 1
    assert unit.name == "Renamed"
    assert f'value="{seen + 1}"' in response.content.decode()
    # As the real save does, one from the version before is refused and writes nothing.
    stale = _post(player_client, "saved", army, unit, seen, name="From a stale tab")
    assert stale.status_code == 409
    unit.refresh_from_db()
    assert unit.name == "Renamed"


def test_priced_floor_answers_the_total_of_the_army_after_the_save(player_client, player):
    army = make_army(player, "gem", [SWORDSMAN, SWORDSMAN])
    unit = army.units.first()

    response = _post(player_client, "priced", army, unit, army.version)

    assert response.status_code == 200
    assert response.content.decode().endswith(">13")  # two swordsmen at 6.5
    unit.refresh_from_db()
    assert unit.name == "Renamed"


def test_signed_in_floor_reads_the_army_and_changes_nothing(player_client, player):
    army = make_army(player, "gem", [SWORDSMAN])
    unit, seen = army.units.get(), army.version

    response = _post(player_client, "signed-in", army, unit, seen)

    assert response.status_code == 200
    army.refresh_from_db()
    unit.refresh_from_db()
    assert (army.version, unit.name) == (seen, "Unit 1")


@pytest.mark.parametrize("level", ["signed-in", "saved", "priced"])
def test_floors_are_for_the_owner_only(client, player, level):
    army = make_army(player, "gem", [SWORDSMAN])
    unit = army.units.get()
    assert _post(client, level, army, unit, army.version).status_code == 302  # to log-in
    other = UserFactory()
    client.force_login(other)
    assert _post(client, level, army, unit, army.version).status_code == 404
    # Nor through an army of their own with this unit's id.
    own = make_army(other, "gem", [SWORDSMAN])
    assert _post(client, level, own, unit, own.version).status_code == 404
    unit.refresh_from_db()
    assert unit.name != "Renamed"
