"""Is a match fair, and if not, what would make it fair? Plain data in, plain data out."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from points import vsgmr
from points.model import PricedArmy

# Every system but VSGMR: balanced within 5% of the larger total (SPEC 5, Matchup).
SHARE_MARGIN = Fraction(5, 100)
MAX_ADDED = 50  # the most copies of one unit a suggestion may add


def balanced(system: str, total_a: Fraction, total_b: Fraction) -> bool:
    if system == "vsgmr":
        return vsgmr.balanced(total_a, total_b)
    return abs(total_a - total_b) <= SHARE_MARGIN * max(total_a, total_b)


def tolerance(system: str, total_a: Fraction, total_b: Fraction) -> Fraction:
    if system == "vsgmr":
        return Fraction(vsgmr.BALANCE_MARGIN)
    return SHARE_MARGIN * max(total_a, total_b)


@dataclass(frozen=True)
class Suggestion:
    """Add or drop `count` models of one unit of one side; `change` is the points moved."""

    side: str  # "a" or "b"
    action: str  # "add" or "drop"
    unit: str
    count: int
    change: Fraction


def suggestions(a: PricedArmy, b: PricedArmy, most: int = 5) -> list[Suggestion]:
    """Single changes, taken from the armies' own units, that would balance the match.

    The cheaper side may add copies of one of its units; the dearer side may drop models
    of one of its units. Commanders are left alone: adding or dropping one breaks a rule.
    """
    system = a.army.system
    if balanced(system, a.total, b.total):
        return []
    low, high = ("a", a), ("b", b)
    if a.total > b.total:
        low, high = high, low
    found: list[Suggestion] = []
    for pu in low[1].units:
        if _is_commander(pu) or pu.priced.each <= 0:
            continue
        for n in range(1, MAX_ADDED + 1):
            if balanced(system, low[1].total + n * pu.priced.each, high[1].total):
                found.append(Suggestion(low[0], "add", pu.unit.name, n, n * pu.priced.each))
                break
    for pu in high[1].units:
        if _is_commander(pu) or pu.priced.each <= 0:
            continue
        for n in range(1, pu.unit.quantity + 1):
            if balanced(system, low[1].total, high[1].total - n * pu.priced.each):
                found.append(Suggestion(high[0], "drop", pu.unit.name, n, n * pu.priced.each))
                break
    # Smallest change first: the least disruption to either player's plan.
    found.sort(key=lambda s: (s.count, s.change, s.unit))
    return found[:most]


def _is_commander(pu) -> bool:
    return bool(getattr(pu.unit.profile, "commander", False))
