"""GEM pricing (SPEC 3.2): the worked examples, the breakdown, and what raising a stat does.

Every expected number comes from the SPEC or is worked by hand in a comment.
"""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from points import gem
from points.errors import ArmyFileError
from tests.samples import SPEC_TANK

SWORDSMAN = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}
ARCHER = {
    "type": "skirmisher",
    "base": "25mm",
    "off": 3,
    "def": 3,
    "missile": [{"name": "Bow", "off": 4, "range": 24}],
}
KNIGHT = {
    "type": "cavalry",
    "base": "40mm",
    "off": 6,
    "att": 2,
    "def": 7,
    "hit": 2,
    "mor": 5,
    "mov": 8,
}
BLOCK_OF_18 = {"type": "block", "base": "20mm", "off": 1, "att": 2, "def": 1, "hit": 2, "siz": 18}


def priced(data: dict):
    return gem.price(gem.parse_profile(data, "profile"))


def line(data: dict, label: str):
    [found] = [x for x in priced(data).lines if x.label == label]
    return found


# ------------------------------------------------------------ the SPEC's worked examples


def test_swordsman_is_6_5():
    # D = 4×1 = 4, O = 4×1 = 4, B = 4 + 4 + 16/16 + 1/18 = 9 + 1/18 (the SPEC's B) = 163/18.
    # V = 163/18 × 9/10 (25mm) × 4/5 (skirmisher) × 1 × 1 × 1 = 163/25 = 6.52.
    p = priced(SWORDSMAN)
    assert line(SWORDSMAN, "B = base value").value == 9 + Fraction(1, 18)
    assert p.exact == Fraction(163, 25) == Fraction("6.52")
    assert p.each == Fraction("6.5")


def test_archer_is_25_3():
    # M = 4 × 1 × 24 × 1 / 4 = 24, O = 3×1 + 24 = 27, D = 3.
    # B = 3 + 27 + 27×3/16 + 1/18 = 30 + 81/16 + 1/18 = (4320 + 729 + 8)/144 = 5057/144.
    # V = 5057/144 × 9/10 × 4/5 = 5057/144 × 18/25 = 5057/200 = 25.285 -> 25.3.
    p = priced(ARCHER)
    assert line(ARCHER, "Missile: Bow").value == 24
    assert line(ARCHER, "O = offence").value == 27
    assert p.exact == Fraction(5057, 200) == Fraction("25.285")
    assert p.each == Fraction("25.3")


def test_knight_is_54_3():
    # D = 7×2 = 14, O = 6×2 = 12, B = 26 + 168/16 + 1/18 = (468 + 189 + 1)/18 = 329/9.
    # Factors: morale 1 + 5/50 = 11/10, 40mm 3/4, cavalry 3/2, magic (2+18)/20 = 1,
    # move (8+16)/20 = 6/5; together 594/400 = 297/200.
    # V = 329/9 × 297/200 = 329 × 33/200 = 10857/200 = 54.285 -> 54.3.
    p = priced(KNIGHT)
    assert p.exact == Fraction(10857, 200) == Fraction("54.285")
    assert p.each == Fraction("54.3")


def test_tank_is_1348_1():
    # max speed 2d6+8 averages 15; speed term 15/2 × 6 = 45.
    # Cannon M = 9 × 1 × 48 × (2 + 1/2) / 8 × 9/10 = 135 × 9/10 = 243/2; MG M = 5×3×24/4 = 90.
    # O = 45 + 243/2 + 90 = 513/2; D = 9×6 = 54.
    # B = 13/10×54 + 513/2 + (513/2 × 54)/12 + 4/9 = 351/5 + 513/2 + 4617/4 + 4/9
    #   = (12636 + 46170 + 207765 + 80)/180 = 266651/180.
    # V = 266651/180 × 13/20 (huge) × 1 × 1 × (12+16)/20 = 266651 × 91/18000 = 24265241/18000
    #   = 1348.0689… -> 1348.1.
    p = priced(SPEC_TANK)
    assert line(SPEC_TANK, "Speed").value == 45
    assert line(SPEC_TANK, "Missile: Cannon").value == Fraction(243, 2)
    assert line(SPEC_TANK, "Missile: MG").value == 90
    assert line(SPEC_TANK, "O = offence").value == Fraction(513, 2)
    assert line(SPEC_TANK, "B = base value").value == Fraction(266651, 180)
    assert p.exact == Fraction(24265241, 18000)
    assert str(float(p.exact)).startswith("1348.0689")
    assert p.each == Fraction("1348.1")


def test_block_of_18_rounds_half_up_to_5_3():
    # D = 1×2 = 2, O = 1×2 = 2, B = 2 + 2 + 4/16 + 18/18 = 21/4 = 5.25 exactly; every factor 1.
    p = priced(BLOCK_OF_18)
    assert p.exact == Fraction(21, 4)
    assert p.each == Fraction("5.3")


# ------------------------------------------------------------ the breakdown


def test_breakdown_shows_each_factor_of_the_formula():
    labels = [x.label for x in priced(KNIGHT).lines]

    assert labels == [
        "D = DEF×HIT",
        "OFF×ATT",
        "O = offence",
        "B = base value",
        "Morale",
        "Base size",
        "Type",
        "Magic",
        "Move",
        "V = value",
        "Points per model",
    ]
    assert line(KNIGHT, "D = DEF×HIT").value == 14
    assert line(KNIGHT, "Morale").value == Fraction(11, 10)
    assert line(KNIGHT, "Base size").value == Fraction(3, 4)
    assert line(KNIGHT, "Type").value == Fraction(3, 2)
    assert line(KNIGHT, "Move").value == Fraction(6, 5)
    assert line(KNIGHT, "V = value").value == Fraction(10857, 200)
    assert line(KNIGHT, "Points per model").value == Fraction("54.3")


def test_figure_counts_only_its_best_missile_weapon():
    # Sling: 3×1×12/4 = 9; bow: 4×1×24/4 = 24, so the bow counts: O = 3 + 24 = 27 as the Archer.
    archer = ARCHER | {"missile": [{"name": "Sling", "off": 3, "range": 12}, *ARCHER["missile"]]}

    assert "not counted" in line(archer, "Missile: Sling").note
    assert "counted: the best" in line(archer, "Missile: Bow").note
    assert priced(archer).exact == Fraction(5057, 200)


def test_figure_counts_every_extra_melee_attack():
    # Swordsman plus a dagger (off 2, att 2 -> 4): O = 4 + 4 = 8, D = 4.
    # B = 4 + 8 + 32/16 + 1/18 = 14 + 1/18 = 253/18; V = 253/18 × 18/25 = 253/25.
    dagger = SWORDSMAN | {"melee": [{"name": "Dagger", "off": 2, "att": 2}]}

    assert line(dagger, "Melee: Dagger").value == 4
    assert priced(dagger).exact == Fraction(253, 25)


def test_vehicle_counts_every_missile_weapon():
    notes = [x.note for x in priced(SPEC_TANK).lines if x.label.startswith("Missile")]

    assert len(notes) == 2
    assert all("counted: fires with the rest" in note for note in notes)


def test_dice_stat_shows_its_average_in_the_breakdown():
    assert "2d6+8 (average 15)" in line(SPEC_TANK, "Speed").note


def test_breakdown_json_gives_long_fractions_exactly():
    [b] = [x.to_json() for x in priced(SPEC_TANK).lines if x.label == "B = base value"]

    # 266651/180 = 1481.39444…: shown to 4 places, exact beside it.
    assert b == {
        "label": "B = base value",
        "value": 1481.3944,
        "note": "1.3 × D + O + O × D / 12 + capacity / 9 (capacity 4)",
        "exact": "266651/180",
    }


def test_weapon_fire_rate_divides_its_value():
    # off 4 × range 24 = 96, divided by 4, 8 or 12.
    values = []
    for fire in gem.FIRES:
        bow = {"off": 4, "range": 24, "fire": fire}
        values.append(line(SWORDSMAN | {"missile": [bow]}, "Missile: weapon 1").value)

    assert values == [24, 12, 8]


def test_heavy_weapon_is_worth_nine_tenths():
    # 4 × 24 / 4 = 24, heavy: 24 × 9/10 = 108/5.
    bow = {"off": 4, "range": 24, "heavy": True}
    assert line(SWORDSMAN | {"missile": [bow]}, "Missile: weapon 1").value == Fraction(108, 5)


# ------------------------------------------------------------ raising a stat never lowers V


def _figure_stats():
    return st.fixed_dictionaries(
        {
            "type": st.sampled_from([t for t in gem.TYPES if t != "vehicle"]),
            "base": st.sampled_from(gem.BASES),
            "off": st.integers(1, 9),
            "def": st.integers(1, 9),
            "att": st.integers(0, 5),
            "hit": st.integers(1, 5),
            "mor": st.integers(-20, 19),
            "mag": st.integers(1, 9),
            "mov": st.integers(0, 12),
            "siz": st.integers(1, 20),
            "melee": st.lists(
                st.fixed_dictionaries({"off": st.integers(1, 9), "att": st.integers(1, 3)}),
                max_size=2,
            ),
            "missile": st.lists(_weapon(), max_size=2),
        }
    )


def _weapon():
    return st.fixed_dictionaries(
        {
            "off": st.integers(1, 9),
            "att": st.integers(1, 3),
            "range": st.integers(1, 48),
            "radius": st.sampled_from([0, "0.5", 1, 2, 3]),
            "fire": st.sampled_from(gem.FIRES),
            "heavy": st.booleans(),
        }
    )


def _vehicle_stats():
    return st.fixed_dictionaries(
        {
            "type": st.just("vehicle"),
            "base": st.sampled_from(gem.BASES),
            "def": st.integers(1, 9),
            "hit": st.integers(1, 9),
            "mor": st.integers(-20, 19),
            "mag": st.integers(1, 9),
            "mov": st.integers(0, 12),
            "max_speed": st.integers(0, 30),
            "capacity": st.integers(0, 12),
            "missile": st.lists(_weapon(), max_size=3),
        }
    )


TOP_STATS = ("off", "def", "att", "hit", "mor", "mag", "mov", "siz", "max_speed", "capacity")
WEAPON_STATS = ("off", "att", "range", "radius")
# Largest value each stat may take (SPEC 3.2); others only have a floor.
CEILINGS = {"off": 10, "def": 10, "mor": 20, "mag": 10}


def _raised(value: object, by: Fraction, key: str) -> str:
    new = Fraction(str(value)) + by
    if key in CEILINGS:
        new = min(new, Fraction(CEILINGS[key]))
    if key == "radius" and new < Fraction(1, 2):
        new = Fraction(1, 2)  # radius is 0 or at least 1/2
    return str(float(new)) if new.denominator != 1 else str(new.numerator)


def _stat_paths(data: dict) -> list[tuple]:
    """Where each numeric stat sits: ("off",) or ("missile", 0, "range")."""
    paths: list[tuple] = [(k,) for k in TOP_STATS if k in data]
    for kind in ("melee", "missile"):
        for i, weapon in enumerate(data.get(kind, [])):
            paths += [(kind, i, k) for k in WEAPON_STATS if k in weapon]
    return paths


@given(
    data=st.one_of(_figure_stats(), _vehicle_stats()),
    by=st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(3)]),
    pick=st.data(),
)
def test_raising_any_stat_never_lowers_the_value(data, by, pick):
    path = pick.draw(st.sampled_from(_stat_paths(data)))
    raised = copy.deepcopy(data)
    holder = raised if len(path) == 1 else raised[path[0]][path[1]]
    holder[path[-1]] = _raised(holder[path[-1]], by, path[-1])

    assert priced(raised).exact >= priced(data).exact


# ------------------------------------------------------------ what a profile may hold


@pytest.mark.parametrize(
    ("change", "path", "message"),
    [
        ({"off": 11}, "profile.off", "must be between 1 and 10"),
        ({"off": 0}, "profile.off", "must be between 1 and 10"),
        ({"def": "2d10"}, "profile.def", "must be between 1 and 10"),  # averages 11
        ({"mor": -21}, "profile.mor", "must be between -20 and 20"),
        ({"hit": 0}, "profile.hit", "must be at least 1"),
        ({"att": -1}, "profile.att", "must be at least 0"),
        ({"mov": "fast"}, "profile.mov", "must be a number or a dice expression such as 2d6+8"),
        ({"type": "dragon"}, "profile.type", "must be one of " + ", ".join(gem.TYPES)),
        ({"base": "60mm"}, "profile.base", "must be one of " + ", ".join(gem.BASES)),
        ({"colour": "red"}, "profile.colour", "unknown field"),
        ({"max_speed": 12}, "profile.max_speed", "only vehicles have this"),
        (
            {"missile": [{"off": 4, "range": 0}]},
            "profile.missile[0].range",
            "must be greater than 0",
        ),
        ({"missile": [{"off": 4}]}, "profile.missile[0].range", "required"),
        (
            {"missile": [{"off": 4, "range": 12, "radius": 0.25}]},
            "profile.missile[0].radius",
            "must be 0 (single target) or at least 0.5",
        ),
        (
            {"missile": [{"off": 4, "range": 12, "fire": "sometimes"}]},
            "profile.missile[0].fire",
            "must be one of every-turn, every-other-turn, every-third-turn",
        ),
        ({"melee": [{"off": 4, "att": 0}]}, "profile.melee[0].att", "must be at least 1"),
        ({"melee": {"off": 4}}, "profile.melee", "must be a list"),
    ],
)
def test_bad_figure_profile_names_the_field(change: dict, path: str, message: str):
    with pytest.raises(ArmyFileError) as caught:
        gem.parse_profile(SWORDSMAN | change, "profile")

    assert str(caught.value) == f"{path}: {message}"


def test_figure_needs_off():
    with pytest.raises(ArmyFileError, match=r"^profile\.off: required$"):
        gem.parse_profile({"type": "block", "base": "20mm", "def": 3}, "profile")


@pytest.mark.parametrize("key", ["att", "melee"])
def test_vehicle_takes_its_offence_from_speed_and_weapons(key: str):
    tank = SPEC_TANK | {key: [{"off": 3}] if key == "melee" else 3}

    with pytest.raises(ArmyFileError) as caught:
        gem.parse_profile(tank, "profile")

    assert str(caught.value) == (
        f"profile.{key}: vehicles take their offence from speed and weapons"
    )


def test_vehicle_off_is_kept_and_explained_but_not_priced():
    # SPEC 3.2: a vehicle may have an OFF for rams and close attacks; the Tank's price
    # stays 24265241/18000 -> 1348.1 (test_tank_is_1348_1), with or without one.
    rammer = SPEC_TANK | {"off": 3}

    tank = gem.parse_profile(rammer, "profile")

    assert tank.off is not None and tank.off.value == 3
    assert gem.price(tank).exact == Fraction(24265241, 18000)
    assert gem.price(tank).each == Fraction("1348.1")
    off = line(rammer, "OFF")
    assert off.value == "not priced"
    assert "OFF 3" in off.note and "speed and weapons" in off.note
    assert gem.dump_profile(tank) == rammer
    assert "OFF" not in [x.label for x in priced(SPEC_TANK).lines]


def test_vehicle_off_is_still_1_to_10():
    with pytest.raises(ArmyFileError, match=r"^profile\.off: must be between 1 and 10$"):
        gem.parse_profile(SPEC_TANK | {"off": 11}, "profile")


def test_vehicle_needs_max_speed():
    tank = {k: v for k, v in SPEC_TANK.items() if k != "max_speed"}

    with pytest.raises(ArmyFileError, match=r"^profile\.max_speed: required$"):
        gem.parse_profile(tank, "profile")


def test_vehicle_keeps_gemini_characteristics_without_pricing_them():
    gemini = {
        "vehicle_class": "tracked",
        "battle_speed": 12,
        "acc": "2d4+4",
        "dec": 8,
        "trr": 0.5,
        "armour_front": 14,
        "armour_side": 13,
        "armour_rear": 10,
        "hull_points": 2,
        "open_topped": False,
        "firing_ports": 4,
    }
    tank = gem.parse_profile(SPEC_TANK | gemini, "profile")

    assert gem.price(tank).exact == Fraction(24265241, 18000)
    assert tank.armour_front == 14
    assert tank.trr is not None and tank.trr.value == Fraction(1, 2)
    assert tank.acc is not None and tank.acc.value == 9  # 2d4+4 -> 5 + 4


def test_bike_has_toughness_and_save_instead_of_armour_values():
    # The seed's Vincent Black Shadow: toughness 5, 3+ save, TRR 1/2, max speed 32".
    bike = {
        "type": "vehicle",
        "base": "40mm",
        "def": 5,
        "max_speed": 32,
        "acc": 16,
        "vehicle_class": "bike",
        "trr": 0.5,
        "toughness": 5,
        "save": 3,
    }
    assert gem.parse_profile(bike, "profile").save == 3


@pytest.mark.parametrize(
    ("change", "path", "message"),
    [
        ({"vehicle_class": "hovercraft"}, "profile.vehicle_class", "must be one of"),
        ({"trr": 0}, "profile.trr", "must be greater than 0"),
        ({"save": 1}, "profile.save", "must be a whole number between 2 and 6"),
        ({"hull_points": 0}, "profile.hull_points", "must be a whole number of at least 1"),
        ({"armour_front": 12.5}, "profile.armour_front", "must be a whole number of at least 0"),
        ({"open_topped": "yes"}, "profile.open_topped", "must be true or false"),
        ({"siz": 2}, "profile.siz", "vehicles are priced by capacity, not siz"),
    ],
)
def test_bad_vehicle_profile_names_the_field(change: dict, path: str, message: str):
    with pytest.raises(ArmyFileError) as caught:
        gem.parse_profile(SPEC_TANK | change, "profile")

    assert str(caught.value).startswith(f"{path}: {message}")


def test_gemini_characteristics_are_for_vehicles_only():
    with pytest.raises(ArmyFileError, match=r"^profile\.armour_front: only vehicles have this$"):
        gem.parse_profile(SWORDSMAN | {"armour_front": 10}, "profile")


def test_dump_leaves_out_defaults_and_keeps_dice_as_typed():
    assert gem.dump_profile(gem.parse_profile(SPEC_TANK, "p")) == SPEC_TANK
    assert gem.dump_profile(gem.parse_profile(SWORDSMAN | {"att": 1}, "p")) == SWORDSMAN


# ------------------------------------------------------------ roster aids


def test_table_1_hit_chance_on_a_d20():
    # OFF 4 vs DEF 4 needs 11+: 10 faces of 20.
    assert gem.hit_chance(4, 4) == Fraction(10, 20)
    # OFF 10 vs DEF 1 needs 2!: only a natural 1 misses -> 19/20.
    assert gem.hit_chance(10, 1) == Fraction(19, 20)
    # OFF 1 vs DEF 10 needs 20*: only a natural 20 -> 1/20.
    assert gem.hit_chance(1, 10) == Fraction(1, 20)


def test_gemini_handling_aids():
    tank = gem.parse_profile(SPEC_TANK | {"vehicle_class": "tracked", "battle_speed": 12}, "p")

    assert gem.road_speed(tank) == 18  # 12 + 6 for tracked
    assert gem.turn_radius(Fraction(1, 2), Fraction(12)) == 6  # TRR × speed
    assert gem.largest_turn(Fraction(1, 2)) == 114  # 57° ÷ 1/2
    assert gem.reverse_limit(Fraction(24)) == 12
    assert gem.movement_after_turns(Fraction(8), 3) == 2  # three 45° turns at 2" each
