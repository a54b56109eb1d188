"""Points against odds on the matchup page (SPEC 3.8; issue #29): every unit of A against
every unit of B, each pair's odds and points, and what a point of each side buys."""

from __future__ import annotations

import html
import re
import time

import pytest

from armies import services
from tests.factories import ArmyFactory, UnitFactory, sample_file

pytestmark = pytest.mark.django_db

TROOP = {"kind": "guy", "flavor": "troop"}
LIGHT_TROOP = {"kind": "guy", "flavor": "troop", "armor": "light"}


def matchup(client, a, b) -> str:
    """The matchup with its points against odds worked out (the page asks for them at its
    own address with odds=1, after drawing the totals)."""
    return client.get(f"/matchup/?a={a.pk}&b={b.pk}&odds=1").content.decode()


def cells(page: str) -> list[list[str]]:
    rows = re.findall(r'<tr data-testid="odds-row">(.*?)</tr>', page, re.S)
    return [
        [
            " ".join(html.unescape(re.sub(r"<[^>]+>", " ", c)).split())
            for c in re.findall(r'<td data-testid="odds-cell">(.*?)</td>', row, re.S)
        ]
        for row in rows
    ]


def buys(page: str) -> str:
    found = re.search(r'data-testid="odds-buys">(.*?)<a ', page, re.S)
    return " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split()) if found else ""


def test_orcs_against_the_zombie_horde_fight_unit_by_unit(player_client, player):
    orcs = ArmyFactory(owner=player, file=sample_file("orcs"))
    zombies = ArmyFactory(owner=player, file=sample_file("zombie-horde"))

    page = matchup(player_client, orcs, zombies)
    table = cells(page)

    assert len(table) == 3 and all(len(row) == 3 for row in table)
    # Warriors (troop, light armour, 2 points) v Minions (troop, 1 point), worked by hand:
    # Warriors defeat a Minion 1/2 a turn; a Minion's hit stands 1/2 * 5/6 = 5/12. A round:
    # 19/48 and 15/48, going on 14/48: the Warriors win 19/34 (55.9%), lose 15/34 (44.1%).
    assert table[2][2] == "55.9 / 44.1 2 v 1 pts"
    assert "By these fights, 1 point of A buys" in buys(page)
    assert 'data-testid="verdict"' in page


def test_one_pair_gives_what_a_point_of_each_side_buys(player_client, player):
    a = ArmyFactory(owner=player, profiles=[LIGHT_TROOP])
    b = ArmyFactory(owner=player, profiles=[TROOP])

    page = matchup(player_client, a, b)

    # As above: A (2 points) loses 15/34 of the time, B (1 point) 19/34. A loses 2 * 15/34
    # = 15/17 of its points for 19/34 of B's: a point of A buys 19/30 (63.3%) of what a
    # point of B buys, and a point of B 30/19 (157.9%).
    assert buys(page) == (
        "By these fights, 1 point of A buys 63.3% of what 1 point of B buys, "
        "and 1 point of B buys 157.9% of what 1 point of A buys."
    )


def test_gem_units_fight_whole_and_equal_units_buy_equally(player_client, player):
    single = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}
    a = ArmyFactory(owner=player, system="gem", profiles=[single])
    b = ArmyFactory(owner=player, system="gem", profiles=[single])

    page = matchup(player_client, a, b)

    # Hand-derived (tests/points/test_fights.py): a third each way, a third drawn.
    assert cells(page) == [["33.3 / 33.3 6.5 v 6.5 pts"]]
    assert buys(page).startswith("By these fights, 1 point of A buys 100.0% of what")


def test_the_table_stops_at_thirty_units_a_side_and_says_so(player_client, player):
    a = ArmyFactory(owner=player, profiles=[TROOP] * 31)
    b = ArmyFactory(owner=player, profiles=[TROOP, LIGHT_TROOP])

    started = time.process_time()
    page = matchup(player_client, a, b)
    spent = time.process_time() - started

    assert len(cells(page)) == 30
    assert "1 more of A are left out" in " ".join(page.split())
    assert spent < 2  # identical pairs are worked out once


def test_the_totals_come_first_and_the_odds_at_their_own_address(player_client, player):
    a = ArmyFactory(owner=player, profiles=[LIGHT_TROOP])
    b = ArmyFactory(owner=player, profiles=[TROOP])

    first = player_client.get(f"/matchup/?a={a.pk}&b={b.pk}").content.decode()
    asked = player_client.get(
        f"/matchup/?a={a.pk}&b={b.pk}&odds=1", headers={"HX-Request": "true"}
    ).content.decode()

    # The page itself has the verdict and a way to the odds, not the odds.
    assert 'data-testid="verdict"' in first and "odds-row" not in first
    assert f'data-hx-get="/matchup/?a={a.pk}&amp;b={b.pk}&amp;odds=1"' in first
    assert f'href="/matchup/?a={a.pk}&amp;b={b.pk}&amp;odds=1#points-against-odds"' in first
    # Asked for by the page, only the table and the line for the verdict come back.
    assert "<html" not in asked and len(cells(asked)) == 1
    assert 'data-hx-swap-oob="true"' in asked and "By these fights" in asked


def test_one_address_may_ask_for_the_odds_six_times_a_minute(client, player):
    a = ArmyFactory(owner=player, profiles=[LIGHT_TROOP])
    b = ArmyFactory(owner=player, profiles=[TROOP])
    # A visitor with no account asks through the two share links, again and again.
    address = f"/matchup/?a={services.share_army(a)}&b={services.share_army(b)}&odds=1"

    answers = [client.get(address) for _ in range(7)]

    assert [r.status_code for r in answers] == [200] * 6 + [429]
    refused = answers[-1].content.decode()
    assert "odds-row" not in refused and 'data-testid="odds-wait"' in refused
    assert 'data-testid="verdict"' in refused  # the totals are still there


def test_twenty_model_gem_units_are_all_worked_out(player_client, player):
    # 20 of HIT 3 against 20 of HIT 3: its exact fraction is far too long to add up, so
    # the table walks it in double precision rather than leaving the pair out.
    block = {"type": "block", "base": "20mm", "off": 5, "def": 4, "hit": 3, "att": 3}
    a, b = (ArmyFactory(owner=player, system="gem") for _ in range(2))
    UnitFactory(army=a, quantity=20, profile=block)
    UnitFactory(army=b, quantity=20, profile=block)

    page = matchup(player_client, a, b)

    ((cell,),) = cells(page)
    a_wins, b_wins = (float(x) for x in re.findall(r"\d+\.\d", cell)[:2])
    assert a_wins == b_wins and 0 < a_wins < 50
    assert "odds-not-worked" not in page


def test_systems_without_fights_show_no_table(player_client, player):
    section = {"kind": "rifle-section", "morale": "trained"}
    a = ArmyFactory(owner=player, system="goms", profiles=[section])
    b = ArmyFactory(owner=player, system="goms", profiles=[section])

    assert 'data-testid="points-against-odds"' not in matchup(player_client, a, b)
