"""Fight odds (SPEC 3.8). Every expected value below was worked out by hand from the seeds'
dice before the engine existed; the working is in each test's comment."""

from __future__ import annotations

import functools
import time
from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from points import fights
from points import gem as gem_rules
from points.errors import ArmyFileError


def unit(name: str = "X", quantity: int = 1, **profile: object) -> dict:
    return {"name": name, "quantity": quantity, "profile": profile}


def fight(system: str, a: dict, b: dict, **conditions: object) -> fights.Fight:
    return fights.compute(fights.read_request({"system": system, "a": a, "b": b, **conditions}))


def guy(flavor: str = "troop", **more: object) -> dict:
    return unit(flavor.title(), kind="guy", flavor=flavor, **more)


def gem(quantity: int = 1, **stats: object) -> dict:
    return unit("Unit", quantity, type="skirmisher", base="25mm", **stats)


def outcome(f: fights.Fight) -> tuple[F, F, F]:
    return f.a_wins, f.b_wins, f.draw


# ---------------------------------------------------------------- VSGMR duel


def test_hero_beats_troop_hand_to_hand_three_times_in_five():
    # Hero hits on 3+ (4+ with +1): 2/3; troop on 4+: 1/2. A round: hero first (1/2):
    # hero wins 2/3, troop 1/3 * 1/2; troop first: troop 1/2, hero 1/2 * 2/3. So a round
    # gives the hero 1/2, the troop 1/3, nothing 1/6; the hero wins (1/2) / (5/6) = 3/5.
    f = fight("vsgmr", guy("hero"), guy())

    assert outcome(f) == (F(3, 5), F(2, 5), 0)
    assert fights.percent(f.a_wins) == "60.0"


def test_troop_against_troop_in_heavy_armour_wins_three_times_in_ten():
    # A's hit stands 1/2 * 1/2 (heavy armour turns it on 4+) = 1/4; B's hit 1/2.
    # Per round A: 1/2 * 1/4 + 1/2 * 1/2 * 1/4 = 3/16; B: 1/2 * 1/2 + 1/2 * 3/4 * 1/2 = 7/16;
    # going on 3/4 * 1/2 = 3/8. A wins (3/16) / (5/8) = 3/10.
    f = fight("vsgmr", guy(), guy(armor="heavy"))

    assert outcome(f) == (F(3, 10), F(7, 10), 0)


def test_automatic_fire_keeps_the_better_of_two_dice_at_distance():
    # A: 5+ on the better of two d6: 1 - (4/6)^2 = 5/9; B: 5+ on one die: 1/3.
    # Per round A: (5/9)(2 - 1/3)/2 = 25/54; B: (1/3)(2 - 5/9)/2 = 13/54. A wins 25/38.
    a = guy(distance_attack=True, automatic_fire=True)
    f = fight("vsgmr", a, guy(distance_attack=True), fight="distance")

    assert outcome(f) == (F(25, 38), F(13, 38), 0)
    assert f.attacks[0].chance == F(5, 9)


def test_a_figure_without_a_distance_attack_cannot_shoot_back():
    f = fight("vsgmr", guy(distance_attack=True), guy(), fight="distance")

    assert outcome(f) == (1, 0, 0)


def test_a_distance_fight_with_no_shooter_is_a_draw():
    f = fight("vsgmr", guy(), guy(), fight="distance")

    assert outcome(f) == (0, 0, 1)


def test_stealth_in_cover_needs_seven_so_only_a_hero_hits_on_a_six():
    # Hero at distance: 7+ with +1 is 6+ on the die: 1/6. A troop can never hit.
    hero = guy("hero", distance_attack=True)
    sneak = guy(distance_attack=True, traits=["stealth"])
    f = fight("vsgmr", hero, sneak, fight="distance", cover={"a": False, "b": True})

    assert f.attacks[0].chance == F(1, 6)
    troop = fight("vsgmr", guy(distance_attack=True), sneak, fight="distance", cover=True)
    assert troop.attacks[0].chance == 0


def test_ignores_armor_makes_both_armour_rolls_count():
    # Hit 1/2; heavy armour turns it on 4+ (1/2) but must succeed twice: stands 3/4.
    f = fight("vsgmr", guy(traits=["ignores-armor"]), guy(armor="heavy"))

    assert f.attacks[0].chance == F(3, 8)


def test_double_strike_attacks_again_after_a_hit_the_armour_turned():
    # Per attack 1/4 (as above); a hit turned by armour (1/2 * 1/2) gives a second go:
    # 1/4 + 1/4 * 1/4 = 5/16 a turn. Against B's 1/2: A's round (5/16)(3/2)/2 = 15/64,
    # B's (1/2)(27/16)/2 = 27/64, going (11/16)(1/2) = 11/32; A wins (15/64)/(21/32) = 5/14.
    f = fight("vsgmr", guy(traits=["double-strike"]), guy(armor="heavy"))

    assert outcome(f) == (F(5, 14), F(9, 14), 0)


def test_combat_master_gives_a_troop_one_and_a_hero_two():
    # Troop: 4+ with +1 is 3+: 2/3. Hero: 4+ with +1 (hero) and +2 is 1+: every roll hits.
    troop = fight("vsgmr", guy(traits=["combat-master"]), guy())
    hero = fight("vsgmr", guy("hero", traits=["combat-master"]), guy())

    assert troop.attacks[0].chance == F(2, 3)
    assert hero.attacks[0].chance == 1
    assert hero.attacks[0].modifiers == ("hero guy +1", "Combat Master +2")


def test_a_tough_heavy_vehicle_cannot_be_hurt_by_a_troop():
    # Armour 4+ with vehicle +1 and Tough +2 turns every hit. The vehicle hits on 3+.
    tank = unit("Tank", kind="vehicle", armor="heavy", traits=["tough"])
    f = fight("vsgmr", tank, guy())

    assert outcome(f) == (1, 0, 0)


def test_mooks_roll_one_worse_and_their_light_armour_never_saves():
    # Mook hits on 5+ (4+ with -1): 1/3. A mook's light armour needs 7: never turns a hit.
    f = fight("vsgmr", guy(), guy("mook", armor="light"))

    assert f.attacks[0].chance == F(1, 2)
    assert f.attacks[1].chance == F(1, 3)


def test_traits_and_powers_left_out_are_named():
    a = guy("hero", traits=["flight", "tough"], super_powers={"super-fight": "major"})

    f = fight("vsgmr", a, guy())

    assert f.not_in_these_odds == ("Hero: Flight", "Hero: Super-Fight (major)")


def test_rounds_show_the_chance_still_fighting():
    # Hero v troop: 1/6 of rounds go on; after two rounds 1/36.
    f = fight("vsgmr", guy("hero"), guy())

    assert [r.going for r in f.rounds[:2]] == [F(1, 6), F(1, 36)]
    assert f.rounds[0].a_wins == F(1, 2)


# ---------------------------------------------------------------- GEM melee


def test_gem_single_models_of_hit_1():
    # A OFF 5 v DEF 3 needs 7: 14/20 = 7/10. B OFF 3 v DEF 4 needs 13: 8/20 = 2/5.
    # A round: A only 7/10 * 3/5 = 21/50, B only 2/5 * 3/10 = 6/50, both 14/50, none 9/50.
    f = fight("gem", gem(off=5, **{"def": 4}), gem(off=3, **{"def": 3}))

    assert outcome(f) == (F(21, 41), F(6, 41), F(14, 41))
    assert (f.a_hit_lost, f.b_hit_lost) == (F(20, 41), F(35, 41))
    assert f.rounds[0].going == F(9, 50)
    assert f.attacks[0].cell == "Table 1: OFF 5 against DEF 3 needs 7"
    assert any(
        line.endswith(": 1 model of HIT 1, 1 attacking at full strength.") for line in f.lines
    )


def test_gem_hit_2_against_hit_1():
    # Both need 11 (OFF 4 v DEF 4): 1/2. From (2, 1): A hits (1/2) and wins whatever B
    # does; A misses, B hits (1/4): (1, 1), a third each way; nothing (1/4): again.
    # A = (1/2 + 1/4 * 1/3) / (3/4) = 7/9; B and draw 1/9 each.
    # HIT A loses: (1/4 * 1 + 1/4 * (1 + 2/3)) / (3/4) = 8/9.
    f = fight("gem", gem(off=4, hit=2, **{"def": 4}), gem(off=4, **{"def": 4}))

    assert outcome(f) == (F(7, 9), F(1, 9), F(1, 9))
    assert f.a_hit_lost == F(8, 9)


def test_gem_identical_single_models_draw_a_third_of_the_time():
    f = fight("gem", gem(off=4, **{"def": 4}), gem(off=4, **{"def": 4}))

    assert outcome(f) == (F(1, 3), F(1, 3), F(1, 3))


def test_gem_higher_ground_adds_one_to_every_roll():
    # A needs 11 - 1: 11/20. Round: A only 11/40, B only 9/40, both 11/40, none 9/40.
    f = fight(
        "gem",
        gem(off=4, **{"def": 4}),
        gem(off=4, **{"def": 4}),
        modifiers={"a": ["higher-ground"]},
    )

    assert outcome(f) == (F(11, 31), F(9, 31), F(11, 31))
    assert f.attacks[0].modifiers == ("Higher ground +1",)


def test_gem_ranks_deeper_read_as_a_player_says_them():
    # Issue #44: OFF 4 v DEF 4 needs 11; two ranks deeper (+2 each) and higher ground (+1)
    # make it 6: 15/20. The working says "2 ranks deeper +4", not the row twice.
    f = fight(
        "gem",
        gem(off=4, **{"def": 4}),
        gem(off=4, **{"def": 4}),
        modifiers={"a": ["rank-deeper", "higher-ground", "rank-deeper"], "b": ["rank-deeper"]},
    )

    assert f.attacks[0].chance == F(3, 4)
    assert f.attacks[0].modifiers == ("2 ranks deeper +4", "Higher ground +1")
    assert f.attacks[1].modifiers == ("1 rank deeper +2",)


def test_gem_a_charge_counts_in_the_first_round_only():
    # Round 1: A needs 9: 3/5. A 3/5 * 1/2 = 3/10, B 2/5 * 1/2 = 1/5, both 3/10, none 1/5;
    # then a third each. A = 3/10 + 1/15 = 11/30, B = 1/5 + 1/15 = 4/15, draw 11/30.
    f = fight(
        "gem", gem(off=4, **{"def": 4}), gem(off=4, **{"def": 4}), modifiers={"a": ["charged"]}
    )

    assert outcome(f) == (F(11, 30), F(4, 15), F(11, 30))


def test_gem_natural_twenty_cells_ignore_modifiers():
    # OFF 1 v DEF 9: only a natural 20 (1/20), higher ground or not. OFF 10 v DEF 1: only a
    # natural 1 misses (19/20). A only 1/400, B only 361/400, both 19/400, none 19/400.
    f = fight(
        "gem",
        gem(off=1, **{"def": 1}),
        gem(off=10, **{"def": 9}),
        modifiers={"a": ["higher-ground"]},
    )

    assert f.attacks[0].chance == F(1, 20)
    assert outcome(f) == (F(1, 381), F(361, 381), F(19, 381))


def test_gem_a_natural_twenty_hits_past_a_penalty():
    # OFF 1 v DEF 7 needs 20; behind an obstacle it would need 21: the natural 20 still hits.
    f = fight(
        "gem",
        gem(off=1, **{"def": 4}),
        gem(off=4, **{"def": 7}),
        modifiers={"a": ["enemy-behind-obstacle"]},
    )

    assert f.attacks[0].chance == F(1, 20)


def test_gem_frontage_limits_who_attacks():
    # Two of A against one of B, all needing 11. Front of one: A wins (1/2 + 1/4 * 1/3) /
    # (3/4) = 7/9. Both attacking: B survives two attacks 1/4; A = (3/4 + 1/8 * 1/3) / (7/8)
    # = 19/21.
    a, b = gem(2, off=4, **{"def": 4}), gem(off=4, **{"def": 4})

    assert fight("gem", a, b, frontage={"a": 1}).a_wins == F(7, 9)
    assert fight("gem", a, b).a_wins == F(19, 21)


def test_gem_melee_leaves_out_morale():
    f = fight("gem", gem(off=4, **{"def": 4}), gem(off=4, **{"def": 4}))

    assert "Morale (fear and rout checks)" in f.not_in_these_odds


def test_gem_rolled_stats_are_refused_naming_the_field():
    with pytest.raises(ArmyFileError) as e:
        fight("gem", gem(off="d6+2", **{"def": 4}), gem(off=4, **{"def": 4}))

    assert e.value.path == "a.profile.off"


def test_gem_unknown_modifier_is_refused_naming_the_field():
    with pytest.raises(ArmyFileError) as e:
        fight("gem", gem(off=4, **{"def": 4}), gem(off=4, **{"def": 4}), modifiers={"b": ["x"]})

    assert e.value.path == "modifiers.b[0]"


def test_gem_twenty_models_a_side_within_the_time_bar():
    a = gem(20, off=4, **{"def": 4})
    started = time.process_time()
    f = fight("gem", a, a)
    spent = time.process_time() - started

    assert f.a_wins == f.b_wins
    assert spent < 0.4  # the bar is 200 ms; twice that for a loaded test machine


def test_gem_a_melee_too_long_to_add_up_exactly_is_walked_in_double_precision():
    # 20 v 20 of HIT 3 and ATT 3: its exact fraction runs to about 27,500 bits, far past
    # the time bar. The same walk in double precision answers it, and says so. The two
    # sides are the same unit, so each wins as often as the other.
    a = gem(20, off=4, hit=3, att=3, **{"def": 4})

    f = fight("gem", a, a)

    assert not f.exact and 0 < f.error <= 1e-9
    assert abs(f.a_wins - f.b_wins) <= 2 * f.error
    assert abs(f.a_wins + f.b_wins + f.draw - 1) <= 3 * f.error
    assert f.to_json()["exact"] is False
    assert any("double precision" in line for line in f.working())


def test_gem_a_melee_past_the_largest_is_refused_naming_the_largest_answered():
    # 41 models of HIT 5 a side: 205 HIT, past the 200 the walk takes. The largest fight of
    # the same two units that is answered is named by its quantities.
    a = gem(41, off=4, hit=5, att=1, **{"def": 4})

    with pytest.raises(fights.TooLarge, match="up to 200 HIT a side") as refused:
        fight("gem", a, a)

    qa, qb = refused.value.largest
    assert qa == qb and 30 <= qa <= 40
    answered = fight("gem", gem(qa, off=4, hit=5, att=1, **{"def": 4}), a | {"quantity": qb})
    assert answered.outcomes > 0


@pytest.mark.parametrize(("models", "hit_att"), [(27, 1), (14, 2), (10, 3)])
def test_gem_the_largest_exact_melees_are_exact_and_one_model_more_is_walked(models, hit_att):
    # Plain blocks (OFF 5 against DEF 4) of up to 27 models of HIT 1 and ATT 1, 14 of HIT 2
    # and ATT 2, 10 of HIT 3 and ATT 3 are worked out exactly within the bar; one model
    # more is answered too, walked in double precision.
    def block(n: int) -> dict:
        return gem(n, off=5, hit=hit_att, att=hit_att, **{"def": 4})

    started = time.process_time()
    f = fight("gem", block(models), block(models))
    spent = time.process_time() - started

    assert f.exact and f.a_wins == f.b_wins and f.outcomes == 1
    assert spent < 0.4  # the bar is 200 ms; twice that for a loaded test machine
    more = fight("gem", block(models + 1), block(models + 1))
    assert not more.exact and abs(more.a_wins - more.b_wins) <= 2 * more.error


def _reference_melee(a: dict, b: dict, charge: int) -> tuple[F, F, F, F]:
    """The GEM melee as SPEC 3.8 words it, the slow and obvious way: from (HIT left to A,
    HIT left to B), each round every standing model makes its attacks (A's first round
    with `charge` added), hits land together one HIT at a time, repeated until a side is
    gone. Returns A wins, draw, expected HIT lost by A and by B."""

    def hits(side: dict, models: int, modifier: int) -> dict[int, F]:
        chance = gem_rules.hit_chance(side["off"], side["target_def"], modifier)
        dist = {0: F(1)}
        for _ in range(models * side["att"]):
            step: dict[int, F] = {}
            for k, p in dist.items():
                step[k] = step.get(k, F(0)) + p * (1 - chance)
                step[k + 1] = step.get(k + 1, F(0)) + p * chance
            dist = step
        return dist

    def standing(side: dict, left: int) -> int:
        return -(-left // side["hit"])

    @functools.cache
    def value(x: int, y: int) -> tuple[F, F, F, F]:  # A wins, draw, HIT A keeps, B keeps
        if x == 0 or y == 0:
            return (F(x > 0 and y == 0), F(x == y == 0), F(x), F(y))
        on_b, on_a = hits(a, standing(a, x), 0), hits(b, standing(b, y), 0)
        still = on_b[0] * on_a[0]
        if still == 1:
            return (F(0), F(1), F(x), F(y))
        total = [F(0)] * 4
        for i, p in on_b.items():
            for j, q in on_a.items():
                if i or j:
                    for k, v in enumerate(value(max(x - j, 0), max(y - i, 0))):
                        total[k] += p * q * v
        return tuple(t / (1 - still) for t in total)

    x, y = a["models"] * a["hit"], b["models"] * b["hit"]
    result = [F(0)] * 4
    for i, p in hits(a, a["models"], charge).items():
        for j, q in hits(b, b["models"], 0).items():
            for k, v in enumerate(value(max(x - j, 0), max(y - i, 0))):
                result[k] += p * q * v
    return result[0], result[1], x - result[2], y - result[3]


melee_sides = st.fixed_dictionaries(
    {
        "models": st.integers(1, 3),
        "off": st.integers(1, 10),
        "def": st.integers(1, 10),
        "hit": st.integers(1, 3),
        "att": st.integers(0, 2),
    }
)


@given(melee_sides, melee_sides, st.booleans())
def test_gem_melee_agrees_with_the_obvious_recursion(a, b, charged):
    def unit_of(side: dict) -> dict:
        stats = {k: side[k] for k in ("off", "def", "hit", "att")}
        return gem(side["models"], **stats)

    a["target_def"], b["target_def"] = b["def"], a["def"]
    f = fight("gem", unit_of(a), unit_of(b), modifiers={"a": ["charged"] if charged else []})

    a_wins, draw, a_lost, b_lost = _reference_melee(a, b, 2 if charged else 0)
    assert (f.a_wins, f.draw, f.b_wins) == (a_wins, draw, 1 - a_wins - draw)
    assert (f.a_hit_lost, f.b_hit_lost) == (a_lost, b_lost)


# ---------------------------------------------------------------- d10


def test_d10_wound_rolls():
    # Damage 4 v Defence 10: faces 6-10 down (1/2), 15 is out of reach. Damage 5: faces
    # 5-9 down, 10 (15) kills.
    assert fights.wound(4, 10) == fights.Wound(F(1, 2), F(0))
    assert fights.wound(5, 10) == fights.Wound(F(1, 2), F(1, 10))


def test_d10_one_shot_puts_a_man_down():
    # Shooting 5: hits on 5-10 (3/5), critical on a 0 (1/10). Carbine damage 5 v Defence
    # 10 puts him out 3/5 a roll; a critical rolls twice: 1 - (2/5)^2 = 21/25.
    # (3/5 - 1/10) * 3/5 + 1/10 * 21/25 = 48/125.
    carbine = unit("Rifleman", weapons=["Carbine/AR"])
    f = fight("d10", carbine, unit("Target"), fight="distance")

    assert f.a_wins == 1
    assert f.rounds[0].a_wins == F(48, 125)


def test_d10_close_fight_against_a_suppressed_model_up_a_slope():
    # A: CQC 10, succeeds on all but a natural 1 (9/10) and then beats B's best (a natural
    # 0 to reach TN 13: margin -2). B wins only when A rolls 1 and B rolls 0: 1/100.
    # Unarmed, both wound with Physique 5 against Defence 10: 6/10.
    # A: 9/10 * 3/5 = 27/50, B: 1/100 * 3/5 = 3/500; A wins 270/273 = 90/91.
    f = fight(
        "d10",
        unit("Brawler", cqc=10),
        unit("Pinned", cqc=1),
        modifiers={"b": ["suppressed", "up-slope"]},
    )

    assert outcome(f) == (F(90, 91), F(1, 91), 0)


# ---------------------------------------------------------------- properties

vsgmr_profiles = st.fixed_dictionaries(
    {"kind": st.just("guy"), "flavor": st.sampled_from(["troop", "hero", "mook"])},
    optional={
        "armor": st.sampled_from(["none", "light", "heavy"]),
        "distance_attack": st.booleans(),
        "automatic_fire": st.booleans(),
        "traits": st.lists(st.sampled_from(list(fights.VSGMR_IN_ODDS)), unique=True, max_size=3),
    },
)
gem_profiles = st.fixed_dictionaries(
    {
        "type": st.just("skirmisher"),
        "base": st.just("25mm"),
        "off": st.integers(1, 10),
        "def": st.integers(1, 10),
        "hit": st.integers(1, 2),
        "att": st.integers(1, 2),
    }
)
gem_modifiers = st.lists(
    st.sampled_from(["charged", "higher-ground", "enemy-behind-obstacle", "flank"]),
    unique=True,
    max_size=2,
)


@st.composite
def vsgmr_fights(draw) -> dict:
    return {
        "system": "vsgmr",
        "a": {"name": "A", "profile": draw(vsgmr_profiles)},
        "b": {"name": "B", "profile": draw(vsgmr_profiles)},
        "fight": draw(st.sampled_from(fights.FIGHTS)),
        "cover": {"a": draw(st.booleans()), "b": draw(st.booleans())},
    }


@st.composite
def gem_fights(draw) -> dict:
    return {
        "system": "gem",
        "a": {"name": "A", "quantity": draw(st.integers(1, 3)), "profile": draw(gem_profiles)},
        "b": {"name": "B", "quantity": draw(st.integers(1, 3)), "profile": draw(gem_profiles)},
        "modifiers": {"a": draw(gem_modifiers), "b": draw(gem_modifiers)},
        "frontage": {"a": draw(st.integers(1, 3)), "b": draw(st.integers(1, 3))},
    }


any_fight = st.one_of(vsgmr_fights(), gem_fights())


@given(any_fight)
def test_swapping_sides_swaps_the_answers(raw):
    r = fights.read_request(raw)
    f, g = fights.compute(r), fights.compute(fights.swapped(r))

    assert (g.a_wins, g.b_wins, g.draw) == (f.b_wins, f.a_wins, f.draw)
    assert (g.a_hit_lost, g.b_hit_lost) == (f.b_hit_lost, f.a_hit_lost)


@given(any_fight)
def test_identical_sides_have_equal_chances(raw):
    raw = {**raw, "b": raw["a"]}
    raw.update(
        {
            key: {"a": raw[key]["a"], "b": raw[key]["a"]}
            for key in ("cover", "modifiers", "frontage")
            if key in raw
        }
    )

    f = fights.compute(fights.read_request(raw))

    assert f.a_wins == f.b_wins


d10_profiles = st.fixed_dictionaries(
    {},
    optional={
        "cqc": st.integers(1, 10),
        "shooting": st.integers(1, 10),
        "physique": st.integers(1, 10),
        "defence": st.integers(1, 30),
        "weapons": st.lists(st.sampled_from(["Pistol (9mm)", "LMG", "Slingshot"]), max_size=2),
    },
)


@st.composite
def d10_fights(draw) -> dict:
    fight_ = draw(st.sampled_from(fights.FIGHTS))
    slugs = [s for s, _, _ in fights.describe_modifiers("d10", fight_)]
    mods = st.lists(st.sampled_from(slugs), unique=True, max_size=3)
    return {
        "system": "d10",
        "a": {"name": "A", "profile": draw(d10_profiles)},
        "b": {"name": "B", "profile": draw(d10_profiles)},
        "fight": fight_,
        "modifiers": {"a": draw(mods), "b": draw(mods)},
    }


@given(st.one_of(vsgmr_fights(), gem_fights(), d10_fights()))
def test_the_outcomes_add_up_to_one(raw):
    f = fights.compute(fights.read_request(raw))

    assert f.a_wins + f.b_wins + f.draw == 1
    assert all(0 <= x <= 1 for x in (f.a_wins, f.b_wins, f.draw))
    assert all(r.going <= 1 for r in f.rounds)


def test_sharpshooter_adds_at_distance_only():
    # Hero Sharpshooter at distance: 5+ with +1 and +2 is 2+: 5/6. Hand to hand it adds
    # nothing: 4+ with +1 is 3+: 2/3.
    a = guy("hero", distance_attack=True, traits=["sharpshooter"])
    b = guy(distance_attack=True)

    assert fight("vsgmr", a, b, fight="distance").attacks[0].chance == F(5, 6)
    assert fight("vsgmr", a, b).attacks[0].chance == F(2, 3)


def test_tough_improves_a_light_armour_roll_to_five_up():
    # A troop hits 1/2; Tough light armour turns it on 5+ (6+ with +1): stands 2/3 -> 1/3.
    f = fight("vsgmr", guy(), guy(armor="light", traits=["tough"]))

    assert f.attacks[0].chance == F(1, 3)


def test_gem_a_rolled_def_is_refused_on_the_side_that_has_it():
    with pytest.raises(ArmyFileError) as e:
        fight("gem", gem(off=4, **{"def": 4}), gem(off=4, **{"def": "d6"}))

    assert e.value.path == "b.profile.def"


def test_gem_vehicles_without_off_cannot_harm_each_other():
    wagon = unit("Wagon", type="vehicle", base="huge", max_speed=6, hit=2, **{"def": 5})

    f = fight("gem", wagon, wagon)

    assert outcome(f) == (0, 0, 1)
    assert "Neither side can harm the other: the fight is a draw." in f.lines
