"""GEM — Generic Easy Miniatures: profiles and the non-linear point formula (SPEC 3.2)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import NamedTuple

from points.errors import ArmyFileError
from points.fields import (
    Range,
    above,
    at,
    at_least,
    between,
    boolean,
    choice,
    const,
    fmt,
    index,
    items,
    known_keys,
    number,
    obj,
    required,
    stat,
    text,
    whole,
    whole_between,
)
from points.messages import Text, gettext_noop
from points.model import Entry, Issue, Line, Priced, Stat
from points.numbers import round_half_up, typed_decimal

# The rules version (SPEC 3.7): move it with any change that prices a valid profile
# differently or makes a check answer differently; tests/points/test_versions.py holds it.
VERSION = "gem/2026.1"

TYPES = ("skirmisher", "peltast", "block", "leader", "cavalry", "vehicle")
BASES = ("20mm", "25mm", "30mm", "40mm", "50mm", "huge")
FIRES = ("every-turn", "every-other-turn", "every-third-turn")
VEHICLE_CLASSES = (
    "tracked",
    "wheeled",
    "skimmer",
    "flying-skimmer",
    "walker",
    "mechanoid",
    "bike",
)

BASE_MOD = {
    "20mm": Fraction(1),
    "25mm": Fraction(9, 10),
    "30mm": Fraction(4, 5),
    "40mm": Fraction(3, 4),
    "50mm": Fraction(3, 4),
    "huge": Fraction(13, 20),
}
TYPE_MOD = {
    "cavalry": Fraction(3, 2),
    "peltast": Fraction(13, 10),
    "block": Fraction(1),
    "leader": Fraction(1),
    "skirmisher": Fraction(4, 5),
    "vehicle": Fraction(1),  # SPEC 3.6 (4)
}
# Turns from one shot to the next; a weapon's value is divided by 4 for each (4, 8, 12).
FIRE_INTERVAL = {"every-turn": 1, "every-other-turn": 2, "every-third-turn": 3}
FIRE_DIVISOR = {fire: 4 * turns for fire, turns in FIRE_INTERVAL.items()}
HEAVY_WEAPON = Fraction(9, 10)  # a heavy weapon cannot fire after moving
AREA_BONUS = Fraction(1, 2)  # radius modifier is radius + 1/2 (SPEC 3.6 (2))
FIGURE_PRODUCT_DIVISOR = 16
VEHICLE_PRODUCT_DIVISOR = 12
VEHICLE_DEFENCE = Fraction(13, 10)
SIZ_DIVISOR = 18
CAPACITY_DIVISOR = 9
MORALE_DIVISOR = 50
MAG_OFFSET, MAG_DIVISOR = 18, 20
MOV_OFFSET, MOV_DIVISOR = 16, 20

# Table 1: the d20 score an attack of OFF (row, 1-10) needs against DEF (column, 1-10).
TABLE_1 = (
    (11, 16, 18, 19, 19, 19, 20, 20, 20, 20),
    (6, 11, 14, 16, 17, 18, 18, 19, 19, 19),
    (4, 8, 11, 13, 15, 16, 17, 17, 18, 18),
    (3, 6, 9, 11, 13, 14, 15, 16, 17, 17),
    (3, 5, 7, 9, 11, 13, 14, 15, 15, 16),
    (3, 4, 6, 8, 9, 11, 12, 13, 14, 15),
    (2, 4, 5, 7, 8, 10, 11, 12, 13, 14),
    (2, 3, 5, 6, 7, 9, 10, 11, 12, 13),
    (2, 3, 4, 5, 7, 8, 9, 10, 11, 12),
    (2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
)
# The seed marks four cells, as (OFF, DEF): only a natural 20 hits, or only a natural 1
# misses, and no modifier applies to either.
NATURAL_20_ONLY = ((1, 9), (1, 10))
NATURAL_1_ONLY_MISSES = ((9, 1), (10, 1))

# Stat ranges and defaults (SPEC 3.2): the loader's, and the editor's help texts.
STATS = {
    "off": between(1, 10),
    "def": between(1, 10),
    "att": at_least(0),
    "hit": at_least(1),
    "mor": between(-20, 20),
    "mag": between(1, 10),
    "mov": at_least(0),
    "siz": at_least(1),
}
DEFAULTS = {"att": 1, "hit": 1, "mor": 0, "mag": 2, "mov": 4, "siz": 1}
WEAPON_STATS = {
    "off": between(1, 10),
    "att": at_least(1),
    "range": above(0),
    "radius": at_least(0),
}
VEHICLE_STATS = {
    "max_speed": at_least(0),
    "capacity": at_least(0),
    "acc": at_least(0),
    "battle_speed": at_least(0),
    "dec": at_least(0),
    "toughness": at_least(0),
}
TRR_RANGE = Range(Fraction(0), low_open=True)
SAVE_RANGE = (2, 6)  # a save of 3 means 3+ on a d6; no save is left out
ARMOUR_KEYS = ("armour_front", "armour_side", "armour_rear")
MAX_ATTACKS = 20

# OFF is required for figures; a vehicle may have one for rams and close attacks, kept and
# used for Table 1 but not priced (SPEC 3.2).
COMMON_FIELDS = ("type", "base", "off", "def", "hit", "mor", "mag", "mov", "missile")
FIGURE_ONLY = ("att", "siz", "melee")
VEHICLE_ONLY = (
    "max_speed",
    "capacity",
    "acc",
    "vehicle_class",
    "battle_speed",
    "dec",
    "trr",
    *ARMOUR_KEYS,
    "toughness",
    "save",
    "hull_points",
    "open_topped",
    "firing_ports",
)
FIGURE_FIELDS = (*COMMON_FIELDS, *FIGURE_ONLY)
VEHICLE_FIELDS = (*COMMON_FIELDS, *VEHICLE_ONLY)
MELEE_FIELDS = ("name", "off", "att")
MISSILE_FIELDS = ("name", "off", "att", "range", "radius", "fire", "heavy")

# Gemini handling aids shown on roster cards.
ROAD_BONUS = 6  # wheeled and tracked vehicles on roads or firm flat ground
ROAD_CLASSES = ("wheeled", "tracked")
TURN_DEGREES = 57  # a TRR 1 turn sweeps about 57° per move
TURN_COST = 2  # inches a 45° fine-manoeuvre turn costs

ONE, ZERO = const(1), const(0)
DEFAULT_STATS = {key: const(value) for key, value in DEFAULTS.items()}


@dataclass(frozen=True, slots=True)
class Melee:
    """An extra melee attack: all melee attacks strike in the melee segment."""

    off: Stat
    att: Stat = ONE
    name: str = ""


@dataclass(frozen=True, slots=True)
class Missile:
    off: Stat
    range: Stat
    att: Stat = ONE
    radius: Stat = ZERO
    fire: str = "every-turn"
    heavy: bool = False
    name: str = ""


@dataclass(frozen=True, slots=True)
class GemProfile:
    type: str
    base: str
    def_: Stat
    off: Stat | None = None  # optional for vehicles, and not priced for them
    att: Stat = DEFAULT_STATS["att"]
    hit: Stat = DEFAULT_STATS["hit"]
    mor: Stat = DEFAULT_STATS["mor"]
    mag: Stat = DEFAULT_STATS["mag"]
    mov: Stat = DEFAULT_STATS["mov"]
    siz: Stat = DEFAULT_STATS["siz"]
    melee: tuple[Melee, ...] = ()
    missile: tuple[Missile, ...] = ()
    # Vehicles only; max_speed and capacity are priced, the rest is for the table.
    max_speed: Stat | None = None
    capacity: Stat = ZERO
    acc: Stat | None = None
    vehicle_class: str | None = None
    battle_speed: Stat | None = None
    dec: Stat | None = None
    trr: Stat | None = None
    armour_front: int | None = None
    armour_side: int | None = None
    armour_rear: int | None = None
    toughness: Stat | None = None
    save: int | None = None
    hull_points: int | None = None
    open_topped: bool = False
    firing_ports: int | None = None

    @property
    def is_vehicle(self) -> bool:
        return self.type == "vehicle"


# ---------------------------------------------------------------- reading and writing


def parse_profile(raw: object, path: str) -> GemProfile:
    data = obj(raw, path)
    known_keys(data, (*COMMON_FIELDS, *FIGURE_ONLY, *VEHICLE_ONLY), path)
    kind = choice(required(data, "type", path), TYPES, at(path, "type"))
    vehicle = kind == "vehicle"
    _refuse_other_kind_fields(data, vehicle, path)
    base = choice(required(data, "base", path), BASES, at(path, "base"))
    for key in ("def",) if vehicle else ("off", "def"):
        required(data, key, path)
    found: dict[str, object] = {"type": kind, "base": base}
    for key, allowed in STATS.items():
        if key in data:
            found["def_" if key == "def" else key] = stat(data[key], at(path, key), allowed)
    found["melee"] = _attacks(data, "melee", _melee, path)
    found["missile"] = _attacks(data, "missile", _missile, path)
    if vehicle:
        found.update(_vehicle_fields(data, path))
    return GemProfile(**found)  # type: ignore[arg-type]


def _refuse_other_kind_fields(data: dict[str, object], vehicle: bool, path: str) -> None:
    for key in FIGURE_ONLY if vehicle else VEHICLE_ONLY:
        if key not in data:
            continue
        if not vehicle:
            raise ArmyFileError(at(path, key), Text(gettext_noop("only vehicles have this")))
        if key == "siz":
            message = gettext_noop("vehicles are priced by capacity, not siz")
        else:
            message = gettext_noop("vehicles take their offence from speed and weapons")
        raise ArmyFileError(at(path, key), Text(message))


def _attacks[T](
    data: dict[str, object], key: str, read: Callable[[object, str], T], path: str
) -> tuple[T, ...]:
    where = at(path, key)
    entries = items(data.get(key, []), where, MAX_ATTACKS)
    return tuple(read(entry, index(where, i)) for i, entry in enumerate(entries))


def _melee(raw: object, path: str) -> Melee:
    data = obj(raw, path)
    known_keys(data, MELEE_FIELDS, path)
    found: dict[str, object] = {
        "off": stat(required(data, "off", path), at(path, "off"), WEAPON_STATS["off"])
    }
    if "att" in data:
        found["att"] = stat(data["att"], at(path, "att"), WEAPON_STATS["att"])
    if "name" in data:
        found["name"] = text(data["name"], at(path, "name"), blank_ok=True)
    return Melee(**found)  # type: ignore[arg-type]


def _missile(raw: object, path: str) -> Missile:
    data = obj(raw, path)
    known_keys(data, MISSILE_FIELDS, path)
    found: dict[str, object] = {}
    for key, allowed in WEAPON_STATS.items():
        if key in data or key in ("off", "range"):
            found[key] = stat(required(data, key, path), at(path, key), allowed)
    radius = found.get("radius", ZERO)
    if isinstance(radius, Stat) and radius.pair[0] > 0 and radius.value < AREA_BONUS:
        # Radius + 1/2 would then be below the single-target 1: a blast cheaper than a shot.
        raise ArmyFileError(
            at(path, "radius"), Text(gettext_noop("must be 0 (single target) or at least 0.5"))
        )
    if "fire" in data:
        found["fire"] = choice(data["fire"], FIRES, at(path, "fire"))
    if "heavy" in data:
        found["heavy"] = boolean(data["heavy"], at(path, "heavy"))
    if "name" in data:
        found["name"] = text(data["name"], at(path, "name"), blank_ok=True)
    return Missile(**found)  # type: ignore[arg-type]


def _vehicle_fields(data: dict[str, object], path: str) -> dict[str, object]:
    found: dict[str, object] = {}
    required(data, "max_speed", path)
    for key, allowed in VEHICLE_STATS.items():
        if key in data:
            found[key] = stat(data[key], at(path, key), allowed)
    if "vehicle_class" in data:
        found["vehicle_class"] = choice(
            data["vehicle_class"], VEHICLE_CLASSES, at(path, "vehicle_class")
        )
    if "trr" in data:
        found["trr"] = number(data["trr"], at(path, "trr"), TRR_RANGE)
    for key in ARMOUR_KEYS:
        if key in data:
            found[key] = whole(data[key], at(path, key), 0)
    if "save" in data:
        found["save"] = whole_between(data["save"], at(path, "save"), *SAVE_RANGE)
    if "hull_points" in data:
        found["hull_points"] = whole(data["hull_points"], at(path, "hull_points"), 1)
    if "open_topped" in data:
        found["open_topped"] = boolean(data["open_topped"], at(path, "open_topped"))
    if "firing_ports" in data:
        found["firing_ports"] = whole(data["firing_ports"], at(path, "firing_ports"), 0)
    return found


def dump_profile(p: GemProfile) -> dict[str, object]:
    """The file form of a profile: defaults left out, stats as they were typed."""
    out: dict[str, object] = {"type": p.type, "base": p.base}
    if p.off is not None:
        out["off"] = p.off.raw
    if p.att != ONE:
        out["att"] = p.att.raw
    out["def"] = p.def_.raw
    for key in ("hit", "mor", "mag", "mov", "siz"):
        value = getattr(p, key)
        if value != DEFAULT_STATS[key]:
            out[key] = value.raw
    if p.melee:
        out["melee"] = [_dump_melee(m) for m in p.melee]
    if p.missile:
        out["missile"] = [_dump_missile(w) for w in p.missile]
    if p.is_vehicle:
        out.update(_dump_vehicle(p))
    return out


def _dump_melee(m: Melee) -> dict[str, object]:
    out: dict[str, object] = {"name": m.name} if m.name else {}
    out["off"] = m.off.raw
    if m.att != ONE:
        out["att"] = m.att.raw
    return out


def _dump_missile(w: Missile) -> dict[str, object]:
    out: dict[str, object] = {"name": w.name} if w.name else {}
    out["off"] = w.off.raw
    if w.att != ONE:
        out["att"] = w.att.raw
    out["range"] = w.range.raw
    if w.radius != ZERO:
        out["radius"] = w.radius.raw
    if w.fire != "every-turn":
        out["fire"] = w.fire
    if w.heavy:
        out["heavy"] = True
    return out


def _dump_vehicle(p: GemProfile) -> dict[str, object]:
    assert p.max_speed is not None
    out: dict[str, object] = {"max_speed": p.max_speed.raw}
    if p.capacity != ZERO:
        out["capacity"] = p.capacity.raw
    for key in ("acc", "vehicle_class", "battle_speed", "dec", "trr", *ARMOUR_KEYS):
        out.update(_present(p, key))
    for key in ("toughness", "save", "hull_points"):
        out.update(_present(p, key))
    if p.open_topped:
        out["open_topped"] = True
    out.update(_present(p, "firing_ports"))
    return out


def _present(p: GemProfile, key: str) -> dict[str, object]:
    value = getattr(p, key)
    if value is None:
        return {}
    return {key: value.raw if isinstance(value, Stat) else value}


# ---------------------------------------------------------------- pricing
#
# Pricing runs for every unit on every keystroke in the army builder, so the
# formula is worked once in plain integers, as (numerator, denominator) pairs
# reduced only at the end: exact, and many times faster than Fraction at each
# step. The breakdown is built from the same workings only when it is read.

Q = tuple[int, int]


class Workings(NamedTuple):
    d: Q  # DEF×HIT
    attacks: tuple[Q, ...]  # figures: OFF×ATT, then each extra melee attack
    speed: Q | None  # vehicles: max speed / 2 × HIT
    missiles: tuple[Q, ...]  # M of each missile weapon
    best: int | None  # figures: which missile weapon counts
    o: Q
    b: Q
    v: Q


def _times(a: Q, b: Q) -> Q:
    return a[0] * b[0], a[1] * b[1]


def _plus(a: Q, b: Q) -> Q:
    return a[0] * b[1] + b[0] * a[1], a[1] * b[1]


def _over(a: Q, k: int) -> Q:
    return a[0], a[1] * k


def _missile_value(w: Missile) -> Q:
    """M = OFF × ATT × range × R / F, where R is 1 or radius + 1/2; heavy × 9/10."""
    (on, od), (an, ad), (rn, rd) = w.off.pair, w.att.pair, w.range.pair
    n, d = on * an * rn, od * ad * rd * FIRE_DIVISOR[w.fire]
    if w.radius.value:
        xn, xd = w.radius.pair
        n, d = n * (2 * xn + xd), d * 2 * xd
    if w.heavy:
        n, d = n * HEAVY_Q[0], d * HEAVY_Q[1]
    return n, d


def _best(values: tuple[Q, ...]) -> int | None:
    best = None
    for i, (n, d) in enumerate(values):
        if best is None or n * values[best][1] > values[best][0] * d:
            best = i
    return best


def _morale(p: GemProfile) -> Q:
    """1 + MOR / 50."""
    n, d = p.mor.pair
    return MORALE_DIVISOR * d + n, MORALE_DIVISOR * d


def _magic(p: GemProfile) -> Q:
    """(MAG + 18) / 20."""
    n, d = p.mag.pair
    return n + MAG_OFFSET * d, MAG_DIVISOR * d


def _move(p: GemProfile) -> Q:
    """(MOV + 16) / 20."""
    n, d = p.mov.pair
    return n + MOV_OFFSET * d, MOV_DIVISOR * d


def _modifiers(p: GemProfile) -> Q:
    """Morale × BaseMod × TypeMod × magic × move as one fraction."""
    (rn, rd), (sn, sd) = _morale(p), BASE_TYPE_Q[p.base, p.type]
    (gn, gd), (vn, vd) = _magic(p), _move(p)
    return rn * sn * gn * vn, rd * sd * gd * vd


def _workings(p: GemProfile) -> Workings:
    hit = p.hit.pair
    d = _times(p.def_.pair, hit)
    missiles = tuple(_missile_value(w) for w in p.missile)
    if p.is_vehicle:
        assert p.max_speed is not None
        attacks: tuple[Q, ...] = ()
        best = None
        speed = _times(_over(p.max_speed.pair, 2), hit)
        o = speed
        for m in missiles:  # vehicle weapons all fire together
            o = _plus(o, m)
        od = _times(o, d)
        b = _plus(_plus(_times(VEHICLE_Q, d), o), _over(od, VEHICLE_PRODUCT_DIVISOR))
        b = _plus(b, _over(p.capacity.pair, CAPACITY_DIVISOR))
    else:
        assert p.off is not None
        extra = (_times(m.off.pair, m.att.pair) for m in p.melee)
        attacks = (_times(p.off.pair, p.att.pair), *extra)
        speed = None
        o = attacks[0]
        for a in attacks[1:]:
            o = _plus(o, a)
        best = _best(missiles)
        if best is not None:  # one missile weapon fires in the missile segment
            o = _plus(o, missiles[best])
        od = _times(o, d)
        b = _plus(_plus(d, o), _over(od, FIGURE_PRODUCT_DIVISOR))
        b = _plus(b, _over(p.siz.pair, SIZ_DIVISOR))
    return Workings(d, attacks, speed, missiles, best, o, b, _times(b, _modifiers(p)))


def _pair(x: Fraction) -> Q:
    return x.numerator, x.denominator


BASE_TYPE_Q = {
    (base, kind): _pair(BASE_MOD[base] * TYPE_MOD[kind]) for base in BASES for kind in TYPES
}
HEAVY_Q = _pair(HEAVY_WEAPON)
VEHICLE_Q = _pair(VEHICLE_DEFENCE)


def price(p: GemProfile) -> Priced:
    """Points per model: V rounded half-up to one decimal (SPEC 3.6 (5))."""
    w = _workings(p)
    value = Fraction(*w.v)
    each = round_half_up(value, 1)
    return Priced(each, value, partial(_explain, p, w, value, each))


# ---------------------------------------------------------------- the breakdown


def _f(q: Q) -> Fraction:
    return Fraction(*q)


def _shown(s: Stat) -> str:
    """A stat for a note: 4, or "2d6+8 (average 15)"; the stat as typed, never rewritten."""
    if type(s.raw) is int:  # most stats: nothing to tidy
        return str(s.raw)
    value = typed_decimal(s.raw) or fmt(s.value)
    if isinstance(s.raw, str) and s.raw.strip() != value:
        return Text(gettext_noop("%(typed)s (average %(value)s)"), typed=s.raw.strip(), value=value)
    return value


def _weapon_name(name: str, kind: str, i: int) -> str:
    """The player's name for an attack, or "weapon 2" (kind: "weapon", "extra attack")."""
    if name:
        return name
    if kind == "weapon":
        return Text(gettext_noop("weapon %(number)s"), number=i + 1)
    return Text(gettext_noop("extra attack %(number)s"), number=i + 1)


# The seed's words for how often a weapon fires stay as printed ("every other turn").
_FIRE_NOTES = {
    fire: Text(
        gettext_noop("÷ %(divisor)s (%(fire)s)"),
        divisor=FIRE_DIVISOR[fire],
        fire=fire.replace("-", " "),
    )
    for fire in FIRES
}


def _missile_note(w: Missile) -> Text:
    shots = {"off": _shown(w.off), "att": _shown(w.att), "range": _shown(w.range)}
    fire = _FIRE_NOTES[w.fire]
    match (bool(w.radius.value), w.heavy):
        case (False, False):
            note = gettext_noop("%(off)s OFF × %(att)s ATT × %(range)s″ range %(fire)s")
        case (False, True):
            note = gettext_noop(
                "%(off)s OFF × %(att)s ATT × %(range)s″ range %(fire)s × 9/10 (heavy)"
            )
        case (True, False):
            note = gettext_noop(
                "%(off)s OFF × %(att)s ATT × %(range)s″ range × (%(radius)s radius + 1/2) %(fire)s"
            )
        case _:
            note = gettext_noop(
                "%(off)s OFF × %(att)s ATT × %(range)s″ range × (%(radius)s radius + 1/2) "
                "%(fire)s × 9/10 (heavy)"
            )
    if w.radius.value:
        return Text(note, **shots, radius=_shown(w.radius), fire=fire)
    return Text(note, **shots, fire=fire)


# The breakdown's words without values, made once: a breakdown is drawn on every save.
_SAID = {
    word: Text(word)
    for word in (
        gettext_noop("D = DEF×HIT"),
        gettext_noop("O = offence"),
        gettext_noop("V = value"),
        gettext_noop("B × morale × base × type × magic × move"),
        gettext_noop("Points per model"),
        gettext_noop("V rounded half-up to 0.1"),
        gettext_noop("OFF×ATT"),
        gettext_noop("Speed"),
        gettext_noop("OFF"),
        gettext_noop("not priced"),
        gettext_noop("speed + every missile weapon"),
        gettext_noop("OFF×ATT + extra melee attacks + the best missile weapon"),
        gettext_noop("B = base value"),
        gettext_noop("Morale"),
        gettext_noop("Base size"),
        gettext_noop("Type"),
        gettext_noop("Magic"),
        gettext_noop("Move"),
    )
}


def _explain(p: GemProfile, w: Workings, value: Fraction, each: Fraction) -> tuple[Line, ...]:
    note = Text(gettext_noop("%(defence)s × %(hit)s"), defence=_shown(p.def_), hit=_shown(p.hit))
    lines = [Line(_SAID["D = DEF×HIT"], _f(w.d), note)]
    if p.is_vehicle:
        lines += _vehicle_offence_lines(p, w)
    else:
        lines += _figure_offence_lines(p, w)
    lines += [Line(_SAID["O = offence"], _f(w.o), _offence_note(p)), _base_line(p, w)]
    lines += _modifier_lines(p)
    lines.append(Line(_SAID["V = value"], value, _SAID["B × morale × base × type × magic × move"]))
    lines.append(Line(_SAID["Points per model"], each, _SAID["V rounded half-up to 0.1"]))
    return tuple(lines)


def _figure_offence_lines(p: GemProfile, w: Workings) -> list[Line]:
    assert p.off is not None
    note = Text(gettext_noop("%(off)s × %(att)s"), off=_shown(p.off), att=_shown(p.att))
    lines = [Line(_SAID["OFF×ATT"], _f(w.attacks[0]), note)]
    for i, (m, value) in enumerate(zip(p.melee, w.attacks[1:], strict=True)):
        label = Text(gettext_noop("Melee: %(name)s"), name=_weapon_name(m.name, "extra attack", i))
        note = Text(gettext_noop("%(off)s OFF × %(att)s ATT"), off=_shown(m.off), att=_shown(m.att))
        lines.append(Line(label, _f(value), note))
    for i, (m, value) in enumerate(zip(p.missile, w.missiles, strict=True)):
        if i == w.best:
            counted = gettext_noop("%(weapon)s; counted: the best missile weapon")
        else:
            counted = gettext_noop("%(weapon)s; not counted")
        label = Text(gettext_noop("Missile: %(name)s"), name=_weapon_name(m.name, "weapon", i))
        lines.append(Line(label, _f(value), Text(counted, weapon=_missile_note(m))))
    return lines


def _vehicle_offence_lines(p: GemProfile, w: Workings) -> list[Line]:
    assert p.max_speed is not None and w.speed is not None
    note = Text(
        gettext_noop("%(max_speed)s max speed / 2 × %(hit)s HIT"),
        max_speed=_shown(p.max_speed),
        hit=_shown(p.hit),
    )
    lines = [Line(_SAID["Speed"], _f(w.speed), note)]
    if p.off is not None:
        note = Text(
            gettext_noop(
                "OFF %(off)s is for rams, close attacks and Table 1; a vehicle's offence comes "
                "from its speed and weapons"
            ),
            off=_shown(p.off),
        )
        lines.append(Line(_SAID["OFF"], _SAID["not priced"], note))
    for i, (m, value) in enumerate(zip(p.missile, w.missiles, strict=True)):
        label = Text(gettext_noop("Missile: %(name)s"), name=_weapon_name(m.name, "weapon", i))
        note = Text(
            gettext_noop("%(weapon)s; counted: fires with the rest"), weapon=_missile_note(m)
        )
        lines.append(Line(label, _f(value), note))
    return lines


def _offence_note(p: GemProfile) -> Text:
    if p.is_vehicle:
        return _SAID["speed + every missile weapon"]
    return _SAID["OFF×ATT + extra melee attacks + the best missile weapon"]


def _base_line(p: GemProfile, w: Workings) -> Line:
    if p.is_vehicle:
        note = Text(
            gettext_noop("1.3 × D + O + O × D / 12 + capacity / 9 (capacity %(capacity)s)"),
            capacity=_shown(p.capacity),
        )
    else:
        note = Text(gettext_noop("D + O + O × D / 16 + SIZ / 18 (SIZ %(siz)s)"), siz=_shown(p.siz))
    return Line(_SAID["B = base value"], _f(w.b), note)


def _modifier_lines(p: GemProfile) -> list[Line]:
    # The base size and the figure's type are the seed's words: they stay as printed.
    return [
        Line(
            _SAID["Morale"],
            _f(_morale(p)),
            Text(gettext_noop("1 + MOR / 50 (MOR %(mor)s)"), mor=_shown(p.mor)),
        ),
        Line(_SAID["Base size"], BASE_MOD[p.base], p.base),
        Line(_SAID["Type"], TYPE_MOD[p.type], p.type),
        Line(
            _SAID["Magic"],
            _f(_magic(p)),
            Text(gettext_noop("(MAG + 18) / 20 (MAG %(mag)s)"), mag=_shown(p.mag)),
        ),
        Line(
            _SAID["Move"],
            _f(_move(p)),
            Text(gettext_noop("(MOV + 16) / 20 (MOV %(mov)s)"), mov=_shown(p.mov)),
        ),
    ]


# ---------------------------------------------------------------- army rules


def facts(p: GemProfile) -> dict[str, object]:
    return {"leader": p.type == "leader"}


def army_checks(entries: Sequence[Entry], options: object) -> tuple[list[Issue], list[Issue]]:
    """GEM's optional leader rules: an army of several models wants a leader."""
    models = sum(e.quantity for e in entries)
    if models <= 1 or any(e.facts.get("leader") for e in entries):
        return [], []
    message = gettext_noop(
        "The army has no leader; GEM's optional leader rules give -4 morale out of range."
    )
    return [], [Issue("no-leader", Text(message))]


# ---------------------------------------------------------------- Table 1 odds
#
# Worked from the table for the Table 1 calculator, roster cards and charts: exact
# chances, never a simulation.

D20 = 20
NATURAL_HIT, NATURAL_MISS = 20, 1
TABLE_SIZE = len(TABLE_1)  # OFF and DEF both run 1-10
TABLE_RANGE = range(1, TABLE_SIZE + 1)
TEMPLATE_DIE = 6
TEMPLATE_DIRECT_HIT = 5  # an area weapon lands on target on 5-6 on a d6
TEMPLATE_MOVED = -1  # the only targeting modifier: firing after moving


@dataclass(frozen=True, slots=True)
class MissileModifier:
    slug: str
    label: str
    roll: int  # added to each d20 the weapon rolls
    group: str = ""  # at most one modifier of a group applies


# The seed's missile fire modifiers; they never apply to melee or to area weapons.
MISSILE_MODIFIERS = (
    MissileModifier("large-target", "Large target (40–50mm wide in the fire arc)", 1, "size"),
    MissileModifier(
        "extremely-large-target", "Extremely large target (wider than 50mm)", 2, "size"
    ),
    MissileModifier("small-target", "Small target", -1, "size"),
    MissileModifier("firer-moved", "Firer moved this turn", -2),
    MissileModifier("target-moved", "Target moved", -2),
    MissileModifier("over-half-range", "Beyond half range", -2),
    MissileModifier("soft-cover", "Target in soft cover", -2, "cover"),
    MissileModifier("hard-cover", "Target in hard cover", -4, "cover"),
)
MODIFIER_BY_SLUG = {m.slug: m for m in MISSILE_MODIFIERS}
# The size modifier a base usually earns, when that width faces the firer.
SIZE_BY_BASE = {"40mm": "large-target", "50mm": "large-target", "huge": "extremely-large-target"}
MODIFIER_GROUPS = {"size": "target size", "cover": "cover"}
FIRER_MOVED = "firer-moved"


def needed(off: int, def_: int) -> int:
    """Table 1: the d20 score an attack of OFF needs against DEF (both 1-10)."""
    if not (1 <= off <= TABLE_SIZE and 1 <= def_ <= TABLE_SIZE):
        raise ValueError(f"Table 1 runs from 1 to {TABLE_SIZE}: OFF {off}, DEF {def_}")
    return TABLE_1[off - 1][def_ - 1]


def hit_chance(off: int, def_: int, modifier: int = 0) -> Fraction:
    """Chance one d20 plus `modifier` meets Table 1's score.

    A natural 20 always hits and a natural 1 always misses; in the four marked cells only
    the natural roll decides and no modifier applies.
    """
    score = needed(off, def_)
    if (off, def_) in NATURAL_20_ONLY:
        return Fraction(1, D20)
    if (off, def_) in NATURAL_1_ONLY_MISSES:
        return Fraction(D20 - 1, D20)
    lowest = max(score - modifier, NATURAL_MISS + 1)  # the lowest face that hits
    faces = max(NATURAL_HIT - lowest, 0) + 1  # lowest..19, and the natural 20
    return Fraction(faces, D20)


def hit_chances(off: int, modifier: int = 0) -> tuple[Fraction, ...]:
    """One OFF against DEF 1-10: a row of Table 1 as chances."""
    return tuple(hit_chance(off, d, modifier) for d in TABLE_RANGE)


def missile_modifier(chosen: Iterable[str]) -> int:
    """The total of the chosen missile fire modifiers; unknown or clashing choices raise."""
    total, groups = 0, {}
    for slug in dict.fromkeys(chosen):
        if slug not in MODIFIER_BY_SLUG:
            raise ValueError(f"no missile modifier {slug!r}")
        m = MODIFIER_BY_SLUG[slug]
        if m.group and m.group in groups:
            raise ValueError(f"pick at most one {MODIFIER_GROUPS[m.group]}")
        groups[m.group] = slug
        total += m.roll
    return total


def direct_hit_chance(moved: bool = False) -> Fraction:
    """Chance an area weapon's template lands where aimed instead of deviating."""
    lowest = TEMPLATE_DIRECT_HIT - (TEMPLATE_MOVED if moved else 0)
    return Fraction(TEMPLATE_DIE - lowest + 1, TEMPLATE_DIE)


@dataclass(frozen=True, slots=True)
class Odds:
    """One attack against one DEF: the score it needs, its chance and the hits to expect."""

    name: str
    kind: str  # "melee" or "missile"
    off: Stat | int
    att: Fraction
    modifier: int = 0
    needed: int | None = None  # None: no Table 1 row (rolled or fractional OFF)
    chance: Fraction | None = None
    per_attack: Fraction | None = None  # ATT × chance, each time it attacks
    per_turn: Fraction | None = None  # averaged over the turns a slow weapon waits
    note: str = ""


def table_row(off: Stat | int) -> int | None:
    """OFF as a Table 1 row: a plain whole number 1-10, not a dice roll."""
    row = off if isinstance(off, int) else off.whole
    return row if row is not None and 1 <= row <= TABLE_SIZE else None


def _odds(
    name: str,
    kind: str,
    off: Stat | int,
    att: Fraction,
    def_: int,
    modifier: int = 0,
    interval: int = 1,
    note: str = "",
) -> Odds:
    row = table_row(off)
    if row is None:
        rolled = isinstance(off, Stat) and off.rolled
        if rolled:
            why = Text(gettext_noop("OFF %(off)s is rolled: look it up once rolled"), off=str(off))
        else:
            why = Text(gettext_noop("no Table 1 row for OFF %(off)s"), off=str(off))
        return Odds(name, kind, off, att, modifier, note=why)
    chance = hit_chance(row, def_, modifier)
    per_attack = att * chance
    return Odds(
        name,
        kind,
        off,
        att,
        modifier,
        needed(row, def_),
        chance,
        per_attack,
        per_attack / interval,
        note,
    )


def _missile_odds(w: Missile, i: int, def_: int, chosen: tuple[str, ...]) -> Odds:
    name = _weapon_name(w.name, "weapon", i)
    interval = FIRE_INTERVAL[w.fire]
    if w.heavy and FIRER_MOVED in chosen:
        note = Text(gettext_noop("heavy: cannot fire after moving"))
        return Odds(name, "missile", w.off, w.att.value, note=note)
    if w.radius.value:
        moved = FIRER_MOVED in chosen
        note = Text(
            gettext_noop(
                "area weapon: per figure under the template, no missile modifiers; lands on "
                "target %(chance)s of the time"
            ),
            chance=direct_hit_chance(moved),
        )
        return _odds(name, "missile", w.off, w.att.value, def_, 0, interval, note)
    modifier = missile_modifier(chosen)
    return _odds(name, "missile", w.off, w.att.value, def_, modifier, interval)


def attack_odds(p: GemProfile, def_: int, chosen: Iterable[str] = ()) -> tuple[Odds, ...]:
    """Every attack of a profile against DEF: melee as it stands, missiles with the chosen
    modifiers (a figure fires one of its missile weapons a turn, a vehicle all of them)."""
    picked = tuple(chosen)
    missile_modifier(picked)  # refuse clashing choices even when nothing fires
    lines = []
    if p.off is not None:
        basic = Text(gettext_noop("Basic attack"))
        lines.append(_odds(basic, "melee", p.off, p.att.value, def_))
    for i, m in enumerate(p.melee):
        lines.append(
            _odds(_weapon_name(m.name, "extra attack", i), "melee", m.off, m.att.value, def_)
        )
    lines += [_missile_odds(w, i, def_, picked) for i, w in enumerate(p.missile)]
    return tuple(lines)


def typed_odds(off: int, att: Fraction, def_: int, chosen: Iterable[str] = ()) -> tuple[Odds, ...]:
    """A typed OFF and ATT, struck in melee and shot as a single-target missile."""
    modifier = missile_modifier(chosen)
    return (
        _odds(Text(gettext_noop("In melee")), "melee", off, att, def_),
        _odds(Text(gettext_noop("As a missile")), "missile", off, att, def_, modifier),
    )


def melee_per_turn(odds: Iterable[Odds]) -> Fraction | None:
    """Hits expected from all melee attacks together (they all strike each melee segment)."""
    melee = [o for o in odds if o.kind == "melee"]
    if not melee or any(o.per_turn is None for o in melee):
        return None
    return sum((o.per_turn for o in melee if o.per_turn is not None), Fraction(0))


# ---------------------------------------------------------------- Gemini handling aids

DANGEROUS_SPEED = 6  # inches a move; faster vehicles roll two dice
TERRAIN_DIE = 6


def road_speed(p: GemProfile) -> Fraction | None:
    """Battle speed on roads: +6″ for wheeled and tracked vehicles."""
    if p.battle_speed is None:
        return None
    bonus = ROAD_BONUS if p.vehicle_class in ROAD_CLASSES else 0
    return p.battle_speed.value + bonus


def turn_radius(trr: Fraction, speed: Fraction) -> Fraction:
    return trr * speed


def largest_turn(trr: Fraction) -> Fraction:
    """Degrees a vehicle can turn in one move along its turn circle."""
    return TURN_DEGREES / trr


def reverse_limit(max_speed: Fraction) -> Fraction:
    return max_speed / 2


def movement_after_turns(speed: Fraction, turns: int) -> Fraction:
    """Inches left after `turns` 45° fine-manoeuvre turns."""
    return max(speed - TURN_COST * turns, Fraction(0))


@dataclass(frozen=True, slots=True)
class TerrainRisk:
    """A dangerous terrain test: chance the vehicle is immobilised, or destroyed outright."""

    immobilised: Fraction
    destroyed: Fraction

    @property
    def stopped(self) -> Fraction:
        return self.immobilised + self.destroyed


def dangerous_terrain(speed: Fraction) -> TerrainRisk:
    """Up to 6″ one d6, a 1 immobilises; faster, two d6: a 1 on either immobilises, two destroy."""
    faces = range(1, TERRAIN_DIE + 1)
    if speed <= DANGEROUS_SPEED:
        return TerrainRisk(Fraction(1, TERRAIN_DIE), Fraction(0))
    rolls = [(a, b) for a in faces for b in faces]
    ones = [(a, b).count(1) for a, b in rolls]
    return TerrainRisk(Fraction(ones.count(1), len(rolls)), Fraction(ones.count(2), len(rolls)))
