"""The per-account army limit holds through the trash: restoring an army (its own button
or the list's bulk undelete) is refused past the limit with the message import gives, so
deleting, importing and restoring can't grow an account past it (issue 28, item 3)."""

from __future__ import annotations

import pytest

from armies import services
from armies.models import Army
from tests.factories import ArmyFactory

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

LIMIT_MESSAGE = "An account can keep at most 2 armies: delete some"


@pytest.fixture
def at_the_limit(monkeypatch, player, player_client):
    """Limit 2: A and B made, A deleted, C made. Two live armies, A in the trash."""
    monkeypatch.setattr(services, "MAX_ARMIES", 2)
    made = {}
    for name in ("A", "B"):
        data = {"name": name, "system": "vsgmr", "points_limit": "", "preset": ""}
        assert player_client.post("/armies/new/", data).status_code == 302
        made[name] = Army.objects.get(owner=player, name=name)
    assert player_client.post(f"/armies/{made['A'].pk}/delete/").status_code == 302
    data = {"name": "C", "system": "vsgmr", "points_limit": "", "preset": ""}
    assert player_client.post("/armies/new/", data).status_code == 302
    assert Army.objects.for_owner(player).count() == 2
    return made["A"]


def live_names(player) -> list[str]:
    return sorted(Army.objects.for_owner(player).values_list("name", flat=True))


def test_restoring_an_army_past_the_limit_is_refused(player, player_client, at_the_limit):
    response = player_client.post(f"/armies/{at_the_limit.pk}/restore/", follow=True)

    assert LIMIT_MESSAGE in response.content.decode()
    assert live_names(player) == ["B", "C"]
    assert Army.all_objects.get(pk=at_the_limit.pk).deleted_at is not None  # still in the trash


def test_bulk_undelete_past_the_limit_is_refused(player, player_client, at_the_limit):
    data = {"action": "undelete", "army": [at_the_limit.pk], "back": ""}
    response = player_client.post("/armies/bulk/", data, follow=True)

    assert LIMIT_MESSAGE in response.content.decode()
    assert live_names(player) == ["B", "C"]


def test_undo_of_a_bulk_delete_is_refused_once_new_armies_took_the_room(
    monkeypatch, player, player_client
):
    """Delete two armies, make two more, then Undo the delete: that would make four."""
    monkeypatch.setattr(services, "MAX_ARMIES", 2)
    first = [ArmyFactory(owner=player, name=n) for n in ("A", "B")]
    data = {"action": "delete", "army": [a.pk for a in first], "back": ""}
    player_client.post("/armies/bulk/", data)
    for name in ("C", "D"):
        ArmyFactory(owner=player, name=name)

    undo = {"action": "undelete", "army": [a.pk for a in first], "back": ""}
    response = player_client.post("/armies/bulk/", undo, follow=True)

    assert LIMIT_MESSAGE in response.content.decode()
    assert live_names(player) == ["C", "D"]


def test_a_restore_with_room_left_still_brings_the_army_back(player, player_client, monkeypatch):
    monkeypatch.setattr(services, "MAX_ARMIES", 2)
    army = ArmyFactory(owner=player, name="Kept")
    player_client.post(f"/armies/{army.pk}/delete/")

    response = player_client.post(f"/armies/{army.pk}/restore/")

    assert response.status_code == 302
    assert response["Location"] == f"/armies/{army.pk}/"
    assert live_names(player) == ["Kept"]


def test_trashing_and_restoring_move_the_army_version_on(player, player_client):
    """A builder tab left open on a trashed army can't save into it after a restore."""
    army = ArmyFactory(owner=player, name="Kept")
    before = Army.all_objects.get(pk=army.pk).version
    player_client.post(f"/armies/{army.pk}/delete/")
    player_client.post(f"/armies/{army.pk}/restore/")

    assert Army.objects.get(pk=army.pk).version == before + 2


def test_copying_a_shared_army_past_the_limit_is_refused_with_the_same_message(
    monkeypatch, player, player_client
):
    """Forking was the one way in that answered 500 at the limit."""
    monkeypatch.setattr(services, "MAX_ARMIES", 2)
    for name in ("A", "B"):
        ArmyFactory(owner=player, name=name)
    theirs = ArmyFactory(name="Their army")
    token = services.share_army(theirs)

    response = player_client.post(f"/s/{token}/fork/", follow=True)

    assert response.status_code == 200
    assert LIMIT_MESSAGE in response.content.decode()
    assert live_names(player) == ["A", "B"]
