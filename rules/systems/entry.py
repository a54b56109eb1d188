"""A system's entry: everything the web side does differently for it, in one frozen
SystemPages. Each system's module beside this one (rules/systems/<key>.py) builds its
entry from its own parts; rules/systems/__init__.py gathers them in SYSTEM_PAGES."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import points
from points.model import PricedArmy
from rules import pages, starters
from rules.cards import ArmyPanel, no_panel
from rules.layout import Layout


@dataclass(frozen=True)
class Preset:
    """A VSGMR scenario (one side of it) or a G.O.M.S. game size, and its points."""

    name: str  # Fortress Assault (assaulter), Medium game
    low: int
    high: int
    ceiling: bool = False  # the most an army may spend (a game size), not a suggested range

    @property
    def points(self) -> str:
        return f"{self.low}" if self.low == self.high else f"{self.low}–{self.high}"


def fixed(mapping: Mapping) -> Mapping:
    return MappingProxyType(dict(mapping))


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
    blurb: str = ""  # what the home page says of it, under its name
    # The unit editor: a new unit's stat line, and the weapons its rows pick from by name:
    # the missile rows' names (`named_weapons`, the row's key and (name, profile) pairs) or
    # a weapon table to add lines from (`weapon_table`, (name, label) pairs).
    default_profile: Mapping[str, Any] = field(default_factory=lambda: fixed({}))
    named_weapons: tuple[str, tuple[dict, ...]] | None = None
    weapon_table: tuple[tuple[str, str], ...] = ()
    # An army's points presets, by the value the army stores.
    presets: Mapping[str, Preset] = field(default_factory=lambda: fixed({}))
    # The unit picker's "Rules" choices.
    starts: Callable[[], list[starters.Start]] = list
    # The kinds of library entry that belong to it (LibraryEntry.Kind values).
    library_kinds: tuple[str, ...] = ()
    # Beside the odds page's quantity box where its fight does not read it (SPEC 3.8).
    quantity_help: str = ""
    # Why a fight at distance has no winner when neither side can shoot.
    no_shot: str = ""
    # What its army's roster prints under the header (rules.cards.ArmyPanel).
    roster_panel: Callable[[PricedArmy], ArmyPanel] = no_panel
    # Its own parts of the pages, which every system has (see its module): the unit
    # editor's layout, what its unit card shows (from a priced unit), its line in the text
    # exports (from that card), its quick reference's figures, what its blank card offers
    # to circle, and its table-mode card (from the unit, its profile and its acquisition
    # dice).
    layout: Layout = field(kw_only=True)
    unit_card: Callable[[Any], object] = field(kw_only=True)
    export_line: Callable[[Any], str] = field(kw_only=True)
    reference: Callable[[], dict[str, Any]] = field(kw_only=True)
    blank_choices: Callable[[], dict[str, Any]] = field(kw_only=True)
    table_card: Callable[[Any, Any, tuple], dict] = field(kw_only=True)

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
