"""VSGMR on the web side: the unit editor's layout, a figure's card and its line in the
text exports, the quick reference and blank card, the table-mode card, and its entry in the
registry (rules/systems/__init__.py). The engine is points/vsgmr.py."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from points import vsgmr
from points.messages import Text, gettext_noop
from points.model import PricedUnit
from points.numbers import decimal_text
from rules import pages, starters
from rules.cards import NO, YES, Boxes, counter, tick_boxes
from rules.layout import Field, Layout, Rows, pairs
from rules.systems.entry import Preset, SystemPages, fixed
from rules.words import said

# ---------------------------------------------------------------- the unit editor


def _cost(x) -> str:
    return decimal_text(x) or str(x)


def _vsgmr_powers() -> tuple[Field, ...]:
    out = []
    for slug, power in vsgmr.SUPER_POWERS.items():
        tiers = tuple(
            (
                tier,
                format_lazy(
                    "{tier} ({effect}, +{cost})",
                    tier=tier.capitalize(),
                    effect=said(vsgmr.tier_effect(slug, tier)),
                    cost=_cost(cost),
                ),
            )
            for tier, cost in power.cost.items()
        )
        if power.guys_only:
            note = format_lazy(_("Bigger die for {roll} (guys only)"), roll=said(power.roll))
        else:
            note = format_lazy(_("Bigger die for {roll}"), roll=said(power.roll))
        out.append(
            Field(f"power:{slug}", power.name, "choice", (("", "—"), *tiers), note, "powers")
        )
    return tuple(out)


LAYOUT = Layout(
    fields=(
        Field("kind", "Kind", "choice", pairs(vsgmr.KINDS)),
        Field("flavor", "Flavour", "choice", (("", "—"), *pairs(vsgmr.FLAVORS)), only=("guy",)),
        Field("armor", "Armour", "choice", (("", "Default"), *pairs(vsgmr.ARMORS))),
        Field("commander", "Commander", "bool"),
        Field("distance_attack", "Distance attack (+1)", "bool"),
        Field("automatic_fire", "Automatic fire (+1)", "bool"),
        Field("large", "Large (carries one more guy)", "bool", only=("cavalry",)),
        Field(
            "support_roll",
            "Support roll",
            "choice",
            (("", "—"), *((v, said(label)) for v, label in pairs(vsgmr.SUPPORT_ROLLS))),
            "for the Support trait",
        ),
        Field(
            "traits",
            "Traits",
            "multi",
            tuple((slug, f"{t.name} (+{_cost(t.cost)})") for slug, t in vsgmr.TRAITS.items()),
            group="traits",
        ),
        *_vsgmr_powers(),
    ),
    rows=(
        Rows(
            "homebrew",
            "Homebrew traits",
            (
                Field("name", "Name", "text", help=f"Up to {vsgmr.MAX_TRAIT_NAME} characters."),
                Field("cost", "Cost", "stat"),
                Field("text", "What it does", "text"),
            ),
            vsgmr.MAX_TRAITS,
        ),
    ),
    groups={"main": "Figure", "traits": "Traits", "powers": "Super powers"},
    switch="kind",
)


# ---------------------------------------------------------------- its unit card


@dataclass(frozen=True)
class Reminder:
    name: str
    text: str
    homebrew: bool = False


@dataclass(frozen=True)
class VsgmrCard:
    figure: str
    facts: tuple[tuple[str, str], ...]
    traits: tuple[Reminder, ...]
    powers: tuple[Reminder, ...]
    boxes: tuple[Boxes, ...]


def unit_card(pu: PricedUnit) -> VsgmrCard:
    p: vsgmr.VsgmrProfile = pu.unit.profile  # type: ignore[assignment]
    figure = f"{p.flavor} guy" if p.is_guy else p.kind
    armour = vsgmr.bought_armor(p)
    free = gettext_noop("%(armour)s (free: hero commander)")
    facts = [("Armour", Text(free, armour=armour) if p.hero_commander else armour)]
    facts.append(("Distance attack", YES if p.distance_attack else NO))
    if p.automatic_fire:
        facts.append(("Automatic fire", YES))
    if p.large:
        facts.append(("Large", Text(gettext_noop("carries its rider and one more guy"))))
    if p.support_roll is not None:
        facts.append(("Support roll", p.support_roll.replace("-", " ")))
    traits = tuple(
        Reminder(vsgmr.TRAITS[t].name, vsgmr.TRAITS[t].summary)
        if isinstance(t, str)
        else Reminder(t.name, t.text, homebrew=True)
        for t in p.traits
    )
    return VsgmrCard(
        figure=figure + (" · commander" if p.commander else ""),
        facts=tuple(facts),
        traits=traits,
        powers=tuple(_power(power, tier) for power, tier in p.super_powers),
        boxes=(tick_boxes("Figures", 1, pu.unit.quantity),),
    )


def _power(power: str, tier: str) -> Reminder:
    info = vsgmr.SUPER_POWERS[power]
    return Reminder(f"{info.name} ({tier})", vsgmr.tier_effect(power, tier))


# ---------------------------------------------------------------- its line in the text exports


def export_line(card: VsgmrCard) -> str:
    facts = dict(card.facts)
    armour = facts["Armour"].split(" ")[0]
    parts = [card.figure, "no armour" if armour == "none" else f"{armour} armour"]
    bought = ("Distance attack", "Automatic fire")
    parts += [label.lower() for label in bought if facts.get(label) == "yes"]
    if "Large" in facts:
        parts.append("large")
    if card.traits:
        parts.append("traits: " + ", ".join(t.name for t in card.traits))
    if card.powers:
        parts.append("powers: " + ", ".join(p.name for p in card.powers))
    return " · ".join(parts)


# ---------------------------------------------------------------- blank card and quick reference


def blank_choices() -> dict:
    return {"vsgmr_figures": ("troop", "hero", "mook", "cavalry", "vehicle")}


def reference() -> dict:
    return {
        "figures": list(vsgmr.FIGURE_COST.items()),
        "distance": vsgmr.DISTANCE_ATTACK_COST,
        "automatic": vsgmr.AUTOMATIC_FIRE_COST,
        "guy_armour": vsgmr.GUY_ARMOR_COST,
        "mount_armour": vsgmr.MOUNT_ARMOR_COST,
        "trait_cost": vsgmr.TRAIT_COST,
        "traits": sorted(vsgmr.TRAITS.values(), key=lambda t: t.name),
        "powers": [
            (p.name, p.roll, [p.cost[t] for t in vsgmr.TIERS], p.guys_only)
            for p in vsgmr.SUPER_POWERS.values()
        ],
        "tier_dice": [vsgmr.TIER_DIE[t] for t in vsgmr.TIERS],
        "tiers": vsgmr.TIERS,
        "scenarios": [
            (name, [(side, low, high) for side, (low, high) in sides.items()])
            for name, sides in vsgmr.SCENARIOS.values()
        ],
        "balance": vsgmr.BALANCE_MARGIN,
    }


# ---------------------------------------------------------------- its table-mode card


def table_card(unit, p, rolled: tuple) -> dict:
    figure = f"{p.flavor} guy" if p.is_guy else p.kind
    facts = [("Figure", figure)]
    if p.commander:
        facts.append(("Commander", YES))
    counters = [counter("down", "Figures down", unit.quantity, left="standing")]
    return {"facts": facts, "aids": [], "counters": counters, "commander": p.commander}


# ---------------------------------------------------------------- its entry


ENTRY = SystemPages(
    "vsgmr",
    "VSGMR",
    ("vsgmr",),
    pages.vsgmr_context,
    fight=_("one figure against one, hand to hand or at distance"),
    blurb=_(
        "Guys, cavalry and vehicles bought point by point, with traits, super powers, "
        "fourteen ready-made sample armies and scenarios with suggested points."
    ),
    default_profile=fixed({"kind": "guy", "flavor": "troop"}),
    presets=fixed(
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
    layout=LAYOUT,
    unit_card=unit_card,
    export_line=export_line,
    reference=reference,
    blank_choices=blank_choices,
    table_card=table_card,
)
