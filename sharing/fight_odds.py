"""The fight odds calculator (SPEC 3.8): where each side comes from, and what the page
draws from the engine's answer. The view only parses, calls `work_out` and renders."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from fractions import Fraction

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import QueryDict

from armies.models import Army, Unit, shared_army
from points import ArmyFileError, fights
from points.systems import SYSTEMS
from rules.charts import Chart, chart
from rules.forms import SIDE_NAMES, FightForm
from rules.models import SampleArmy

FIGHT_SYSTEMS = fights.FIGHT_SYSTEMS
# The picker lists units of the player's most recently edited armies of the system, at
# most this many: the page's cost must not grow with how many armies an account keeps.
PICKER_ARMIES = 5
PICKER_UNITS = 200
SHARE_TOKEN = re.compile(r"(?:/s/)?([A-Za-z0-9_-]{16,100})/?(?:[?#].*)?$")
LONG_FRACTION = 40  # exact fractions longer than this are left to the API


@dataclass(frozen=True)
class Picked:
    side: fights.Side
    source: str  # where it came from, in words
    each: Fraction  # points a model
    cost: Fraction  # points for the side as fought


@dataclass(frozen=True)
class Outcome:
    label: str
    chance: Fraction

    @property
    def exact(self) -> str:
        text = fights.exact(self.chance)
        return text if len(text) <= LONG_FRACTION else ""

    @property
    def percent(self) -> str:
        return fights.percent(self.chance)


@dataclass(frozen=True)
class Result:
    a: Picked
    b: Picked
    fight: fights.Fight
    outcomes: tuple[Outcome, ...]
    chart: Chart
    rounds_chart: Chart | None

    @property
    def sides(self) -> list[tuple[Picked, str, int]]:
        """Each side with the HIT (or figures) it expects to lose, to two decimals."""
        f = self.fight
        return [
            (self.a, _decimal(f.a_hit_lost), f.a_hit),
            (self.b, _decimal(f.b_hit_lost), f.b_hit),
        ]

    @property
    def rounds_cut(self) -> bool:
        """The round-by-round table stopped early while the fight may still be going."""
        rounds = self.fight.rounds
        return bool(rounds) and len(rounds) < fights.ROUNDS and rounds[-1].going > 0

    @property
    def attacks(self) -> list[tuple[fights.Attack, str]]:
        return [(x, fights.percent(x.chance)) for x in self.fight.attacks]

    @property
    def rounds(self) -> list[tuple[fights.Round, str, str, str, str]]:
        p = fights.percent
        return [(r, p(r.a_wins), p(r.b_wins), p(r.draw), p(r.going)) for r in self.fight.rounds]


def _decimal(x: Fraction) -> str:
    hundredths = (x * 200 + 1) // 2
    return f"{hundredths // 100}.{hundredths % 100:02d}"


def own_units(user: AbstractBaseUser | AnonymousUser, system: str, asked: set[int]) -> list[Unit]:
    """The units the picker offers, and any unit the address asks for by id (an "Odds
    against…" link), as long as the player owns it."""
    if not user.is_authenticated:
        return []
    # The armies' ids first, as a list: asked with a subquery, SQLite's planner walked the
    # index of deleted_at, every live unit of every account (#45.4), where a list of ids
    # reads only these armies' units.
    recent = list(
        Army.objects.for_owner(user)
        .filter(system=system)
        .order_by("-updated")
        .values_list("pk", flat=True)[:PICKER_ARMIES]
    )
    units = Unit.objects.select_related("army").only(
        "pk", "name", "quantity", "profile", "army__name"
    )
    listed = list(
        units.filter(army_id__in=recent).order_by("army__name", "army_id", "position", "pk")[
            :PICKER_UNITS
        ]
    )
    asked -= {unit.pk for unit in listed}
    if not asked:
        return listed
    # By id, each read through its primary key; another player's or system's unit is none.
    return listed + list(
        units.filter(pk__in=asked, army__owner=user, army__system=system, army__deleted_at=None)
    )


def unit_choices(units: list[Unit]) -> list[tuple[str, list[tuple[int, str]]]]:
    groups: dict[int, tuple[str, list[tuple[int, str]]]] = {}
    for unit in units:
        groups.setdefault(unit.army_id, (unit.army.name, []))[1].append((unit.pk, unit.name))
    return list(groups.values())


def catalog(system: str) -> tuple[list, dict[str, tuple[str, dict[str, object]]]]:
    """Sample armies' units as choices ("dwarves:0"), and each one's name and unit data."""
    choices, found = [], {}
    for sample in SampleArmy.objects.for_system(system).order_by("position"):
        options = []
        for i, unit in enumerate(sample.army.get("units", [])):
            key = f"{sample.slug}:{i}"
            found[key] = (f"{unit.get('name', '')} ({sample.name})", unit)
            options.append((key, str(unit.get("name", key))))
        choices.append((sample.name, options))
    return choices, found


def asked_units(query: QueryDict) -> set[int]:
    asked = set()
    for side in SIDE_NAMES:
        value = query.get(f"{side}_unit", "")
        if value.isascii() and value.isdigit() and len(value) < 18:
            asked.add(int(value))
    return asked


def work_out(
    form: FightForm,
    units: dict[int, Unit],
    samples: dict[str, tuple[str, dict[str, object]]],
) -> Result | None:
    """Both sides read from the form (errors go beside the field they came from), then
    the fight; None when a side is missing or wrong, or the fight is too large."""
    system = form.system
    picked = {side: _pick(form, side, system, units, samples) for side in SIDE_NAMES}
    a, b = picked["a"], picked["b"]
    if a is None or b is None or form.errors:
        return None
    data = form.cleaned_data
    request = fights.Request(
        system,
        a.side,
        b.side,
        form.fight_kind,
        (bool(data.get("a_cover")), bool(data.get("b_cover"))),
        (form.modifiers("a"), form.modifiers("b")),
        (data.get("a_frontage"), data.get("b_frontage")),
    )
    try:
        fight = fights.compute(request)
    except fights.TooLarge as exc:
        form.add_error(None, str(exc))
        return None
    except ArmyFileError as exc:
        form.add_error(_field(exc.path), exc.message)
        return None
    outcomes = (
        Outcome(f"{a.side.name} wins", fight.a_wins),
        Outcome("Draw", fight.draw),
        Outcome(f"{b.side.name} wins", fight.b_wins),
    )
    bars = [("A", fight.a_wins), ("draw", fight.draw), ("B", fight.b_wins)]
    going = [(r.number, r.going) for r in fight.rounds]
    return Result(
        a,
        b,
        fight,
        outcomes,
        chart("Who wins: side A, a draw, side B", "Outcome", bars),
        chart("Chance the fight is still going after each round", "Round", going)
        if going
        else None,
    )


def _field(path: str) -> str | None:
    """An engine field path ("modifiers.a[2]", "a.profile.off") as the form field."""
    side = path[:1]
    if path.startswith("modifiers.") or path.startswith("frontage."):
        side = path.split(".")[1][:1]
        return f"{side}_mod" if path.startswith("modifiers.") else f"{side}_frontage"
    if side in SIDE_NAMES:
        return f"{side}_profile"
    return None


def _pick(
    form: FightForm,
    side: str,
    system: str,
    units: dict[int, Unit],
    samples: dict[str, tuple[str, dict[str, object]]],
) -> Picked | None:
    data = form.cleaned_data
    quantity = data.get(f"{side}_quantity")
    name = (data.get(f"{side}_name") or "").strip()
    label = SIDE_NAMES[side]
    try:
        if data.get(f"{side}_unit") is not None:
            unit = units[data[f"{side}_unit"]]
            where = f"{side}_unit"
            source = f"your army {unit.army.name}"
            raw = {
                "name": name or unit.name,
                "quantity": quantity or unit.quantity,
                "profile": unit.profile,
            }
        elif data.get(f"{side}_share"):
            where = f"{side}_share"
            raw, source = _shared(data[f"{side}_share"], data.get(f"{side}_pick") or 1)
            raw = {**raw, "name": name or raw["name"], "quantity": quantity or raw["quantity"]}
        elif data.get(f"{side}_catalog"):
            where = f"{side}_catalog"
            title, unit_data = samples[data[f"{side}_catalog"]]
            source = f"the sample {title}"
            raw = {**unit_data, "name": name or unit_data.get("name", label)}
            if quantity:
                raw["quantity"] = quantity
        elif data.get(f"{side}_profile"):
            where = f"{side}_profile"
            source = "a typed profile"
            raw = {
                "name": name or label,
                "quantity": quantity or 1,
                "profile": _json(data[f"{side}_profile"], where),
            }
        else:
            return None
        picked = fights.read_side(raw, side, system)
    except ArmyFileError as exc:
        form.add_error(where, f"{exc.path}: {exc.message}" if exc.path else exc.message)
        return None
    each = SYSTEMS[system].price(picked.profile).each
    return Picked(picked, source, each, each * picked.quantity)


class _NotFound(ArmyFileError):
    pass


def _shared(link: str, pick: int) -> tuple[dict[str, object], str]:
    found = SHARE_TOKEN.search(link.strip())
    army = shared_army(found.group(1)) if found else None
    if army is None:
        raise _NotFound("", "No army is shared under that link: it may have been revoked.")
    units = list(army.units.order_by("position", "pk")[:pick])
    if len(units) < pick:
        raise _NotFound("", f"That army has {len(units)} units; pick one of them.")
    unit = units[pick - 1]
    data = {"name": unit.name, "quantity": unit.quantity, "profile": unit.profile}
    return data, f"the shared army {army.name}"


def _json(text: str, where: str) -> object:
    try:
        return json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise ArmyFileError(
            "", 'Type the profile as JSON, e.g. {"kind": "guy", "flavor": "troop"}.'
        ) from exc


def _no_constant(name: str) -> object:
    raise ValueError(name)
