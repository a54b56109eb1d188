"""VSGMR pricing and army rules (SPEC 3.3). Costs are added up by hand from the SPEC's table."""

from __future__ import annotations

from fractions import Fraction

import pytest

import points
from points import vsgmr
from points.errors import ArmyFileError
from points.matchup import balanced


def priced(profile: dict):
    return vsgmr.price(vsgmr.parse_profile(profile, "profile"))


def lines(profile: dict) -> list[tuple[str, Fraction]]:
    return [(x.label, x.value) for x in priced(profile).lines]


def army(*units: dict, limit: int | None = None):
    data = {"name": "Test", "system": "vsgmr", "units": list(units)}
    if limit is not None:
        data["points_limit"] = limit
    return points.price_army(points.load(data))


def unit(name: str, quantity: int = 1, **profile: object) -> dict:
    return {"name": name, "quantity": quantity, "profile": profile}


HERO_COMMANDER = unit("Boss", kind="guy", flavor="hero", commander=True)


def codes(issues) -> list[tuple[str, int | None]]:
    return [(i.code, i.unit) for i in issues]


# ------------------------------------------------------------ the cost table


@pytest.mark.parametrize(
    ("profile", "each"),
    [
        ({"kind": "guy", "flavor": "troop"}, Fraction(1)),
        ({"kind": "guy", "flavor": "hero"}, Fraction(2)),
        ({"kind": "guy", "flavor": "mook"}, Fraction(1, 2)),
        ({"kind": "cavalry"}, Fraction(2)),
        ({"kind": "vehicle"}, Fraction(3)),
        # troop 1 + distance attack 1 + automatic fire 1
        ({"kind": "guy", "flavor": "troop", "distance_attack": True, "automatic_fire": True}, 3),
        # troop 1 + light armour 1; troop 1 + heavy armour 2
        ({"kind": "guy", "flavor": "troop", "armor": "light"}, 2),
        ({"kind": "guy", "flavor": "troop", "armor": "heavy"}, 3),
        # mook 1/2 + light armour 1 + distance attack 1
        (
            {"kind": "guy", "flavor": "mook", "armor": "light", "distance_attack": True},
            Fraction(5, 2),
        ),
        # cavalry 2 + light armour free; + heavy armour 1
        ({"kind": "cavalry", "armor": "light"}, 2),
        ({"kind": "cavalry", "armor": "heavy"}, 3),
        # vehicle 3 + heavy 1 + distance 1 + auto fire 1 + Flight 2 = 8 (the seed's Helicopter)
        (
            {
                "kind": "vehicle",
                "armor": "heavy",
                "distance_attack": True,
                "automatic_fire": True,
                "traits": ["flight"],
            },
            8,
        ),
        # hero 2 + two traits at 2 each = 6 (the seed's Runepriest)
        ({"kind": "guy", "flavor": "hero", "traits": ["inspiration", "tough"]}, 6),
        # troop 1 + homebrew trait at 1.5
        (
            {"kind": "guy", "flavor": "troop", "traits": [{"name": "Lucky", "cost": 1.5}]},
            Fraction(5, 2),
        ),
    ],
)
def test_figure_costs_per_the_table(profile: dict, each: Fraction):
    assert priced(profile).each == each
    assert priced(profile).exact == each


@pytest.mark.parametrize(
    ("power", "tiers"),
    [
        ("super-armor", (3, 4, 5)),
        ("super-blast", (2, 3, 4)),
        ("super-fight", (2, 3, 4)),
        ("super-move", (2, 3, 4)),
        ("super-skill", (1, 2, 3)),
    ],
)
def test_super_power_costs_by_tier(power: str, tiers: tuple[int, int, int]):
    for tier, cost in zip(vsgmr.TIERS, tiers, strict=True):
        # hero 2 + the power
        assert priced({"kind": "guy", "flavor": "hero", "super_powers": {power: tier}}).each == (
            2 + cost
        )


def test_hero_commander_gets_heavy_armour_free():
    # hero 2 + heavy armour free = 2 (the seed's "Commander - 2 points").
    assert lines({"kind": "guy", "flavor": "hero", "commander": True}) == [
        ("Hero", 2),
        ("Heavy armour (free for hero commander)", 0),
    ]


def test_hero_commander_who_chose_light_armour_still_has_heavy_free():
    assert lines({"kind": "guy", "flavor": "hero", "commander": True, "armor": "light"}) == [
        ("Hero", 2),
        ("Heavy armour (free for hero commander)", 0),
    ]


def test_troop_commander_pays_for_armour():
    # troop 1 + light armour 1 = 2: only hero commanders get free armour.
    assert priced({"kind": "guy", "flavor": "troop", "commander": True, "armor": "light"}).each == 2


def test_breakdown_names_each_purchase():
    # The seed's Super-Guy: hero 2, heavy free, distance 1, Flight 2, Inspiration 2,
    # Super-Armor superior 5, Super-Blast minor 2, Super-Fight superior 4 = 18.
    super_guy = {
        "kind": "guy",
        "flavor": "hero",
        "commander": True,
        "distance_attack": True,
        "traits": ["flight", "inspiration"],
        "super_powers": {
            "super-armor": "superior",
            "super-blast": "minor",
            "super-fight": "superior",
        },
    }
    assert lines(super_guy) == [
        ("Hero", 2),
        ("Distance attack", 1),
        ("Heavy armour (free for hero commander)", 0),
        ("Trait: Flight", 2),
        ("Trait: Inspiration", 2),
        ("Super-Armor (superior)", 5),
        ("Super-Blast (minor)", 2),
        ("Super-Fight (superior)", 4),
    ]
    assert priced(super_guy).each == 18


def test_every_trait_costs_two():
    assert len(vsgmr.TRAITS) == 17
    assert {t.cost for t in vsgmr.TRAITS.values()} == {2}


# ------------------------------------------------------------ loading


@pytest.mark.parametrize(
    ("profile", "path", "message"),
    [
        (
            {"kind": "cavalry", "armor": "none"},
            "p.armor",
            "cavalry and vehicles always have at least light armour",
        ),
        (
            {"kind": "vehicle", "armor": "none"},
            "p.armor",
            "cavalry and vehicles always have at least light armour",
        ),
        ({"kind": "guy"}, "p.flavor", "required"),
        ({"kind": "cavalry", "flavor": "hero"}, "p.flavor", "only guys have a flavor"),
        ({"kind": "guy", "flavor": "troop", "large": True}, "p.large", "only cavalry can be large"),
        (
            {"kind": "guy", "flavor": "troop", "traits": ["tough", "flyng"]},
            "p.traits[1]",
            'unknown trait "flyng"',
        ),
        (
            {"kind": "guy", "flavor": "troop", "traits": [7]},
            "p.traits[0]",
            "must be a trait name or a homebrew trait object",
        ),
        (
            {"kind": "guy", "flavor": "troop", "super_powers": {"super-luck": "minor"}},
            "p.super_powers.super-luck",
            "unknown field",
        ),
        (
            {"kind": "guy", "flavor": "troop", "super_powers": {"super-move": "ultra"}},
            "p.super_powers.super-move",
            "must be one of minor, major, superior",
        ),
        (
            {"kind": "guy", "flavor": "troop", "traits": [{"name": "Lucky", "cost": 1.25}]},
            "p.traits[0].cost",
            "must be a whole or half number of points",
        ),
        (
            {"kind": "guy", "flavor": "troop", "traits": [{"name": "Lucky", "cost": 21}]},
            "p.traits[0].cost",
            "must be between 0 and 20",
        ),
        (
            {"kind": "guy", "flavor": "troop", "traits": [{"cost": 2}]},
            "p.traits[0].name",
            "required",
        ),
        (
            {"kind": "guy", "flavor": "troop", "support_roll": "luck"},
            "p.support_roll",
            "must be one of distance, hand-to-hand, armor, skill",
        ),
        (
            {"kind": "guy", "flavor": "troop", "commander": "yes"},
            "p.commander",
            "must be true or false",
        ),
        ({"kind": "robot"}, "p.kind", "must be one of guy, cavalry, vehicle"),
    ],
)
def test_bad_profile_names_the_field(profile: dict, path: str, message: str):
    with pytest.raises(ArmyFileError) as caught:
        vsgmr.parse_profile(profile, "p")

    assert str(caught.value) == f"{path}: {message}"


def test_cavalry_and_vehicles_default_to_light_armour():
    assert vsgmr.parse_profile({"kind": "cavalry"}, "p").armor == "light"
    assert vsgmr.parse_profile({"kind": "guy", "flavor": "troop"}, "p").armor == "none"


def test_rule_breaking_figures_still_load():
    # These are army-rule errors (exit 1), not unreadable files (exit 2).
    vsgmr.parse_profile({"kind": "guy", "flavor": "mook", "commander": True}, "p")
    vsgmr.parse_profile({"kind": "guy", "flavor": "troop", "traits": ["tough", "tough"]}, "p")
    vsgmr.parse_profile({"kind": "cavalry", "super_powers": {"super-skill": "minor"}}, "p")


# ------------------------------------------------------------ army errors


def test_legal_army_has_no_errors():
    result = army(HERO_COMMANDER, unit("Men", 3, kind="guy", flavor="troop"))

    assert result.legal
    assert result.total == 5  # 2 + 3 x 1


def test_army_without_commander_is_an_error():
    result = army(unit("Men", 3, kind="guy", flavor="troop"))

    assert codes(result.errors) == [("exactly-one-commander", None)]
    assert "no commander" in result.errors[0].message


def test_commander_unit_of_two_counts_as_two_commanders():
    result = army(unit("Bosses", 2, kind="guy", flavor="hero", commander=True))

    assert codes(result.errors) == [("exactly-one-commander", 0)]
    assert "2 commanders" in result.errors[0].message


def test_second_commander_unit_is_pointed_at():
    result = army(HERO_COMMANDER, unit("Other boss", kind="guy", flavor="troop", commander=True))

    assert codes(result.errors) == [("exactly-one-commander", 1)]


@pytest.mark.parametrize(
    "profile",
    [
        {"kind": "guy", "flavor": "mook", "commander": True},
        {"kind": "cavalry", "commander": True},
        {"kind": "vehicle", "commander": True},
    ],
)
def test_commander_must_be_a_troop_or_hero_guy(profile: dict):
    result = army(unit("Men", kind="guy", flavor="troop"), unit("Wrong boss", **profile))

    assert codes(result.errors) == [("bad-commander", 1)]


def test_automatic_fire_needs_distance_attack():
    gunner = unit("Gunner", kind="guy", flavor="troop", automatic_fire=True)

    assert codes(army(HERO_COMMANDER, gunner).errors) == [
        ("automatic-fire-needs-distance-attack", 1)
    ]


def test_figure_has_a_trait_at_most_once():
    tough = unit("Tough guy", kind="guy", flavor="troop", traits=["tough", "tough"])

    result = army(HERO_COMMANDER, tough)

    assert codes(result.errors) == [("duplicate-trait", 1)]
    assert "Tough" in result.errors[0].message


def test_homebrew_trait_named_like_a_built_in_one_is_a_duplicate():
    brew = {"name": "Combat Master", "cost": 2}
    fighter = unit("Fighter", kind="guy", flavor="troop", traits=["combat-master", brew])

    assert codes(army(HERO_COMMANDER, fighter).errors) == [("duplicate-trait", 1)]


def test_guys_cannot_be_independent():
    loner = unit("Loner", kind="guy", flavor="troop", traits=["independent"])

    assert codes(army(HERO_COMMANDER, loner).errors) == [("independent-not-for-guys", 1)]


def test_super_skill_is_for_guys_only():
    horse = unit("Clever horse", kind="cavalry", super_powers={"super-skill": "minor"})
    rider = unit("Rider", kind="guy", flavor="troop")

    assert codes(army(HERO_COMMANDER, rider, horse).errors) == [("super-skill-guys-only", 2)]


def test_over_limit_is_an_error():
    # 2 (hero commander) + 3 troops = 5 > 4.
    result = army(HERO_COMMANDER, unit("Men", 3, kind="guy", flavor="troop"), limit=4)

    assert codes(result.errors) == [("over-limit", None)]
    assert result.errors[0].message == "The army costs 5 points, 1 over its limit of 4."


def test_army_at_its_limit_is_legal():
    assert army(HERO_COMMANDER, limit=2).legal


# ------------------------------------------------------------ army warnings


def test_mounts_need_riders():
    # 1 guy, 2 horses + 1 vehicle to ride or drive.
    result = army(HERO_COMMANDER, unit("Horses", 2, kind="cavalry"), unit("Truck", kind="vehicle"))

    assert codes(result.warnings) == [("mounts-need-riders", None)]
    assert result.legal  # a warning does not block


def test_independent_mounts_need_no_rider():
    demon = unit("Demon", kind="vehicle", traits=["independent"])

    assert army(HERO_COMMANDER, demon).warnings == ()


def test_support_trait_wants_its_roll_chosen():
    medic = unit("Medic", kind="guy", flavor="troop", traits=["support"])

    assert codes(army(HERO_COMMANDER, medic).warnings) == [("support-roll-unset", 1)]
    chosen = unit("Medic", kind="guy", flavor="troop", traits=["support"], support_roll="armor")
    assert army(HERO_COMMANDER, chosen).warnings == ()


# ------------------------------------------------------------ presets and balance


def test_balance_is_within_five_points():
    assert balanced("vsgmr", Fraction(25), Fraction(30))
    assert not balanced("vsgmr", Fraction(25), Fraction(61, 2))


def test_scenario_presets():
    assert vsgmr.SCENARIOS["ambush"][1] == {"ambusher": (25, 25), "target": (40, 40)}
    assert vsgmr.SCENARIOS["fortress-assault"][1] == {"assaulter": (20, 20), "defender": (40, 40)}
    assert vsgmr.SCENARIOS["basic-game"][1] == {"": (25, 40)}


def test_super_move_is_explained_as_movement_and_initiative_not_a_bigger_die():
    # Seed section VI: Super-Move Major costs 3 and gives one more Move Unit and +2 initiative.
    profile = vsgmr.parse_profile(
        {"kind": "guy", "flavor": "troop", "super_powers": {"super-move": "major"}}, "p"
    )
    line = next(li for li in vsgmr.price(profile).lines if li.label.startswith("Super-Move"))
    assert line.value == 3
    assert "+1 move unit" in line.note and "+2 initiative" in line.note
    assert "d10" not in line.note
