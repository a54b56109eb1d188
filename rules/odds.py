"""Calculators for the table: GEM Table 1 odds and d10 chances, each with a small chart.

Both read their form from the query string, so a result is a link a player can share;
htmx only swaps the calculator in place. Every chance comes from `points/`. The pages
are rules/views.py (d10) and odds/table_1.py (Table 1, which offers the player's units).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from django.utils.translation import gettext

from points import ArmyFileError, d10, gem
from rules.charts import Chart, chart
from rules.forms import D10ChancesForm, Table1Form
from rules.words import say

# ---------------------------------------------------------------- GEM Table 1

TABLE_1_FIELDS = ("attacker", "off", "att", "target", "def", "modifiers")


class PickedUnit(Protocol):
    """A unit the calculator is given to pick from (odds/table_1.py reads the player's own):
    the calculator itself reads no army."""

    pk: int
    name: str
    profile: dict
    army_id: int
    army: Any  # with a `name`


@dataclass(frozen=True)
class Side:
    """The attacker or the target as the calculator uses it."""

    label: str
    profile: gem.GemProfile | None = None  # None when typed in


@dataclass(frozen=True)
class Table1Result:
    attacker: Side | None
    target: Side | None
    off: int | None  # the OFF charted: the first attack with a Table 1 row
    def_: int | None
    odds: tuple[gem.Odds, ...] = ()
    melee_per_turn: Fraction | None = None
    chart: Chart | None = None
    hint: str = ""  # what the player still has to pick
    size_hint: str = ""  # the size modifier the target's base suggests

    @property
    def several_melee(self) -> bool:
        return sum(1 for o in self.odds if o.kind == "melee") > 1


def unit_choices(units: Sequence[PickedUnit]) -> list[tuple[str, list[tuple[int, str]]]]:
    groups: dict[int, tuple[str, list[tuple[int, str]]]] = {}
    for unit in units:
        groups.setdefault(unit.army_id, (unit.army.name, []))[1].append((unit.pk, unit.name))
    return list(groups.values())


def _profile(unit: PickedUnit) -> gem.GemProfile | None:
    try:
        return gem.parse_profile(unit.profile, "profile")
    except ArmyFileError:  # stored units are validated on save; never trust it blindly
        return None


def _attacker(form: Table1Form, units: dict[int, PickedUnit]) -> Side | None:
    pk = form.cleaned_data.get("attacker")
    if pk is not None:
        profile = _profile(units[pk])
        if profile is None:
            form.add_error(
                "attacker", "This unit's profile cannot be read: open it in the builder."
            )
            return None
        return Side(f"{units[pk].name} ({units[pk].army.name})", profile)
    off = form.cleaned_data.get("off")
    if off is None:
        return None
    return Side(f"OFF {off}, ATT {form.cleaned_data.get('att') or 1}")


def _target(form: Table1Form, units: dict[int, PickedUnit]) -> tuple[Side | None, int | None]:
    pk = form.cleaned_data.get("target")
    if pk is None:
        def_ = form.cleaned_data.get("def")
        return (Side(f"DEF {def_}"), def_) if def_ is not None else (None, None)
    profile = _profile(units[pk])
    if profile is None:
        form.add_error(
            "target", gettext("This unit's profile cannot be read: open it in the builder.")
        )
        return None, None
    def_ = gem.table_row(profile.def_)
    if def_ is None:
        message = gettext("Its DEF is %(def)s: type the DEF it rolled instead.")
        form.add_error("target", message % {"def": profile.def_})
        return None, None
    return Side(f"{units[pk].name} ({units[pk].army.name})", profile), def_


def table_1_result(form: Table1Form, units: dict[int, PickedUnit]) -> Table1Result | None:
    attacker = _attacker(form, units)
    target, def_ = _target(form, units)
    if form.errors:
        return None
    chosen = form.cleaned_data.get("modifiers") or []
    att = Fraction(form.cleaned_data.get("att") or 1)
    typed_off = form.cleaned_data.get("off")
    odds: tuple[gem.Odds, ...] = ()
    if attacker is not None and def_ is not None:
        if attacker.profile is not None:
            odds = gem.attack_odds(attacker.profile, def_, chosen)
        else:
            odds = gem.typed_odds(typed_off, att, def_, chosen)
    first = _first_charted(attacker, typed_off, def_, chosen, odds)
    return Table1Result(
        attacker=attacker,
        target=target,
        off=first[0] if first else None,
        def_=def_,
        odds=odds,
        melee_per_turn=gem.melee_per_turn(odds),
        chart=first[1] if first else None,
        hint=_hint(attacker, target),
        size_hint=_size_hint(target),
    )


def _size_hint(target: Side | None) -> str:
    """A picked target's base suggests its size modifier; the player decides, facing matters."""
    if target is None or target.profile is None:
        return ""
    size = gem.SIZE_BY_BASE.get(target.profile.base)
    if size is None:
        return ""
    label = gem.MODIFIER_BY_SLUG[size].label
    hint = gettext("Its %(base)s base: tick “%(label)s” if that width faces the firer.")
    return hint % {"base": target.profile.base, "label": say(label)}


def _first_charted(
    attacker: Side | None,
    typed_off: int | None,
    def_: int | None,
    chosen: list[str],
    odds: tuple[gem.Odds, ...],
) -> tuple[int, Chart] | None:
    """The chart of the attacker's first attack with a Table 1 row, across DEF 1-10."""
    if attacker is None:
        return None
    if attacker.profile is None:
        assert typed_off is not None
        title = gettext("Chance to hit by the target's DEF at OFF %(off)s") % {"off": typed_off}
        off, modifier = typed_off, 0
    else:
        # Rows and modifiers do not depend on the DEF: with none picked, any will do.
        lines = odds or gem.attack_odds(attacker.profile, def_ or 1, chosen)
        line = next((o for o in lines if o.needed is not None), None)
        if line is None:
            return None
        off, modifier = gem.table_row(line.off), line.modifier
        assert off is not None
        title = gettext("Chance to hit by the target's DEF: %(attack)s, OFF %(off)s") % {
            "attack": say(line.name),
            "off": off,
        }
    if modifier:
        title += gettext(", modifiers %(modifier)s") % {
            "modifier": f"{modifier:+d}".replace("-", "−")
        }
    chances = list(zip(gem.TABLE_RANGE, gem.hit_chances(off, modifier), strict=True))
    return off, chart(title, gettext("Target's DEF"), chances, current=def_)


def _hint(attacker: Side | None, target: Side | None) -> str:
    if attacker is None and target is None:
        return gettext("Pick an attacker and a target, or type an OFF and a DEF.")
    if attacker is None:
        return gettext("Pick an attacker or type its OFF to see the chances.")
    if target is None:
        return gettext("Pick a target or type its DEF to see the hits to expect.")
    return ""


# ---------------------------------------------------------------- d10 chances

D10_FIELDS = ("stat", "modifier", "opponent", "opponent_modifier")
STATS = range(d10.SKILL_RANGE[0], d10.SKILL_RANGE[1] + 1)


@dataclass(frozen=True)
class D10Result:
    stat: int
    modifier: int
    target: int
    success: Fraction
    critical: Fraction
    chart: Chart
    opponent: int | None = None
    opponent_modifier: int = 0
    contest: d10.Contest | None = None


def d10_result(form: D10ChancesForm) -> D10Result | None:
    stat = form.cleaned_data.get("stat")
    if stat is None:
        return None
    modifier = form.cleaned_data.get("modifier") or 0
    target = d10.target_number(modifier)
    chances = [(s, d10.success_chance(s, target)) for s in STATS]
    title = gettext("Chance that stat + d10 reaches %(target)s, by stat") % {"target": target}
    opponent = form.cleaned_data.get("opponent")
    opponent_modifier = form.cleaned_data.get("opponent_modifier") or 0
    contest = None
    if opponent is not None:
        contest = d10.contest(stat, opponent, modifier, opponent_modifier)
    return D10Result(
        stat=stat,
        modifier=modifier,
        target=target,
        success=d10.success_chance(stat, target),
        critical=d10.critical_chance(stat, target),
        chart=chart(title, "Stat", chances, current=stat),
        opponent=opponent,
        opponent_modifier=opponent_modifier,
        contest=contest,
    )
