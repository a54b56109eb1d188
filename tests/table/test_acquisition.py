"""The G.O.M.S. acquisition roll from the army page: recorded, rerolled, checked, stale."""

from __future__ import annotations

import hashlib
import random
import re
from datetime import timedelta
from unittest import mock

import pytest
from django.test import Client
from django.utils.html import escape

from armies import services
from armies.models import Army
from points import goms
from table.models import AcquisitionRecord
from tests.factories import ArmyFactory
from tests.helpers import as_page, at_once, goms_army, rename_units, roll_url

pytestmark = [pytest.mark.django_db, pytest.mark.databases]


def page(client, army: Army) -> str:
    return client.get(roll_url(army)).content.decode()


def shown_dice(html: str) -> list[int]:
    rows = html.split('data-testid="acquisition-die"')[1:]
    return [int(re.search(r"<strong>(\d)</strong>", row).group(1)) for row in rows]


def test_rolling_records_one_die_per_section_and_vehicle_and_cannot_be_redone(
    player_client, player
):
    army = goms_army(player)
    html = page(player_client, army)
    assert "3 d6 to roll" in html  # two rifle sections and a tank
    player_client.post(roll_url(army, "roll"))
    record = AcquisitionRecord.objects.get()
    assert record.units == [["Unit 1", "infantry", 2], ["Unit 2", "medium", 1]]
    html = page(player_client, army)
    dice = shown_dice(html)
    assert dice == [d.die for d in record.dice()] and len(dice) == 3
    assert "Roll alone (solo play)" not in html and "Start a fair roll" not in html

    response = player_client.post(roll_url(army, "roll"), follow=True)
    assert "already rolled" in response.content.decode()
    assert AcquisitionRecord.objects.count() == 1
    assert shown_dice(page(player_client, army)) == dice


def test_without_rerolls_the_roll_is_final_at_once_and_shows_its_seed(player_client, player):
    army = goms_army(player)
    player_client.post(roll_url(army, "roll"))
    record = AcquisitionRecord.objects.get()
    html = page(player_client, army)
    assert record.finished
    assert f"Seed <code>{record.seed}</code>" in html
    assert 'name="die"' not in html
    response = player_client.post(roll_url(army, "reroll"), {"die": "1"}, follow=True)
    assert "No rerolls left" in response.content.decode()
    assert AcquisitionRecord.objects.get().picks == []


def test_rerolls_are_spent_one_by_one_on_the_dice_the_player_picks(player_client, player):
    army = goms_army(player, rerolls=2)
    player_client.post(roll_url(army, "roll"))
    record = AcquisitionRecord.objects.get()
    before = shown_dice(page(player_client, army))
    # While rerolls remain, the seed is hidden: only its SHA-256 is shown.
    html = page(player_client, army)
    assert str(record.seed) not in html
    assert hashlib.sha256(str(record.seed).encode()).hexdigest() in html
    assert html.count('name="die"') == 3  # a reroll button per die

    player_client.post(roll_url(army, "reroll"), {"die": "3"})
    record.refresh_from_db()
    assert record.picks == [2] and record.rerolls_left == 1 and not record.finished
    after = shown_dice(page(player_client, army))
    assert after[:2] == before[:2]  # only the picked die changed (it may roll the same)

    player_client.post(roll_url(army, "reroll"), {"die": "1"})
    record.refresh_from_db()
    # Both spent: the roll is final and its seed is shown.
    assert record.picks == [2, 0] and record.finished
    assert f"Seed <code>{record.seed}</code>" in page(player_client, army)

    response = player_client.post(roll_url(army, "reroll"), {"die": "2"}, follow=True)
    assert "No rerolls left" in response.content.decode()
    record.refresh_from_db()
    assert record.picks == [2, 0]


@pytest.mark.parametrize("die", ["0", "4", "x", "", "1e3", "-1"])
def test_a_die_that_is_not_listed_is_refused_with_a_message(player_client, player, die):
    army = goms_army(player, rerolls=1)
    player_client.post(roll_url(army, "roll"))
    response = player_client.post(roll_url(army, "reroll"), {"die": die}, follow=True)
    assert response.status_code == 200
    assert "Pick one of the dice listed" in response.content.decode()
    assert AcquisitionRecord.objects.get().picks == []


def test_finishing_early_keeps_the_rest_unspent_and_reveals_the_seed(player_client, player):
    army = goms_army(player, rerolls=3)
    player_client.post(roll_url(army, "roll"))
    player_client.post(roll_url(army, "reroll"), {"die": "2"})
    player_client.post(roll_url(army, "finish"))
    record = AcquisitionRecord.objects.get()
    assert record.finished and record.picks == [1]
    html = page(player_client, army)
    assert f"Seed <code>{record.seed}</code>" in html and 'name="die"' not in html


def test_anyone_with_the_share_link_can_re_derive_the_recorded_dice(client, player):
    army = goms_army(player, rerolls=1)
    token = services.share_army(army)
    owner = Client()
    owner.force_login(player)
    owner.post(roll_url(army, "roll"))
    owner.post(roll_url(army, "reroll"), {"die": "2"})

    html = client.get(f"/s/{token}/").content.decode()
    seed = int(re.search(r"Seed <code>(\d+)</code>", html).group(1))
    picks = [
        int(n) - 1
        for n in re.search(r"rerolls spent on dice ([\d, ]+)\.", html).group(1).split(", ")
    ]
    # The check the page describes, done here from scratch with Python's random.
    r = random.Random(seed)
    dice = [r.randint(1, 6) for _ in range(3)]
    for pick in picks:
        dice[pick] = r.randint(1, 6)
    assert shown_dice(html) == dice
    assert 'name="die"' not in html  # the visitor sees the roll, never the buttons


def test_changing_the_army_marks_the_roll_stale_and_allows_a_new_one_on_record(
    player_client, player
):
    army = goms_army(player)
    player_client.post(roll_url(army, "roll"))
    player_client.post(f"/armies/{army.pk}/units/add/", as_page(army))
    html = page(player_client, army)
    assert 'data-testid="acquisition-stale"' in html
    assert "Roll again alone for the changed army" in html
    roster = player_client.get(f"/armies/{army.pk}/roster/").content.decode()
    assert "stale" in roster.split('data-testid="roster-acquisition"')[1].split("</p>")[0]
    assert 'data-testid="roster-rolled"' not in roster

    player_client.post(roll_url(army, "roll"))
    assert AcquisitionRecord.objects.count() == 2
    html = page(player_client, army)
    assert 'data-testid="acquisition-stale"' not in html
    assert "1 earlier roll on record" in html and len(shown_dice(html)) == 4


def test_the_latest_roll_and_how_many_came_before_are_one_query(
    client, player, django_assert_num_queries
):
    army = goms_army(player)
    for _ in range(3):
        AcquisitionRecord.objects.create(army=army, seed=1, units=[], rerolls=0)
    token = services.share_army(army)
    client.force_login(player)
    # session, user, army, the latest roll with the count of all, the units (the roll
    # reads them), each unit's stored card, the units with issues; then the cards the
    # army's last save left blank: their units, drawn and stored under the army's lock (a
    # savepoint, the army, the cards, the release)
    with django_assert_num_queries(12):
        roster = client.get(f"/armies/{army.pk}/roster/").content.decode()
    assert 'data-testid="roster-acquisition"' in roster
    client.logout()
    client.get(f"/s/{token}/")  # draws and keeps the share page's cards (the roster kept its own)
    # army (with its owner), the latest roll with the count of all, each unit's stored
    # card, every roll listed for the opponent
    with django_assert_num_queries(4):
        html = client.get(f"/s/{token}/").content.decode()
    assert "2 earlier rolls on record" in html


def test_buying_rerolls_after_rolling_makes_the_roll_stale(player_client, player):
    army = goms_army(player)
    player_client.post(roll_url(army, "roll"))
    services.save_settings(army, {"options": {"rerolls": 2}}, None)
    assert 'data-testid="acquisition-stale"' in page(player_client, army)


def test_the_roster_prints_each_units_recorded_results(player_client, player):
    army = goms_army(player)
    player_client.post(roll_url(army, "roll"))
    dice = AcquisitionRecord.objects.get().dice()
    roster = player_client.get(f"/armies/{army.pk}/roster/").content.decode()
    rifles, tank = roster.split('data-testid="roster-rolled"')[1:3]
    for d in dice[:2]:
        assert escape(f"{d.die}: {d.result}") in rifles.split("</p>")[0]
    # "Doesn't show" comes out with its apostrophe escaped, like all text.
    assert escape(f"{dice[2].die}: {dice[2].result}") in tank.split("</p>")[0]
    summary = roster.split('data-testid="roster-acquisition"')[1].split("</p>")[0]
    totals = goms.acquisition_totals(dice)
    assert f"men lost {totals.men}," in summary and "(final)" in summary


def test_only_goms_armies_roll_and_an_empty_army_has_nothing_to_roll(player_client, player):
    gem = ArmyFactory(owner=player, system="gem", profiles=[])
    assert player_client.get(roll_url(gem)).status_code == 404
    assert player_client.post(roll_url(gem, "roll")).status_code == 404
    empty = ArmyFactory(owner=player, system="goms", profiles=[])
    response = player_client.post(roll_url(empty, "roll"), follow=True)
    assert "nothing to roll" in response.content.decode()
    assert not AcquisitionRecord.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_quick_rerolls_cannot_spend_the_last_reroll_twice(player):
    army = goms_army(player, rerolls=1)
    clients = [Client(), Client()]
    for c in clients:
        c.force_login(player)
    clients[0].post(roll_url(army, "roll"))

    def spend(c: Client, die: str):
        def post() -> str:
            html = c.post(roll_url(army, "reroll"), {"die": die}, follow=True).content.decode()
            return "spent" if "Rerolled die" in html else "refused"

        return post

    outcomes = at_once([spend(c, die) for c, die in zip(clients, "12", strict=True)])
    assert sorted(outcomes) == ["refused", "spent"]
    record = AcquisitionRecord.objects.get()
    assert len(record.picks) == 1 and record.finished


def test_late_vehicles_and_spent_rerolls_read_as_the_pages_print_them():
    from points.goms import AcquisitionTotals
    from table.latest_roll import Acquisition

    record = AcquisitionRecord(picks=[2, 0], rerolls=2)
    shown = Acquisition(record, (), AcquisitionTotals(late=(4, 6)), stale=False, earlier=0)
    # Vehicles arrive on a d6 score "or more"; dice are numbered from 1 on every page.
    assert shown.arrivals == "4+, 6+"
    assert shown.rerolled_dice == "3, 1"


def test_a_roll_never_made_final_shows_its_seed_half_an_hour_after_rolling(client, player):
    # The owner who never pressed "Done" kept the seed hidden for good: the opponent
    # could check nothing.
    army = goms_army(player, rerolls=2)
    token = services.share_army(army)
    owner = Client()
    owner.force_login(player)
    owner.post(roll_url(army, "roll"))
    record = AcquisitionRecord.objects.get()
    seed = f"Seed <code>{record.seed}</code>"

    soon = client.get(f"/s/{token}/").content.decode()
    later = record.created + timedelta(minutes=30)
    with mock.patch("django.utils.timezone.now", return_value=later):
        shown = client.get(f"/s/{token}/").content.decode()
        refused = owner.post(roll_url(army, "reroll"), {"die": "1"}, follow=True)

    assert seed not in soon and 'data-testid="acquisition-final-by"' in soon
    assert seed in shown and 'data-testid="acquisition-final"' in shown
    assert "No rerolls left" in refused.content.decode()
    assert AcquisitionRecord.objects.get().picks == []


def test_rerolls_can_be_spent_until_the_half_hour_is_up(player_client, player):
    army = goms_army(player, rerolls=2)
    player_client.post(roll_url(army, "roll"))
    record = AcquisitionRecord.objects.get()

    almost = record.created + timedelta(minutes=29)
    with mock.patch("django.utils.timezone.now", return_value=almost):
        player_client.post(roll_url(army, "reroll"), {"die": "1"})
        html = page(player_client, army)

    assert AcquisitionRecord.objects.get().picks == [0]
    assert f"Seed <code>{record.seed}</code>" not in html and 'name="die"' in html


def test_a_new_roll_makes_the_one_before_it_final(player_client, player):
    # Only the latest roll is on the page; the earlier one, unfinished, would have kept
    # its seed hidden in the record for good.
    army = goms_army(player, rerolls=2)
    player_client.post(roll_url(army, "roll"))
    player_client.post(f"/armies/{army.pk}/units/add/", as_page(army))  # stale: roll again
    player_client.post(roll_url(army, "roll"))

    first, second = AcquisitionRecord.objects.order_by("pk")
    assert (first.finished, second.finished) == (True, False)


def test_a_reroll_is_refused_with_a_reason_when_there_is_nothing_to_reroll(player_client, player):
    army = goms_army(player, rerolls=2)

    # No roll yet.
    before = player_client.post(roll_url(army, "reroll"), {"die": "1"}, follow=True)
    assert "Roll first: there is no die to reroll yet." in before.content.decode()

    # A roll made alone, then the army changed: roll again instead of rerolling.
    player_client.post(roll_url(army, "roll"), {"mode": "alone"})
    rename_units(army, quantity=1)
    stale = player_client.post(roll_url(army, "reroll"), {"die": "1"}, follow=True)
    assert "The army changed after this roll: roll again instead." in stale.content.decode()
