"""The built-in rules catalog as plain data, loaded by data migrations.

Every summary here is written in Muster's own words: the numbers and rules in the
seeds are facts we may use, their sentences are not ours. Prices are deliberately
absent: they live in `points/` and the rules pages read them from there. Where the
engine already names a thing (a trait, a morale grade...), the name is read from it too.

`position` of each entry is its place in CATALOG, so entries keep the order they
are written in here within their system and kind.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from points import d10, goms, vsgmr
from rules.models import price_sample

SAMPLES_DIR = Path(__file__).resolve().parent / "samples"


@dataclass(frozen=True)
class Entry:
    system: str
    kind: str
    slug: str
    name: str
    summary: str
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str, str]:
        return self.system, self.kind, self.slug


def _entries(system: str, kind: str, *rows: tuple[Any, ...]) -> list[Entry]:
    """(slug, name, summary[, data]) rows of one system and kind."""
    return [Entry(system, kind, *row) for row in rows]


def _named(system: str, kind: str, names: Mapping[str, str], *rows: tuple[Any, ...]) -> list[Entry]:
    """(slug, summary[, data]) rows of things the engine names: the name is read from it."""
    return [Entry(system, kind, slug, names[slug], *rest) for slug, *rest in rows]


TRAIT_NAMES = {slug: trait.name for slug, trait in vsgmr.TRAITS.items()}
POWER_NAMES = {slug: power.name for slug, power in vsgmr.SUPER_POWERS.items()}
SCENARIO_NAMES = {slug: name for slug, (name, _) in vsgmr.SCENARIOS.items()}
WEAPON_NAMES = {weapon.slug: weapon.name for weapon in d10.WEAPONS}


# ---------------------------------------------------------------- VSGMR v7

VSGMR = [
    *_entries(
        "vsgmr",
        "unit-kind",
        (
            "troop",
            "Troop",
            "An ordinary rank-and-file guy with no bonuses.",
            {"move_inches": 6},
        ),
        (
            "hero",
            "Hero",
            "A guy with an edge: +1 on distance attacks, hand to hand attacks and skill rolls.",
            {"move_inches": 6},
        ),
        (
            "mook",
            "Mook",
            "Optional: a poorly trained guy who takes -1 on every roll and can never command.",
            {"move_inches": 6},
        ),
        (
            "cavalry",
            "Cavalry",
            "A mount or small machine bigger than a guy. It needs a guy riding it to move, "
            "starts with light armour, and a large one carries one passenger too.",
            {"move_inches": 9},
        ),
        (
            "vehicle",
            "Vehicle",
            "A machine or huge beast steered by a guy, carrying up to four more. It gets +1 "
            "on attacks and armour rolls and starts with light armour.",
            {"move_inches": 12},
        ),
    ),
    *_named(
        "vsgmr",
        "trait",
        TRAIT_NAMES,
        (
            "area-effect-attack",
            "Every distance attack that hits earns another one, up to three in a row, each "
            "aimed at an enemy within half a move of the first target.",
        ),
        (
            "cause-fear",
            "An attacker that rolls a 1 or 2 against this figure misses, turns away and "
            "retreats a full move. Fearless things such as war robots ignore it.",
        ),
        (
            "combat-master",
            "Adds 1 to hand to hand attack rolls; a hero guy or a vehicle adds 2.",
        ),
        (
            "disable",
            "In place of an attack or skill roll, pick an enemy within shooting range: on a 4 "
            "or better it can only make armour rolls next round.",
        ),
        (
            "double-strike",
            "A hand to hand hit earns one more hand to hand attack, on the same enemy or "
            "another in reach.",
        ),
        (
            "flight",
            "Moves its full distance over walls and rough ground. While it stays airborne it "
            "cannot fight or be fought hand to hand, but it can still shoot and be shot.",
        ),
        (
            "ignores-armor",
            "An armoured target it hits has to pass two armour rolls in a row to shrug the "
            "hit off.",
        ),
        (
            "independent",
            "Cavalry or vehicles only: it moves and fights without a rider or driver, and can "
            "still carry figures.",
        ),
        (
            "inspiration",
            "Once a round, the owner may reroll one attack, armour or skill roll for any of "
            "their figures, for as long as this figure is alive.",
        ),
        (
            "recruit",
            "When it defeats a figure hand to hand, roll a die: on 5 or more the loser joins "
            "this side instead of leaving the table.",
        ),
        (
            "revenge",
            "When it is defeated it gets one parting attack, of the kind that defeated it, "
            "against the figure responsible.",
        ),
        (
            "sharpshooter",
            "Adds 1 to distance attack rolls; a hero guy or a vehicle adds 2.",
        ),
        (
            "sniper",
            "Its distance attacks reach twice as far as normal: 24 inches.",
        ),
        (
            "stealth",
            "Counts as being in cover against every distance attack; when it really is in "
            "cover, shooters need a 7.",
        ),
        (
            "summon",
            "In place of an attack or skill roll, roll a die: on 5 or more move any one friendly "
            "figure, riders and passengers included, to within half a move of it.",
        ),
        (
            "support",
            "Before the game, choose one kind of roll (distance, hand to hand, armour or "
            "skill): it and friends within half a move add 1 to that roll.",
        ),
        (
            "tough",
            "Adds 1 to armour rolls; a vehicle adds 2.",
        ),
    ),
    *_named(
        "vsgmr",
        "super-power",
        POWER_NAMES,
        (
            "super-armor",
            "Armour rolls use a bigger die than the usual d6.",
        ),
        (
            "super-blast",
            "Distance attacks use a bigger die; an 8 or more that does not defeat the target "
            "knocks it back half a move for each point above 7.",
        ),
        (
            "super-fight",
            "Hand to hand attacks use a bigger die, with the same knockback as Super-Blast.",
        ),
        (
            "super-move",
            "Extra movement each turn and a bonus on initiative rolls.",
        ),
        (
            "super-skill",
            "Skill rolls use a bigger die. Guys only.",
        ),
    ),
    # Suggested points per side are the engine's (points.vsgmr.SCENARIOS).
    *_named(
        "vsgmr",
        "scenario",
        SCENARIO_NAMES,
        (
            "basic-game",
            "Both sides set up at least two moves apart. After five rounds, whoever still has "
            "figures standing, or destroyed more points of enemies, wins.",
        ),
        (
            "escape",
            "A race for the opposite side: whoever gets over half of the figures they began "
            "with off that edge first wins.",
        ),
        (
            "transport",
            "An object waits near the centre; the side that carries it back to its own edge wins.",
        ),
        (
            "spawning",
            "Infiltrators start on the table; each Spawner starts with one figure and rolls "
            "every round to bring another in from an edge chosen by the die.",
        ),
        (
            "ambush",
            "The ambusher hides behind cover and adds 1 to initiative all game; the target "
            "starts bunched together in the open.",
        ),
        (
            "fortress-assault",
            "Defenders guard a large building. Attackers win by knocking it down, defenders "
            "by destroying every attacker.",
        ),
    ),
]

# ---------------------------------------------------------------- GEM

GEM = [
    # BaseMod for each size (points.gem.BASE_MOD) and what a large target gives a shooter
    # (points.gem.SIZE_BY_BASE) are the engine's.
    *_entries(
        "gem",
        "base-size",
        ("20mm", "20mm", "The smallest base, for a single foot figure."),
        ("25mm", "25mm", "The usual base for a 25mm-scale foot figure."),
        ("30mm", "30mm", "A slightly larger base for big foot figures or heavy troopers."),
        ("40mm", "40mm", "Large figures; shooters add 1 to hit a target this wide."),
        ("50mm", "50mm", "Very large figures; still a large target (+1 to hit it)."),
        (
            "huge",
            "Huge",
            "Anything wider than 50mm: monsters and vehicles. Shooters add 2 to hit it.",
        ),
    ),
    # TypeMod for each type is the engine's (points.gem.TYPE_MOD).
    *_entries(
        "gem",
        "formation",
        (
            "skirmisher",
            "Skirmisher",
            "Loose-order figures that move freely, staying within 2 inches of each other, and "
            "fire in a 90° arc to their front.",
        ),
        (
            "peltast",
            "Peltast",
            "Light troops that switch between skirmish order and a block; forming up takes a "
            "whole move, breaking up is free.",
        ),
        (
            "block",
            "Block infantry",
            "A formed body at least two ranks deep that moves straight ahead or wheels, and "
            "fights only to its front; deeper ranks help in melee.",
        ),
        (
            "leader",
            "Leader",
            "A single figure that moves like a skirmisher and, with the optional leader rules, "
            "keeps units within 12 inches in good order.",
        ),
        (
            "cavalry",
            "Cavalry",
            "Mounted troops that move like a block but may wheel at any point of the move, "
            "and fire in any direction.",
        ),
        (
            "vehicle",
            "Vehicle",
            "Anything that carries and moves a figure, from motorbikes to dreadnoughts. Speed "
            "changes by at most its acceleration each turn, and it cannot rush.",
        ),
    ),
    # The divisor for each rate is the engine's (points.gem.FIRE_DIVISOR).
    *_entries(
        "gem",
        "fire-rate",
        ("every-turn", "Every turn", "Bows, rifles and other weapons that shoot each turn."),
        (
            "every-other-turn",
            "Every other turn",
            "Slow weapons that need a turn to reload, such as heavy cannon.",
        ),
        (
            "every-third-turn",
            "Every third turn or slower",
            "The slowest weapons: catapults, siege guns and the like.",
        ),
    ),
    Entry(
        "gem",
        "table",
        "table-1",
        "Table 1: to-hit scores",
        "Find the attack's OFF down the side and the target's DEF across the top: roll that "
        "number or more on a d20 to hit. A natural 20 always hits and a natural 1 always misses.",
        # The table itself is the engine's (points.gem.TABLE_1): pages read it from there.
        {},
    ),
]

# ---------------------------------------------------------------- Gemini vehicle classes

GEMINI = _entries(
    "gemini",
    "vehicle-class",
    (
        "tracked",
        "Tracked",
        "Slews on the spot at battle speed and picks up extra speed on roads or firm flat ground.",
    ),
    (
        "wheeled",
        "Wheeled",
        "Quick on roads or firm flat ground, where it gains extra speed; civilian road cars are "
        "best moved with the street-race rules.",
    ),
    (
        "skimmer",
        "Skimmer",
        "Hovers just above the ground, so terrain barely slows it: its road and battle speeds "
        "are the same.",
    ),
    (
        "flying-skimmer",
        "Flying skimmer",
        "A low-flying craft: unless immobilised it is hit only on a 6 in close combat and may "
        "fly too high to be rammed.",
    ),
    (
        "walker",
        "Walker",
        "A driven walker counts as a fast vehicle; ground hardly slows it, so battle and top "
        "speed are close.",
    ),
    (
        "mechanoid",
        "Mechanoid",
        "Dreadnoughts and war robots: they fight hand to hand with their own skill, use front "
        "armour in close combat and plod at about 6 inches.",
    ),
    (
        "bike",
        "Bike",
        "Has a Toughness and a save instead of armour values, and a tight turn; bike and rider "
        "can be shot as one target or two.",
    ),
)

# ---------------------------------------------------------------- G.O.M.S.


def _small_arms(*rows: tuple[Any, ...]) -> list[Entry]:
    """(slug, name, ROF, short, long, wound, summary) rows; a range is (from, to, hit
    modifier), as the seed writes "0-12 +1"."""
    entries = []
    for slug, name, rof, short, long, wound, summary in rows:
        (short_from, short_to, short_mod), (long_from, long_to, long_mod) = short, long
        data = {
            "group": "small-arms",
            "rof": rof,
            "short": [short_from, short_to],
            "short_mod": short_mod,
            "long": [long_from, long_to],
            "long_mod": long_mod,
            "wound": wound,
        }
        entries.append(Entry("goms", "weapon", slug, name, summary, data))
    return entries


def _area_weapons(*rows: tuple[Any, ...]) -> list[Entry]:
    """(slug, name, centre, its wound roll, edge, its wound roll, AT dice, summary) rows."""
    entries = []
    for slug, name, centre, centre_wound, edge, edge_wound, at, summary in rows:
        data = {
            "group": "area",
            "centre": centre,
            "centre_wound": centre_wound,
            "edge": edge,
            "edge_wound": edge_wound,
            "at": at,
        }
        entries.append(Entry("goms", "weapon", slug, name, summary, data))
    return entries


# The weapon tables as the seed lays them out. Ranges and radii are in inches; a wound
# roll N means N+ on a d6.
# fmt: off
GOMS_SMALL_ARMS = _small_arms(
    # slug            name             ROF  short range   long range    wound
    ("sten-mp40",     "Sten / MP40",     3, (0, 12, +1), (12, 24, -1), 6,
     "Submachine gun: accurate up close, poor at range."),
    ("rifle",         "Rifle",           1, (0, 12, -1), (12, 48, +0), 5,
     "Bolt-action rifle: one shot, better at long range."),
    ("battle-rifle",  "Battle rifle",    2, (0, 12, -1), (12, 48, +0), 5,
     "Self-loading rifle: two shots."),
    ("assault-rifle", "Assault rifle",   3, (0, 12, +1), (12, 48, +0), 5,
     "Automatic rifle: good close in, reaches long range."),
    ("bren",          "Bren",            4, (0, 12, +0), (12, 48, +1), 5,
     "Light machine gun, steadiest at long range."),
    ("vickers",       "Vickers",         3, (0, 12, -1), (12, 60, +0), 4,
     "Heavy machine gun with the longest reach and a deadly wound roll."),
    ("mg38",          "MG38",            6, (0, 12, +0), (12, 48, +1), 5,
     "General-purpose machine gun with a high rate of fire."),
    ("mg42",          "MG42",            6, (0, 12, -1), (12, 60, +0), 4,
     "The fastest-firing machine gun, long-ranged and deadly."),
)
GOMS_AREA_WEAPONS = _area_weapons(
    # slug            name                    centre wound  edge wound  AT
    ("grenade",       "Grenade",                 2,   5,     4,   6,   "2d6",
     "Thrown explosive; primed with one action, thrown with another."),
    ("very-light-at", "Very light AT",           3,   5,     4,   6,   "3d6",
     "The lightest anti-tank weapons."),
    ("light-at-he",   "Light AT / light HE",     3,   5,     6,   6,   "4d6",
     "Light anti-tank guns and small high-explosive rounds."),
    ("medium-at-he",  "Medium AT / medium HE",   3,   4,     6,   5,   "5d6",
     "Medium guns and mortars."),
    ("heavy-at-he",   "Heavy AT / heavy HE",     3,   3,     8,   4,   "6d6",
     "Heavy guns and artillery."),
    ("very-heavy-at", "Very heavy AT",           3,   3,     8,   4,   "7d6",
     "The biggest anti-tank guns."),
)
# fmt: on

GOMS = [
    # Every unit's cost is the engine's (points.goms.UNIT_COST).
    *_named(
        "goms",
        "unit-kind",
        goms.KIND_NAMES,
        (
            "rifle-section",
            "The backbone of the force: a section of riflemen with its NCO. Four make a platoon.",
        ),
        (
            "platoon-hq",
            "Support weapons a full platoon may add: sniper, light mortar, medium machine gun, "
            "anti-tank team and a few riflemen.",
        ),
        (
            "company-hq",
            "Heavier support for three platoons: sniper, anti-tank gun, medium mortar, machine "
            "gun, anti-tank team and riflemen.",
        ),
        (
            "engineer-section",
            "Specialists who can blow a gap through a wall, hedge or door.",
        ),
        (
            "vehicle",
            "Any truck or armoured vehicle, bought by class.",
        ),
    ),
    *_entries(
        "goms",
        "vehicle-class",
        (
            "soft-skin",
            "Soft skin",
            "Unarmoured trucks and cars: the fastest movers, and any anti-tank hit goes through.",
            {"inches_per_action": 7},
        ),
        (
            "light",
            "Light armour",
            "Scout cars and light tanks; wheeled armour moves a little faster.",
            {"inches_per_action": 5, "wheeled_inches_per_action": 6},
        ),
        (
            "medium",
            "Medium armour",
            "Main battle tanks of the period.",
            {"inches_per_action": 4},
        ),
        (
            "heavy",
            "Heavy armour",
            "Slow, thickly armoured tanks that only heavy anti-tank fire can stop.",
            {"inches_per_action": 3},
        ),
    ),
    # The morale number of each grade is the engine's (points.goms.MORALE).
    *_named(
        "goms",
        "morale-grade",
        goms.MORALE_NAMES,
        (
            "unwilling-conscript",
            "Pressed men: they take only snap shots unless ordered otherwise.",
            {"fire": ["snap"]},
        ),
        (
            "trained",
            "Basic training: snap and deliberate shots.",
            {"fire": ["snap", "deliberate"]},
        ),
        (
            "veteran",
            "Has seen action: snap and deliberate shots, and steadier under fire.",
            {"fire": ["snap", "deliberate"]},
        ),
        (
            "seasoned-veteran",
            "Hardened troops who may also use rapid fire on their own.",
            {"fire": ["snap", "deliberate", "rapid"]},
        ),
        (
            "elite",
            "The best: every kind of fire, aimed shots included, without waiting for orders.",
            {"fire": ["snap", "deliberate", "rapid", "aimed"]},
        ),
    ),
    # The points of each size are the engine's (points.goms.GAME_SIZES).
    *_entries(
        "goms",
        "game-size",
        ("small", "Small", "A quick action: a handful of sections."),
        ("medium", "Medium", "About a platoon with some support."),
        ("large", "Large", "Company-sized, with armour and HQs."),
    ),
    # Option costs are the engine's (points.goms.REROLL_COST and friends).
    *_entries(
        "goms",
        "army-option",
        (
            "rerolls",
            "Reroll",
            "One reroll on the acquisition and manpower roll; buy them before rolling.",
        ),
        (
            "setup-extension",
            "Set-up zone extension",
            "Moves the edge of the deployment zone further forward; only a few may be bought.",
        ),
        ("dug-in", "Dug in", "The whole force begins the game in prepared positions."),
    ),
    *GOMS_SMALL_ARMS,
    *GOMS_AREA_WEAPONS,
    Entry(
        "goms",
        "table",
        "anti-tank",
        "Anti-tank penetration",
        "Each anti-tank die that scores this or more against the target's armour counts as a "
        "hit; a dash means that weapon cannot hurt that armour.",
        {
            "rows": "armour",
            "columns": "at",
            "armour": ["Soft skin", "Very light", "Light", "Medium", "Heavy", "Very heavy"],
            "at": ["Very light", "Light", "Medium", "Heavy", "Very heavy"],
            # needed[armour][at]: the d6 score (N+), or None for "-" in the seed.
            "needed": [
                [2, 2, 2, 2, 2],
                [4, 3, 2, 2, 2],
                [5, 4, 3, 2, 2],
                [6, 5, 4, 3, 2],
                [None, 6, 5, 4, 3],
                [None, None, 6, 5, 4],
            ],
        },
    ),
]

# ---------------------------------------------------------------- d10 modern skirmish

D10 = [
    *_entries(
        "d10",
        "stat",
        (
            "combat-skill",
            "Combat Skill",
            "Experience and nerve: activation, initiative and keeping overwatch.",
        ),
        ("willpower", "Willpower", "Courage: resisting suppression and morale tests."),
        ("shooting", "Shooting", "Marksmanship with any ranged weapon."),
        ("cqc", "CQC", "Close quarters fighting with knives, butts and fists."),
        ("physique", "Physique", "Size and strength; it sets the damage of melee blows."),
        ("agility", "Agility", "Dodging, jumping, climbing and breaking a fall."),
        (
            "defence",
            "Defence",
            "The number a wound roll must reach: natural toughness plus armour worn.",
        ),
        ("move", "Move", "Inches moved in one action."),
    ),
    # Defence for each level is the engine's (points.d10.ARMOUR_DEFENCE).
    *_entries(
        "d10",
        "armour-level",
        ("none", "Unarmoured", "Ordinary clothes: the base Defence for a human."),
        ("light", "Light armour", "A concealable vest of the kind police wear."),
        ("medium", "Medium armour", "Tactical vest with extra plates and a collar."),
        ("heavy", "Heavy armour", "Bulky specialist gear, like a bomb-disposal or riot suit."),
    ),
    # Each weapon's name, ranges, rate of fire, damage and traits are the engine's
    # (points.d10.WEAPONS).
    *_named(
        "d10",
        "weapon",
        WEAPON_NAMES,
        ("pistol", "Sidearm, usable in a brawl."),
        ("smg-pdw", "Compact automatic for close work."),
        (
            "shotgun",
            "Hits hard close up and weakly further out; the spread makes it 2 easier to hit with.",
        ),
        ("carbine-ar", "The standard infantry rifle."),
        ("dmr-battle-rifle", "Full-power rifle for longer shots."),
        ("saw-lsw", "Squad automatic weapon for suppression."),
        ("lmg", "Belt-fed machine gun; needs to be set down to fire."),
        ("sniper-rifle-308", "Bolt-action precision rifle."),
        ("am-50-rifle", "Anti-materiel rifle: the hardest hitter in the list."),
    ),
    *_named(
        "d10",
        "weapon-trait",
        d10.WEAPON_TRAITS,
        ("bulky", "1 harder to hit if it moved before firing, and awkward in CQC."),
        (
            "heavy",
            "Cannot move and fire in one activation, is awkward in CQC, and slows its carrier "
            "by an inch.",
        ),
        ("assault", "Short and handy: +1 to hit at 6 inches or closer."),
        ("cqc", "No penalty when used in close quarters combat."),
        ("bolt", "One shot at any range, 1 harder to hit after moving."),
        ("pump", "One shot, with no penalty for moving."),
        (
            "semiauto",
            "Either a pair of rapid shots within effective range at nearby targets, or one shot "
            "at long range.",
        ),
        (
            "auto",
            "Fires like a semi-auto, or sprays an area to suppress it with up to x hit rolls.",
        ),
        (
            "sniper-scope",
            "Firing one shot without moving, reroll a miss beyond 6 inches; makes the weapon "
            "Bulky.",
        ),
        (
            "acog-scope",
            "Firing one shot without moving, reroll a miss between 6 inches and effective range.",
        ),
        (
            "bipod",
            "If it stays still, long range costs only 1 on the target number instead of 2; makes "
            "the weapon Bulky.",
        ),
    ),
    Entry(
        "d10",
        "table",
        "calibre-damage",
        "Damage by calibre",
        "A firearm's Damage follows its cartridge: bigger rounds hit harder.",
        {
            "rows": [
                {"calibre": "9mm pistol or SMG", "damage": 4},
                {"calibre": "10mm, .45 ACP, 5.56mm", "damage": 5},
                {"calibre": "7.62mm", "damage": 6},
                {"calibre": ".300, .308, .338", "damage": 7},
                {"calibre": ".50 cal", "damage": 8},
            ]
        },
    ),
]

# ---------------------------------------------------------------- Interpretations (SPEC 3.6)

INTERPRETATIONS = [
    Entry(
        system,
        "interpretation",
        slug,
        name,
        summary,
        {"number": number, "affects": affects},
    )
    for number, (system, slug, name, summary, affects) in enumerate(
        [
            (
                "gem",
                "siz-counts-miniatures",
                "SIZ is a head count",
                "A GEM profile's SIZ is how many miniatures it stands for: a lone hero has "
                "SIZ 1, a block of eighteen has SIZ 18.",
                "the SIZ ÷ 18 term of a figure's base value B",
            ),
            (
                "gem",
                "radius-plus-a-half",
                "Radius plus one half",
                "An area weapon multiplies its value by its radius plus 0.5, so a 2-inch "
                "blast counts 2.5 times.",
                "the value M of an area missile weapon",
            ),
            (
                "gem",
                "best-missile-weapon",
                "One missile weapon for figures, all for vehicles",
                "A figure counts every melee attack but only its single best missile weapon, "
                "since it shoots one weapon a turn. A vehicle fires everything together, so "
                "all its weapons count.",
                "the offence O of figures and vehicles",
            ),
            (
                "gem",
                "vehicle-formula-literal",
                "The vehicle formula as written",
                "Vehicles follow the printed formula to the letter: carrying capacity ÷ 9 "
                "takes the place of SIZ ÷ 18, the product term uses plain DEF×HIT (not 1.3 "
                "times it), and the type modifier is 1.",
                "a vehicle's base value B and value V",
            ),
            (
                "gem",
                "round-half-up",
                "Rounded to a tenth, halves up",
                "Each model's value is rounded to one decimal place, with an exact half going "
                "up: 5.25 becomes 5.3, never 5.2.",
                "the points per model",
            ),
            (
                "vsgmr",
                "hero-commander-heavy-armour",
                "Hero commanders wear free heavy armour",
                "A hero chosen as commander always has heavy armour and pays nothing for it, "
                "whatever armour was picked. A troop commander gets no such gift.",
                "the commander's cost",
            ),
            (
                "vsgmr",
                "weapon-master-is-combat-master",
                "Weapon Master means Combat Master",
                'The Orcs sample gives its Warlord a "Weapon Master" trait that the trait '
                "list lacks; Muster reads it as Combat Master, which costs the same.",
                "the Orcs' Warlord and the army's total",
            ),
            (
                "goms",
                "platoon-is-four-sections",
                "A platoon is four rifle sections",
                "Every four rifle sections make a platoon that may add one platoon HQ; every "
                "three platoons may add one company HQ.",
                "how many platoon and company HQ sections an army may buy",
            ),
            (
                "vsgmr",
                "duel-one-figure",
                "Fight odds: a duel is one figure against one",
                "The VSGMR odds set one figure of each side against one of the other, whatever "
                "quantity the unit has, and so does the matchup's table. A hero commander "
                "fights in the heavy armour it always wears (reading 6).",
                "the VSGMR fight odds and the matchup's table",
            ),
            (
                "vsgmr",
                "duel-initiative",
                "Fight odds: a duel's initiative is an even chance",
                "In a VSGMR duel each side wins the initiative half the time every round "
                "(ties are rolled again); it attacks first, and the other strikes back only if "
                "still standing. Rounds go on until one figure is defeated.",
                "the VSGMR fight odds",
            ),
            (
                "vsgmr",
                "duel-rolls-add-up",
                "Fight odds: bonuses add up, and the die decides",
                "Every bonus on a roll counts together: a vehicle with Tough adds +1 for being "
                "a vehicle and +2 for Tough to its armour roll. A roll needing more than 6 never "
                "succeeds and one needing 1 or less always does; VSGMR has no automatic miss.",
                "the VSGMR fight odds",
            ),
            (
                "vsgmr",
                "cover-at-distance",
                "Fight odds: cover and Stealth count at distance only",
                "A target in cover, or with Stealth, is harder to hit with a distance attack "
                "(6+, and 7+ when it has both). Hand to hand neither changes anything.",
                "the VSGMR fight odds at distance",
            ),
            (
                "vsgmr",
                "double-strike-once",
                "Fight odds: Double Strike strikes once more",
                "Double Strike's extra attack follows a hit roll that succeeds; in a duel it "
                "matters only when armour turned that hit. It gives one extra attack, never a "
                "third.",
                "the VSGMR fight odds",
            ),
            (
                "vsgmr",
                "no-harm-is-a-draw",
                "Fight odds: a fight nobody can win is a draw",
                "When neither side can ever defeat the other (no distance attack at "
                "distance, or armour that turns every hit), the odds call the fight a draw. "
                "This holds in every system.",
                "the fight odds of every system",
            ),
            (
                "gem",
                "natural-20-and-1",
                "Fight odds: a natural 20 hits, a natural 1 misses",
                "In a GEM melee a 20 on the die always hits and a 1 always misses, whatever "
                "the modifiers. Table 1's four marked cells (* and !) are decided by the "
                "natural roll alone, so no Table 3 modifier moves them.",
                "the GEM fight odds",
            ),
            (
                "gem",
                "vehicle-without-off",
                "Fight odds: a vehicle without OFF makes no attacks",
                "A GEM vehicle whose profile has no OFF attacks nobody in a melee; a melee "
                "weapon it carries still attacks with that weapon's own OFF and ATT.",
                "the GEM fight odds",
            ),
            (
                "gem",
                "melee-models",
                "Fight odds: a GEM melee counts models and HIT",
                "A unit in melee has quantity × SIZ models, each with the profile's HIT. Hits "
                "come off one model at a time; the front (all models, or the frontage the "
                "player states) attacks, fewer as models fall. A rolled stat must be typed as "
                "rolled.",
                "the GEM fight odds",
            ),
            (
                "gem",
                "charge-first-round",
                "Fight odds: a charge counts in the first round",
                "The +2 for charging counts in the melee's first round only; the other "
                "Table 3 modifiers count every round, and each rank deeper is ticked once a "
                "rank. Morale is left out.",
                "the GEM fight odds",
            ),
            (
                "d10",
                "close-fight",
                "Fight odds: a close fight ends when one model goes down",
                "The active model wins ties. The winner rolls to wound with its Physique, +1 "
                "with a melee weapon (the seed's knife example); a critical win with a melee "
                "weapon kills. A downed model is out: the enemy in contact finishes it. The "
                "close fight reads nothing from a model's weapon list: tick the condition for "
                "the weapon it fights with.",
                "the d10 fight odds and the matchup's table",
            ),
            (
                "d10",
                "close-fight-margin",
                "Fight odds: the bigger margin wins a close fight",
                "Each side's conditions move its own target number, so the two rolls are "
                "compared by how far each got past its own target, not by their totals. A "
                "margin 5 or more above the other side's is a critical, whether the other side "
                "succeeded or not.",
                "the d10 fight odds and the matchup's table",
            ),
            (
                "d10",
                "natural-1-and-0",
                "Fight odds: a natural 1 fails, a natural 0 succeeds",
                "On every d10 the odds roll, a 1 fails and a 0 (which counts as 10) succeeds "
                "whatever the modifiers, and that holds for the wound roll against Defence "
                "too. A natural 1 is never a critical.",
                "the d10 fight odds",
            ),
            (
                "d10",
                "who-acts-first",
                "Fight odds: you choose who acts first",
                "The seed lets the active player shoot first and win a tied close fight. The "
                "calculator, the fight API and the fight command let you say which side that "
                "is; left alone, each side acts first half the time and the odds are the "
                "average of the two, so a model against its twin is an even fight. The "
                "matchup's table always takes the even choice.",
                "the d10 fight odds and the matchup's table",
            ),
            (
                "d10",
                "exchange-of-shots",
                "Fight odds: an exchange of single shots",
                "The two models shoot in turn, one shot a turn, standing still, until one is "
                "down. Each uses the first weapon of its own list that is on the seed's "
                "table; the shotgun's 3 damage at long range counts, and a weapon with no "
                "long range (a - in its range) cannot shoot at long range. A critical hit "
                "rolls two wounds, and two downed results kill. Rapid and automatic fire and "
                "the penalties for moving are named under Not in these odds.",
                "the d10 fight odds at distance",
            ),
            (
                "d10",
                "shotgun-spray",
                "Fight odds: the shotgun's spray",
                "The shotgun's spread of shot makes every shot with it 2 easier: its target "
                "number is 2 lower than another weapon's would be, at any range.",
                "the d10 fight odds at distance",
            ),
        ],
        start=1,
    )
]

CATALOG: tuple[Entry, ...] = (*VSGMR, *GEM, *GEMINI, *GOMS, *D10, *INTERPRETATIONS)


# ---------------------------------------------------------------- sample armies


@dataclass(frozen=True)
class Sample:
    system: str
    slug: str
    blurb: str

    @property
    def path(self) -> Path:
        return SAMPLES_DIR / self.system / f"{self.slug}.json"

    def army(self) -> dict[str, Any]:
        return json.loads(self.path.read_text(encoding="utf-8"))


SAMPLES: tuple[Sample, ...] = (
    # VSGMR section VII, in the seed's order.
    Sample(
        "vsgmr",
        "medieval-infantry",
        "A captain, a banner carrier who steadies the line, and a rank of armoured foot.",
    ),
    Sample("vsgmr", "dwarves", "Few but stubborn: every dwarf is a hero and every one is Tough."),
    Sample(
        "vsgmr",
        "elves",
        "Bows all round, led by a sharp-eyed mage and two sentries who rarely miss.",
    ),
    Sample(
        "vsgmr",
        "orcs",
        "A warlord and two hard-hitting sell-swords in front of a mob of armoured grunts.",
    ),
    Sample(
        "vsgmr",
        "undead",
        "A necromancer's host: bone archers, a mounted skeleton, ghouls and a demon that walks "
        "alone.",
    ),
    Sample(
        "vsgmr",
        "fantasy-adventurers",
        "The classic party of five: fighter, cleric, rogue, wizard and ranger.",
    ),
    Sample(
        "vsgmr",
        "wild-west-bandit-gang",
        "A gang of mounted gunslingers under a leader who never misses.",
    ),
    Sample(
        "vsgmr",
        "zombie-horde",
        "Patient zero and a shambling crowd; whoever they bring down may get back up on "
        "their side.",
    ),
    Sample(
        "vsgmr",
        "horror-film-survivors",
        "A sheriff, a gun nut, a scream queen and a football star against the night.",
    ),
    Sample(
        "vsgmr",
        "modern-infantry",
        "A sergeant and riflemen with automatic weapons, plus a helicopter and its pilot.",
    ),
    Sample(
        "vsgmr",
        "justice-team",
        "Three caped crime-fighters: a flying powerhouse, a dark detective and a sidekick.",
    ),
    Sample(
        "vsgmr",
        "mightiest-heroes",
        "A wall-crawler, a clawed brawler and a green giant who hits hardest of all.",
    ),
    Sample(
        "vsgmr",
        "star-soldiers",
        "Three power-armoured troopers with guns that punch through anything.",
    ),
    Sample(
        "vsgmr",
        "bug-aliens",
        "A hive queen, a living war-beast and a swarm of armoured drones that strike twice.",
    ),
    # Starter armies of our own for the other systems.
    Sample(
        "gem",
        "border-warband",
        "A small fantasy warband: a chieftain, a block of spears, archers, outriders and an "
        "armoured war wagon.",
    ),
    Sample(
        "goms",
        "rifle-platoon",
        "A medium game's force: one rifle platoon with its HQ, engineers, two tanks and a "
        "truck, plus rerolls and a longer set-up zone.",
    ),
    Sample(
        "d10",
        "rifle-squad",
        "A six-model squad: a leader, two riflemen, a gunner, a marksman and a breacher.",
    ),
)


# ---------------------------------------------------------------- loading (data migrations)


# What load_catalog writes of a built-in entry, besides what names it (system, kind, slug).
REFRESHED = ("name", "summary", "data", "position")


def load_catalog(rule_entry_model: Any) -> None:
    """Create or refresh every built-in entry; running it twice changes nothing.

    Four migrations run it on every new database (each test worker's included): one
    query reads what is there and two write what differs. update_or_create took two or
    three queries for each of its 140 entries: a new database's migrate took 2.7 s
    instead of 1.9 s.
    """
    manager = rule_entry_model.objects
    stored = {(e.system, e.kind, e.slug): e for e in manager.all()}
    new, changed = [], []
    for position, entry in enumerate(CATALOG):
        fields = dict(
            zip(REFRESHED, (entry.name, entry.summary, entry.data, position), strict=True)
        )
        found = stored.get((entry.system, entry.kind, entry.slug))
        if found is None:
            new.append(
                rule_entry_model(system=entry.system, kind=entry.kind, slug=entry.slug, **fields)
            )
        elif any(getattr(found, name) != value for name, value in fields.items()):
            for name, value in fields.items():
                setattr(found, name, value)
            changed.append(found)
    manager.bulk_create(new)
    manager.bulk_update(changed, REFRESHED)


def unload_catalog(rule_entry_model: Any) -> None:
    for entry in CATALOG:
        rule_entry_model.objects.filter(
            system=entry.system, kind=entry.kind, slug=entry.slug
        ).delete()


def load_samples(sample_army_model: Any) -> None:
    # A migration's historical model has no save() of its own: price here what it stores,
    # once the model has the fields (rules 0006).
    priced = any(field.name == "total" for field in sample_army_model._meta.get_fields())
    for position, sample in enumerate(SAMPLES):
        army = sample.army()
        fields = {
            "system": sample.system,
            "name": army["name"],
            "blurb": sample.blurb,
            "army": army,
            "position": position,
        }
        if priced:
            fields["total"], fields["figures"] = price_sample(army)
        sample_army_model.objects.update_or_create(slug=sample.slug, defaults=fields)


def unload_samples(sample_army_model: Any) -> None:
    sample_army_model.objects.filter(slug__in=[s.slug for s in SAMPLES]).delete()
