"""Issue 19, item 3: weapons in the editor are picked from lists, typing your own still
possible, and a d10 weapon from the set's table carries its stats to the roster."""

from __future__ import annotations

import re

import pytest

from tests.factories import ArmyFactory
from tests.helpers import editor_post

pytestmark = pytest.mark.django_db


def editor(client, army) -> str:
    unit = army.units.get()
    return client.get(f"/armies/{army.pk}/?unit={unit.pk}").content.decode()


def test_the_d10_editor_offers_the_weapon_table_under_the_weapons_box(player_client, player):
    army = ArmyFactory(owner=player, system="d10", profiles=[{}])
    html = editor(player_client, army)
    select = re.search(r'<select[^>]*id="unit-weapons-table".*?</select>', html, re.S)[0]
    assert 'data-append-to="unit-weapons"' in select and 'name="weapons-add"' in select
    options = re.findall(r'<option value="([^"]*)"', select)
    assert options == [
        "",
        "Pistol (9mm)",
        "SMG/PDW (P90, MP5)",
        "Shotgun (pump, semi)",
        "Carbine/AR",
        "DMR/Battle rifle",
        "SAW/LSW",
        "LMG",
        "Sniper rifle .308",
        "AM .50 Rifle",
    ]
    assert '<label class="form-label small mb-0 mt-1" for="unit-weapons-table">' in html
    assert 'id="unit-weapons"' in html  # the box itself is where it was


def test_a_weapon_picked_without_javascript_is_added_on_save(player_client, player):
    army = ArmyFactory(owner=player, system="d10", profiles=[{"weapons": ["Knife"]}])
    unit = army.units.get()
    data = editor_post(player_client, unit, {"name": "Gunner", "weapons-add": "LMG"})
    player_client.post(f"/armies/{army.pk}/units/{unit.pk}/", data)
    unit.refresh_from_db()
    assert unit.profile["weapons"] == ["Knife", "LMG"]


def test_a_weapon_not_in_the_table_is_not_added_from_the_select(player_client, player):
    army = ArmyFactory(owner=player, system="d10", profiles=[{}])
    unit = army.units.get()
    data = editor_post(player_client, unit, {"name": "Gunner", "weapons-add": "Railgun"})
    player_client.post(f"/armies/{army.pk}/units/{unit.pk}/", data)
    unit.refresh_from_db()
    assert "weapons" not in unit.profile


def test_every_gem_missile_name_box_lists_known_weapons_from_one_datalist(player_client, player):
    bowman = {"type": "skirmisher", "base": "25mm", "off": 3, "def": 3}
    bowman["missile"] = [{"name": "Sling", "off": 2, "range": 12}]
    army = ArmyFactory(owner=player, system="gem", profiles=[bowman])
    html = editor(player_client, army)
    boxes = re.findall(r'<input[^>]*name="missile-\d+-name"[^>]*>', html)
    assert len(boxes) == 2  # the stored weapon and an empty row to add one
    assert all('list="gem-weapons"' in box for box in boxes)
    assert 'value="Sling"' in boxes[0]  # homebrew stays as typed
    assert html.count('<datalist id="gem-weapons">') == 1
    cannon = re.search(r'<option value="Cannon"[^>]*>', html)[0]
    # SPEC 3.2's tank cannon: OFF 9, range 48, radius 2, every other turn, heavy.
    assert 'data-off="9"' in cannon and 'data-range="48"' in cannon and 'data-radius="2"' in cannon
    assert 'data-fire="every-other-turn"' in cannon and 'data-heavy="1"' in cannon


def test_a_table_weapon_typed_in_other_case_still_shows_its_stats_on_the_roster(
    player_client, player
):
    army = ArmyFactory(
        owner=player, system="d10", profiles=[{"weapons": ["lmg", "Sharpened spoon"]}]
    )
    html = player_client.get(f"/armies/{army.pk}/roster/").content.decode()
    rows = {
        re.sub(r"<[^>]+>", "", name).strip(): re.sub(r"<[^>]+>", " ", rest)
        for name, rest in re.findall(r'<tr><th scope="row" class="name">(.*?)</th>(.*?)</tr>', html)
    }
    # The seed's LMG: 30 inches effective, no long range, 4 auto, damage 6.
    assert rows["lmg"].split() == ["30/-", "4", "auto", "6", "Auto", "(x),", "Heavy"]
    assert "homebrew" in rows["Sharpened spoon"]
