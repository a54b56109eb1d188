"""Unit editor fields for each system, and the bridge between form fields and the
engine's profile dict. The engine is the only validator: a form turns what the player
typed into a profile, asks the engine, and puts any complaint beside the field it names."""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import points
from points import d10, gem, goms, vsgmr
from points.fields import MAX_NAME, fmt
from points.model import Stat
from points.numbers import decimal_text
from rules.words import say


@dataclass(frozen=True)
class Field:
    """One editor field: `key` in the profile, how it is typed, and how it is shown."""

    key: str
    label: str
    kind: str  # stat | choice | bool | int | text | lines | multi
    choices: tuple[tuple[str, str], ...] = ()
    help: str = ""
    group: str = "main"  # main | vehicle | options
    most: int = MAX_NAME  # characters a text box takes; the engine checks each value's own
    # The unit types/kinds (Layout.switch) the field is for: `only` those, or all but `not_for`.
    only: tuple[str, ...] = ()
    not_for: tuple[str, ...] = ()

    def applies(self, switch: str | None) -> bool:
        if self.only:
            return switch in self.only
        return switch not in self.not_for


@dataclass(frozen=True)
class Rows:
    """A repeating group in the profile (GEM melee and missile weapons, homebrew traits)."""

    key: str
    label: str
    fields: tuple[Field, ...]
    most: int  # rows the editor offers: as many as the file format allows
    not_for: tuple[str, ...] = ()  # unit types/kinds that cannot have any

    def applies(self, switch: str | None) -> bool:
        return switch not in self.not_for


@dataclass(frozen=True)
class Layout:
    fields: tuple[Field, ...]
    rows: tuple[Rows, ...] = ()
    groups: dict[str, str] = field(default_factory=dict)
    # The field that says what a unit is (GEM type, VSGMR and G.O.M.S. kind): which other
    # fields the editor shows follows from it (Field.applies).
    switch: str = ""


def _pairs(values) -> tuple[tuple[str, str], ...]:
    return tuple((v, v.replace("-", " ").capitalize()) for v in values)


def _cost(x) -> str:
    return decimal_text(x) or str(x)


def _vsgmr_powers() -> tuple[Field, ...]:
    out = []
    for slug, power in vsgmr.SUPER_POWERS.items():
        tiers = tuple(
            (tier, f"{tier.capitalize()} ({vsgmr.tier_effect(slug, tier)}, +{_cost(cost)})")
            for tier, cost in power.cost.items()
        )
        note = f"Bigger die for {power.roll}" + (" (guys only)" if power.guys_only else "")
        out.append(
            Field(f"power:{slug}", power.name, "choice", (("", "—"), *tiers), note, "powers")
        )
    return tuple(out)


def _span(low: Fraction | int, high: Fraction | int) -> str:
    """A stat's allowed values as the editor shows them: 1–10, −20 to 20."""
    if low < 0:
        return f"{fmt(Fraction(low)).replace('-', '−')} to {fmt(Fraction(high))}"
    return f"{fmt(Fraction(low))}–{fmt(Fraction(high))}"


def _help(*parts: str, only: str = "") -> str:
    return ", ".join(part for part in parts if part) + (f" ({only})" if only else "")


# What a GEM stat is when left empty: the engine's profile defaults.
_GEM_DEFAULTS = {
    f.name: f.default for f in dataclasses.fields(gem.GemProfile) if isinstance(f.default, Stat)
}


def _gem_help(key: str, what: str = "", only: str = "") -> str:
    """A GEM stat's help from the engine: its range (when bounded) and its default."""
    allowed = gem.STATS.get(key) or gem.VEHICLE_STATS[key]
    span = ""
    if allowed.low is not None and allowed.high is not None:
        span = _span(allowed.low, allowed.high)
    default = _GEM_DEFAULTS.get(key)
    return _help(what, span, "" if default is None else f"default {default}", only=only)


D10_LABELS = {
    "combat_skill": "Combat Skill",
    "willpower": "Willpower",
    "shooting": "Shooting",
    "cqc": "CQC",
    "physique": "Physique",
    "agility": "Agility",
}

D10_SKILL_HELP = _help(_span(*d10.SKILL_RANGE), f"default {d10.DEFAULT_SKILL}")

VEHICLE = ("vehicle",)

LAYOUTS: dict[str, Layout] = {
    "gem": Layout(
        fields=(
            Field("type", "Type", "choice", _pairs(gem.TYPES)),
            Field("base", "Base", "choice", _pairs(gem.BASES)),
            Field("off", "OFF", "stat", help=_gem_help("off", only="optional for vehicles")),
            Field("def", "DEF", "stat", help=_gem_help("def")),
            Field("att", "ATT", "stat", help=_gem_help("att"), not_for=VEHICLE),
            Field("hit", "HIT", "stat", help=_gem_help("hit")),
            Field("mor", "MOR", "stat", help=_gem_help("mor")),
            Field("mag", "MAG", "stat", help=_gem_help("mag")),
            Field("mov", "MOV", "stat", help=_gem_help("mov")),
            Field(
                "siz", "SIZ", "stat", help=_gem_help("siz", "models it stands for"), not_for=VEHICLE
            ),
            Field("max_speed", "Max speed", "stat", help="required", group="vehicle", only=VEHICLE),
            Field(
                "capacity",
                "Capacity",
                "stat",
                help=_gem_help("capacity"),
                group="vehicle",
                only=VEHICLE,
            ),
            Field("acc", "Acc", "stat", group="vehicle", only=VEHICLE),
            Field("dec", "Dec", "stat", group="vehicle", only=VEHICLE),
            Field("battle_speed", "Battle speed", "stat", group="vehicle", only=VEHICLE),
            Field(
                "vehicle_class",
                "Vehicle class",
                "choice",
                (("", "—"), *_pairs(gem.VEHICLE_CLASSES)),
                group="vehicle",
                only=VEHICLE,
            ),
            Field("trr", "TRR", "stat", help="turn radius ratio", group="vehicle", only=VEHICLE),
            Field("armour_front", "Armour front", "int", group="vehicle", only=VEHICLE),
            Field("armour_side", "Armour side", "int", group="vehicle", only=VEHICLE),
            Field("armour_rear", "Armour rear", "int", group="vehicle", only=VEHICLE),
            Field("toughness", "Toughness", "stat", group="vehicle", only=VEHICLE),
            Field("save", "Save", "int", help="e.g. 3 for 3+", group="vehicle", only=VEHICLE),
            Field("hull_points", "Hull points", "int", group="vehicle", only=VEHICLE),
            Field("firing_ports", "Firing ports", "int", group="vehicle", only=VEHICLE),
            Field("open_topped", "Open-topped", "bool", group="vehicle", only=VEHICLE),
        ),
        rows=(
            Rows(
                "melee",
                "Extra melee attacks",
                (
                    Field("name", "Name", "text"),
                    Field("off", "OFF", "stat"),
                    Field("att", "ATT", "stat"),
                ),
                gem.MAX_ATTACKS,
                not_for=VEHICLE,
            ),
            Rows(
                "missile",
                "Missile weapons",
                (
                    Field("name", "Name", "text"),
                    Field("off", "OFF", "stat"),
                    Field("att", "ATT", "stat"),
                    Field("range", "Range", "stat"),
                    Field("radius", "Radius", "stat"),
                    Field("fire", "Fires", "choice", _pairs(gem.FIRES)),
                    Field("heavy", "Heavy", "bool"),
                ),
                gem.MAX_ATTACKS,
            ),
        ),
        groups={"main": "Stat line", "vehicle": "Vehicle"},
        switch="type",
    ),
    "vsgmr": Layout(
        fields=(
            Field("kind", "Kind", "choice", _pairs(vsgmr.KINDS)),
            Field(
                "flavor", "Flavour", "choice", (("", "—"), *_pairs(vsgmr.FLAVORS)), only=("guy",)
            ),
            Field("armor", "Armour", "choice", (("", "Default"), *_pairs(vsgmr.ARMORS))),
            Field("commander", "Commander", "bool"),
            Field("distance_attack", "Distance attack (+1)", "bool"),
            Field("automatic_fire", "Automatic fire (+1)", "bool"),
            Field("large", "Large (carries one more guy)", "bool", only=("cavalry",)),
            Field(
                "support_roll",
                "Support roll",
                "choice",
                (("", "—"), *_pairs(vsgmr.SUPPORT_ROLLS)),
                "for the Support trait",
            ),
            Field(
                "traits",
                "Traits",
                "multi",
                tuple((slug, f"{t.name} (+{_cost(t.cost)})") for slug, t in vsgmr.TRAITS.items()),
                group="traits",
            ),
            *_vsgmr_powers(),
        ),
        rows=(
            Rows(
                "homebrew",
                "Homebrew traits",
                (
                    Field("name", "Name", "text", help=f"Up to {vsgmr.MAX_TRAIT_NAME} characters."),
                    Field("cost", "Cost", "stat"),
                    Field("text", "What it does", "text"),
                ),
                vsgmr.MAX_TRAITS,
            ),
        ),
        groups={"main": "Figure", "traits": "Traits", "powers": "Super powers"},
        switch="kind",
    ),
    "goms": Layout(
        fields=(
            Field("kind", "Kind", "choice", tuple(goms.KIND_NAMES.items())),
            Field(
                "vehicle_class",
                "Vehicle class",
                "choice",
                (("", "—"), *_pairs(goms.VEHICLE_CLASSES)),
                only=VEHICLE,
            ),
            Field(
                "morale",
                "Morale",
                "choice",
                (
                    ("", "Default"),
                    *((k, f"{goms.MORALE_NAMES[k]} ({v})") for k, v in goms.MORALE.items()),
                ),
                not_for=VEHICLE,
            ),
            Field("men", "Men", "int", not_for=VEHICLE),
        ),
        switch="kind",
    ),
    "d10": Layout(
        fields=(
            *(Field(key, D10_LABELS[key], "stat", help=D10_SKILL_HELP) for key in d10.SKILLS),
            Field(
                "defence",
                "Defence",
                "stat",
                help=_help("target number", f"default {d10.DEFAULT_DEFENCE}"),
            ),
            Field("move", "Move", "stat", help=_help("inches", f"default {d10.DEFAULT_MOVE}")),
            Field("leader", "Leader (2 force points)", "bool"),
            Field("special_vehicle", "Special vehicle (2 force points)", "bool"),
            # One a line: a weapon's name may hold a comma ("Rifle, scoped").
            Field(
                "weapons",
                "Weapons",
                "lines",
                help="one a line",
                most=d10.MAX_WEAPONS * (d10.MAX_WEAPON_NAME + len("\r\n")),
            ),
        ),
    ),
}


def typed(text: str) -> int | str:
    """What the player typed, as the file format keeps it: 4 stays a number, 2d6+8 text."""
    text = text.strip()
    return int(text) if re.fullmatch(r"-?\d{1,9}", text) else text


def shown(f: Field, raw: object) -> object:
    """A stored value as its form field shows it (and posts it back when left alone)."""
    if f.kind == "bool":
        return bool(raw)
    if f.kind == "lines" and isinstance(raw, list):
        return "\n".join(map(str, raw))
    return str(raw)


def _shown_missing(f: Field) -> str:
    """What a field shows when the profile leaves it out: a select with no empty choice
    shows its first (a weapon fires "every turn"), any other field nothing."""
    return f.choices[0][0] if f.kind == "choice" and f.choices else ""


def _value(f: Field, value: object, stored: Mapping[str, Any] | None) -> object | None:
    """One form value as the profile keeps it, or None when left empty.

    A value left as the form showed it keeps the stored one exactly (`stored`: what the
    form was opened on, None for something new): 5.5 stays a number and "4" text,
    " Bow " keeps its spaces, a value left out stays out. Saving a unit unchanged must
    give it back unchanged (SPEC 4), and a text box cannot tell 5.5 from "5.5"."""
    if f.kind == "bool":
        if value:
            return True
        # An unticked box the unit stored as false stays false, said aloud as written.
        return False if stored is not None and stored.get(f.key) is False else None
    if stored is not None:
        if f.key in stored:
            if value == shown(f, stored[f.key]):
                return stored[f.key]
        elif value == _shown_missing(f):
            return None
    if not isinstance(value, str) or not value.strip():
        return None
    if f.kind in ("stat", "int"):
        return typed(value)
    if f.kind == "lines":
        return [line for line in value.splitlines() if line.strip()]
    return value


def row_entry(
    fields: tuple[Field, ...], values: Mapping[str, Any], stored: Mapping[str, Any] | None = None
) -> dict:
    """One row's form values (a weapon, a homebrew trait) as the file format keeps it:
    a ticked box is True, a stat is typed(), anything left empty is left out, and a value
    left as `stored` showed it is kept as stored."""
    entry: dict = {}
    for f in fields:
        value = _value(f, values.get(f.key), stored)
        if value is not None:
            entry[f.key] = value
    return entry


def _stored_rows(group: Rows, profile: Mapping[str, Any]) -> list[dict]:
    """The stored entries a repeating group shows, in order: homebrew traits are the
    objects among a VSGMR profile's traits."""
    if group.key == "homebrew":
        return [t for t in profile.get("traits", []) if isinstance(t, dict)]
    return list(profile.get(group.key, []))


def profile_from_form(
    system: str, data: dict[str, object], stored: Mapping[str, Any] | None = None
) -> tuple[dict, dict[str, str]]:
    """Build a profile dict from cleaned form values; also map profile paths to form fields.

    `stored` is the profile the form was opened on: what the player left alone keeps its
    stored spelling, and traits their stored order and repeats."""
    layout = LAYOUTS[system]
    profile: dict = {}
    paths: dict[str, str] = {}
    powers: dict[str, str] = {}
    for f in layout.fields:
        value = data.get(f.key)
        if f.key.startswith("power:"):
            if value:
                powers[f.key.removeprefix("power:")] = value
                paths[f"super_powers.{f.key.removeprefix('power:')}"] = f.key
            continue
        paths[f.key] = f.key
        if f.kind == "multi":
            continue  # built-in traits: with the homebrew ones, below
        found = _value(f, value, stored)
        if found is not None:
            profile[f.key] = found
    was = stored or {}
    if powers:
        # Powers the unit had stay where they were; new ones follow.
        had = [p for p in was.get("super_powers", {}) if p in powers]
        profile["super_powers"] = {p: powers[p] for p in [*had, *powers] if p in powers}
    elif was.get("super_powers") == {}:
        profile["super_powers"] = {}  # an empty map, as written
    for group in layout.rows:
        before = _stored_rows(group, was)
        rows: dict[int, dict] = {}
        for i, row in enumerate(data.get(group.key) or []):
            entry = row_entry(group.fields, row, before[i] if i < len(before) else None)
            if any(k != "heavy" and k != "fire" for k in entry):
                rows[i] = entry
        if group.key == "homebrew":
            traits = _traits(data.get("traits") or [], rows, was.get("traits", []))
            for k, (_, i) in enumerate(traits):
                if i is not None:
                    for f in group.fields:
                        paths[f"traits[{k}].{f.key}"] = f"homebrew-{i}-{f.key}"
                    paths[f"traits[{k}]"] = f"homebrew-{i}-name"
            if traits:
                profile["traits"] = [trait for trait, _ in traits]
        elif rows:
            for k, i in enumerate(rows):
                for f in group.fields:
                    paths[f"{group.key}[{k}].{f.key}"] = f"{group.key}-{i}-{f.key}"
            profile[group.key] = list(rows.values())
    # A list the unit stored empty, still in the editor and still empty, stays as written.
    for key, value in was.items():
        if value == [] and key not in profile and key in data:
            profile[key] = []
    return profile, paths


def _traits(
    ticked: list[str], rows: dict[int, dict], stored: list[object]
) -> list[tuple[object, int | None]]:
    """A VSGMR figure's traits, each with the homebrew row it came from (None: built-in).

    The stored list keeps its order and its repeats: a box still ticked keeps every copy
    of its trait (a repeat is the engine's duplicate-trait error, shown, not merged away),
    and homebrew row i stands where the i-th stored homebrew trait stood. Newly ticked
    traits and new rows follow."""
    out: list[tuple[object, int | None]] = []
    brewed = 0
    for trait in stored:
        if isinstance(trait, str):
            if trait in ticked:
                out.append((trait, None))
            continue
        if brewed in rows:
            out.append((rows[brewed], brewed))
        brewed += 1
    out += [(slug, None) for slug in ticked if slug not in stored]
    out += [(entry, i) for i, entry in rows.items() if i >= brewed]
    return out


def form_initial(system: str, profile: dict) -> tuple[dict[str, object], dict[str, list[dict]]]:
    """The reverse: a stored profile as initial form values and rows."""
    initial: dict[str, object] = {}
    layout = LAYOUTS[system]
    for f in layout.fields:
        if f.key.startswith("power:"):
            initial[f.key] = (profile.get("super_powers") or {}).get(
                f.key.removeprefix("power:"), ""
            )
        elif f.kind == "multi":
            initial[f.key] = [t for t in profile.get(f.key, []) if isinstance(t, str)]
        elif f.key in profile:
            initial[f.key] = shown(f, profile[f.key])
    rows = {
        group.key: [
            {f.key: shown(f, r.get(f.key, False if f.kind == "bool" else "")) for f in group.fields}
            for r in _stored_rows(group, profile)
        ]
        for group in layout.rows
    }
    return initial, rows


def engine_errors(system: str, profile: dict, paths: dict[str, str]) -> dict[str, str]:
    """Every complaint the engine has about a profile, keyed by form field.

    The engine stops at the first problem; set that value aside and ask again, so the
    player sees all of them at once rather than one per save.
    """
    parse = points.SYSTEMS[system].parse_profile
    data = copy.deepcopy(profile)
    errors: dict[str, str] = {}
    stand_ins: dict[str, int] = {}  # path: how many of STAND_INS it has been given
    for _ in range((1 + len(STAND_INS)) * len(paths) + 4):
        try:
            parse(data, "")
            break
        except points.ArmyFileError as exc:
            target = _field_for(exc.path, paths)
            if target not in errors:
                errors[target] = say(exc.message)
                if _remove(data, exc.path):
                    continue
            # A required value cannot just be dropped: stand in each harmless value once.
            given = stand_ins.get(exc.path, 0)
            if given == len(STAND_INS) or not _set(data, exc.path, STAND_INS[given]):
                break
            stand_ins[exc.path] = given + 1
    return errors


# What stands in for a required value set aside: a number, or else a short name.
STAND_INS = (1, "x")


def _field_for(path: str, paths: dict[str, str]) -> str:
    while path:
        if path in paths:
            return paths[path]
        path = re.sub(r"(\.[^.\[]+|\[\d+\])$", "", path)
    return "__all__"


def _set(data: dict, path: str, value: object) -> bool:
    parent, last = _parent(data, path)
    if not isinstance(parent, dict) or last.startswith("["):
        return False
    parent[last] = value
    return True


def _parent(data: dict, path: str) -> tuple[object, str]:
    parts = re.findall(r"[^.\[\]]+|\[\d+\]", path)
    node: object = data
    for part in parts[:-1]:
        try:
            node = node[int(part[1:-1])] if part.startswith("[") else node[part]  # type: ignore[index]
        except (KeyError, IndexError, TypeError, ValueError):
            return None, ""
    return node, parts[-1] if parts else ""


def _remove(data: dict, path: str) -> bool:
    """Drop the item at `path` so the next parse can look past it; False if it isn't there."""
    parent, last = _parent(data, path)
    try:
        if last.startswith("[") and isinstance(parent, list):
            del parent[int(last[1:-1])]
        elif isinstance(parent, dict) and last in parent:
            del parent[last]
        else:
            return False
    except IndexError:
        return False
    return True


DEFAULT_PROFILES = {
    "gem": {"type": "skirmisher", "base": "25mm", "off": 3, "def": 3},
    "vsgmr": {"kind": "guy", "flavor": "troop"},
    "goms": {"kind": "rifle-section"},
    "d10": {},
}


def group_label(system: str, profile: Mapping[str, Any]) -> str:
    """What a unit is, as the builder's list groups it: its type or kind's name."""
    layout = LAYOUTS[system]
    if not layout.switch:
        return "Units"
    value = profile.get(layout.switch)
    f = next(f for f in layout.fields if f.key == layout.switch)
    return dict(f.choices).get(value, str(value or "Other"))
