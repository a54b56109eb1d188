"""The trash page and the share page's list of rolls are paged: nothing past a page is
dropped, and a page costs the same however much there is (#28.8)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from armies import services
from table.rolls import ROLLS_PER_PAGE
from tests.factories import ArmyFactory

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

TROOP = {"kind": "guy", "flavor": "troop"}


def _trashed(html: str, kind: str) -> list[str]:
    rows = html.split(f'data-testid="trashed-{kind}"')[1:]
    return [re.search(r"<strong>([^<]*)</strong>", row)[1] for row in rows]


def test_the_trash_pages_deleted_armies_fifty_at_a_time_dropping_none(player_client, player):
    armies = [ArmyFactory(owner=player, profiles=[], name=f"Army {i:02}") for i in range(60)]
    # One bulk delete: every army goes to the trash at the same moment.
    player_client.post(
        "/armies/bulk/", {"action": "delete", "army": [a.pk for a in armies], "back": ""}
    )

    first = player_client.get("/armies/trash/").content.decode()
    second = player_client.get("/armies/trash/", {"armies": "2"}).content.decode()

    assert len(_trashed(first, "army")) == 50
    assert len(_trashed(second, "army")) == 10
    assert sorted(_trashed(first, "army") + _trashed(second, "army")) == [a.name for a in armies]
    assert "Page 1 of 2 (60 armies)" in first
    assert 'href="?armies=2&amp;units=1" rel="next"' in first


def test_the_trash_pages_deleted_units_apart_from_the_armies(player_client, player):
    army = ArmyFactory(owner=player, profiles=[TROOP] * 55, name="Horde")
    for unit in list(army.units.all()):
        services.trash_unit(army, unit.pk, None)
    services.trash_army(player, ArmyFactory(owner=player, profiles=[], name="Gone").pk)

    first = player_client.get("/armies/trash/").content.decode()
    second = player_client.get("/armies/trash/", {"units": "2"}).content.decode()

    assert len(_trashed(first, "unit")) == 50 and len(_trashed(second, "unit")) == 5
    names = _trashed(first, "unit") + _trashed(second, "unit")
    assert sorted(names) == sorted(f"Unit {i}" for i in range(1, 56))
    # The army list is on both pages, as it was.
    assert _trashed(first, "army") == _trashed(second, "army") == ["Gone"]


@pytest.mark.parametrize("count", [3, 120])
def test_a_trash_page_costs_the_same_queries_however_full(
    player_client, player, count, django_assert_num_queries
):
    kept = ArmyFactory(owner=player, profiles=[TROOP], name="Kept")
    services.trash_unit(kept, kept.units.get().pk, None)
    for i in range(count):
        services.trash_army(player, ArmyFactory(owner=player, profiles=[], name=f"Army {i}").pk)

    # Session, user; each list: its count and its page.
    with django_assert_num_queries(6):
        player_client.get("/armies/trash/")


def test_the_share_page_lists_every_roll_a_page_at_a_time(player_client, player):
    army = ArmyFactory(owner=player, system="goms", profiles=[{"kind": "rifle-section"}])
    services.share_army(army)
    rolls = ROLLS_PER_PAGE + 4
    for _ in range(rolls):  # a fair roll still waiting may be dropped for a new one
        player_client.post(f"/armies/{army.pk}/acquisition/roll/", {"mode": "fair"})
    first_roll = army.acquisitions.order_by("pk").first()
    link = f"/s/{army.share_token}/roll/{first_roll.pk}/"

    first = Client().get(f"/s/{army.share_token}/").content.decode()
    second = Client().get(f"/s/{army.share_token}/", {"rolls": "2"}).content.decode()

    assert f"{rolls - 1} earlier rolls on record" in first
    assert first.count('data-testid="acquisition-roll-item"') == 100
    assert '<ol class="small mb-0" reversed start="104">' in first
    assert f"Page 1 of 2 ({rolls} rolls)" in first and 'href="?rolls=2#rolls-title"' in first
    assert link not in first
    # The oldest four, numbered 4 to 1, the very first roll among them.
    assert second.count('data-testid="acquisition-roll-item"') == 4
    assert '<ol class="small mb-0" reversed start="4">' in second
    assert link in second


@pytest.mark.parametrize("asked", ["0", "99", "abc", "-1", "1" * 40])
def test_a_page_of_rolls_that_is_not_there_shows_the_newest(player_client, player, asked):
    army = ArmyFactory(owner=player, system="goms", profiles=[{"kind": "rifle-section"}])
    services.share_army(army)
    for _ in range(2):
        player_client.post(f"/armies/{army.pk}/acquisition/roll/", {"mode": "fair"})

    response = Client().get(f"/s/{army.share_token}/", {"rolls": asked})

    assert response.status_code == 200
    assert response.content.decode().count('data-testid="acquisition-roll-item"') == 2
