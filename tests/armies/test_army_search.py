"""The army list's search costs the same however many units the armies hold (#28.6):
it reads army names and tag names (an account has at most so many of each), never units."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import ArmyFactory

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

TROOP = {"kind": "guy", "flavor": "troop"}


def _names(html: str) -> list[str]:
    rows = html.split('data-testid="army-row"')[1:]
    return [re.search(r'<a href="/armies/\d+/">([^<]*)</a>', row)[1] for row in rows]


def _search(client, query: str) -> tuple[str, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/armies/", {"q": query, "sort": "name"})
    assert response.status_code == 200
    return response.content.decode(), [q["sql"] for q in queries.captured_queries]


def test_search_finds_armies_by_their_name_or_a_tag(player_client, player):
    ArmyFactory(owner=player, profiles=[TROOP], name="Dwarf host")
    elves = ArmyFactory(owner=player, profiles=[TROOP], name="Elves")
    ArmyFactory(owner=player, profiles=[TROOP], name="Goblins")
    player_client.post(f"/armies/{elves.pk}/tags/", {"new_tag": "Dwarf friends"})

    html, _ = _search(player_client, "DWARF")

    assert _names(html) == ["Dwarf host", "Elves"]
    nothing, _ = _search(player_client, "nobody")
    assert _names(nothing) == []
    assert "No army name or tag contains “nobody”" in nothing


@pytest.mark.parametrize("units", [1, 120])
def test_a_search_never_reads_the_units(player_client, player, units):
    for i in range(3):
        ArmyFactory(owner=player, profiles=[TROOP] * units, name=f"Host {i}")

    html, sql = _search(player_client, "Host 1")

    assert _names(html) == ["Host 1"]
    # Session, user, the count, a page of armies, their tags, the tags to filter by, and
    # storing the one row it drew.
    assert len(sql) == 7
    assert not [q for q in sql if "armies_unit" in q], "the search read the unit table"
