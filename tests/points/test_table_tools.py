"""Table aids worked out by the engine: GEM Table 1 odds, Gemini dangerous terrain, d10 chances.

Every expected value below is counted by hand from the seed tables, in the comment beside
it, not read back from the code.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from points import d10, gem

F = Fraction


def gem_profile(**data: object) -> gem.GemProfile:
    return gem.parse_profile({"base": "25mm", **data}, "p")


# ---------------------------------------------------------------- GEM Table 1


def test_off_5_against_def_5_needs_11_which_is_half_the_d20():
    # Row OFF 5, column DEF 5 reads 11: faces 11..20 are 10 of 20.
    assert gem.needed(5, 5) == 11
    assert gem.hit_chance(5, 5) == F(10, 20)


@pytest.mark.parametrize(
    ("chosen", "modifier", "chance"),
    [
        # OFF 5 vs DEF 5 needs 11; -2 (target moved) makes it 13: faces 13..20, 8 of 20.
        (("target-moved",), -2, F(8, 20)),
        # -2 moved and -4 hard cover: 17..20, 4 of 20.
        (("target-moved", "hard-cover"), -6, F(4, 20)),
        # +1 large target: 10..20, 11 of 20.
        (("large-target",), 1, F(11, 20)),
        # +2 extremely large, -2 beyond half range: back to 11..20.
        (("extremely-large-target", "over-half-range"), 0, F(10, 20)),
    ],
)
def test_missile_modifiers_shift_each_roll(chosen, modifier, chance):
    assert gem.missile_modifier(chosen) == modifier
    assert gem.hit_chance(5, 5, modifier) == chance


def test_a_natural_20_always_hits_whatever_the_modifier():
    # OFF 1 vs DEF 4 needs 19; at -4 a 23 would be needed, so only the natural 20 hits.
    assert gem.hit_chance(1, 4, -4) == F(1, 20)


def test_a_natural_1_always_misses_whatever_the_modifier():
    # OFF 6 vs DEF 1 needs 3; +2 would make a 1 enough, but the natural 1 misses: 2..20.
    assert gem.hit_chance(6, 1, 2) == F(19, 20)


def test_marked_cells_ignore_modifiers():
    # OFF 1 vs DEF 9 is 20*: only a natural 20, even at +2 (an unmarked 20 would get 18..20).
    assert gem.hit_chance(1, 9, 2) == F(1, 20)
    assert gem.hit_chance(1, 7, 2) == F(3, 20)  # 20 unmarked: 18, 19, 20
    # OFF 10 vs DEF 1 is 2!: only a natural 1 misses, even behind hard cover (-4)...
    assert gem.hit_chance(10, 1, -4) == F(19, 20)
    # ...while OFF 7 vs DEF 1 (2, unmarked) at -4 needs 6: faces 6..20, 15 of 20.
    assert gem.hit_chance(7, 1, -4) == F(15, 20)


def test_table_1_refuses_values_off_the_table():
    for off, def_ in ((0, 5), (5, 0), (11, 5), (5, 11)):
        with pytest.raises(ValueError):
            gem.needed(off, def_)


def test_hit_chances_across_def_1_to_10():
    # Row OFF 5: 3 5 7 9 11 13 14 15 15 16 -> faces from that score to 20.
    assert gem.hit_chances(5) == tuple(F(n, 20) for n in (18, 16, 14, 12, 10, 8, 7, 6, 6, 5))


@pytest.mark.parametrize(
    "chosen",
    [("large-target", "small-target"), ("soft-cover", "hard-cover"), ("no-such-thing",)],
)
def test_clashing_or_unknown_missile_modifiers_are_refused(chosen):
    with pytest.raises(ValueError):
        gem.missile_modifier(chosen)


def test_expected_melee_hits_are_att_times_chance():
    # OFF 6 ATT 2 against DEF 4 needs 8: 8..20 is 13 of 20, so 2 × 13/20 = 1.3 hits a turn.
    # Its extra attack (OFF 3, ATT 1) needs 13: 8 of 20.
    knight = gem_profile(
        type="cavalry", off=6, att=2, melee=[{"name": "Horse", "off": 3}], **{"def": 7}
    )

    basic, horse = gem.attack_odds(knight, 4, ["target-moved"])

    assert (basic.needed, basic.chance, basic.per_turn) == (8, F(13, 20), F(26, 20))
    assert basic.modifier == 0  # missile modifiers never touch melee
    assert (horse.name, horse.needed, horse.per_turn) == ("Horse", 13, F(8, 20))
    assert gem.melee_per_turn((basic, horse)) == F(34, 20)


def test_missile_hits_per_turn_follow_the_rate_of_fire():
    # A sling (OFF 4, ATT 2) every other turn vs DEF 3 needs 9: 12 of 20 per die, 2 dice
    # give 24/20 when it fires, half that a turn on average. Target moved (-2): 11..20.
    slinger = gem_profile(
        type="skirmisher",
        off=1,
        missile=[{"name": "Sling", "off": 4, "att": 2, "range": 12, "fire": "every-other-turn"}],
        **{"def": 2},
    )

    _, sling = gem.attack_odds(slinger, 3)
    _, moved = gem.attack_odds(slinger, 3, ["target-moved"])

    assert (sling.needed, sling.chance, sling.per_attack, sling.per_turn) == (
        9,
        F(12, 20),
        F(24, 20),
        F(12, 20),
    )
    assert (moved.modifier, moved.chance, moved.per_turn) == (-2, F(10, 20), F(10, 20))


def test_heavy_and_area_weapons_on_a_vehicle():
    tank = gem_profile(
        type="vehicle",
        base="huge",
        max_speed=12,
        missile=[
            {"name": "Cannon", "off": 9, "range": 48, "radius": 2, "heavy": True},
            {"name": "MG", "off": 5, "att": 3, "range": 24},
        ],
        **{"def": 9},
    )

    # Cannon OFF 9 vs DEF 4 needs 5: 16 of 20. It is an area weapon: the target moving does
    # not change it. The MG (OFF 5) needs 9, at -2 11: 10 of 20, × 3 dice.
    cannon, mg = gem.attack_odds(tank, 4, ["target-moved"])
    assert (cannon.chance, cannon.modifier) == (F(16, 20), 0)
    assert "template" in cannon.note and "1/3" in cannon.note  # lands on 5-6 of a d6
    assert (mg.chance, mg.per_turn) == (F(10, 20), F(30, 20))

    # A heavy weapon cannot fire after moving at all.
    cannon, mg = gem.attack_odds(tank, 4, ["firer-moved"])
    assert cannon.chance is None and "cannot fire" in cannon.note
    assert mg.chance == F(10, 20)  # firing after moving is -2 too: 11..20


def test_area_weapons_land_on_5_or_6_and_only_a_6_after_moving():
    assert gem.direct_hit_chance() == F(2, 6)
    assert gem.direct_hit_chance(moved=True) == F(1, 6)


def test_a_rolled_off_has_no_table_row_until_rolled():
    ogre = gem_profile(type="skirmisher", off="d6+2", att=2, **{"def": 4})

    (basic,) = gem.attack_odds(ogre, 4)

    assert basic.chance is None and basic.per_turn is None
    assert "rolled" in basic.note
    assert gem.melee_per_turn([basic]) is None


@pytest.mark.parametrize("off", [4.5, "4.5"])
def test_a_fractional_off_has_no_table_row_and_is_not_called_rolled(off):
    # Typed as a number or as text, 4.5 is a number: there is simply no row for it.
    halfling = gem_profile(type="skirmisher", off=off, **{"def": 4})

    (basic,) = gem.attack_odds(halfling, 4)

    assert basic.chance is None
    assert basic.note == "no Table 1 row for OFF 4.5"


def test_a_whole_off_typed_as_text_reads_its_row():
    # "7" is OFF 7: against DEF 7 it needs 11, 10 in 20.
    (basic,) = gem.attack_odds(gem_profile(type="skirmisher", off="7", **{"def": 4}), 7)
    assert basic.chance == F(10, 20)


def test_typed_off_and_att_in_melee_and_as_a_missile():
    # OFF 3 ATT 4 vs DEF 6 needs 16: 5 of 20 each, 4 × 5/20 = 1 hit. Shot at a small target
    # in soft cover (-3) it needs 19: 2 of 20, 8/20 hits.
    melee, missile = gem.typed_odds(3, F(4), 6, ["small-target", "soft-cover"])

    assert (melee.chance, melee.per_turn) == (F(5, 20), F(1))
    assert (missile.modifier, missile.chance, missile.per_turn) == (-3, F(2, 20), F(8, 20))


# ---------------------------------------------------------------- Gemini dangerous terrain


def test_dangerous_terrain_at_6_inches_or_less_is_1_in_6():
    risk = gem.dangerous_terrain(F(6))

    assert (risk.immobilised, risk.destroyed, risk.stopped) == (F(1, 6), 0, F(1, 6))


def test_dangerous_terrain_above_6_inches_rolls_two_dice():
    # 36 rolls of two d6: exactly one 1 in 5 + 5 = 10 (immobilised), both 1s in 1
    # (destroyed): 11 of 36 stop the vehicle one way or the other.
    risk = gem.dangerous_terrain(F(13, 2))

    assert (risk.immobilised, risk.destroyed, risk.stopped) == (F(10, 36), F(1, 36), F(11, 36))


# ---------------------------------------------------------------- d10


@pytest.mark.parametrize(
    ("stat", "modifier", "chance"),
    [
        (5, 0, F(6, 10)),  # 5..9 and the 0: six faces
        (5, 2, F(4, 10)),  # +2 penalty, target 12: 7, 8, 9 and the 0
        (5, -1, F(7, 10)),  # -1 bonus, target 9: 4..9 and the 0
        (1, 4, F(1, 10)),  # target 14 is out of reach: only the natural 0
        (10, -4, F(9, 10)),  # target 6: everything but the natural 1
    ],
)
def test_d10_success_chance_with_a_modifier(stat, modifier, chance):
    assert d10.success_chance(stat, d10.target_number(modifier)) == chance


def test_d10_critical_passes_the_target_by_5():
    # Target 10: a critical needs 15. Stat 5 only with the 0 (10); stat 7 with 8, 9 and 0.
    assert d10.critical_chance(5) == F(1, 10)
    assert d10.critical_chance(7) == F(3, 10)
    # Stat 10 against target 6 reaches 11 with a 1, but a natural 1 always fails.
    assert d10.critical_chance(10, 6) == F(9, 10)


def test_d10_contest_between_equal_stats_favours_the_active_side():
    # Stat 5 succeeds on 5..9 and 0 (6 faces), fails on 1..4 (4 faces).
    # Both fail: 4 × 4 = 16. Only the active side succeeds: 6 × 4 = 24, only the other: 24.
    # Both succeed (36 pairs): the 6 ties go to the active side, 15 higher rolls each way.
    c = d10.contest(5, 5)

    assert (c.active, c.passive, c.neither) == (F(45, 100), F(39, 100), F(16, 100))
    # Winning by 5+: active 6 v 1, 7 v 1-2, 8 v 1-3, 9 v 1-4, 0 v 1-5 = 15 pairs; same back.
    assert (c.active_critical, c.passive_critical) == (F(15, 100), F(15, 100))


def test_d10_contest_between_a_veteran_and_a_rookie():
    # Stat 10 succeeds on every face but the 1 (totals 12..20); stat 1 only on 9 and 0
    # (totals 10, 11). Whenever the 10 succeeds it wins: 9 × 10 = 90. When it rolls the 1
    # the other side wins with 2 faces (2), and nobody succeeds on the other 8.
    c = d10.contest(10, 1)

    assert (c.active, c.passive, c.neither) == (F(90, 100), F(2, 100), F(8, 100))


def test_d10_contest_compares_how_far_each_side_passed_its_own_target():
    # Muster's reading: modifiers move each side's target. Active stat 5 with a -2 bonus
    # (target 8) succeeds on 3..9 and 0 (8 faces); the other stat 5 on 5..9 and 0 (6).
    # Neither: 2 × 4 = 8; only active 8 × 4 = 32; only passive 2 × 6 = 12.
    # Both (48 pairs): active wins when a - 3 >= b - 5, i.e. a >= b - 2:
    # b = 5..10 allow 8, 7, 6, 5, 4, 3 faces = 33; passive 15.
    c = d10.contest(5, 5, active_modifier=-2)

    assert (c.active, c.passive, c.neither) == (F(65, 100), F(27, 100), F(8, 100))
