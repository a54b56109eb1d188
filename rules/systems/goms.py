"""G.O.M.S. on the web side: the unit editor's layout, a unit's card and its line in the
text exports, the quick reference and blank card, the roster's army panel, the table-mode
card, and its entry in the registry (rules/systems/__init__.py). The engine is
points/goms.py."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from points import goms
from points.messages import Text, gettext_noop
from points.model import PricedArmy, PricedUnit
from rules import pages, starters
from rules.cards import MAX_BOXES, NO, YES, ArmyPanel, Boxes, counter, tick_boxes
from rules.layout import VEHICLE, Field, Layout, pairs
from rules.systems.entry import Preset, SystemPages, fixed

# G.O.M.S. make-up Muster tracks (its reading): a rifle section carries one LMG, and an HQ
# section's specialist teams are those listed before its riflemen (points.goms.HQ_TEAMS).
LMGS_PER_SECTION = 1
HQ_TEAM_COUNT = {"platoon-hq": 4, "company-hq": 5}


# ---------------------------------------------------------------- the unit editor


LAYOUT = Layout(
    fields=(
        Field("kind", "Kind", "choice", tuple(goms.KIND_NAMES.items())),
        Field(
            "vehicle_class",
            "Vehicle class",
            "choice",
            (("", "—"), *pairs(goms.VEHICLE_CLASSES)),
            only=VEHICLE,
        ),
        Field(
            "morale",
            "Morale",
            "choice",
            (
                ("", "Default"),
                *((k, f"{goms.MORALE_NAMES[k]} ({v})") for k, v in goms.MORALE.items()),
            ),
            not_for=VEHICLE,
        ),
        Field("men", "Men", "int", not_for=VEHICLE),
    ),
    switch="kind",
)


# ---------------------------------------------------------------- its unit card


@dataclass(frozen=True)
class GomsCard:
    kind: str
    facts: tuple[tuple[str, str], ...]
    acquisition: tuple[tuple[int, str], ...]  # 1d6 score, what it means
    boxes: tuple[Boxes, ...]
    rolls: range  # one write-in box per section or vehicle for its acquisition die


def unit_card(pu: PricedUnit) -> GomsCard:
    p: goms.GomsProfile = pu.unit.profile  # type: ignore[assignment]
    quantity = pu.unit.quantity
    facts = []
    if p.vehicle_class is not None:
        facts.append(("Class", p.vehicle_class.replace("-", " ")))
    if p.morale is not None:
        facts.append(("Morale", f"{goms.MORALE_NAMES[p.morale]} ({p.morale_value})"))
    if p.men is not None:
        facts.append(("Men", str(p.men)))
    elif p.kind in goms.HQ_TEAMS:
        facts.append(("Make-up", goms.HQ_TEAMS[p.kind]))
    row = goms.ACQUISITION[goms.acquisition_row(p)]
    boxes = () if p.men is None else (tick_boxes("Men", p.men, quantity),)
    return GomsCard(
        kind=goms.KIND_NAMES[p.kind],
        facts=tuple(facts),
        acquisition=tuple(enumerate(row, start=1)),
        boxes=boxes,
        rolls=range(min(quantity, MAX_BOXES)),
    )


# ---------------------------------------------------------------- its line in the text exports


def export_line(card: GomsCard) -> str:
    facts = dict(card.facts)
    parts = [card.kind]
    if "Class" in facts:
        parts.append(f"{facts['Class']} class")
    if "Morale" in facts:
        parts.append(facts["Morale"])
    if "Men" in facts:
        parts.append(f"{facts['Men']} men")
    return " · ".join(parts)


# ---------------------------------------------------------------- blank card and quick reference


def blank_choices() -> dict:
    return {
        "goms_kinds": list(goms.KIND_NAMES.values()),
        "morale": [(goms.MORALE_NAMES[k], v) for k, v in goms.MORALE.items()],
    }


def reference() -> dict:
    return {
        "unit_cost": goms.UNIT_COST,
        "reroll": goms.REROLL_COST,
        "extension": goms.SETUP_EXTENSION_COST,
        "extension_inches": goms.SETUP_EXTENSION_INCHES,
        "extensions_max": goms.MAX_SETUP_EXTENSIONS,
        "dug_in": goms.DUG_IN_COST,
        "sizes": list(goms.GAME_SIZES.items()),
        "morale": [(goms.MORALE_NAMES[k], v) for k, v in goms.MORALE.items()],
        "platoon": goms.PLATOON_SECTIONS,
        "per_company": goms.PLATOONS_PER_COMPANY_HQ,
        "acquisition": [(goms.ACQUISITION_NAMES[k], row) for k, row in goms.ACQUISITION.items()],
        "faces": range(1, 7),
    }


# ---------------------------------------------------------------- its roster's army panel


def roster_panel(priced: PricedArmy) -> ArmyPanel:
    options: goms.GomsOptions = priced.army.options  # type: ignore[assignment]
    allowed = priced.extras["allowances"]
    size = priced.extras["game_size"]
    # The zone bought, as the purchases line prices it; past the most allowed, both.
    bought = options.setup_extensions * goms.SETUP_EXTENSION_INCHES
    most: int = allowed["setup_zone_inches"]  # type: ignore[index]
    zone = (
        f"+{bought}″"
        if bought <= most
        else Text(
            gettext_noop("+%(bought)s″ bought, only +%(most)s″ allowed"), bought=bought, most=most
        )
    )
    game_size = (
        Text(
            gettext_noop("%(size)s (up to %(most)s points)"), size=size, most=goms.GAME_SIZES[size]
        )
        if size
        else Text(gettext_noop("over large"))
    )
    facts = [
        ("Game size", game_size),
        ("Platoons", str(allowed["platoons"])),  # type: ignore[index]
        ("Set-up zone extension", zone),
        ("Dug in", YES if options.dug_in else NO),
    ]
    lines = tuple((line.label, line.value, line.note) for line in priced.option_lines)
    boxes = (tick_boxes("Rerolls used", 1, options.rerolls),) if options.rerolls else ()
    return ArmyPanel(tuple(facts), lines, boxes)


# ---------------------------------------------------------------- its table-mode card


def table_card(unit, p: goms.GomsProfile, rolled: tuple) -> dict:
    """Men, LMGs and vehicles from what the acquisition roll left (`rolled`: this unit's
    dice of the latest roll still matching the army, or none)."""
    quantity, dice = unit.quantity, [d.roll.die - 1 for d in rolled]
    facts, counters = [], []
    if p.morale is not None:
        facts.append(("Morale", f"{goms.MORALE_NAMES[p.morale]} ({p.morale_value})"))
    row = goms.acquisition_row(p)
    if p.men is not None:
        men = p.men * quantity
        lost = min(men, sum(goms.MEN_LOST[i] for i in dice)) if row == "infantry" else 0
        facts.append(("Men at the start", f"{men - lost} of {men}" + _acq(lost)))
        counters.append(counter("men", "Men lost in the game", men - lost, left="men left"))
    if p.kind == "rifle-section":
        lmgs = LMGS_PER_SECTION * quantity
        lost = min(lmgs, sum(goms.LMGS_LOST[i] for i in dice))
        facts.append(("LMGs at the start", f"{lmgs - lost} of {lmgs}" + _acq(lost)))
        counters.append(counter("lmgs", "LMGs lost in the game", lmgs - lost, left="LMGs left"))
    if p.kind in HQ_TEAM_COUNT:
        facts.append(("Make-up", goms.HQ_TEAMS[p.kind]))
    if row == "specialists":
        teams = HQ_TEAM_COUNT.get(p.kind, 0) * quantity
        lost = sum(goms.TEAMS_LOST[i] for i in dice)
        if teams:
            lost = min(lost, teams)
            facts.append(("Teams at the start", f"{teams - lost} of {teams}" + _acq(lost)))
            counters.append(counter("teams", "Teams lost in the game", teams - lost, left="left"))
        elif lost:
            facts.append(("Specialist teams lost before the game", str(lost)))
    if p.vehicle_class is not None:
        arrives = [goms.ARRIVES_ON[row][i] for i in dice]
        missing = arrives.count(None)
        late = sorted(a for a in arrives if a)
        facts.append(("Class", p.vehicle_class.replace("-", " ")))
        if dice:
            facts.append(("Present", f"{quantity - missing} of {quantity}" + _acq(missing)))
        if late:
            facts.append(("Arriving later on", ", ".join(f"{n}+" for n in late)))
        counters.append(
            counter("destroyed", "Vehicles destroyed", quantity - missing, left="present")
        )
    return {"facts": facts, "aids": [], "counters": counters}


def _acq(lost: int) -> str:
    return f" (the acquisition roll took {lost})" if lost else ""


# ---------------------------------------------------------------- its entry


ENTRY = SystemPages(
    "goms",
    "G.O.M.S.",
    ("goms",),
    pages.goms_context,
    blurb=_(
        "Sections, headquarters, engineers and vehicles at a point each, plus rerolls, "
        "wider set-up zones and digging in, for small, medium and large games."
    ),
    default_profile=fixed({"kind": "rifle-section"}),
    presets=fixed(
        {
            size: Preset(f"{size.capitalize()} game", limit, limit, ceiling=True)
            for size, limit in goms.GAME_SIZES.items()
        }
    ),
    starts=starters.goms_starts,
    layout=LAYOUT,
    unit_card=unit_card,
    export_line=export_line,
    reference=reference,
    blank_choices=blank_choices,
    table_card=table_card,
    roster_panel=roster_panel,
)
