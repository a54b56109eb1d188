"""Table aids on the builder's unit cards and the share page: d10 chances, vehicle handling,
and a link to the Table 1 odds. Expected numbers are worked by hand from the seeds."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from armies import services
from tests.factories import ArmyFactory

TANK = {
    "type": "vehicle",
    "base": "huge",
    "def": 9,
    "hit": 6,
    "max_speed": "2d6+8",
    "vehicle_class": "tracked",
    "battle_speed": 12,
    "trr": 0.5,
    "missile": [{"name": "MG", "off": 5, "att": 3, "range": 24}],
}
SWORDSMAN = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}


def text(fragment: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def rows(html: str) -> list[str]:
    # The builder's rows, or the share page's unit cards.
    found = r'<li class="(?:list-group-item unit-row|card shared-unit).*?</li>'
    return re.findall(found, html, re.S)


def handling(row: str) -> dict[str, str]:
    block = re.search(r'data-testid="unit-handling">(.*?)</details>', row, re.S)[1]
    return {
        text(dt): text(dd)
        for dt, dd in re.findall(r"<dt[^>]*>(.*?)</dt><dd[^>]*>(.*?)</dd>", block, re.S)
    }


def test_d10_unit_card_shows_success_chance_per_skill(player_client, player):
    army = ArmyFactory(
        owner=player, system="d10", profiles=[{"combat_skill": 1, "shooting": 7, "willpower": 10}]
    )
    (row,) = rows(player_client.get(f"/armies/{army.pk}/").content.decode())

    chances = text(re.search(r'data-testid="unit-chances">(.*?)</p>', row, re.S)[1])
    # stat + d10 reaching 10, the 0 face counting 10 and a natural 1 failing:
    # 1 on 9 and 0 (20%), 5 on 5..9 and 0 (60%), 7 on 3..9 and 0 (80%), 10 on all but 1 (90%).
    assert "Combat Skill 1 20%" in chances
    assert "Shooting 7 80%" in chances
    assert "Willpower 10 90%" in chances
    assert "CQC 5 60%" in chances
    assert 'href="/rules/d10/chances/"' in row


def test_gem_vehicle_card_shows_handling_aids(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[TANK])
    (row,) = rows(player_client.get(f"/armies/{army.pk}/").content.decode())
    shown = handling(row)

    # Tracked: battle speed 12 + 6 on roads.
    assert shown["Road speed"].startswith("18″")
    # TRR 0.5 × 12 = 6″ at battle speed, × 15 (2d6+8 averages 15) = 7.5″ at max speed.
    assert shown["Turn radius at battle speed"] == "6″"
    assert shown["Turn radius at max speed"] == "7.5″"
    assert shown["Largest turn per move"] == "114°"  # 57° ÷ 0.5
    assert shown["Reverse up to"].startswith("7.5″")  # half of 15
    # 12″ less 2″ for each 45° turn.
    assert shown["After 45° turns at battle speed 12″"] == "1: 10″ · 2: 8″ · 3: 6″ · 4: 4″"
    # One d6 up to 6″ (a 1 immobilises); two above (11 of 36 rolls hold a 1, 1 holds two).
    assert shown["Dangerous terrain at 6″ or less"] == "1 in 6 (≈16.7%) immobilised"
    assert shown["Dangerous terrain above 6″"].startswith("11 in 36 (≈30.6%) stopped")
    # The owner's card links the calculator with this unit as the attacker.
    unit = army.units.get()
    assert f'href="/rules/gem/table-1/?attacker={unit.pk}"' in row


def test_gem_figure_card_links_its_odds_without_handling(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN])
    (row,) = rows(player_client.get(f"/armies/{army.pk}/").content.decode())

    assert 'data-testid="unit-handling"' not in row
    assert 'data-testid="unit-odds"' in row


def test_share_page_shows_the_aids_and_links_odds_by_off_not_by_unit(client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[TANK, SWORDSMAN])
    token = services.share_army(army)
    html = client.get(f"/s/{token}/").content.decode()
    tank, swordsman = rows(html)

    assert handling(tank)["Turn radius at battle speed"] == "6″"
    # A visitor cannot use the owner's unit ids: the link carries the first attack's OFF.
    assert 'href="/rules/gem/table-1/?off=5"' in tank  # the MG
    assert 'href="/rules/gem/table-1/?off=4"' in swordsman
    assert "attacker=" not in html


@pytest.mark.parametrize("system", ["gem", "d10"])
def test_aids_add_no_queries_however_many_units(player_client, player, system):
    profile = TANK if system == "gem" else {"leader": True}
    counts = []
    for size in (1, 200):
        army = ArmyFactory(owner=player, system=system, profiles=[profile] * size)
        token = services.share_army(army)
        with CaptureQueriesContext(connection) as builder:
            assert player_client.get(f"/armies/{army.pk}/").status_code == 200
        with CaptureQueriesContext(connection) as shared:
            assert player_client.get(f"/s/{token}/").status_code == 200
        counts.append((len(builder), len(shared)))
    assert counts[0] == counts[1]
