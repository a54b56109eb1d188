"""The four rule sets behind one interface, and pricing a whole army."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from points import d10, gem, goms, vsgmr
from points.fields import fmt, known_keys, obj
from points.model import Army, Issue, Line, NoOptions, Priced, PricedArmy, PricedUnit
from points.numbers import exact_sum

Checks = tuple[list[Issue], list[Issue]]


def _no_options(raw: object, path: str) -> NoOptions:
    known_keys(obj(raw, path), (), path)
    return NoOptions()


def _dump_no_options(options: object) -> dict[str, object]:
    return {}


def _price_no_options(options: object) -> tuple[tuple[Line, ...], Fraction]:
    return (), Fraction(0)


def _no_extras(army: Army, priced: Sequence[PricedUnit], total: Fraction) -> dict[str, object]:
    return {}


@dataclass(frozen=True, slots=True)
class System:
    key: str
    label: str
    parse_profile: Callable[[object, str], Any]
    dump_profile: Callable[[Any], dict[str, object]]
    price: Callable[[Any], Priced]
    check: Callable[[Army, Sequence[PricedUnit]], Checks]
    parse_options: Callable[[object, str], Any] = _no_options
    dump_options: Callable[[Any], dict[str, object]] = _dump_no_options
    price_options: Callable[[Any], tuple[tuple[Line, ...], Fraction]] = _price_no_options
    extras: Callable[[Army, Sequence[PricedUnit], Fraction], dict[str, object]] = _no_extras


SYSTEMS: dict[str, System] = {
    "gem": System("gem", "GEM", gem.parse_profile, gem.dump_profile, gem.price, gem.check),
    "vsgmr": System(
        "vsgmr", "VSGMR", vsgmr.parse_profile, vsgmr.dump_profile, vsgmr.price, vsgmr.check
    ),
    "goms": System(
        "goms",
        "G.O.M.S.",
        goms.parse_profile,
        goms.dump_profile,
        goms.price,
        goms.check,
        parse_options=goms.parse_options,
        dump_options=goms.dump_options,
        price_options=goms.price_options,
        extras=goms.extras,
    ),
    "d10": System(
        "d10",
        "d10 modern skirmish",
        d10.parse_profile,
        d10.dump_profile,
        d10.price,
        d10.check,
        extras=d10.extras,
    ),
}


def price_army(army: Army) -> PricedArmy:
    """Every unit's cost, the total, and the rules the army breaks or should know about."""
    system = SYSTEMS[army.system]
    units = tuple(_price_unit(system, unit) for unit in army.units)
    option_lines, options_total = system.price_options(army.options)
    total = exact_sum((unit.cost for unit in units), options_total)
    errors, warnings = system.check(army, units)
    over = _over_limit(total, army.points_limit)
    if over is not None:
        errors.append(over)
    extras = system.extras(army, units, total)
    return PricedArmy(army, units, option_lines, total, tuple(errors), tuple(warnings), extras)


# Priced units by the identity of their Unit, for the Units armyfile's load memo holds
# (it calls remember_unit and forget_units): the same unit document gives back the same
# Unit, so re-pricing an army prices only what changed. Any other Unit is priced afresh
# and not kept, so this memo is bounded as the load memo is. An entry keeps its Unit
# alive, so the id cannot be reused while the entry lives.
_PRICED: dict[int, tuple[Any, PricedUnit | None]] = {}


def remember_unit(unit: Any) -> None:
    _PRICED[id(unit)] = (unit, None)


def forget_units() -> None:
    _PRICED.clear()


def _price_unit(system: System, unit: Any) -> PricedUnit:
    seen = _PRICED.get(id(unit))
    if seen is not None and seen[0] is unit and seen[1] is not None:
        return seen[1]
    priced = system.price(unit.profile)
    result = PricedUnit(unit, priced, priced.each * unit.quantity)
    if seen is not None and seen[0] is unit:
        _PRICED[id(unit)] = (unit, result)
    return result


def _over_limit(total: Fraction, limit: Fraction | None) -> Issue | None:
    if limit is None or total <= limit:
        return None
    message = (
        f"The army costs {fmt(total)} points, {fmt(total - limit)} over its limit of {fmt(limit)}."
    )
    return Issue("over-limit", message)
