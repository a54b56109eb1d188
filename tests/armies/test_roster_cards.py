"""Roster cards are drawn once per look and remembered (armies/templatetags/muster.py):
a sheet printed again after any change still shows the change."""

from __future__ import annotations

import pytest

from armies import unit_cards
from armies.models import AcquisitionRecord
from tests.armies.test_acquisition import goms_army, url
from tests.factories import ArmyFactory
from tests.helpers import as_page

pytestmark = pytest.mark.django_db

SWORDSMAN = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}


def test_a_sheet_printed_again_shows_every_change_to_its_cards(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN, SWORDSMAN])
    first, second = army.units.all()
    sheet = player_client.get(f"/armies/{army.pk}/roster/").content.decode()
    assert sheet.count("1 × 6.5 = <strong>6.5</strong> pts") == 2
    player_client.post(
        f"/armies/{army.pk}/units/{second.pk}/",
        {"version": army.version, "name": "Veterans", "quantity": "3", **SWORDSMAN, "def": 5},
        HTTP_HX_REQUEST="true",
    )
    player_client.post(
        f"/armies/{army.pk}/units/{first.pk}/delete/", as_page(army)
    )  # the veterans become card 1
    sheet = player_client.get(f"/armies/{army.pk}/roster/").content.decode()
    assert sheet.count('data-testid="roster-unit"') == 1
    assert '<span class="unit-number">1</span>\n    <h2 id="unit-1">Veterans</h2>' in sheet
    assert "3 × " in sheet and "6.5 = <strong>6.5</strong>" not in sheet


def test_a_roll_recorded_after_the_sheet_was_printed_shows_on_its_cards(player_client, player):
    army = goms_army(player)
    before = player_client.get(f"/armies/{army.pk}/roster/").content.decode()
    assert 'data-testid="roster-rolled"' not in before
    player_client.post(url(army, "roll"))
    assert AcquisitionRecord.objects.exists()
    after = player_client.get(f"/armies/{army.pk}/roster/").content.decode()
    assert after.count('data-testid="roster-rolled"') == 2


def test_a_card_is_worked_out_only_when_it_is_drawn(player_client, player, monkeypatch):
    worked = []

    def gem_card(pu):
        worked.append(pu.unit.name)
        return drawn(pu)

    drawn = unit_cards.CARDS["gem"]
    monkeypatch.setitem(unit_cards.CARDS, "gem", gem_card)
    # A stat line no other test prices: cards drawn for another test are remembered too.
    army = ArmyFactory(owner=player, system="gem", profiles=[{**SWORDSMAN, "mor": 7}] * 2)
    for _ in range(2):
        sheet = player_client.get(f"/armies/{army.pk}/roster/").content.decode()
        assert sheet.count('data-testid="roster-unit"') == 2
    # The second sheet draws nothing: its cards are remembered, details and all.
    assert worked == ["Unit 1", "Unit 2"]
