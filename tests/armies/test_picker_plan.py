"""Issue 45, item 4: the Table 1 page and the fight calculator offer the player's own
units without reading anyone else's. Asked with a subquery of the player's armies,
SQLite's planner walked the index of `deleted_at` through every live unit of every
account (215,209 rows for a player with 3 units; past gunicorn's 30 s on a large site)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import ArmyFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

KNIGHT = {"type": "block", "base": "20mm", "off": 6, "att": 2, "def": 7, "hit": 2}


def _unit_reads(client, url: str) -> list[str]:
    """How SQLite reads the units table for each query the page makes that reads it."""
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    plans = []
    with connection.cursor() as cursor:
        for query in queries.captured_queries:
            sql = query["sql"]
            if sql.startswith("SELECT") and '"armies_unit"' in sql:
                cursor.execute("EXPLAIN QUERY PLAN " + sql)
                plans += [row[-1] for row in cursor.fetchall() if "armies_unit" in row[-1]]
    return plans


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's query planner")
@pytest.mark.parametrize(
    "page", ["/rules/gem/table-1/?attacker={pk}", "/rules/gem/fight/?a_unit={pk}"]
)
def test_the_unit_pickers_read_only_the_players_armies_units(player_client, player, page):
    others = UserFactory()
    for _ in range(3):
        ArmyFactory(owner=others, system="gem", profiles=[KNIGHT] * 5)
    mine = ArmyFactory(owner=player, system="gem", profiles=[KNIGHT] * 3)

    plans = _unit_reads(player_client, page.format(pk=mine.units.first().pk))

    assert plans
    # By army (the index of army_id) or by id, never through deleted_at nor a whole scan.
    assert all("army_id" in plan or "PRIMARY KEY" in plan for plan in plans), plans
