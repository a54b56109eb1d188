"""d10 on the web side: the unit editor's layout, a model's card and its line in the text
exports, the quick reference and blank card, the roster's army panel (force points and
break point), the table-mode card, and its entry in the registry
(rules/systems/__init__.py). The engine is points/d10.py."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from django.utils.translation import gettext_lazy as _

from points import d10
from points.messages import Text, gettext_noop
from points.model import PricedArmy, PricedUnit
from points.numbers import percent, shown_number
from rules import aids, pages, starters
from rules.aids import D10_LABELS
from rules.cards import YES, ArmyPanel, Boxes, counter, tick_boxes
from rules.layout import Field, Layout, help_text, stat_span
from rules.systems.entry import SystemPages

# ---------------------------------------------------------------- the unit editor


D10_SKILL_HELP = help_text(stat_span(*d10.SKILL_RANGE), f"default {d10.DEFAULT_SKILL}")


LAYOUT = Layout(
    fields=(
        *(Field(key, D10_LABELS[key], "stat", help=D10_SKILL_HELP) for key in d10.SKILLS),
        Field(
            "defence",
            "Defence",
            "stat",
            help=help_text("target number", f"default {d10.DEFAULT_DEFENCE}"),
        ),
        Field("move", "Move", "stat", help=help_text("inches", f"default {d10.DEFAULT_MOVE}")),
        Field("leader", "Leader (2 force points)", "bool"),
        Field("special_vehicle", "Special vehicle (2 force points)", "bool"),
        # One a line: a weapon's name may hold a comma ("Rifle, scoped").
        Field(
            "weapons",
            "Weapons",
            "lines",
            help="one a line",
            most=d10.MAX_WEAPONS * (d10.MAX_WEAPON_NAME + len("\r\n")),
        ),
    ),
)


# ---------------------------------------------------------------- its unit card


@dataclass(frozen=True)
class D10Card:
    skills: tuple[aids.SkillChance, ...]  # stat + d10 reaching 10
    facts: tuple[tuple[str, str], ...]
    weapons: tuple[tuple[str, d10.Weapon | None], ...]
    boxes: tuple[Boxes, ...]
    target: int = d10.TARGET_NUMBER


def unit_card(pu: PricedUnit) -> D10Card:
    p: d10.D10Profile = pu.unit.profile  # type: ignore[assignment]
    facts = [("Defence", str(p.defence)), ("Move", aids.shown(p.move, "″"))]
    if p.leader:
        facts.append(("Leader", YES))
    if p.special_vehicle:
        facts.append(("Special vehicle", YES))
    return D10Card(
        skills=aids.skill_chances(p),
        facts=tuple(facts),
        weapons=tuple((name, d10.table_weapon(name)) for name in p.weapons),
        boxes=(tick_boxes("Out of action", 1, pu.unit.quantity),),
    )


# ---------------------------------------------------------------- its line in the text exports


D10_SHORT = ("CS", "WP", "SH", "CQC", "PH", "AG")


def export_line(card: D10Card) -> str:
    facts = dict(card.facts)
    skills = " ".join(f"{label} {s.stat}" for label, s in zip(D10_SHORT, card.skills, strict=True))
    parts = [skills, f"Defence {facts['Defence']}", f"Move {facts['Move']}"]
    parts += [label.lower() for label in ("Leader", "Special vehicle") if label in facts]
    if card.weapons:
        parts.append(", ".join(name for name, _ in card.weapons))
    return " · ".join(parts)


# ---------------------------------------------------------------- blank card and quick reference


def blank_choices() -> dict:
    return {"d10_stats": ("CS", "WP", "SH", "CQC", "PH", "AG")}


def reference() -> dict:
    stats = range(d10.SKILL_RANGE[0], d10.SKILL_RANGE[1] + 1)
    return {
        "target": d10.TARGET_NUMBER,
        "chances": [(s, percent(d10.success_chance(s))) for s in stats],
        "weapons": d10.WEAPONS,
        "weapon_traits": d10.WEAPON_TRAITS,
        "model": d10.MODEL_POINTS,
        "leader": d10.LEADER_POINTS,
    }


# ---------------------------------------------------------------- its roster's army panel


def roster_panel(priced: PricedArmy) -> ArmyPanel:
    force = priced.total
    half: Fraction = priced.extras["break_point"]  # type: ignore[assignment]
    facts = (
        ("Force points", shown_number(force)),
        (
            "Break point",
            Text(
                gettext_noop("%(half)s: morale tests once this many are downed or dead"),
                half=shown_number(half),
            ),
        ),
    )
    # One box per force point; the box where the break point is reached is marked.
    downed = gettext_noop("Force points downed or dead")
    tally = tick_boxes(downed, 1, int(force), math.ceil(half), gettext_noop("breaks"))
    return ArmyPanel(facts, boxes=(tally,))


# ---------------------------------------------------------------- its table-mode card


def table_card(unit, p, rolled: tuple) -> dict:
    each = int(Fraction(unit.each))  # force points a model: 1, or 2 for leaders
    facts = [("Force points each", str(each))]
    if p.leader:
        facts.append(("Leader", YES))
    if p.special_vehicle:
        facts.append(("Special vehicle", YES))
    counters = [counter("down", "Models downed or dead", unit.quantity, left="standing")]
    return {"facts": facts, "aids": [], "counters": counters, "force_each": each}


# ---------------------------------------------------------------- its entry


ENTRY = SystemPages(
    "d10",
    "d10",
    ("d10",),
    pages.d10_context,
    fight=_("a close fight, or an exchange of shots"),
    odds_url="rules:d10-chances",
    odds_label=_("d10 chances"),
    blurb=_(
        "A ten-sided-die stat line where a force is measured in morale points and "
        "breaks when half of them are gone."
    ),
    weapon_table=starters.D10_WEAPONS,
    starts=starters.d10_starts,
    library_kinds=("d10weapon",),
    no_shot="neither model carries a weapon from the seed's list",
    layout=LAYOUT,
    unit_card=unit_card,
    export_line=export_line,
    reference=reference,
    blank_choices=blank_choices,
    table_card=table_card,
    roster_panel=roster_panel,
)
