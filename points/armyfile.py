"""The muster-army/1 file format (SPEC 4): load with field-path errors, and dump back."""

from __future__ import annotations

import json
from fractions import Fraction

from points.errors import ArmyFileError
from points.fields import at, index, items, known_keys, obj, one_of, required, text, whole
from points.messages import Text, gettext_noop
from points.model import JSON_PLACES, Army, Unit
from points.numbers import decimal_places, parse_number, to_number
from points.systems import SYSTEMS

FORMAT = "muster-army/1"
MAX_FILE_BYTES = 1_000_000  # an army file, uploaded or POSTed to /api/price/
FIELDS = ("format", "name", "system", "rules_version", "points_limit", "options", "units")
MAX_VERSION = 40
UNIT_FIELDS = ("name", "quantity", "profile")
MAX_UNITS = 1000
MAX_QUANTITY = 1000
MAX_POINTS_LIMIT = 1_000_000
LIMIT_PLACES = JSON_PLACES  # so the limit is written back exactly as a JSON number


def load(data: object) -> Army:
    """Read and validate an army; the first problem raises ArmyFileError naming its field."""
    if not isinstance(data, dict):
        raise ArmyFileError("", Text(gettext_noop("an army file must be a JSON object")))
    data = obj(data, "")
    known_keys(data, FIELDS, "")
    if data.get("format", FORMAT) != FORMAT:
        raise ArmyFileError("format", Text(gettext_noop('must be "%(format)s"'), format=FORMAT))
    name = text(required(data, "name", ""), "name")
    system_key = required(data, "system", "")
    if not isinstance(system_key, str) or system_key not in SYSTEMS:
        raise ArmyFileError("system", one_of(SYSTEMS))
    system = SYSTEMS[system_key]
    limit = _points_limit(data.get("points_limit"))
    options = system.parse_options(data.get("options", {}), "options")
    entries = items(required(data, "units", ""), "units", MAX_UNITS)
    units = tuple(_unit(entry, index("units", i), system_key) for i, entry in enumerate(entries))
    version = data.get("rules_version")
    if version is not None:
        version = text(version, "rules_version")
        if not version or len(version) > MAX_VERSION:
            raise ArmyFileError(
                "rules_version",
                Text(gettext_noop("must be 1 to %(most)s characters"), most=MAX_VERSION),
            )
    return Army(name, system_key, limit, options, units, version)


def _points_limit(raw: object) -> Fraction | None:
    if raw is None:
        return None
    if isinstance(raw, str):
        raise ArmyFileError("points_limit", Text(gettext_noop("must be a number")))
    limit = parse_number(raw, "points_limit")
    if not 0 <= limit <= MAX_POINTS_LIMIT:
        raise ArmyFileError(
            "points_limit",
            Text(
                gettext_noop("must be between %(low)s and %(high)s"),
                low=0,
                high=MAX_POINTS_LIMIT,
            ),
        )
    places = decimal_places(limit)
    if places is None or places > LIMIT_PLACES:
        raise ArmyFileError(
            "points_limit",
            Text(gettext_noop("must have at most %(most)s decimal places"), most=LIMIT_PLACES),
        )
    return limit


def _unit(raw: object, path: str, system_key: str) -> Unit:
    return _load_unit(raw, path, system_key)


def load_unit(name: str, quantity: int, profile: object, system_key: str) -> Unit:
    """One unit, validated as in a file (field paths start at `profile`)."""
    return _load_unit({"name": name, "quantity": quantity, "profile": profile}, "", system_key)


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
        raise ArmyFileError(path, Text(gettext_noop("not valid JSON: nested too deeply"))) from None
    except (ValueError, TypeError) as e:
        raise ArmyFileError(
            path, Text(gettext_noop("not valid JSON: %(problem)s"), problem=_json_problem(e))
        ) from None


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def _json_problem(e: Exception) -> str:
    # Python's own words about the JSON (e.msg) stay as Python says them.
    if isinstance(e, json.JSONDecodeError):
        return Text(
            gettext_noop("%(problem)s at line %(line)s column %(column)s"),
            problem=e.msg,
            line=e.lineno,
            column=e.colno,
        )
    if "integer string conversion" in str(e):
        return Text(gettext_noop("a number is too long"))
    return str(e).splitlines()[0] if str(e) else type(e).__name__


def dump(army: Army) -> dict[str, object]:
    """The file form of an army; load(dump(army)) == army."""
    system = SYSTEMS[army.system]
    out: dict[str, object] = {"format": FORMAT, "name": army.name, "system": army.system}
    if army.rules_version is not None:
        out["rules_version"] = army.rules_version
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
