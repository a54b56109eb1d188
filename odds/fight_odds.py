"""The fight odds calculator (SPEC 3.8): where each side comes from, and what the page
draws from the engine's answer. The view only parses, calls `work_out` and renders."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby
from math import nextafter

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import QueryDict
from django.urls import reverse
from django.utils.translation import gettext, ngettext

from armies.models import Army, Unit, shared_army
from points import ArmyFileError, fights
from points.systems import SYSTEMS
from rules.charts import Chart, chart
from rules.forms import SIDE_NAMES, FightForm
from rules.models import SampleArmy
from rules.systems import SYSTEM_PAGES
from rules.words import say, say_error

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
    chance: fights.Chance

    @property
    def exact(self) -> str:
        text = fights.exact(self.chance)
        return text if len(text) <= LONG_FRACTION else ""

    @property
    def percent(self) -> str:
        return fights.percent(self.chance)


@dataclass(frozen=True)
class LossRow:
    """At most so many lost ("3", or "0–16" for rows of one chance run together): models
    (where a model has several HIT) and HIT or figures."""

    models: str
    lost: str
    percent: str


@dataclass(frozen=True)
class Losses:
    """One side's chance to lose at most k models (or HIT, or figures), k = 0 upwards."""

    key: str  # "a" or "b"
    name: str
    counted: str  # what a row counts: "models", "HIT", "figures"
    model_hit: int  # HIT a model has; above 1 the rows go a model at a time
    rows: tuple[LossRow, ...]
    chart: Chart

    @property
    def by_model(self) -> bool:
        return self.model_hit > 1

    @property
    def size(self) -> str:
        """The chart's width class: a chart of few bars is drawn narrow, so that its
        lettering is about the size of the page's other charts' (a ten-bar chart's)."""
        return "narrow" if len(self.chart.bars) <= 3 else ""

    @property
    def next_model(self) -> str:
        """What "at most 0 models lost" counts, where a model has several HIT: any unit,
        one model or many, has that row."""
        lost = self.model_hit - 1
        return gettext("at most 0 models lost is at most {lost} HIT lost").format(lost=lost)


@dataclass(frozen=True)
class Result:
    a: Picked
    b: Picked
    fight: fights.Fight
    outcomes: tuple[Outcome, ...]
    chart: Chart
    rounds_chart: Chart | None
    losses: tuple[Losses, Losses]
    headline: str  # why nobody can win, when nobody can; "" otherwise

    answered = True

    @property
    def sides(self) -> list[tuple[Picked, str, int]]:
        """Each side with the HIT (or figures) it expects to lose, to two decimals."""
        f = self.fight
        return [
            (self.a, fights.two_places(f.a_hit_lost), f.a_hit),
            (self.b, fights.two_places(f.b_hit_lost), f.b_hit),
        ]

    @property
    def error(self) -> str:
        """The bound on each chance walked in double precision, as the working writes it."""
        return f"{self.fight.error:.0e}"

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


@dataclass(frozen=True)
class Refusal:
    """A fight larger than Muster answers: the engine's reason, and the address of the
    largest fight of the same units it does answer (the same query, fewer models)."""

    message: str
    smaller: str  # "" when not even one model of each is answered
    quantities: tuple[int, int] | None

    answered = False


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
) -> Result | Refusal | None:
    """Both sides read from the form (errors go beside the field they came from), then
    the fight; a Refusal when it is too large, None when a side is missing or wrong."""
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
        first=form.first,
    )
    try:
        fight = fights.compute(request)
    except fights.TooLarge as exc:
        form.add_error(None, say(exc.message))
        return Refusal(say(exc.message), _smaller(form, exc.largest), exc.largest)
    except ArmyFileError as exc:
        form.add_error(_field(exc.path), say(exc.message))
        return None
    outcomes = (
        Outcome(gettext("{name} wins").format(name=a.side.name), fight.a_wins),
        Outcome(gettext("Draw"), fight.draw),
        Outcome(gettext("{name} wins").format(name=b.side.name), fight.b_wins),
    )
    bars = [("A", fight.a_wins), (gettext("draw"), fight.draw), ("B", fight.b_wins)]
    going = [(r.number, r.going) for r in fight.rounds]
    shown = fights.percent
    return Result(
        a,
        b,
        fight,
        outcomes,
        chart(gettext("Who wins: side A, a draw, side B"), gettext("Outcome"), bars, shown=shown),
        chart(
            gettext("Chance the fight is still going after each round"),
            gettext("Round"),
            going,
            shown=shown,
        )
        if going
        else None,
        (_losses(fight, "a"), _losses(fight, "b")),
        stalemate(fight, form.fight_kind),
    )


def _smaller(form: FightForm, largest: tuple[int, int] | None) -> str:
    """The calculator's address for the same fight with the quantities `largest`."""
    if largest is None:
        return ""
    query = form.data.copy()
    query["a_quantity"], query["b_quantity"] = (str(q) for q in largest)
    return f"{reverse('odds:fight', args=[form.system])}?{query.urlencode()}"


def left_at_end(f: fights.Fight, side: str) -> Sequence[fights.Chance]:
    """left[k]: the chance `side` ends the fight with k HIT (or figures) left. A duel of
    one figure against one, which the engine does not count so: a side loses its figure
    when the other wins; a draw (nobody can win) leaves both standing."""
    left = f.a_left if side == "a" else f.b_left
    if left:
        return left
    other_wins = f.b_wins if side == "a" else f.a_wins
    return (other_wins, 1 - other_wins)


def lost_at_most(left: Sequence[fights.Chance]) -> list[fights.Chance]:
    """at_most[k]: the chance of losing at most k of the len(left) - 1 a side starts with;
    certain for all of them. A chance not certain never reads 1 (or 0) from rounding."""
    start = len(left) - 1
    out, total = [], 0
    for k in range(start + 1):
        total += left[start - k]
        chance = 1 if k == start else total
        if k < start and chance >= 1 and any(left[: start - k]):
            chance = nextafter(1.0, 0.0)
        out.append(chance)
    return out


def _losses(f: fights.Fight, side: str) -> Losses:
    """The table and chart of a side's losses: a row a model (a row a HIT where a model
    has one), rows of the same percentage run together into one."""
    word = SYSTEMS[f.system].strength_words
    name, start = (f.a_name, f.a_hit) if side == "a" else (f.b_name, f.b_hit)
    per = f.a_model_hit if side == "a" else f.b_model_hit
    at_most = lost_at_most(left_at_end(f, side))
    # At most m models lost: the next one may have lost all but one of its HIT.
    steps = [(m, min(m * per + per - 1, start)) for m in range(start // per + 1)]
    rows = []
    for shown, group in groupby(steps, key=lambda step: fights.percent(at_most[step[1]])):
        run = list(group)
        (m0, h0), (m1, h1) = run[0], run[-1]
        rows.append(LossRow(_span(m0, m1) if per > 1 else "", _span(h0, h1), shown))
    counted = gettext("models") if per > 1 else gettext(word)
    label = gettext("Side A") if side == "a" else gettext("Side B")
    return Losses(
        side,
        name,
        counted,
        per,
        tuple(rows),
        chart(
            gettext("{side}: the chance to lose at most so many {counted}").format(
                side=label, counted=counted
            ),
            gettext("{counted} lost").format(counted=f"{counted[0].upper()}{counted[1:]}"),
            [(m, at_most[hit]) for m, hit in steps],
            shown=fights.percent,
            desc=gettext(
                "A bar for each number of {counted} lost, from 0 to {most}, "
                "read as at most that many; the table beside the chart gives the same chances."
            ).format(counted=counted, most=steps[-1][0]),
        ),
    )


def _span(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"


def stalemate(f: fights.Fight, kind: str) -> str:
    """Why nobody can win, in a line for the headline, when nobody can; else ""."""
    if f.a_wins or f.b_wins:
        return ""
    if kind == "distance" and not f.attacks:
        why = SYSTEM_PAGES[f.system].no_shot or gettext("neither side can")
        return gettext("Neither can shoot: {why}, so the fight is a draw.").format(why=why)
    if not f.a_hit_lost and not f.b_hit_lost:
        return gettext("Neither side can harm the other: a draw.")
    return gettext("Both sides always fall in the same round: a draw.")


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
    label = str(SIDE_NAMES[side])  # the engine takes a name as plain text
    try:
        if data.get(f"{side}_unit") is not None:
            unit = units[data[f"{side}_unit"]]
            where = f"{side}_unit"
            source = gettext("your army {name}").format(name=unit.army.name)
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
            source = gettext("the sample {name}").format(name=title)
            raw = {**unit_data, "name": name or unit_data.get("name", label)}
            if quantity:
                raw["quantity"] = quantity
        elif data.get(f"{side}_profile"):
            where = f"{side}_profile"
            source = gettext("a typed profile")
            raw = {
                "name": name or label,
                "quantity": quantity or 1,
                "profile": _json(data[f"{side}_profile"], where),
            }
        else:
            return None
        picked = fights.read_side(raw, side, system)
    except ArmyFileError as exc:
        form.add_error(where, say_error(exc))
        return None
    each = SYSTEMS[system].price(picked.profile).each
    return Picked(picked, source, each, each * picked.quantity)


class _NotFound(ArmyFileError):
    pass


def _shared(link: str, pick: int) -> tuple[dict[str, object], str]:
    found = SHARE_TOKEN.search(link.strip())
    army = shared_army(found.group(1)) if found else None
    if army is None:
        raise _NotFound("", gettext("No army is shared under that link: it may have been revoked."))
    units = list(army.units.order_by("position", "pk")[:pick])
    if len(units) < pick:
        raise _NotFound(
            "",
            ngettext(
                "That army has {n} unit; pick it.",
                "That army has {n} units; pick one of them.",
                len(units),
            ).format(n=len(units)),
        )
    unit = units[pick - 1]
    data = {"name": unit.name, "quantity": unit.quantity, "profile": unit.profile}
    return data, gettext("the shared army {name}").format(name=army.name)


def _json(text: str, where: str) -> object:
    try:
        return json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise ArmyFileError(
            "", gettext('Type the profile as JSON, e.g. {"kind": "guy", "flavor": "troop"}.')
        ) from exc


def _no_constant(name: str) -> object:
    raise ValueError(name)
