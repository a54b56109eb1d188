"""d10 fight odds complete and fair (SPEC 3.8, issue #44): who acts first is a choice,
"either" by default; the shotgun's spray is in the odds; every other weapon effect of the
seed is named under "Not in these odds". Expected values worked by hand from the seed's
"stat + d10 against 10" table; the working is in each test's comment."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given

import points
from points import d10, fights
from points.errors import ArmyFileError
from tests.points.test_fights import d10_fights


def unit(name: str = "X", **profile: object) -> dict:
    return {"name": name, "profile": profile}


def fight(a: dict, b: dict, **conditions: object) -> fights.Fight:
    return fights.compute(fights.read_request({"system": "d10", "a": a, "b": b, **conditions}))


def odds(f: fights.Fight) -> tuple[F, F, F]:
    return f.a_wins, f.b_wins, f.draw


# Two plain models (every stat 5, Defence 10) close in. CQC 5 + d10 reaches 10 on faces
# 5-10 (margins 0-5). Active wins: it succeeds while B fails (6 x 4 = 24) or both succeed
# and A's face is at least B's (21 of 36): 45/100. Passive: 24 + 15 = 39/100.
# Unarmed, each wounds with Physique 5 against Defence 10: faces 5-0 put a model out, 3/5.
# A round with A active: A 27/100, B 117/500, on 62/125; A wins (135/500) / (252/500) =
# 15/28 (53.6%), B 13/28 (46.4%): the numbers the testers found.
CLOSE_A_FIRST = (F(15, 28), F(13, 28), F(0))
# Two carbines at effective range: Shooting 5 hits 3/5, a critical (a 0) 1/10; damage 5
# puts a man out 3/5 a roll, two rolls 21/25. One shot: 1/2 * 3/5 + 1/10 * 21/25 = 48/125
# = k. The first to shoot wins k / (1 - (1 - k)^2) = 1 / (2 - k) = 125/202.
SHOTS_A_FIRST = (F(125, 202), F(77, 202), F(0))
RIFLEMAN = unit("Rifleman", weapons=["Carbine/AR"])
TWIN = unit("Twin", weapons=["Carbine/AR"])


@pytest.mark.parametrize("kind", ["hand-to-hand", "distance"])
def test_a_model_against_its_twin_is_an_even_fight_by_default(kind):
    f = fight(RIFLEMAN, TWIN, fight=kind)

    assert odds(f) == (F(1, 2), F(1, 2), 0)
    assert fights.percent(f.a_wins) == fights.percent(f.b_wins) == "50.0"
    assert (f.a_hit_lost, f.b_hit_lost) == (F(1, 2), F(1, 2))


@pytest.mark.parametrize(
    ("kind", "a_first"), [("hand-to-hand", CLOSE_A_FIRST), ("distance", SHOTS_A_FIRST)]
)
def test_a_or_b_first_gives_the_first_side_the_edge_and_either_is_their_mean(kind, a_first):
    a = fight(RIFLEMAN, TWIN, fight=kind, first="a")
    b = fight(RIFLEMAN, TWIN, fight=kind, first="b")
    either = fight(RIFLEMAN, TWIN, fight=kind, first="either")

    assert odds(a) == a_first
    assert odds(b) == (a_first[1], a_first[0], 0)
    assert odds(either) == tuple((x + y) / 2 for x, y in zip(odds(a), odds(b), strict=True))
    for ra, rb, re in zip(a.rounds, b.rounds, either.rounds, strict=True):
        assert re.a_wins == (ra.a_wins + rb.a_wins) / 2
        assert re.going == (ra.going + rb.going) / 2


def test_the_working_says_who_acts_first():
    close_b = fight(RIFLEMAN, TWIN, first="b")
    shots = fight(RIFLEMAN, TWIN, fight="distance")

    assert close_b.lines[0].startswith("Contested CQC: Twin (CQC 5, TN 10) is the active model")
    assert "Each side shoots first half the time" in " ".join(shots.lines)
    assert "With Rifleman first, Rifleman wins 125/202 (61.9%) and Twin 77/202" in " ".join(
        shots.lines
    )


def test_a_stronger_side_stays_ahead_whoever_acts_first():
    # CQC 10 against CQC 1, B suppressed up a slope (TN 13): A wins the contest whenever it
    # rolls anything but a 1 (9/10); B only with a 0 against A's 1 (1/100), and no tie can
    # happen, so the order changes nothing: 90/91 (tests/points/test_fights.py).
    brawler, pinned = unit("Brawler", cqc=10), unit("Pinned", cqc=1)
    for first in fights.FIRSTS:
        f = fight(brawler, pinned, modifiers={"b": ["suppressed", "up-slope"]}, first=first)
        assert odds(f) == (F(90, 91), F(1, 91), 0), first


def test_swapping_the_sides_swaps_who_acts_first():
    r = fights.read_request({"system": "d10", "a": RIFLEMAN, "b": TWIN, "first": "a"})
    s = fights.swapped(r)

    assert s.first == "b"
    assert odds(fights.compute(s)) == (CLOSE_A_FIRST[1], CLOSE_A_FIRST[0], 0)


def test_an_army_against_itself_reads_one_point_of_a_buys_100_percent():
    # Every pair meets twice, once each way round, in even fights: what A loses B loses.
    # With A always first a Rifleman against a Rifleman alone gave 15/28 against 13/28.
    units = [
        unit("Sarge", leader=True, cqc=6),
        {**unit("Rifleman", weapons=["Carbine/AR"]), "quantity": 3},
        unit("Gunner", weapons=["LMG"], physique=6),
    ]
    army = points.price_army(points.load({"name": "Team", "system": "d10", "units": units}))

    table = fights.points_against_odds("d10", army.units, army.units)

    assert table.a_buys == table.b_buys == 1


@given(d10_fights())
def test_a_d10_side_against_itself_is_even_by_default(raw):
    raw = {
        **raw,
        "b": raw["a"],
        "modifiers": {"a": raw["modifiers"]["a"], "b": raw["modifiers"]["a"]},
    }

    f = fights.compute(fights.read_request(raw))

    assert f.a_wins == f.b_wins


@given(d10_fights())
def test_swapping_d10_sides_swaps_the_answers(raw):
    for first in fights.FIRSTS:
        r = fights.read_request({**raw, "first": first})
        f, g = fights.compute(r), fights.compute(fights.swapped(r))
        assert (g.a_wins, g.b_wins, g.draw) == (f.b_wins, f.a_wins, f.draw)


@pytest.mark.parametrize("bad", ["c", "A", "", None, 1, ["a"]])
def test_who_acts_first_must_be_a_b_or_either(bad):
    with pytest.raises(ArmyFileError) as refused:
        fights.read_request({"system": "d10", "a": RIFLEMAN, "b": TWIN, "first": bad})

    assert refused.value.path == "first"
    assert "a, b" in refused.value.message


@pytest.mark.parametrize("system", ["vsgmr", "gem"])
def test_only_d10_takes_who_acts_first(system):
    with pytest.raises(ArmyFileError) as refused:
        fights.read_request({"system": system, "a": RIFLEMAN, "b": TWIN, "first": "a"})

    assert refused.value.path == "first"


# ---------------------------------------------------------------- the shotgun's spray


def test_the_shotguns_spray_makes_it_two_easier_to_hit():
    # Shooting 5 against TN 10 hits on faces 5-0: 6/10. The spray makes the TN 8: faces
    # 3-0, 8/10; the spray adds faces 3 and 4, 1/5. A critical needs 15 (a 0: 1/10) or,
    # with the spray, 13 (faces 8-0: 3/10).
    target = unit("Target")
    carbine = fight(RIFLEMAN, target, fight="distance")
    shotgun = fight(unit("Breacher", weapons=["Shotgun (pump, semi)"]), target, fight="distance")

    assert carbine.attacks[0].chance == F(3, 5)
    assert shotgun.attacks[0].chance == F(4, 5)
    assert shotgun.attacks[0].chance - carbine.attacks[0].chance == F(1, 5)
    assert "Spray -2 TN" in shotgun.attacks[0].modifiers
    shoots = shotgun.lines[0]
    assert "against TN 8" in shoots and "critical (two wound rolls) 3/10" in shoots
    # Damage 7 against Defence 10: faces 3-7 down, 8-0 kill, 4/5 out; two rolls 24/25.
    # One shot: (4/5 - 3/10) * 4/5 + 3/10 * 24/25 = 86/125, the first round's share.
    assert shotgun.rounds[0].a_wins == F(86, 125)


def test_the_spray_counts_at_long_range_too():
    # Long range +2 and spray -2: TN 10 again, 3/5; the shotgun's long-range damage is 3.
    shotgun = unit("Breacher", weapons=["Shotgun (pump, semi)"])
    f = fight(shotgun, unit("Target"), fight="distance", modifiers={"a": ["long-range"]})

    assert f.attacks[0].chance == F(3, 5)
    assert "damage 3 against Defence 10" in f.lines[0]


def test_a_weapon_without_long_range_cannot_shoot_at_long_range():
    # The carbine is "24/-": at long range neither has anything to shoot with, so nobody
    # can win (a draw); a pistol ("6/12") still shoots there.
    both_far = {"a": ["long-range"], "b": ["long-range"]}
    f = fight(RIFLEMAN, TWIN, fight="distance", modifiers=both_far)
    pistol = fight(
        unit("Officer", weapons=["Pistol (9mm)"]), TWIN, fight="distance", modifiers=both_far
    )

    assert odds(f) == (0, 0, 1)
    assert "Rifleman's Carbine/AR has no long range (24/-)" in f.lines[0]
    assert odds(pistol)[0] == 1


# ---------------------------------------------------------------- every weapon effect

# The seed's weapon table as printed (section 6): each weapon's rate-of-fire trait, its
# traits column, and the shotgun's spray, with each trait's name as the seed's list of
# traits prints it. Read by hand from the seed, not from points/d10.py.
SEED_WEAPONS = {
    "Pistol (9mm)": ("Semiauto", "CQC"),
    "SMG/PDW (P90, MP5)": ("Auto (x)", "Assault"),
    "Shotgun (Pump, semi)": ("Pump", "spray", "Assault"),
    "Carbine/AR": ("Auto (x)",),
    "DMR/Battle rifle": ("Semiauto", "Bulky"),
    "SAW/LSW": ("Auto (x)", "Bulky"),
    "LMG": ("Auto (x)", "Heavy"),
    "Sniper rifle .308": ("Bolt action", "Bulky"),
    "AM .50 Rifle": ("Bolt action", "Heavy"),
}
# What the exchange of shots puts in the odds, and says so in the working; the rest of
# each weapon's effects is named under "Not in these odds". A close fight reads no weapon.
IN_THE_SHOTS = {"spray", "Pump", "CQC"}


@pytest.mark.parametrize("weapon", SEED_WEAPONS)
@pytest.mark.parametrize("kind", ["hand-to-hand", "distance"])
def test_every_weapon_effect_of_the_seed_is_in_the_odds_or_named(weapon, kind):
    f = fight(unit("Gunner", weapons=[weapon]), unit("Target"), fight=kind)
    named = [x for x in f.not_in_these_odds if x.startswith("Gunner, ")]
    worked = [x for x in f.lines if x.startswith("Gunner, ")]

    for effect in SEED_WEAPONS[weapon]:
        in_odds = kind == "distance" and effect in IN_THE_SHOTS
        where = worked if in_odds else named
        assert any(effect in x for x in where), (effect, where)
        assert all(weapon.casefold() in x.casefold() for x in where)
    assert not any(x.startswith("Target") for x in f.not_in_these_odds)


def test_each_trait_is_either_in_the_shots_or_left_out_never_both():
    in_odds, left_out = set(fights.D10_TRAITS_IN_SHOTS), set(fights.D10_TRAITS_LEFT_OUT)

    assert in_odds | left_out == set(d10.WEAPON_TRAITS)
    assert not in_odds & left_out


def test_a_second_weapon_is_named_as_not_used_and_a_homebrew_one_as_off_the_list():
    f = fight(unit("Gunner", weapons=["Bipod", "LMG", "Pistol (9mm)"]), TWIN, fight="distance")

    assert "Gunner: Bipod (not on the seed's weapon list)" in f.not_in_these_odds
    assert any(x.startswith("Gunner, Pistol (9mm): not used") for x in f.not_in_these_odds)
    assert "Gunner shoots (LMG," in " ".join(f.lines)
