"""What the web side does differently for each game system, described once per system.

How a system prices, checks and fights, and how players name and count it, is the
engine's (points.systems.System, reached as `.game`). Everything else the pages need is
the system's own module here (rules/systems/<key>.py), whose ENTRY (a SystemPages, see
entry.py) holds it: its rules page and quick reference, the editor's layout and a new
unit's stat line, the points presets, the picker's ready-made units, the library entries
it keeps, the fight its odds page works out, the templates that draw its own parts of a
page, and its own code: what its unit card, text export, quick reference, blank card,
roster panel and table-mode card show. Those are ordinary functions and objects of its
module, built from rules/ and points/ only, so the apps ask an army's entry and no module
here imports an app. A new system is its engine module, one module here and its
templates; no page or template asks which system it is.
"""

from __future__ import annotations

from rules.systems import d10, gem, goms, vsgmr
from rules.systems.entry import Preset, SystemPages

__all__ = ["DEFAULT_SYSTEM", "SYSTEM_PAGES", "Preset", "SystemPages", "system_of_kind"]

# A new army's system when the address names none.
DEFAULT_SYSTEM = "vsgmr"

SYSTEM_PAGES: dict[str, SystemPages] = {
    module.ENTRY.key: module.ENTRY for module in (gem, vsgmr, goms, d10)
}


def system_of_kind(kind: str) -> str | None:
    """The system a kind of library entry belongs to; None for a figure (any system)."""
    return next((p.key for p in SYSTEM_PAGES.values() if kind in p.library_kinds), None)
