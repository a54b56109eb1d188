"""Is a match fair, and if not, what would make it fair? Plain data in, plain data out."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from points import vsgmr
from points.messages import Text, gettext_noop
from points.model import PricedArmy

# VSGMR: balanced within 5 points; every other system within 5% of the larger total
# (SPEC 5, Matchup).
SHARE_MARGIN = Fraction(5, 100)
MAX_ADDED = 50  # the most copies of one unit a suggestion may add


def tolerance(system: str, total_a: Fraction, total_b: Fraction) -> Fraction:
    if system == "vsgmr":
        return Fraction(vsgmr.BALANCE_MARGIN)
    return SHARE_MARGIN * max(total_a, total_b)


def rule_text(system: str) -> Text:
    """When the system calls a match fair, as the end of "matches are fair …"."""
    if system == "vsgmr":
        return Text(gettext_noop("within %(margin)s points"), margin=vsgmr.BALANCE_MARGIN)
    return Text(
        gettext_noop("within %(percent)s%% of the larger total"), percent=SHARE_MARGIN * 100
    )


def balanced(system: str, total_a: Fraction, total_b: Fraction) -> bool:
    return abs(total_a - total_b) <= tolerance(system, total_a, total_b)


def balanced_range(system: str, other: Fraction) -> tuple[Fraction, Fraction]:
    """The totals balanced against `other`, as [low, high].

    VSGMR: other ± 5. Otherwise |x - other| <= 5% of max(x, other): below `other` that
    is x >= 95% of it, above it x <= other / 95%.
    """
    if system == "vsgmr":
        return other - vsgmr.BALANCE_MARGIN, other + vsgmr.BALANCE_MARGIN
    return other * (1 - SHARE_MARGIN), other / (1 - SHARE_MARGIN)


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
    # Worked out directly, not by trying counts: armies may have 1000 units of 1000.
    lowest, highest = balanced_range(system, high[1].total)
    for pu in low[1].units:
        each = pu.priced.each
        if _is_commander(pu) or each <= 0:
            continue
        n = max(1, math.ceil((lowest - low[1].total) / each))
        if n <= MAX_ADDED and low[1].total + n * each <= highest:
            found.append(Suggestion(low[0], "add", pu.unit.name, n, n * each))
    lowest, highest = balanced_range(system, low[1].total)
    for pu in high[1].units:
        each = pu.priced.each
        if _is_commander(pu) or each <= 0:
            continue
        n = max(1, math.ceil((high[1].total - highest) / each))
        if n <= pu.unit.quantity and high[1].total - n * each >= lowest:
            found.append(Suggestion(high[0], "drop", pu.unit.name, n, n * each))
    # Smallest change first: the least disruption to either player's plan.
    found.sort(key=lambda s: (s.count, s.change, s.unit))
    return found[:most]


def _is_commander(pu) -> bool:
    return bool(getattr(pu.unit.profile, "commander", False))
