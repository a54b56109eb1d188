"""A rules version moves with the prices (SPEC 3.7): tests/data/versions/ holds a few
profiles per system with the points and errors worked out by hand under a version. If
the engine prices any of them differently while its version stays the same, a player's
numbers would change silently: this test says to move the version."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

import points

VERSIONS = Path(__file__).resolve().parents[1] / "data" / "versions"


@pytest.mark.parametrize("system", sorted(points.SYSTEMS))
def test_prices_change_only_with_a_new_rules_version(system):
    held = json.loads((VERSIONS / f"{system}.json").read_text())
    version = points.SYSTEMS[system].version
    assert version.startswith(f"{system}/")
    changed = []
    for case in held["units"]:
        unit = points.load_unit(case["name"], 1, case["profile"], system)
        result = points.price_unit(system, unit)
        found = (result.each, sorted(e.code for e in result.errors))
        if found != (Fraction(case["each"]), sorted(case["errors"])):
            changed.append(f"{case['name']}: {case['each']} {case['errors']} is now {found}")
    if version == held["version"]:
        assert not changed, (
            f"{system} prices changed under the same rules version {version}: bump the "
            "version (points/"
            + system
            + ".py), then record the new results here.\n"
            + "\n".join(changed)
        )
    else:
        pytest.fail(
            f"{system}'s rules version moved to {version}: check each result in "
            f"tests/data/versions/{system}.json by hand and record the version there."
        )


def test_every_priced_result_names_its_rules_version():
    army = points.load(
        {"name": "A", "system": "d10", "units": [{"name": "Rifleman", "profile": {}}]}
    )
    assert points.price_army(army).to_json()["rules_version"] == "d10/2026.1"
