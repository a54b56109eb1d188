"""The bridge between the unit editor's form fields, as each system's layout describes them
(rules/systems/<key>.py), and the engine's profile dict. The engine is the only validator:
a form turns what the player typed into a profile, asks the engine, and puts any complaint
beside the field it names."""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

import points
from rules.layout import Field, Layout, Rows
from rules.systems import SYSTEM_PAGES
from rules.words import say


def system_layout(system: str) -> Layout:
    """The unit editor's layout of a system, as its module under rules/systems/ holds it."""
    return SYSTEM_PAGES[system].layout


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
    layout = system_layout(system)
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
    layout = system_layout(system)
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


def group_label(system: str, profile: Mapping[str, Any]) -> str:
    """What a unit is, as the builder's list groups it: its type or kind's name."""
    layout = system_layout(system)
    if not layout.switch:
        return "Units"
    value = profile.get(layout.switch)
    f = next(f for f in layout.fields if f.key == layout.switch)
    return dict(f.choices).get(value, str(value or "Other"))
