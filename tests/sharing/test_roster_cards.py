"""Roster cards are drawn when their unit is written and stored with it (armies/drawing.py):
a sheet printed again after any change still shows the change."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.core.cache import cache

from rules.systems import SYSTEM_PAGES
from table.models import AcquisitionRecord
from tests.factories import ArmyFactory
from tests.helpers import HX, as_page, editor_post, goms_army, roll_url

pytestmark = pytest.mark.django_db

SWORDSMAN = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}


def test_a_sheet_printed_again_shows_every_change_to_its_cards(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN, SWORDSMAN])
    first, second = army.units.all()
    sheet = player_client.get(f"/armies/{army.pk}/roster/").content.decode()
    assert sheet.count('data-testid="unit-cost"><strong>6.5</strong> pts') == 2
    player_client.post(
        f"/armies/{army.pk}/units/{second.pk}/",
        editor_post(player_client, second, {"name": "Veterans", "quantity": "3", "def": "5"}),
        headers=HX,
    )
    player_client.post(
        f"/armies/{army.pk}/units/{first.pk}/delete/", as_page(army)
    )  # the veterans become card 1
    sheet = player_client.get(f"/armies/{army.pk}/roster/").content.decode()
    assert sheet.count('data-testid="roster-unit"') == 1
    # The card carries no number of its own: CSS counts the cards (roster.css), so the
    # veterans' stored card is number 1 once the card before it is gone.
    assert (
        f'<span class="unit-number"></span>\n    <h2 id="unit-{second.pk}">Veterans</h2>' in sheet
    )
    assert "3 × " in sheet and "6.5 = <strong>6.5</strong>" not in sheet


def test_a_roll_recorded_after_the_sheet_was_printed_shows_on_its_cards(player_client, player):
    army = goms_army(player)
    before = player_client.get(f"/armies/{army.pk}/roster/").content.decode()
    assert 'data-testid="roster-rolled"' not in before
    player_client.post(roll_url(army, "roll"))
    assert AcquisitionRecord.objects.exists()
    after = player_client.get(f"/armies/{army.pk}/roster/").content.decode()
    assert after.count('data-testid="roster-rolled"') == 2


def test_a_card_is_worked_out_when_its_unit_is_written_not_when_the_sheet_is_read(
    player_client, player, monkeypatch
):
    worked = []

    def gem_card(pu):
        worked.append(pu.unit.name)
        return drawn(pu)

    drawn = SYSTEM_PAGES["gem"].unit_card
    monkeypatch.setitem(SYSTEM_PAGES, "gem", replace(SYSTEM_PAGES["gem"], unit_card=gem_card))
    army = ArmyFactory(owner=player, system="gem", profiles=[{**SWORDSMAN, "mor": 7}] * 2)
    assert worked == ["Unit 1", "Unit 2"]
    for _ in range(2):
        cache.clear()  # nothing is kept in the cache either: a new server draws nothing
        sheet = player_client.get(f"/armies/{army.pk}/roster/").content.decode()
        assert sheet.count('data-testid="roster-unit"') == 2
    assert worked == ["Unit 1", "Unit 2"]
