"""A fair roll needs two players: the army's owner can't supply the opponent's seed, the
record says who gave each seed, and a copy of an army (import, fork) says plainly that
its roll history starts at the copy (issue 28, item 2). Tested from the cheating side."""

from __future__ import annotations

import pytest
from django.test import Client

from armies import services
from armies.models import Army
from table.models import AcquisitionRecord
from tests.factories import UserFactory
from tests.helpers import goms_army, record_page, seed_url, start_fair

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

REFUSED = "the other seed must come from the opponent"


def test_the_owner_cannot_add_the_opponents_seed_from_their_own_session(player_client, player):
    army = goms_army(player, shared=True)
    record = start_fair(player_client, army)

    response = player_client.post(seed_url(army, record), {"seed": "my-own-pick"}, follow=True)

    assert REFUSED in response.content.decode()
    record.refresh_from_db()
    assert record.opponent_seed == "" and record.waiting
    html = record_page(army, record)
    assert 'data-testid="acquisition-waiting"' in html  # still waiting: no dice came
    assert 'data-testid="acquisition-die"' not in html


def test_the_owner_signed_in_on_a_second_device_is_refused_too(player_client, player):
    army = goms_army(player, shared=True)
    record = start_fair(player_client, army)
    second_device = Client()
    second_device.force_login(player)

    response = second_device.post(seed_url(army, record), {"seed": "phone"}, follow=True)

    assert REFUSED in response.content.decode()
    assert AcquisitionRecord.objects.get(pk=record.pk).opponent_seed == ""


def test_the_owner_sees_no_seed_form_on_their_own_rolls_page(player_client, player):
    army = goms_army(player, shared=True)
    record = start_fair(player_client, army)

    html = player_client.get(f"/s/{army.share_token}/roll/{record.pk}/").content.decode()

    assert 'data-testid="own-roll"' in html
    assert 'data-testid="opponent-seed-form"' not in html
    assert 'data-testid="opponent-seed-form"' in record_page(army, record)  # a visitor's


def test_the_record_names_the_opponent_who_gave_the_seed(player_client, player):
    army = goms_army(player, shared=True)
    record = start_fair(player_client, army)
    rival = UserFactory(username="rival_at_the_club")
    opponent = Client()
    opponent.force_login(rival)

    opponent.post(seed_url(army, record), {"seed": "from-the-rival"})

    html = record_page(army, record)
    said = f"The owner's seed came from {player.username}; the opponent's from rival_at_the_club"
    assert said in html
    shared = Client().get(f"/s/{army.share_token}/").content.decode()
    assert f"seeds from {player.username} and rival_at_the_club" in shared


def test_a_visitor_without_an_account_is_named_as_such(player_client, player):
    army = goms_army(player, shared=True)
    record = start_fair(player_client, army)

    Client().post(seed_url(army, record), {"seed": "anonymous-dice"})

    html = record_page(army, record)
    assert "the opponent's from a visitor with the link" in html
    shared = Client().get(f"/s/{army.share_token}/").content.decode()
    assert f"seeds from {player.username} and a visitor with the link" in shared


def test_an_imported_copy_says_its_roll_history_starts_at_the_copy(player_client, player):
    """The owner exports an army that has rolled, imports it to roll again on the copy:
    the copy's share page must not pass for an army with a single roll on record."""
    army = goms_army(player, shared=True)
    record = start_fair(player_client, army)
    Client().post(seed_url(army, record), {"seed": "first-try"})
    exported = player_client.get(f"/armies/{army.pk}/export.json").content.decode()

    player_client.post("/armies/import/", {"text": exported})
    copy = Army.objects.filter(owner=player).exclude(pk=army.pk).get()
    token = services.share_army(copy)
    start_fair(player_client, copy)

    shared = Client().get(f"/s/{token}/").content.decode()
    assert 'data-testid="roll-history-starts"' in shared
    assert "imported from a file" in shared
    assert "its roll history starts at the copy" in shared
    original = Client().get(f"/s/{army.share_token}/").content.decode()
    assert 'data-testid="roll-history-starts"' not in original  # made here: all its rolls


def test_a_forked_copy_says_its_roll_history_starts_at_the_copy(player_client, player):
    army = goms_army(player, shared=True)
    start_fair(player_client, army)
    player_client.post(f"/s/{army.share_token}/fork/")
    copy = Army.objects.filter(owner=player).exclude(pk=army.pk).get()
    token = services.share_army(copy)

    for page in (f"/s/{token}/", f"/s/{token}/roll/"):
        start_fair(player_client, copy)
        html = Client().get(page).content.decode()
        assert "copied from a share link" in html
        assert "its roll history starts at the copy" in html
