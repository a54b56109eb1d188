"""The muster-army/1 file format (SPEC 4): load with field-path errors, and dump back."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction

from points import systems
from points.errors import ArmyFileError
from points.fields import at, index, items, known_keys, obj, required, text, whole
from points.model import JSON_PLACES, Army, Unit
from points.numbers import decimal_places, parse_number, to_number
from points.systems import SYSTEMS

FORMAT = "muster-army/1"
MAX_FILE_BYTES = 1_000_000  # an army file, uploaded or POSTed to /api/price/
FIELDS = ("format", "name", "system", "points_limit", "options", "units")
UNIT_FIELDS = ("name", "quantity", "profile")
MAX_UNITS = 1000
MAX_QUANTITY = 1000
MAX_POINTS_LIMIT = 1_000_000
LIMIT_PLACES = JSON_PLACES  # so the limit is written back exactly as a JSON number


def load(data: object) -> Army:
    """Read and validate an army; the first problem raises ArmyFileError naming its field."""
    if not isinstance(data, dict):
        raise ArmyFileError("", "an army file must be a JSON object")
    data = obj(data, "")
    known_keys(data, FIELDS, "")
    if data.get("format", FORMAT) != FORMAT:
        raise ArmyFileError("format", f'must be "{FORMAT}"')
    name = text(required(data, "name", ""), "name")
    system_key = required(data, "system", "")
    if not isinstance(system_key, str) or system_key not in SYSTEMS:
        raise ArmyFileError("system", f"must be one of {', '.join(SYSTEMS)}")
    system = SYSTEMS[system_key]
    limit = _points_limit(data.get("points_limit"))
    options = system.parse_options(data.get("options", {}), "options")
    entries = items(required(data, "units", ""), "units", MAX_UNITS)
    units = tuple(_unit(entry, index("units", i), system_key) for i, entry in enumerate(entries))
    return Army(name, system_key, limit, options, units)


def _points_limit(raw: object) -> Fraction | None:
    if raw is None:
        return None
    if isinstance(raw, str):
        raise ArmyFileError("points_limit", "must be a number")
    limit = parse_number(raw, "points_limit")
    if not 0 <= limit <= MAX_POINTS_LIMIT:
        raise ArmyFileError("points_limit", f"must be between 0 and {MAX_POINTS_LIMIT}")
    places = decimal_places(limit)
    if places is None or places > LIMIT_PLACES:
        raise ArmyFileError("points_limit", f"must have at most {LIMIT_PLACES} decimal places")
    return limit


# Loaded units by (system, unit as JSON text). Loading is pure and units are frozen, so
# an army re-priced on every keystroke loads only the unit that changed, and gets the
# same Unit objects back for the rest (which systems.py's pricing memo relies on).
# Bounded in count and in size: a unit's JSON over MAX_REMEMBERED_TEXT (a builder unit is
# 100-300 characters; a hostile one sent to /api/price/ can be 40 KB) is loaded afresh
# every time, so the memo stays a few MB per process. When full it starts again.
# Stored units (load_stored) share the memo, keyed by (system, name, quantity, profile text).
_LOADED: dict[tuple, Unit] = {}
LOADED_MEMO_SIZE = 2048
MAX_REMEMBERED_TEXT = 2048


def _unit(raw: object, path: str, system_key: str) -> Unit:
    try:
        text = json.dumps(raw, allow_nan=False)
    except (TypeError, ValueError):
        return _load_unit(raw, path, system_key)
    if len(text) > MAX_REMEMBERED_TEXT:
        return _load_unit(raw, path, system_key)
    key = (system_key, text)
    unit = _LOADED.get(key)
    if unit is None:
        # A bad unit raises here with its own field path, and is never remembered.
        unit = _load_unit(raw, path, system_key)
        _remember(key, unit)
    return unit


def load_stored(head: dict, units: Iterable[tuple[str, int, str]]) -> Army:
    """An army whose units come as a database keeps them: (name, quantity, profile as JSON
    text). Loads as load() does, but a unit seen before is found by its text, so pricing a
    stored army neither decodes nor re-encodes the profiles of units that did not change.
    """
    army = load({**head, "units": []})
    system, found = army.system, _LOADED.get
    # A 200-unit army re-priced on a save finds all but one here: no call per unit.
    loaded = [found((system, *entry)) for entry in units]
    if not all(loaded):  # a Unit is always true
        loaded = [
            unit or _stored_unit(entry, i, system)
            for i, (unit, entry) in enumerate(zip(loaded, units, strict=True))
        ]
    return replace(army, units=tuple(loaded))


def _stored_unit(entry: tuple[str, int, str], i: int, system_key: str) -> Unit:
    name, quantity, profile = entry
    key = (system_key, name, quantity, profile)
    unit = _LOADED.get(key)
    if unit is None:
        path = index("units", i)
        raw = _parse_json(profile, at(path, "profile"))
        unit = _load_unit({"name": name, "quantity": quantity, "profile": raw}, path, system_key)
        if len(profile) <= MAX_REMEMBERED_TEXT:
            _remember(key, unit)
    return unit


def _remember(key: tuple, unit: Unit) -> None:
    if len(_LOADED) >= LOADED_MEMO_SIZE:
        _LOADED.clear()
        systems.forget_units()
    _LOADED[key] = unit
    systems.remember_unit(unit)


def _load_unit(raw: object, path: str, system_key: str) -> Unit:
    data = obj(raw, path)
    known_keys(data, UNIT_FIELDS, path)
    name = text(required(data, "name", path), at(path, "name"))
    quantity = whole(data.get("quantity", 1), at(path, "quantity"), 1, MAX_QUANTITY)
    profile = SYSTEMS[system_key].parse_profile(
        required(data, "profile", path), at(path, "profile")
    )
    return Unit(name, quantity, profile)


def loads(text_: str | bytes) -> Army:
    """Parse JSON text, then load it; bad JSON is an ArmyFileError too."""
    return load(_parse_json(text_, ""))


def _parse_json(text_: str | bytes, path: str) -> object:
    try:
        return json.loads(text_, parse_constant=_refuse_constant)
    except RecursionError:
        raise ArmyFileError(path, "not valid JSON: nested too deeply") from None
    except (ValueError, TypeError) as e:
        raise ArmyFileError(path, f"not valid JSON: {_json_problem(e)}") from None


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def _json_problem(e: Exception) -> str:
    if isinstance(e, json.JSONDecodeError):
        return f"{e.msg} at line {e.lineno} column {e.colno}"
    if "integer string conversion" in str(e):
        return "a number is too long"
    return str(e).splitlines()[0] if str(e) else type(e).__name__


def dump(army: Army) -> dict[str, object]:
    """The file form of an army; load(dump(army)) == army."""
    system = SYSTEMS[army.system]
    out: dict[str, object] = {"format": FORMAT, "name": army.name, "system": army.system}
    if army.points_limit is not None:
        out["points_limit"] = to_number(army.points_limit)
    out["options"] = system.dump_options(army.options)
    out["units"] = [
        {"name": u.name, "quantity": u.quantity, "profile": system.dump_profile(u.profile)}
        for u in army.units
    ]
    return out


def dumps(army: Army) -> str:
    return json.dumps(dump(army), ensure_ascii=False, indent=2)
