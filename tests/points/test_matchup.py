"""Matchup verdicts and suggestions, checked against the VSGMR sample armies' printed totals."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import points
from points.matchup import balanced, suggestions

DATA = Path(__file__).resolve().parents[1] / "data"


def priced(name: str):
    return points.price_army(points.loads((DATA / "vsgmr" / f"{name}.json").read_text()))


def test_elves_25_against_orcs_24_is_balanced():
    elves, orcs = priced("elves"), priced("orcs")
    assert (elves.total, orcs.total) == (25, 24)
    assert balanced("vsgmr", elves.total, orcs.total)
    assert suggestions(elves, orcs) == []


def test_justice_team_42_against_zombie_horde_20_is_not_balanced_and_a_suggestion_fixes_it():
    heroes, zombies = priced("justice-team"), priced("zombie-horde")
    assert not balanced("vsgmr", heroes.total, zombies.total)
    found = suggestions(heroes, zombies)
    assert found
    # By hand: the horde (20) needs at least 17 more points to come within 5 of 42.
    # First Infected cost 3 each: 6 of them (+18) reach 38. Minions cost 1: 17 reach 37.
    add_infected = next(s for s in found if s.unit == "First Infected")
    assert (add_infected.side, add_infected.action, add_infected.count) == ("b", "add", 6)
    assert add_infected.change == 18
    for s in found:
        sign = 1 if s.action == "add" else -1
        a = heroes.total + (sign * s.change if s.side == "a" else 0)
        b = zombies.total + (sign * s.change if s.side == "b" else 0)
        assert balanced("vsgmr", a, b), s
    # Super-Guy is the commander: never suggested, though dropping him would balance it.
    assert all(s.unit != "Super-Guy" for s in found)


def test_vsgmr_balance_is_within_five_points_inclusive():
    assert balanced("vsgmr", Fraction(30), Fraction(25))
    assert not balanced("vsgmr", Fraction(30), Fraction(49, 2))


def test_other_systems_balance_within_five_percent_of_the_larger_total():
    # 5% of 200 is 10: 190 is balanced, 189.9 is not.
    assert balanced("gem", Fraction(200), Fraction(190))
    assert not balanced("gem", Fraction(200), Fraction(1899, 10))


def test_suggestions_only_use_units_the_armies_have():
    army = {
        "format": "muster-army/1",
        "name": "Skirmishers",
        "system": "gem",
        "units": [
            {
                "name": "Swordsmen",
                "quantity": 4,
                "profile": {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4},
            },
        ],
    }
    bigger = points.price_army(points.load(army))  # 4 × 6.5 = 26
    army["units"][0]["quantity"] = 2
    smaller = points.price_army(points.load(json.loads(json.dumps(army))))  # 13
    found = suggestions(bigger, smaller)
    # 26 vs 13: adding 2 Swordsmen (+13) to the smaller side, or dropping 2 from the bigger.
    assert {(s.side, s.action, s.count) for s in found} == {("b", "add", 2), ("a", "drop", 2)}
