"""What each rules page shows: catalog entries joined with the engine's numbers.

The catalog (the database) knows names, summaries and unpriced facts; every cost,
modifier and game size comes from `points/` at render time, so a price lives in
one place only. Nothing here touches the database: views pass the entries in.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext

from points import d10, fights, gem, goms, vsgmr
from points.fields import fmt
from points.numbers import percent
from rules.models import RuleEntry, SampleArmy

Catalog = dict[str, list[RuleEntry]]


def by_kind(entries: Iterable[RuleEntry]) -> Catalog:
    catalog: Catalog = defaultdict(list)
    for entry in entries:
        catalog[entry.kind].append(entry)
    return catalog


@dataclass(frozen=True)
class Row:
    """A catalog entry with the engine's number(s) for it."""

    entry: RuleEntry
    value: Any = None
    extra: Any = None


def _rows(
    entries: list[RuleEntry], table: dict[str, Any], extras: dict[str, Any] | None = None
) -> list[Row]:
    extras = extras or {}
    return [Row(e, table.get(e.slug), extras.get(e.slug)) for e in entries]


@dataclass(frozen=True)
class SampleRow:
    sample: SampleArmy
    total: Fraction | None
    figures: int | None


def sample_rows(samples: Iterable[SampleArmy]) -> list[SampleRow]:
    """Each sample army with the total stored when it was saved (SampleArmy.save)."""
    return [
        SampleRow(sample, Fraction(sample.total) if sample.total else None, sample.figures)
        for sample in samples
    ]


# ---------------------------------------------------------------- VSGMR


def vsgmr_context(catalog: Catalog) -> dict[str, Any]:
    powers = []
    for entry in catalog["super-power"]:
        power = vsgmr.SUPER_POWERS.get(entry.slug)
        tiers = [
            (
                tier,
                power.cost[tier] if power is not None else None,
                vsgmr.tier_effect(entry.slug, tier) if power is not None else "",
            )
            for tier in vsgmr.TIERS
        ]
        powers.append(Row(entry, tiers))
    return {
        "figures": _rows(catalog["unit-kind"], vsgmr.FIGURE_COST),
        "purchases": [
            (gettext("Distance attack"), vsgmr.DISTANCE_ATTACK_COST),
            (gettext("Automatic fire"), vsgmr.AUTOMATIC_FIRE_COST),
            (gettext("Light armour for a guy"), vsgmr.GUY_ARMOR_COST["light"]),
            (gettext("Heavy armour for a guy"), vsgmr.GUY_ARMOR_COST["heavy"]),
            (gettext("Light armour for cavalry or a vehicle"), vsgmr.MOUNT_ARMOR_COST["light"]),
            (gettext("Heavy armour for cavalry or a vehicle"), vsgmr.MOUNT_ARMOR_COST["heavy"]),
            (gettext("Heavy armour for a hero commander"), _hero_commander_armour()),
        ],
        "traits": [
            Row(e, vsgmr.TRAITS[e.slug].cost if e.slug in vsgmr.TRAITS else vsgmr.TRAIT_COST)
            for e in catalog["trait"]
        ],
        "powers": powers,
        "scenarios": [Row(e, _scenario_sides(e.slug)) for e in catalog["scenario"]],
        "balance_margin": vsgmr.BALANCE_MARGIN,
    }


def _hero_commander_armour() -> Fraction:
    """What heavy armour adds to a hero commander's price (SPEC 3.6 (6): nothing)."""
    profile = {"kind": "guy", "flavor": "hero", "commander": True, "armor": "heavy"}
    return vsgmr.price(vsgmr.parse_profile(profile, "")).each - vsgmr.FIGURE_COST["hero"]


def _scenario_sides(slug: str) -> list[tuple[str, int, int]]:
    if slug not in vsgmr.SCENARIOS:
        return []
    _, sides = vsgmr.SCENARIOS[slug]
    return [(side or gettext("each player"), low, high) for side, (low, high) in sides.items()]


# ---------------------------------------------------------------- GEM (and Gemini vehicles)


def gem_context(catalog: Catalog) -> dict[str, Any]:
    table = next((e for e in catalog["table"] if e.slug == "table-1"), None)
    road_bonus = {c: gem.ROAD_BONUS for c in gem.ROAD_CLASSES}
    return {
        "base_sizes": _rows(catalog["base-size"], gem.BASE_MOD),
        "formations": _rows(catalog["formation"], gem.TYPE_MOD),
        "fire_rates": _rows(catalog["fire-rate"], gem.FIRE_DIVISOR),
        "formula": {
            "product_divisor": gem.FIGURE_PRODUCT_DIVISOR,
            "vehicle_product_divisor": gem.VEHICLE_PRODUCT_DIVISOR,
            "vehicle_defence": gem.VEHICLE_DEFENCE,
            "siz_divisor": gem.SIZ_DIVISOR,
            "capacity_divisor": gem.CAPACITY_DIVISOR,
            "morale_divisor": gem.MORALE_DIVISOR,
            "mag_offset": gem.MAG_OFFSET,
            "mag_divisor": gem.MAG_DIVISOR,
            "mov_offset": gem.MOV_OFFSET,
            "mov_divisor": gem.MOV_DIVISOR,
            "heavy": gem.HEAVY_WEAPON,
            "area_bonus": gem.AREA_BONUS,
        },
        "table_1": table,
        "table_1_rows": table_1(),
        "table_1_defs": gem.TABLE_RANGE,
        "vehicle_classes": _rows(catalog["vehicle-class"], road_bonus),
        "turn_degrees": gem.TURN_DEGREES,
        "turn_cost": gem.TURN_COST,
    }


# Table 1's marked cells, as both Table 1 pages show them.
MARKS = {
    **{cell: "*" for cell in gem.NATURAL_20_ONLY},
    **{cell: "!" for cell in gem.NATURAL_1_ONLY_MISSES},
}


@dataclass(frozen=True)
class Table1Cell:
    def_: int
    needed: int
    mark: str
    percent: str


def table_1() -> tuple[tuple[int, tuple[Table1Cell, ...]], ...]:
    """Table 1 in full, from the engine's only copy: each OFF row with the score needed and
    the chance against DEF 1-10 (the GEM rules page and the Table 1 calculator)."""
    return tuple(
        (
            off,
            tuple(
                Table1Cell(d, gem.needed(off, d), MARKS.get((off, d), ""), percent(chance))
                for d, chance in zip(gem.TABLE_RANGE, gem.hit_chances(off), strict=True)
            ),
        )
        for off in gem.TABLE_RANGE
    )


# ---------------------------------------------------------------- G.O.M.S.


def goms_context(catalog: Catalog) -> dict[str, Any]:
    option_costs = {
        "rerolls": goms.REROLL_COST,
        "setup-extension": goms.SETUP_EXTENSION_COST,
        "dug-in": goms.DUG_IN_COST,
    }
    option_notes = {
        "setup-extension": (
            gettext("Each adds {inches}″, up to {most}.").format(
                inches=goms.SETUP_EXTENSION_INCHES, most=goms.MAX_SETUP_EXTENSIONS
            )
        ),
    }
    weapons = catalog["weapon"]
    anti_tank = next((e for e in catalog["table"] if e.slug == "anti-tank"), None)
    return {
        "unit_cost": goms.UNIT_COST,
        "unit_kinds": [Row(e, goms.UNIT_COST) for e in catalog["unit-kind"]],
        "vehicle_classes": [Row(e, goms.UNIT_COST) for e in catalog["vehicle-class"]],
        "morale_grades": _rows(catalog["morale-grade"], goms.MORALE),
        "game_sizes": _rows(catalog["game-size"], goms.GAME_SIZES),
        "options": _rows(catalog["army-option"], option_costs, option_notes),
        "platoon_sections": goms.PLATOON_SECTIONS,
        "platoons_per_company_hq": goms.PLATOONS_PER_COMPANY_HQ,
        "small_arms": [w for w in weapons if w.data.get("group") == "small-arms"],
        "area_weapons": [w for w in weapons if w.data.get("group") == "area"],
        "anti_tank": anti_tank,
        "anti_tank_rows": (
            list(zip(anti_tank.data["armour"], anti_tank.data["needed"], strict=True))
            if anti_tank is not None
            else []
        ),
        # A column for each face of the die: every row has one result per face.
        "acquisition_faces": range(1, len(goms.ACQUISITION["infantry"]) + 1),
        "acquisition": [
            (goms.ACQUISITION_NAMES[key], results) for key, results in goms.ACQUISITION.items()
        ],
    }


# ---------------------------------------------------------------- d10 modern skirmish


D10_WEAPONS = {weapon.slug: weapon for weapon in d10.WEAPONS}


def d10_context(catalog: Catalog) -> dict[str, Any]:
    return {
        "stats": catalog["stat"],
        "chances": [(stat, d10.success_chance(stat)) for stat in range(3, 8)],
        "target_number": d10.TARGET_NUMBER,
        "critical_margin": d10.CRITICAL_MARGIN,
        "model_points": d10.MODEL_POINTS,
        "leader_points": d10.LEADER_POINTS,
        "force_size": d10.FORCE_SIZE,
        "armour_levels": _rows(catalog["armour-level"], d10.ARMOUR_DEFENCE),
        "weapons": _rows(catalog["weapon"], D10_WEAPONS),
        "weapon_traits": catalog["weapon-trait"],
        "calibres": next((e for e in catalog["table"] if e.slug == "calibre-damage"), None),
    }


# ---------------------------------------------------------------- interpretations


def _siz_term() -> str:
    return gettext("a block of 18 figures (SIZ 18) adds {b} to B").format(
        b=_fmt(Fraction(18, gem.SIZ_DIVISOR))
    )


def _rounding() -> str:
    block = {"type": "block", "base": "20mm", "off": 1, "att": 2, "def": 1, "hit": 2, "siz": 18}
    priced = gem.price(gem.parse_profile(block, ""))
    return gettext(
        "a block of 18 (OFF 1, ATT 2, DEF 1, HIT 2, 20mm) is worth exactly {exact} "
        "and costs {each} points"
    ).format(exact=_fmt(priced.exact), each=_fmt(priced.each))


def _hero_commander() -> str:
    plain = vsgmr.price(vsgmr.parse_profile({"kind": "guy", "flavor": "hero"}, "")).each
    commander = vsgmr.price(
        vsgmr.parse_profile(
            {"kind": "guy", "flavor": "hero", "commander": True, "armor": "heavy"}, ""
        )
    ).each
    return gettext("a hero costs {plain}; as commander, in heavy armour, still {commander}").format(
        plain=_fmt(plain), commander=_fmt(commander)
    )


def _warlord() -> str:
    warlord = vsgmr.parse_profile(
        {"kind": "guy", "flavor": "hero", "commander": True, "traits": ["combat-master"]}, ""
    )
    return gettext("the Warlord costs {each} points").format(each=_fmt(vsgmr.price(warlord).each))


def _duel(a: dict[str, object], b: dict[str, object], fight: str = "hand-to-hand") -> str:
    request = fights.read_request({"system": "vsgmr", "a": a, "b": b, "fight": fight})
    return fights.summary(fights.compute(request))


def _hero_against_troop() -> str:
    hero = {"name": gettext("a hero"), "profile": {"kind": "guy", "flavor": "hero"}}
    troop = {"name": gettext("a troop"), "profile": {"kind": "guy", "flavor": "troop"}}
    return gettext("hand to hand, no armour: {fight}").format(fight=_duel(hero, troop))


def _tough_tank() -> str:
    tank = {
        "name": gettext("a Tough vehicle in heavy armour"),
        "profile": {"kind": "vehicle", "armor": "heavy", "traits": ["tough"]},
    }
    troop = {"name": gettext("a troop"), "profile": {"kind": "guy", "flavor": "troop"}}
    return _duel(troop, tank)


def _charge() -> str:
    single = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}
    request = fights.read_request(
        {
            "system": "gem",
            "a": {"name": gettext("the charger"), "profile": single},
            "b": {"name": gettext("the charged"), "profile": single},
            "modifiers": {"a": ["charged"]},
        }
    )
    return gettext("two OFF 4, DEF 4 figures, one charging: {fight}").format(
        fight=fights.summary(fights.compute(request))
    )


def _d10_fight(a: dict[str, object], b: dict[str, object], **conditions: object) -> str:
    request = fights.read_request({"system": "d10", "a": a, "b": b, **conditions})
    return fights.summary(fights.compute(request))


def _who_acts_first() -> str:
    one = {"name": gettext("one rifleman"), "profile": {"weapons": ["Carbine/AR"]}}
    twin = {"name": gettext("its twin"), "profile": {"weapons": ["Carbine/AR"]}}
    return gettext(
        "two riflemen in a close fight: {either}; with the first always acting first, {first}"
    ).format(either=_d10_fight(one, twin), first=_d10_fight(one, twin, first="a"))


def _spray() -> str:
    target = {"name": gettext("a target"), "profile": {}}
    hits = []
    for weapon in ("Carbine/AR", "Shotgun (pump, semi)"):
        shooter = {"name": gettext("a shooter"), "profile": {"weapons": [weapon]}}
        request = fights.read_request(
            {"system": "d10", "a": shooter, "b": target, "fight": "distance"}
        )
        hits.append(percent(fights.compute(request).attacks[0].chance))
    return gettext(
        "Shooting 5 hits {carbine}% of the time with a carbine, {shotgun}% with a shotgun"
    ).format(carbine=hits[0], shotgun=hits[1])


def _natural_rolls() -> str:
    rear, sure = gem.hit_chance(1, 9, 10), gem.hit_chance(10, 1, 10)
    return gettext(
        "OFF 1 against DEF 9 hits {rear} of the time even from the rear "
        "(+10), and OFF 10 against DEF 1 from the rear still {sure}"
    ).format(rear=fights.exact(rear), sure=fights.exact(sure))


EXAMPLES: dict[str, Callable[[], str]] = {
    "who-acts-first": _who_acts_first,
    "shotgun-spray": _spray,
    "natural-20-and-1": _natural_rolls,
    "duel-initiative": _hero_against_troop,
    "duel-rolls-add-up": _tough_tank,
    "charge-first-round": _charge,
    "siz-counts-miniatures": _siz_term,
    "radius-plus-a-half": lambda: gettext("radius 2 multiplies M by {m}").format(
        m=_fmt(2 + gem.AREA_BONUS)
    ),
    "round-half-up": _rounding,
    "hero-commander-heavy-armour": _hero_commander,
    "weapon-master-is-combat-master": _warlord,
    "platoon-is-four-sections": lambda: gettext(
        "{sections} rifle sections allow 1 platoon HQ; {platoons} platoons allow 1 company HQ"
    ).format(sections=goms.PLATOON_SECTIONS, platoons=goms.PLATOONS_PER_COMPANY_HQ),
}


def interpretation_rows(entries: Iterable[RuleEntry]) -> list[Row]:
    """Each interpretation with a worked example from the engine, where one helps."""
    rows = []
    for entry in entries:
        example = EXAMPLES.get(entry.slug)
        rows.append(Row(entry, example() if example is not None else ""))
    return rows


def _fmt(x: Fraction | int) -> str:
    return fmt(Fraction(x))
