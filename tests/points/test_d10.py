"""The d10 modern skirmish (SPEC 3.5): force morale points, break point, force size."""

from __future__ import annotations

from fractions import Fraction

import pytest

import points
from points import d10
from points.errors import ArmyFileError


def model(name: str = "Rifleman", quantity: int = 1, **profile: object) -> dict:
    return {"name": name, "quantity": quantity, "profile": profile}


def army(*units: dict, limit: int | None = None):
    data: dict = {"name": "Fire team", "system": "d10", "units": list(units)}
    if limit is not None:
        data["points_limit"] = limit
    return points.price_army(points.load(data))


def test_model_is_worth_one_force_point_and_leader_two():
    result = army(
        model(quantity=4), model("Sarge", leader=True), model("APC", special_vehicle=True)
    )

    # 4 x 1 + 2 + 2 = 8.
    assert [u.priced.each for u in result.units] == [1, 2, 2]
    assert result.total == 8


def test_break_point_is_half_the_force_points():
    # 5 models + a leader = 7 force points; breaks once 7/2 are down.
    result = army(model(quantity=5), model("Sarge", leader=True))

    assert result.extras["break_point"] == Fraction(7, 2)
    assert result.to_json()["break_point"] == 3.5


@pytest.mark.parametrize(("count", "warned"), [(3, True), (4, False), (12, False), (13, True)])
def test_force_size_warning_outside_4_to_12_models(count: int, warned: bool):
    # Counted with quantities: one unit of `count` models.
    result = army(model(quantity=count))

    assert [w.code for w in result.warnings] == (["force-size"] if warned else [])
    assert result.legal


def test_over_limit():
    result = army(model(quantity=5), limit=4)

    assert [(e.code, e.unit) for e in result.errors] == [("over-limit", None)]


def test_stat_line_defaults():
    p = d10.parse_profile({}, "p")

    assert (p.combat_skill, p.willpower, p.shooting, p.cqc, p.physique, p.agility) == (5,) * 6
    assert p.defence == 10
    assert p.move.value == 5


def test_defence_by_armour():
    assert d10.ARMOUR_DEFENCE == {"none": 10, "light": 11, "medium": 12, "heavy": 13}


@pytest.mark.parametrize(
    ("stat", "chance"),
    [
        (5, Fraction(6, 10)),  # d10 of 5..0 (six faces): the seed's "5 (60%)"
        (7, Fraction(8, 10)),  # the seed's "7 (80%)"
        (3, Fraction(4, 10)),  # the seed's "3 (40%)"
        (9, Fraction(9, 10)),  # a natural 1 always fails
        (0, Fraction(1, 10)),  # a natural 0 always succeeds
    ],
)
def test_success_chance_of_stat_plus_d10_against_10(stat: int, chance: Fraction):
    assert d10.success_chance(stat) == chance


@pytest.mark.parametrize(
    ("profile", "path", "message"),
    [
        ({"shooting": 11}, "p.shooting", "must be a whole number between 1 and 10"),
        ({"cqc": 4.5}, "p.cqc", "must be a whole number between 1 and 10"),
        ({"defence": 31}, "p.defence", "must be a whole number between 1 and 30"),
        ({"move": 25}, "p.move", "must be between 0 and 24"),
        ({"leader": "no"}, "p.leader", "must be true or false"),
        ({"weapons": ["LMG", ""]}, "p.weapons[1]", "must not be empty"),
        ({"armour": "light"}, "p.armour", "unknown field"),
    ],
)
def test_bad_profile_names_the_field(profile: dict, path: str, message: str):
    with pytest.raises(ArmyFileError) as caught:
        d10.parse_profile(profile, "p")

    assert str(caught.value) == f"{path}: {message}"


def test_weapons_from_the_table_or_homebrew_load():
    p = d10.parse_profile({"weapons": ["LMG", "Laser pistol"]}, "p")

    assert p.weapons == ("LMG", "Laser pistol")
    assert "LMG" in {w.name for w in d10.WEAPONS}
