"""What a unit's card shows, per system: the roster's cards, the share page's, the unit
picker's preview and the text exports draw from here (SPEC 5).

Every number on a card comes from the engine (`points/`): this module only picks what
each system's players look up during a game and puts it in the order they read it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from django.utils.module_loading import import_string

from armies import aids
from armies.models import Army, StoredUnitPrice, Unit
from points import d10, gem, goms, vsgmr
from points.model import Issue, PricedUnit, Stat
from rules.systems import SYSTEM_PAGES, SystemPages

# Tick boxes on one card; past this a unit tracks losses on the back of the sheet.
MAX_BOXES = 120


@dataclass(frozen=True)
class Boxes:
    """Tick boxes grouped per model (HIT points, men, force points...)."""

    label: str
    groups: tuple[range, ...]
    mark: int = 0  # the group (from 1) where something happens, e.g. the break point
    note: str = ""  # what to do for the boxes left off
    mark_label: str = ""


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
        """The system's card (see gem_card and friends), worked out when it is drawn."""
        return detail(self.system, self.priced)

    @property
    def system_pages(self) -> SystemPages:
        return SYSTEM_PAGES[self.system]


def detail(system: str, priced: StoredUnitPrice | PricedUnit) -> object:
    """What a unit's card shows in its system, by the function its entry names."""
    return import_string(SYSTEM_PAGES[system].unit_card)(priced)


def unit_cards(army: Army, units: list[Unit]) -> list[Card]:
    """A card for each of `units` (live, in list order), with the army's issues about it."""
    priced = army.priced(units)
    return [
        Card(unit, pu, errors, warnings, army.system)
        for unit, pu, (errors, warnings) in zip(
            units, priced.units, priced.issues_by_unit, strict=True
        )
    ]


# ---------------------------------------------------------------- shared helpers


def tick_boxes(
    label: str, per_model: int, models: int, mark: int = 0, mark_label: str = ""
) -> Boxes:
    shown = min(models, MAX_BOXES // per_model) if per_model else 0
    left_off = models - shown
    note = f"{left_off} more: keep count on the back of the sheet" if left_off else ""
    groups = tuple(range(per_model) for _ in range(shown))
    return Boxes(label, groups, mark, note, mark_label)


# ---------------------------------------------------------------- GEM


@dataclass(frozen=True)
class GemCard:
    type: str
    base: str
    stats: tuple[tuple[str, str], ...]
    melee: tuple[tuple[str, str, str], ...]  # name, OFF, ATT
    missile: tuple[dict[str, str], ...]
    hit_rows: tuple[aids.HitRow, ...]
    boxes: tuple[Boxes, ...]
    vehicle: tuple[tuple[str, str], ...] = ()
    handling: aids.Handling | None = None

    @property
    def defs(self) -> range:
        return aids.DEFS


def gem_card(pu: PricedUnit) -> GemCard:
    p: gem.GemProfile = pu.unit.profile  # type: ignore[assignment]
    carried = gem.VEHICLE_FIELDS if p.is_vehicle else gem.FIGURE_FIELDS
    values = ((key, getattr(p, "def_" if key == "def" else key)) for key in gem.STATS)
    # A vehicle's OFF is optional: its card shows one only when it has one.
    stats = tuple(
        (key.upper(), str(value.raw))
        for key, value in values
        if key in carried and value is not None
    )
    melee = tuple(
        (aids.weapon_name(m.name, "Melee", i), str(m.off.raw), str(m.att.raw))
        for i, m in enumerate(p.melee)
    )
    missile = tuple(
        {
            "name": aids.weapon_name(w.name, "Missile", i),
            "off": str(w.off.raw),
            "att": str(w.att.raw),
            "range": str(w.range.raw),
            "radius": str(w.radius.raw) if w.radius.value else "",
            "fire": w.fire.replace("-", " "),
            "heavy": "heavy" if w.heavy else "",
        }
        for i, w in enumerate(p.missile)
    )
    card = GemCard(
        type=p.type,
        base=p.base,
        stats=stats,
        melee=melee,
        missile=missile,
        hit_rows=aids.hit_rows(p),
        boxes=_gemtick_boxes(p, pu.unit.quantity),
    )
    if p.is_vehicle:
        card = _with_vehicle(card, p)
    return card


def _gemtick_boxes(p: gem.GemProfile, quantity: int) -> tuple[Boxes, ...]:
    hit = p.hit.whole
    if hit is None:
        boxes = [Boxes("HIT", (), note=f"rolled ({p.hit.raw}): write it down when rolled")]
    else:
        boxes = [tick_boxes("HIT", hit, quantity)]
    if p.hull_points is not None:
        boxes.append(tick_boxes("Hull points", p.hull_points, quantity))
    return tuple(boxes)


def _with_vehicle(card: GemCard, p: gem.GemProfile) -> GemCard:
    assert p.max_speed is not None
    facts = [("Max speed", aids.shown(p.max_speed, "″")), ("Capacity", aids.shown(p.capacity))]
    optional: tuple[tuple[str, Stat | None, str], ...] = (
        ("Battle speed", p.battle_speed, "″"),
        ("Acc", p.acc, "″"),
        ("Dec", p.dec, "″"),
        ("TRR", p.trr, ""),
        ("Toughness", p.toughness, ""),
    )
    if p.vehicle_class is not None:
        facts.append(("Class", p.vehicle_class.replace("-", " ")))
    facts += [(label, aids.shown(s, unit)) for label, s, unit in optional if s is not None]
    armour = (p.armour_front, p.armour_side, p.armour_rear)
    if any(a is not None for a in armour):
        facts.append(("Armour F/S/R", " / ".join("–" if a is None else str(a) for a in armour)))
    if p.save is not None:
        facts.append(("Save", f"{p.save}+"))
    if p.hull_points is not None:
        facts.append(("Hull points", str(p.hull_points)))
    if p.open_topped:
        facts.append(("Open-topped", "yes"))
    if p.firing_ports is not None:
        facts.append(("Firing ports", str(p.firing_ports)))
    return replace(card, vehicle=tuple(facts), handling=aids.handling(p))


# ---------------------------------------------------------------- VSGMR


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


def vsgmr_card(pu: PricedUnit) -> VsgmrCard:
    p: vsgmr.VsgmrProfile = pu.unit.profile  # type: ignore[assignment]
    figure = f"{p.flavor} guy" if p.is_guy else p.kind
    armour = vsgmr.bought_armor(p)
    facts = [("Armour", armour + (" (free: hero commander)" if p.hero_commander else ""))]
    facts.append(("Distance attack", "yes" if p.distance_attack else "no"))
    if p.automatic_fire:
        facts.append(("Automatic fire", "yes"))
    if p.large:
        facts.append(("Large", "carries its rider and one more guy"))
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


# ---------------------------------------------------------------- G.O.M.S.


@dataclass(frozen=True)
class GomsCard:
    kind: str
    facts: tuple[tuple[str, str], ...]
    acquisition: tuple[tuple[int, str], ...]  # 1d6 score, what it means
    boxes: tuple[Boxes, ...]
    rolls: range  # one write-in box per section or vehicle for its acquisition die


def goms_card(pu: PricedUnit) -> GomsCard:
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


# ---------------------------------------------------------------- d10


@dataclass(frozen=True)
class D10Card:
    skills: tuple[aids.SkillChance, ...]  # stat + d10 reaching 10
    facts: tuple[tuple[str, str], ...]
    weapons: tuple[tuple[str, d10.Weapon | None], ...]
    boxes: tuple[Boxes, ...]
    target: int = d10.TARGET_NUMBER


def d10_card(pu: PricedUnit) -> D10Card:
    p: d10.D10Profile = pu.unit.profile  # type: ignore[assignment]
    facts = [("Defence", str(p.defence)), ("Move", aids.shown(p.move, "″"))]
    if p.leader:
        facts.append(("Leader", "yes"))
    if p.special_vehicle:
        facts.append(("Special vehicle", "yes"))
    return D10Card(
        skills=aids.skill_chances(p),
        facts=tuple(facts),
        weapons=tuple((name, d10.table_weapon(name)) for name in p.weapons),
        boxes=(tick_boxes("Out of action", 1, pu.unit.quantity),),
    )
