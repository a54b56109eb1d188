"""What the pages draw differently for each game system, described once per system.

How players name and count a system is the engine's (points.systems.System, reached as
`.game`); this adds what only the web pages know: its rules page, the fight its odds page
works out, the odds page its roster links to, and the templates that draw its own parts of
a page. A new system is described here once and given those templates; no page or
template asks which system it is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import points
from rules import pages


@dataclass(frozen=True, slots=True)
class SystemPages:
    key: str
    short: str  # the rules pages' navigation and the fight odds page's title
    catalog_systems: tuple[str, ...]  # the catalog's systems its rules page shows
    rules_context: Callable[[pages.Catalog], dict[str, Any]]  # its rules page's tables
    # The fight its odds page works out, as the page's lead sentence ends; none without one.
    fight: str = ""
    odds_url: str = ""  # the URL name of the odds page its roster links to, if any
    odds_label: str = ""
    # Its cards print hit chances and handling aids, which a print set may leave out.
    card_aids: bool = False

    @property
    def game(self) -> points.systems.System:
        return points.SYSTEMS[self.key]

    @property
    def title(self) -> str:
        return self.game.name

    # Each system's own part of a page, in a template of its own.
    @property
    def unit_profile(self) -> str:
        """A unit's stat line, weapons and traits, compact: share page and unit picker."""
        return f"armies/profile_{self.key}.html"

    @property
    def roster_card(self) -> str:
        """What a unit is, on its roster card and unit card."""
        return f"sharing/roster_{self.key}.html"

    @property
    def blank_card(self) -> str:
        """What a blank card asks to be filled in, under its name, quantity and cost."""
        return f"sharing/blank_{self.key}.html"

    @property
    def quick_reference(self) -> str:
        """The one-page quick reference's columns."""
        return f"sharing/reference_{self.key}.html"


SYSTEM_PAGES: dict[str, SystemPages] = {
    "gem": SystemPages(
        "gem",
        "GEM",
        ("gem", "gemini"),
        pages.gem_context,
        fight="two units in melee, round after round, until one is gone",
        odds_url="odds:table-1",
        odds_label="Table 1 odds",
        card_aids=True,
    ),
    "vsgmr": SystemPages(
        "vsgmr",
        "VSGMR",
        ("vsgmr",),
        pages.vsgmr_context,
        fight="one figure against one, hand to hand or at distance",
    ),
    "goms": SystemPages("goms", "G.O.M.S.", ("goms",), pages.goms_context),
    "d10": SystemPages(
        "d10",
        "d10",
        ("d10",),
        pages.d10_context,
        fight="a close fight, or an exchange of shots",
        odds_url="rules:d10-chances",
        odds_label="d10 chances",
    ),
}
