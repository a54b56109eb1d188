"""What the web side does differently for each game system, described once per system.

How a system prices, checks and fights, and how players name and count it, is the
engine's (points.systems.System, reached as `.game`). Its entry here says everything else
the pages need: its rules page and quick reference, the editor's layout and a new unit's
stat line, the points presets, the picker's ready-made units, the library entries it
keeps, the fight its odds page works out, and the templates that draw its own parts of a
page. Its own code in the apps (what its unit card, text export, quick reference, blank
card, roster panel and table-mode card show) is named here by dotted path and imported by the app
that asks for it (Django's `import_string`), so this module never imports an app. A new
system is its engine module, an entry here, its templates and the functions its entry
names; no page or template asks which system it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from django.utils.translation import gettext_lazy as _

import points
from points import goms, vsgmr
from rules import pages, starters


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


def _fixed(mapping: Mapping) -> Mapping:
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
    # The unit editor: the dotted path of its layout (armies.profiles.Layout), a new
    # unit's stat line, and the weapons its rows pick from by name: the missile rows'
    # names (`named_weapons`, the row's key and (name, profile) pairs) or a weapon table
    # to add lines from (`weapon_table`, (name, label) pairs).
    layout: str = ""
    default_profile: Mapping[str, Any] = field(default_factory=lambda: _fixed({}))
    named_weapons: tuple[str, tuple[dict, ...]] | None = None
    weapon_table: tuple[tuple[str, str], ...] = ()
    # An army's points presets, by the value the army stores.
    presets: Mapping[str, Preset] = field(default_factory=lambda: _fixed({}))
    # The unit picker's "Rules" choices.
    starts: Callable[[], list[starters.Start]] = list
    # The kinds of library entry that belong to it (LibraryEntry.Kind values).
    library_kinds: tuple[str, ...] = ()
    # Beside the odds page's quantity box where its fight does not read it (SPEC 3.8).
    quantity_help: str = ""
    # Why a fight at distance has no winner when neither side can shoot.
    no_shot: str = ""
    # Its own code in the apps, by dotted path (see the module's docstring): what its unit
    # card shows (from a priced unit), its line in the text exports (from that card), its
    # quick reference's figures, what its blank card offers to circle, its roster's army
    # panel and its table-mode card (from the unit, its profile and its acquisition dice).
    unit_card: str = ""
    export_line: str = ""
    reference: str = ""
    blank_choices: str = ""
    roster_panel: str = "sharing.roster.no_panel"
    table_card: str = ""

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


# A new army's system when the address names none.
DEFAULT_SYSTEM = "vsgmr"

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
        blurb=_(
            "A formula turns offence, defence, hits, morale, magic, move and base size into "
            "points, so any figure can be costed; vehicles use speed, weapons and carrying "
            "capacity."
        ),
        layout="armies.profiles.GEM_LAYOUT",
        default_profile=_fixed({"type": "skirmisher", "base": "25mm", "off": 3, "def": 3}),
        named_weapons=("missile", starters.GEM_WEAPONS),
        starts=starters.gem_starts,
        library_kinds=("weapon",),
        unit_card="armies.unit_cards.gem_card",
        export_line="sharing.exports.gem_line",
        reference="sharing.cards.gem_reference",
        blank_choices="sharing.cards.gem_blank",
        table_card="table.table.gem_card",
    ),
    "vsgmr": SystemPages(
        "vsgmr",
        "VSGMR",
        ("vsgmr",),
        pages.vsgmr_context,
        fight="one figure against one, hand to hand or at distance",
        blurb=_(
            "Guys, cavalry and vehicles bought point by point, with traits, super powers, "
            "fourteen ready-made sample armies and scenarios with suggested points."
        ),
        layout="armies.profiles.VSGMR_LAYOUT",
        default_profile=_fixed({"kind": "guy", "flavor": "troop"}),
        presets=_fixed(
            {
                f"{slug}:{side}" if side else slug: Preset(
                    f"{name} ({side})" if side else name, low, high
                )
                for slug, (name, sides) in vsgmr.SCENARIOS.items()
                for side, (low, high) in sides.items()
            }
        ),
        starts=starters.vsgmr_starts,
        library_kinds=("trait",),
        quantity_help="A duel is one figure against one: quantity is not used",
        no_shot="neither figure has a distance attack",
        unit_card="armies.unit_cards.vsgmr_card",
        export_line="sharing.exports.vsgmr_line",
        reference="sharing.cards.vsgmr_reference",
        blank_choices="sharing.cards.vsgmr_blank",
        table_card="table.table.vsgmr_card",
    ),
    "goms": SystemPages(
        "goms",
        "G.O.M.S.",
        ("goms",),
        pages.goms_context,
        blurb=_(
            "Sections, headquarters, engineers and vehicles at a point each, plus rerolls, "
            "wider set-up zones and digging in, for small, medium and large games."
        ),
        layout="armies.profiles.GOMS_LAYOUT",
        default_profile=_fixed({"kind": "rifle-section"}),
        presets=_fixed(
            {
                size: Preset(f"{size.capitalize()} game", limit, limit, ceiling=True)
                for size, limit in goms.GAME_SIZES.items()
            }
        ),
        starts=starters.goms_starts,
        unit_card="armies.unit_cards.goms_card",
        export_line="sharing.exports.goms_line",
        reference="sharing.cards.goms_reference",
        blank_choices="sharing.cards.goms_blank",
        roster_panel="sharing.roster.goms_panel",
        table_card="table.table.goms_card",
    ),
    "d10": SystemPages(
        "d10",
        "d10",
        ("d10",),
        pages.d10_context,
        fight="a close fight, or an exchange of shots",
        odds_url="rules:d10-chances",
        odds_label="d10 chances",
        blurb=_(
            "A ten-sided-die stat line where a force is measured in morale points and "
            "breaks when half of them are gone."
        ),
        layout="armies.profiles.D10_LAYOUT",
        weapon_table=starters.D10_WEAPONS,
        starts=starters.d10_starts,
        library_kinds=("d10weapon",),
        no_shot="neither model carries a weapon from the seed's list",
        unit_card="armies.unit_cards.d10_card",
        export_line="sharing.exports.d10_line",
        reference="sharing.cards.d10_reference",
        blank_choices="sharing.cards.d10_blank",
        roster_panel="sharing.roster.d10_panel",
        table_card="table.table.d10_card",
    ),
}


def system_of_kind(kind: str) -> str | None:
    """The system a kind of library entry belongs to; None for a figure (any system)."""
    return next((p.key for p in SYSTEM_PAGES.values() if kind in p.library_kinds), None)
