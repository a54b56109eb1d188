"""A fifth system's web side, written as a new system's would be: one module of the shape
of rules/systems/<key>.py, built from rules/ and points/ alone. tests/rules/test_systems.py
registers it (with an engine entry borrowed from GEM's rules and a few templates of its
own) and plays it through the pages, none of which is changed for it."""

from __future__ import annotations

from dataclasses import dataclass

from points.model import PricedArmy, PricedUnit
from points.numbers import shown_number
from rules.cards import ArmyPanel, Boxes, counter, tick_boxes
from rules.layout import Field, Layout
from rules.systems.entry import SystemPages

KEY = "fifth"

LAYOUT = Layout(
    fields=(
        Field("type", "Type", "choice", (("skirmisher", "Skirmisher"),)),
        Field("base", "Base", "choice", (("25mm", "25mm"),)),
        Field("off", "Striking", "stat"),
        Field("def", "Warding", "stat"),
    ),
)


@dataclass(frozen=True)
class FifthCard:
    summary: str
    boxes: tuple[Boxes, ...]


def unit_card(pu: PricedUnit) -> FifthCard:
    p = pu.unit.profile
    summary = f"striking {p.off.raw}, warding {p.def_.raw}"  # type: ignore[attr-defined]
    return FifthCard(summary, (tick_boxes("Fallen", 1, pu.unit.quantity),))


def export_line(card: FifthCard) -> str:
    return f"the fifth way: {card.summary}"


def reference() -> dict:
    return {"motto": "Strike first"}


def blank_choices() -> dict:
    return {"stances": ("striking", "warding")}


def roster_panel(priced: PricedArmy) -> ArmyPanel:
    return ArmyPanel(facts=(("Fifth way's total", shown_number(priced.total)),))


def table_card(unit, p, rolled: tuple) -> dict:
    facts = [("Warding", str(p.def_.raw))]
    counters = [counter("fallen", "Fallen in the fifth way", unit.quantity, left="standing")]
    return {"facts": facts, "aids": [], "counters": counters}


ENTRY = SystemPages(
    KEY,
    "Fifth",
    (),
    lambda catalog: {},
    default_profile={"type": "skirmisher", "base": "25mm", "off": 2, "def": 2},
    layout=LAYOUT,
    unit_card=unit_card,
    export_line=export_line,
    reference=reference,
    blank_choices=blank_choices,
    table_card=table_card,
    roster_panel=roster_panel,
)

# Its own parts of pages, as a new system's templates would draw them.
TEMPLATES = {
    "armies/profile_fifth.html": "<span>{{ unit.name }}: fifth way</span>",
    "sharing/roster_fifth.html": '<p data-testid="fifth-card">{{ d.summary }}</p>',
    "sharing/blank_fifth.html": "{% for s in stances %}<span>{{ s }}</span>{% endfor %}",
    "sharing/reference_fifth.html": '<p data-testid="fifth-motto">{{ ref.motto }}</p>',
}
