"""A unit's card: the roster's cards, the share page's, the unit picker's preview and the
text exports draw from here (SPEC 5).

What the card shows in each system is that system's `unit_card` (rules/systems/<key>.py),
which picks from the engine's numbers what its players look up during a game; this module
puts it together with the unit, its price and its issues.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from armies.models import Army, StoredUnitPrice, Unit
from points.model import Issue, PricedUnit
from rules.systems import SYSTEM_PAGES, SystemPages


@dataclass
class Card:
    """A unit's card: the roster's, the unit cards' and (with its stat line) the share
    page's. Nothing on it depends on its place in the list: CSS numbers the cards."""

    unit: Unit
    priced: StoredUnitPrice | PricedUnit
    errors: tuple[Issue, ...]
    warnings: tuple[Issue, ...]
    system: str
    rolled: tuple = ()  # G.O.M.S.: this unit's recorded acquisition dice

    @cached_property
    def detail(self) -> object:
        """The system's card (its module's unit_card), worked out when it is drawn."""
        return detail(self.system, self.priced)

    @property
    def system_pages(self) -> SystemPages:
        return SYSTEM_PAGES[self.system]


def detail(system: str, priced: StoredUnitPrice | PricedUnit) -> object:
    """What a unit's card shows in its system, as its entry works it out."""
    return SYSTEM_PAGES[system].unit_card(priced)


def unit_cards(army: Army, units: list[Unit]) -> list[Card]:
    """A card for each of `units` (live, in list order), with the army's issues about it."""
    priced = army.priced(units)
    return [
        Card(unit, pu, errors, warnings, army.system)
        for unit, pu, (errors, warnings) in zip(
            units, priced.units, priced.issues_by_unit, strict=True
        )
    ]
