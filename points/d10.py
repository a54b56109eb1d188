"""The d10 modern skirmish homebrew: stat line, weapons and force morale points (SPEC 3.5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from points.fields import (
    at,
    between,
    boolean,
    const,
    index,
    items,
    known_keys,
    number,
    obj,
    text,
    whole_between,
)
from points.messages import Text, gettext_noop
from points.model import Entry, Issue, Line, Priced, Stat

# The rules version (SPEC 3.7): move it with any change that prices a valid profile
# differently or makes a check answer differently; tests/points/test_versions.py holds it.
VERSION = "d10/2026.1"

SKILLS = ("combat_skill", "willpower", "shooting", "cqc", "physique", "agility")
SKILL_RANGE = (1, 10)
DEFAULT_SKILL = 5
DEFENCE_RANGE = (1, 30)
MOVE_RANGE = between(0, 24)
DEFAULT_MOVE = const(5)
# Defence for a human by armour worn.
ARMOUR_DEFENCE = {"none": 10, "light": 11, "medium": 12, "heavy": 13}
DEFAULT_DEFENCE = ARMOUR_DEFENCE["none"]  # an unarmoured human
TARGET_NUMBER = 10

MODEL_POINTS = Fraction(1)
LEADER_POINTS = Fraction(2)  # leaders and special vehicles
FORCE_SIZE = (4, 12)  # models a side, the size the game is written for

FIELDS = (*SKILLS, "defence", "move", "leader", "special_vehicle", "weapons")
MAX_WEAPONS = 20
MAX_WEAPON_NAME = 100


# Weapon traits by slug, as the seed groups them: size, rate of fire, attachments; each
# named as the seed prints it.
WEAPON_TRAITS = {
    "bulky": "Bulky",
    "heavy": "Heavy",
    "assault": "Assault",
    "cqc": "CQC",
    "bolt": "Bolt action",
    "pump": "Pump",
    "semiauto": "Semiauto",
    "auto": "Auto (x)",
    "sniper-scope": "Sniper Scope",
    "acog-scope": "4x/ACOG Scope",
    "bipod": "Bipod",
}


@dataclass(frozen=True, slots=True)
class Weapon:
    """A row of the seed's weapon list: ranges in inches (`long` is None where the seed has
    "-"), damage added to a d10 against Defence ("7/3": 7 at effective range, 3 at long),
    trait slugs from WEAPON_TRAITS, what the traits leave out, and what the weapon itself
    does to the target number of every shot (the shotgun's spray: 2 easier)."""

    slug: str
    name: str
    effective: int
    long: int | None
    rof: str
    damage: str
    trait_slugs: tuple[str, ...]
    note: str = ""
    to_hit: int = 0

    @property
    def range(self) -> str:
        """Effective/long, as the seed writes it: "24/-"."""
        return f"{self.effective}/{'-' if self.long is None else self.long}"

    @property
    def trait_names(self) -> tuple[str, ...]:
        return tuple(WEAPON_TRAITS[t] for t in self.trait_slugs)

    @property
    def traits(self) -> str:
        """The traits in a few words, for a roster card: "Bolt action, Heavy"."""
        names = ", ".join(self.trait_names)
        return f"{names}; {self.note}" if self.note else names


SPRAY = -2  # the shotgun's "+2TN bonus due to spray": its target number is 2 lower

# fmt: off
WEAPONS = (
    #      slug                name                    range (in.)  rof             damage
    #      traits, and what they leave out
    Weapon("pistol",           "Pistol (9mm)",          6, 12,      "2/1",          "4",
           ("semiauto", "cqc")),
    Weapon("smg-pdw",          "SMG/PDW (P90, MP5)",   12, 24,      "2/1 (3 auto)", "4",
           ("auto", "assault")),
    Weapon("shotgun",          "Shotgun (pump, semi)", 12, 18,      "1",            "7/3",
           ("pump", "assault"), "damage by range, -2 TN spray", to_hit=SPRAY),
    Weapon("carbine-ar",       "Carbine/AR",           24, None,    "2/1 (3 auto)", "5",
           ("auto",)),
    Weapon("dmr-battle-rifle", "DMR/Battle rifle",     30, None,    "2/1",          "6",
           ("semiauto", "bulky")),
    Weapon("saw-lsw",          "SAW/LSW",              24, None,    "4 auto",       "5",
           ("auto", "bulky")),
    Weapon("lmg",              "LMG",                  30, None,    "4 auto",       "6",
           ("auto", "heavy")),
    Weapon("sniper-rifle-308", "Sniper rifle .308",    36, None,    "1",            "7",
           ("bolt", "bulky")),
    Weapon("am-50-rifle",      "AM .50 Rifle",         36, None,    "1",            "8",
           ("bolt", "heavy")),
)
# fmt: on


_BY_NAME = {w.name: w for w in WEAPONS}
# A table weapon typed by hand ("lmg", "Pistol  (9mm)", its slug) is still that weapon.
_FOLDED = {" ".join(w.name.split()).casefold(): w for w in WEAPONS} | {w.slug: w for w in WEAPONS}


def table_weapon(name: str) -> Weapon | None:
    """The weapon table's row a unit's weapon names, or None for homebrew."""
    return _BY_NAME.get(name) or _FOLDED.get(" ".join(name.split()).casefold())


@dataclass(frozen=True, slots=True)
class D10Profile:
    combat_skill: int = DEFAULT_SKILL
    willpower: int = DEFAULT_SKILL
    shooting: int = DEFAULT_SKILL
    cqc: int = DEFAULT_SKILL
    physique: int = DEFAULT_SKILL
    agility: int = DEFAULT_SKILL
    defence: int = DEFAULT_DEFENCE
    move: Stat = DEFAULT_MOVE
    leader: bool = False
    special_vehicle: bool = False
    weapons: tuple[str, ...] = ()  # names from WEAPONS or homebrew


def parse_profile(raw: object, path: str) -> D10Profile:
    data = obj(raw, path)
    known_keys(data, FIELDS, path)
    found: dict[str, object] = {}
    for key in SKILLS:
        if key in data:
            found[key] = whole_between(data[key], at(path, key), *SKILL_RANGE)
    if "defence" in data:
        found["defence"] = whole_between(data["defence"], at(path, "defence"), *DEFENCE_RANGE)
    if "move" in data:
        found["move"] = number(data["move"], at(path, "move"), MOVE_RANGE)
    for key in ("leader", "special_vehicle"):
        if key in data:
            found[key] = boolean(data[key], at(path, key))
    if "weapons" in data:
        where = at(path, "weapons")
        entries = items(data["weapons"], where, MAX_WEAPONS)
        found["weapons"] = tuple(
            text(name, index(where, i), MAX_WEAPON_NAME) for i, name in enumerate(entries)
        )
    return D10Profile(**found)  # type: ignore[arg-type]


def dump_profile(p: D10Profile) -> dict[str, object]:
    out: dict[str, object] = {}
    for key in SKILLS:
        if getattr(p, key) != DEFAULT_SKILL:
            out[key] = getattr(p, key)
    if p.defence != DEFAULT_DEFENCE:
        out["defence"] = p.defence
    if p.move != DEFAULT_MOVE:
        out["move"] = p.move.raw
    for key in ("leader", "special_vehicle"):
        if getattr(p, key):
            out[key] = True
    if p.weapons:
        out["weapons"] = list(p.weapons)
    return out


def price(p: D10Profile) -> Priced:
    """Force points: 1 a model, 2 for a leader or a special vehicle ("Simple Morale")."""
    if p.leader or p.special_vehicle:
        label = Text(gettext_noop("Leader") if p.leader else gettext_noop("Special vehicle"))
        note = Text(gettext_noop("leaders and special vehicles count double"))
        return Priced(LEADER_POINTS, LEADER_POINTS, (Line(label, LEADER_POINTS, note),))
    return Priced(MODEL_POINTS, MODEL_POINTS, (Line(Text(gettext_noop("Model")), MODEL_POINTS),))


def break_point(total: Fraction) -> Fraction:
    """Morale tests start once this many force points are downed or dead: half the force."""
    return total / 2


def army_checks(entries: Sequence[Entry], options: object) -> tuple[list[Issue], list[Issue]]:
    models = sum(e.quantity for e in entries)
    low, high = FORCE_SIZE
    if low <= models <= high:
        return [], []
    message = Text(
        gettext_noop(
            "The force has %(models)s models; the game is written for %(low)s to %(high)s a side."
        ),
        models=models,
        low=low,
        high=high,
    )
    return [], [Issue("force-size", message)]


def extras(entries: Sequence[Entry], options: object, total: Fraction) -> dict[str, object]:
    return {"break_point": break_point(total)}


# ---------------------------------------------------------------- chances
#
# Every test is stat + d10 against a target number (normally 10); modifiers move the
# target, so a penalty is positive. The 0 face counts as 10.

FACES = range(1, 11)
NATURAL_FAIL, NATURAL_SUCCESS = 1, 10
CRITICAL_MARGIN = 5


def target_number(modifier: int = 0) -> int:
    """The target after modifiers: +2 is a penalty, -1 a bonus."""
    return TARGET_NUMBER + modifier


def _succeeds(stat: int, face: int, target: int) -> bool:
    return face == NATURAL_SUCCESS or (face != NATURAL_FAIL and stat + face >= target)


def success_chance(stat: int, target: int = TARGET_NUMBER) -> Fraction:
    """Chance that stat + d10 reaches the target; a natural 1 fails, a natural 0 succeeds."""
    wins = sum(1 for face in FACES if _succeeds(stat, face, target))
    return Fraction(wins, len(FACES))


def critical_chance(stat: int, target: int = TARGET_NUMBER) -> Fraction:
    """Chance of passing the target by 5 or more (a natural 1 never does)."""
    crits = sum(
        1 for face in FACES if face != NATURAL_FAIL and stat + face >= target + CRITICAL_MARGIN
    )
    return Fraction(crits, len(FACES))


@dataclass(frozen=True, slots=True)
class Contest:
    """How a contested roll ends: either side wins (by 5 or more: a critical), or both fail."""

    active: Fraction
    passive: Fraction
    neither: Fraction
    active_critical: Fraction
    passive_critical: Fraction


def contest(
    active: int, passive: int, active_modifier: int = 0, passive_modifier: int = 0
) -> Contest:
    """Both roll stat + d10; the best successful roll wins and the active model wins ties.

    Each side's modifiers move its own target, so rolls are compared by how far each
    passed its target (the same as comparing totals when the modifiers are equal).
    """
    a_target, p_target = target_number(active_modifier), target_number(passive_modifier)
    counts = dict.fromkeys(("active", "passive", "neither", "active_crit", "passive_crit"), 0)
    for a in FACES:
        for b in FACES:
            a_ok, b_ok = _succeeds(active, a, a_target), _succeeds(passive, b, p_target)
            lead = (active + a - a_target) - (passive + b - p_target)
            if a_ok and (not b_ok or lead >= 0):
                counts["active"] += 1
                counts["active_crit"] += lead >= CRITICAL_MARGIN
            elif b_ok:
                counts["passive"] += 1
                counts["passive_crit"] += -lead >= CRITICAL_MARGIN
            else:
                counts["neither"] += 1
    rolls = len(FACES) ** 2
    return Contest(
        Fraction(counts["active"], rolls),
        Fraction(counts["passive"], rolls),
        Fraction(counts["neither"], rolls),
        Fraction(counts["active_crit"], rolls),
        Fraction(counts["passive_crit"], rolls),
    )
