"""Pricing a whole army and its JSON (SPEC 4's `price` output)."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import points
from points import SYSTEMS
from points.model import Line, Priced
from tests.samples import ROOT

SWORDSMAN = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}


def gem_army(quantity: int = 1, **top: object) -> dict:
    unit = {"name": "Swordsmen", "quantity": quantity, "profile": SWORDSMAN}
    return {"format": "muster-army/1", "name": "Army", "system": "gem", "units": [unit]} | top


def test_unit_cost_is_points_per_model_times_quantity():
    # Swordsman 6.5 each (SPEC 3.2) x 3 = 19.5.
    result = points.price_army(points.load(gem_army(3)))

    assert result.units[0].priced.each == Fraction(13, 2)
    assert result.units[0].cost == Fraction(39, 2)
    assert result.total == Fraction(39, 2)


def test_json_has_the_spec_shape():
    out = points.price_army(points.load(gem_army(3, points_limit=19))).to_json()

    assert list(out) == [
        "system",
        "rules_version",
        "name",
        "total",
        "points_limit",
        "units",
        "options",
        "errors",
        "warnings",
    ]
    assert (out["system"], out["rules_version"], out["name"]) == ("gem", "gem/2026.1", "Army")
    assert (out["system"], out["name"], out["total"], out["points_limit"]) == (
        "gem",
        "Army",
        19.5,
        19,
    )
    [unit] = out["units"]
    assert (unit["name"], unit["quantity"], unit["each"], unit["cost"]) == (
        "Swordsmen",
        3,
        6.5,
        19.5,
    )
    assert unit["breakdown"][0] == {"label": "D = DEF×HIT", "value": 4, "note": "4 × 1"}
    assert out["errors"] == [
        {
            "code": "over-limit",
            "message": "The army costs 19.5 points, 0.5 over its limit of 19.",
            "unit": None,
        }
    ]
    assert out["warnings"] == [
        {
            "code": "no-leader",
            "message": "The army has no leader; GEM's optional leader rules give -4 morale out "
            "of range.",
            "unit": None,
        }
    ]


def test_whole_costs_are_json_ints():
    out = points.price_army(points.load(gem_army(2))).to_json()

    assert out["total"] == 13
    assert type(out["total"]) is int


def test_army_with_a_leader_gets_no_leader_warning():
    data = gem_army(3)
    leader = SWORDSMAN | {"type": "leader"}
    data["units"].append({"name": "Captain", "quantity": 1, "profile": leader})

    assert points.price_army(points.load(data)).warnings == ()


def test_single_model_army_needs_no_leader():
    assert points.price_army(points.load(gem_army(1))).warnings == ()


def test_line_json_gives_exact_fraction_when_decimals_would_lose_it():
    assert Line("B", Fraction(1, 3)).to_json() == {
        "label": "B",
        "value": 0.3333,
        "note": "",
        "exact": "1/3",
    }
    assert Line("Base size", Fraction(13, 20)).to_json() == {
        "label": "Base size",
        "value": 0.65,
        "note": "",
    }
    assert Line("Note", "free").to_json() == {"label": "Note", "value": "free", "note": ""}


def test_breakdown_is_built_only_when_read_and_compares_by_value():
    calls = []

    def explain() -> tuple[Line, ...]:
        calls.append(1)
        return (Line("Troop", Fraction(1)),)

    lazy = Priced(Fraction(1), Fraction(1), explain)
    assert calls == []
    assert lazy == Priced(Fraction(1), Fraction(1), (Line("Troop", Fraction(1)),))
    assert lazy.lines == lazy.lines
    assert calls == [1]


def test_every_system_is_registered():
    assert {key: s.label for key, s in SYSTEMS.items()} == {
        "gem": "GEM",
        "vsgmr": "VSGMR",
        "goms": "G.O.M.S.",
        "d10": "d10 modern skirmish",
    }


def test_engine_does_not_import_django():
    code = "import sys, points; print(sorted(m for m in sys.modules if m.startswith('django')))"
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )

    assert run.stdout.strip() == "[]"
