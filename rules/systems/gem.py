"""GEM (and Gemini's vehicles) on the web side: the unit editor's layout, a unit's card
and its line in the text exports, the quick reference and blank card, the table-mode card,
and its entry in the registry (rules/systems/__init__.py). The engine is points/gem.py."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, replace

from django.utils.translation import gettext_lazy as _

from points import gem
from points.messages import Text, gettext_noop
from points.model import PricedUnit, Stat
from rules import aids, pages, starters
from rules.cards import YES, Boxes, counter, tick_boxes
from rules.layout import VEHICLE, Field, Layout, Rows, help_text, pairs, stat_span
from rules.systems.entry import SystemPages, fixed

# ---------------------------------------------------------------- the unit editor


# What a GEM stat is when left empty: the engine's profile defaults.
_GEM_DEFAULTS = {
    f.name: f.default for f in dataclasses.fields(gem.GemProfile) if isinstance(f.default, Stat)
}


def _gem_help(key: str, what: str = "", only: str = "") -> str:
    """A GEM stat's help from the engine: its range (when bounded) and its default."""
    allowed = gem.STATS.get(key) or gem.VEHICLE_STATS[key]
    span = ""
    if allowed.low is not None and allowed.high is not None:
        span = stat_span(allowed.low, allowed.high)
    default = _GEM_DEFAULTS.get(key)
    return help_text(what, span, "" if default is None else f"default {default}", only=only)


LAYOUT = Layout(
    fields=(
        Field("type", "Type", "choice", pairs(gem.TYPES)),
        Field("base", "Base", "choice", pairs(gem.BASES)),
        Field("off", "OFF", "stat", help=_gem_help("off", only="optional for vehicles")),
        Field("def", "DEF", "stat", help=_gem_help("def")),
        Field("att", "ATT", "stat", help=_gem_help("att"), not_for=VEHICLE),
        Field("hit", "HIT", "stat", help=_gem_help("hit")),
        Field("mor", "MOR", "stat", help=_gem_help("mor")),
        Field("mag", "MAG", "stat", help=_gem_help("mag")),
        Field("mov", "MOV", "stat", help=_gem_help("mov")),
        Field("siz", "SIZ", "stat", help=_gem_help("siz", "models it stands for"), not_for=VEHICLE),
        Field("max_speed", "Max speed", "stat", help="required", group="vehicle", only=VEHICLE),
        Field(
            "capacity",
            "Capacity",
            "stat",
            help=_gem_help("capacity"),
            group="vehicle",
            only=VEHICLE,
        ),
        Field("acc", "Acc", "stat", group="vehicle", only=VEHICLE),
        Field("dec", "Dec", "stat", group="vehicle", only=VEHICLE),
        Field("battle_speed", "Battle speed", "stat", group="vehicle", only=VEHICLE),
        Field(
            "vehicle_class",
            "Vehicle class",
            "choice",
            (("", "—"), *pairs(gem.VEHICLE_CLASSES)),
            group="vehicle",
            only=VEHICLE,
        ),
        Field("trr", "TRR", "stat", help="turn radius ratio", group="vehicle", only=VEHICLE),
        Field("armour_front", "Armour front", "int", group="vehicle", only=VEHICLE),
        Field("armour_side", "Armour side", "int", group="vehicle", only=VEHICLE),
        Field("armour_rear", "Armour rear", "int", group="vehicle", only=VEHICLE),
        Field("toughness", "Toughness", "stat", group="vehicle", only=VEHICLE),
        Field("save", "Save", "int", help="e.g. 3 for 3+", group="vehicle", only=VEHICLE),
        Field("hull_points", "Hull points", "int", group="vehicle", only=VEHICLE),
        Field("firing_ports", "Firing ports", "int", group="vehicle", only=VEHICLE),
        Field("open_topped", "Open-topped", "bool", group="vehicle", only=VEHICLE),
    ),
    rows=(
        Rows(
            "melee",
            "Extra melee attacks",
            (
                Field("name", "Name", "text"),
                Field("off", "OFF", "stat"),
                Field("att", "ATT", "stat"),
            ),
            gem.MAX_ATTACKS,
            not_for=VEHICLE,
        ),
        Rows(
            "missile",
            "Missile weapons",
            (
                Field("name", "Name", "text"),
                Field("off", "OFF", "stat"),
                Field("att", "ATT", "stat"),
                Field("range", "Range", "stat"),
                Field("radius", "Radius", "stat"),
                Field("fire", "Fires", "choice", pairs(gem.FIRES)),
                Field("heavy", "Heavy", "bool"),
            ),
            gem.MAX_ATTACKS,
        ),
    ),
    groups={"main": "Stat line", "vehicle": "Vehicle"},
    switch="type",
)


# ---------------------------------------------------------------- its unit card


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


def unit_card(pu: PricedUnit) -> GemCard:
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
        rolled = gettext_noop("rolled (%(hit)s): write it down when rolled")
        boxes = [Boxes("HIT", (), note=Text(rolled, hit=p.hit.raw))]
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
        facts.append(("Open-topped", YES))
    if p.firing_ports is not None:
        facts.append(("Firing ports", str(p.firing_ports)))
    return replace(card, vehicle=tuple(facts), handling=aids.handling(p))


# ---------------------------------------------------------------- its line in the text exports


def export_line(card: GemCard) -> str:
    parts = [f"{card.type}, {card.base} base", " ".join(f"{k} {v}" for k, v in card.stats)]
    if card.vehicle:
        parts.append(", ".join(f"{k.lower()} {v}" for k, v in card.vehicle[:2]))
    for name, off, att in card.melee:
        parts.append(f"{name} (melee, OFF {off}, ATT {att})")
    for w in card.missile:
        extra = [f"radius {w['radius']}″"] if w["radius"] else []
        extra += [w["fire"]] if w["fire"] != "every turn" else []
        extra += [w["heavy"]] if w["heavy"] else []
        shown = ", ".join([f"OFF {w['off']}", f"ATT {w['att']}", f"{w['range']}″", *extra])
        parts.append(f"{w['name']} ({shown})")
    return " · ".join(parts)


# ---------------------------------------------------------------- blank card and quick reference


def blank_choices() -> dict:
    return {
        "gem_stats": [key.upper() for key in gem.STATS],
        "gem_types": list(gem.TYPE_MOD),
        "gem_bases": list(gem.BASE_MOD),
    }


def reference() -> dict:
    return {
        "table_1": pages.table_1(),
        "defs": gem.TABLE_RANGE,
        "base_mods": list(gem.BASE_MOD.items()),
        "type_mods": list(gem.TYPE_MOD.items()),
        "fire_divisors": [(f.replace("-", " "), d) for f, d in gem.FIRE_DIVISOR.items()],
        "heavy": gem.HEAVY_WEAPON,
        "area": gem.AREA_BONUS,
    }


# ---------------------------------------------------------------- its table-mode card


def table_card(unit, p: gem.GemProfile, rolled: tuple) -> dict:
    vehicle = p.is_vehicle
    # SIZ miniatures a profile (SPEC 3.6 (1)); a rolled SIZ counts as one until rolled.
    models = unit.quantity * (1 if vehicle else (p.siz.whole or 1))
    noun = "vehicle" if vehicle else "model"
    hit = p.hit.whole
    counters = []
    if hit is None:  # a rolled HIT: the player writes it down and keeps count
        counters.append(counter("hits", f"HIT lost (rolled {p.hit.raw})", models * 1000))
    else:
        counters.append(counter("hits", f"HIT lost ({hit} a {noun})", models * hit, hit))
    if vehicle and p.hull_points is not None:
        hull = p.hull_points
        counters.append(counter("hull", f"Hull points lost ({hull} each)", models * hull, hull))
    counters.append(counter("removed", f"{noun.capitalize()}s removed", models, left="left"))
    facts = [("Type", f"{p.type} · {p.base}"), (noun.capitalize() + "s", str(models))]
    shown = (("OFF", p.off), ("DEF", p.def_))
    facts += [(label, str(stat.raw)) for label, stat in shown if stat is not None]
    handling = []
    if vehicle:
        h = aids.handling(p)
        handling = [
            *h.facts,
            *((f"After {n} × 45° turns ({h.turns_speed})", f"{left}″") for n, left in h.turns),
        ]
    return {"facts": facts, "aids": handling, "counters": counters}


# ---------------------------------------------------------------- its entry


ENTRY = SystemPages(
    "gem",
    "GEM",
    ("gem", "gemini"),
    pages.gem_context,
    fight=_("two units in melee, round after round, until one is gone"),
    odds_url="odds:table-1",
    odds_label=_("Table 1 odds"),
    card_aids=True,
    blurb=_(
        "A formula turns offence, defence, hits, morale, magic, move and base size into "
        "points, so any figure can be costed; vehicles use speed, weapons and carrying "
        "capacity."
    ),
    default_profile=fixed({"type": "skirmisher", "base": "25mm", "off": 3, "def": 3}),
    named_weapons=("missile", starters.GEM_WEAPONS),
    starts=starters.gem_starts,
    library_kinds=("weapon",),
    layout=LAYOUT,
    unit_card=unit_card,
    export_line=export_line,
    reference=reference,
    blank_choices=blank_choices,
    table_card=table_card,
)
