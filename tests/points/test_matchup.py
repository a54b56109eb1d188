"""Matchup verdicts and suggestions, checked against the VSGMR sample armies' printed totals."""

from __future__ import annotations

import json
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

import points
from points.matchup import balanced, suggestions
from tests.samples import VSGMR_SAMPLES


def priced(name: str):
    return points.price_army(points.loads((VSGMR_SAMPLES / f"{name}.json").read_text()))


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


def _gem_army(*units: tuple[str, int, int]):
    """GEM skirmishers on 25mm; OFF 4 DEF 4 costs 6.5 each (SPEC 3.2's Swordsman)."""
    return points.price_army(
        points.load(
            {
                "format": "muster-army/1",
                "name": "Side",
                "system": "gem",
                "units": [
                    {
                        "name": name,
                        "quantity": quantity,
                        "profile": {"type": "skirmisher", "base": "25mm", "off": off, "def": off},
                    }
                    for name, quantity, off in units
                ],
            }
        )
    )


def test_a_huge_army_gets_its_drop_worked_out_directly():
    # 1000 Swordsmen (6500) against 10 (65): within 5% of 6500 needs the big side down to
    # 65 / 0.95 = 68.4 at most, so 990 must go (10 left, 65 points); dropping 989 leaves
    # 71.5, which is 6.5 over 65 and more than 5% of 71.5 (3.575).
    big, small = _gem_army(("Swordsmen", 1000, 4)), _gem_army(("Swordsmen", 10, 4))
    found = suggestions(big, small)
    assert [(s.side, s.action, s.count) for s in found] == [("a", "drop", 990)]
    # Adding to the small side would take 990 copies too, far more than a suggestion adds.


def _vsgmr_army(name: str, units: list[tuple[int, int]]):
    flavours = ["troop", "hero", "mook"]
    profiles = [{"kind": "guy", "flavor": flavours[f % 3]} for _, f in units]
    doc = {
        "format": "muster-army/1",
        "name": name,
        "system": "vsgmr",
        "units": [
            {"name": f"{name}{i}", "quantity": q, "profile": p}
            for i, ((q, _), p) in enumerate(zip(units, profiles, strict=True))
        ],
    }
    return points.price_army(points.load(doc))


@given(
    st.lists(st.tuples(st.integers(1, 30), st.integers(1, 10)), min_size=1, max_size=4),
    st.lists(st.tuples(st.integers(1, 30), st.integers(1, 10)), min_size=1, max_size=4),
    st.sampled_from(["gem", "vsgmr"]),
)
def test_suggestions_are_the_smallest_counts_that_balance(side_a, side_b, system):
    """Against a plain search: try every count and keep the first that balances."""
    if system == "gem":
        a = _gem_army(*((f"A{i}", q, off) for i, (q, off) in enumerate(side_a)))
        b = _gem_army(*((f"B{i}", q, off) for i, (q, off) in enumerate(side_b)))
    else:
        a = _vsgmr_army("A", side_a)
        b = _vsgmr_army("B", side_b)
    expected = []
    if not balanced(system, a.total, b.total):
        (low_side, low), (high_side, high) = sorted([("a", a), ("b", b)], key=lambda s: s[1].total)
        for pu in low.units:
            each = pu.priced.each
            n = next(
                (n for n in range(1, 51) if balanced(system, low.total + n * each, high.total)),
                None,
            )
            if n:
                expected.append((low_side, "add", pu.unit.name, n))
        for pu in high.units:
            each = pu.priced.each
            n = next(
                (
                    n
                    for n in range(1, pu.unit.quantity + 1)
                    if balanced(system, low.total, high.total - n * each)
                ),
                None,
            )
            if n:
                expected.append((high_side, "drop", pu.unit.name, n))
    found = suggestions(a, b, most=100)
    assert sorted((s.side, s.action, s.unit, s.count) for s in found) == sorted(expected)
