"""The four rule sets behind one interface, and pricing a whole army."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from points import d10, gem, goms, vsgmr
from points.fields import known_keys, obj
from points.messages import Text, gettext_noop
from points.model import (
    Army,
    Entry,
    Issue,
    Line,
    NoOptions,
    Priced,
    PricedArmy,
    PricedUnit,
    Unit,
)
from points.numbers import exact_sum

Checks = tuple[list[Issue], list[Issue]]


@dataclass(frozen=True, slots=True)
class UnitResult:
    """One unit priced and checked on its own: what is stored on its row when it changes.
    Its issues name no unit index (the caller knows where the unit stands)."""

    each: Fraction
    exact: Fraction
    cost: Fraction
    lines: tuple[Line, ...]
    errors: tuple[Issue, ...]
    warnings: tuple[Issue, ...]
    facts: dict[str, object]


@dataclass(frozen=True, slots=True)
class ArmyResult:
    """What army-wide checks answer from the units' entries, costs and the options."""

    total: Fraction
    option_lines: tuple[Line, ...]
    errors: tuple[Issue, ...]  # army checks, then over-limit; unit indexes into entries
    warnings: tuple[Issue, ...]
    extras: dict[str, object]


def _no_options(raw: object, path: str) -> NoOptions:
    known_keys(obj(raw, path), (), path)
    return NoOptions()


def _dump_no_options(options: object) -> dict[str, object]:
    return {}


def _price_no_options(options: object) -> tuple[tuple[Line, ...], Fraction]:
    return (), Fraction(0)


def _no_unit_checks(name: str, profile: Any) -> Checks:
    return [], []


def _no_facts(profile: Any) -> dict[str, object]:
    return {}


def _no_extras(entries: Sequence[Entry], options: object, total: Fraction) -> dict[str, object]:
    return {}


@dataclass(frozen=True, slots=True)
class System:
    key: str
    label: str
    # The rules version (SPEC 3.7): moves whenever any valid profile would price
    # differently or any check would answer differently.
    version: str
    parse_profile: Callable[[object, str], Any]
    dump_profile: Callable[[Any], dict[str, object]]
    price: Callable[[Any], Priced]
    army_checks: Callable[[Sequence[Entry], Any], Checks]
    unit_checks: Callable[[str, Any], Checks] = _no_unit_checks
    facts: Callable[[Any], dict[str, object]] = _no_facts
    parse_options: Callable[[object, str], Any] = _no_options
    dump_options: Callable[[Any], dict[str, object]] = _dump_no_options
    price_options: Callable[[Any], tuple[tuple[Line, ...], Fraction]] = _price_no_options
    extras: Callable[[Sequence[Entry], Any, Fraction], dict[str, object]] = _no_extras
    # How players name and use the system, for every page that differs by system.
    name: str = ""  # the full name, as the new-army page lists it
    # The words below are message ids, said in the reader's language where shown
    # (rules.words.say); a seed's own term ("FP", "HIT") is no id and stays as printed.
    points_word: str = gettext_noop("pts")  # what a unit's cost is counted in
    group_word: str = gettext_noop("kind")  # what the builder's list groups units by
    points_long: str = gettext_noop("points")  # the same, written out under a roster's total
    points_heading: str = gettext_noop("Points")  # the cost's heading on a card filled in by hand
    figures_heading: str = gettext_noop("Models")  # a column of how many miniatures
    strength_words: str = gettext_noop("figures")  # what a unit loses in a fight, one at a time
    acquisition_roll: bool = False  # armies roll for acquisition before a game (G.O.M.S.)
    commander: bool = False  # an army has one commander, whose fall the table shows (VSGMR)
    break_point: bool = False  # a force breaks once half its points are down (d10)

    @property
    def army_options(self) -> bool:
        """Armies buy army-wide options (G.O.M.S. rerolls and the like)."""
        return self.parse_options is not _no_options


SYSTEMS: dict[str, System] = {
    "gem": System(
        "gem",
        "GEM",
        gem.VERSION,
        gem.parse_profile,
        gem.dump_profile,
        gem.price,
        gem.army_checks,
        facts=gem.facts,
        name="GEM — Generic Easy Miniatures",
        group_word=gettext_noop("type"),
        strength_words="HIT",
    ),
    "vsgmr": System(
        "vsgmr",
        "VSGMR",
        vsgmr.VERSION,
        vsgmr.parse_profile,
        vsgmr.dump_profile,
        vsgmr.price,
        vsgmr.army_checks,
        unit_checks=vsgmr.unit_checks,
        facts=vsgmr.facts,
        name="VSGMR — Very Simple Generic Miniatures Rules",
        figures_heading=gettext_noop("Figures"),
        commander=True,
    ),
    "goms": System(
        "goms",
        "G.O.M.S.",
        goms.VERSION,
        goms.parse_profile,
        goms.dump_profile,
        goms.price,
        goms.army_checks,
        facts=goms.facts,
        parse_options=goms.parse_options,
        dump_options=goms.dump_options,
        price_options=goms.price_options,
        extras=goms.extras,
        name="G.O.M.S. — WWII skirmish",
        acquisition_roll=True,
    ),
    "d10": System(
        "d10",
        "d10 modern skirmish",
        d10.VERSION,
        d10.parse_profile,
        d10.dump_profile,
        d10.price,
        d10.army_checks,
        extras=d10.extras,
        name="d10 modern skirmish",
        points_word="FP",
        points_long=gettext_noop("force points"),
        points_heading="FP",
        break_point=True,
    ),
}


def price_unit(system_key: str, unit: Unit) -> UnitResult:
    """Price and check one loaded unit on its own."""
    system = SYSTEMS[system_key]
    priced = system.price(unit.profile)
    errors, warnings = system.unit_checks(unit.name, unit.profile)
    return UnitResult(
        priced.each,
        priced.exact,
        priced.each * unit.quantity,
        priced.lines,
        tuple(errors),
        tuple(warnings),
        system.facts(unit.profile),
    )


def check_army(
    system_key: str,
    entries: Sequence[Entry],
    costs: Iterable[Fraction],
    options: object,
    points_limit: Fraction | None,
) -> ArmyResult:
    """The army-wide part of pricing: total, army checks, limit and extras, from each
    unit's entry and cost (never its profile)."""
    system = SYSTEMS[system_key]
    option_lines, options_total = system.price_options(options)
    total = exact_sum(costs, options_total)
    errors, warnings = system.army_checks(entries, options)
    over = _over_limit(total, points_limit)
    if over is not None:
        errors.append(over)
    extras = system.extras(entries, options, total)
    return ArmyResult(total, option_lines, tuple(errors), tuple(warnings), extras)


def price_army(army: Army) -> PricedArmy:
    """Every unit's cost, the total, and the rules the army breaks or should know about.

    Issues come in one order everywhere: the army's own checks, then each unit's in list
    order, then the points limit."""
    results = [price_unit(army.system, unit) for unit in army.units]
    units = tuple(
        PricedUnit(unit, Priced(r.each, r.exact, r.lines), r.cost)
        for unit, r in zip(army.units, results, strict=True)
    )
    entries = [Entry(u.name, u.quantity, r.facts) for u, r in zip(army.units, results, strict=True)]
    checked = check_army(
        army.system, entries, (r.cost for r in results), army.options, army.points_limit
    )
    army_errors = [e for e in checked.errors if e.code != "over-limit"]
    over = [e for e in checked.errors if e.code == "over-limit"]
    errors = [*army_errors, *_indexed(results, "errors"), *over]
    warnings = [*checked.warnings, *_indexed(results, "warnings")]
    return PricedArmy(
        army,
        units,
        checked.option_lines,
        checked.total,
        tuple(errors),
        tuple(warnings),
        checked.extras,
        SYSTEMS[army.system].version,
    )


def _indexed(results: Sequence[UnitResult], kind: str) -> list[Issue]:
    return [
        Issue(issue.code, issue.message, i)
        for i, result in enumerate(results)
        for issue in getattr(result, kind)
    ]


def _over_limit(total: Fraction, limit: Fraction | None) -> Issue | None:
    if limit is None or total <= limit:
        return None
    message = Text(
        gettext_noop("The army costs %(total)s points, %(over)s over its limit of %(limit)s."),
        total=total,
        over=total - limit,
        limit=limit,
    )
    return Issue("over-limit", message)
