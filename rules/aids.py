"""Table aids for one unit: Table 1 odds, vehicle handling and d10 chances, as text.

The roster sheet and the builder's unit cards (the share page too) show the same
numbers, so they are put into words here once; every number comes from `points/`.
Nothing here touches the database.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.urls import reverse

from points import d10, gem
from points.messages import Text, gettext_noop
from points.model import PricedUnit, Stat
from points.numbers import percent
from points.numbers import shown_number as number

# 45° fine-manoeuvre turns shown for a vehicle: one to four (a full about-face).
FINE_TURNS = range(1, 5)
DEFS = gem.TABLE_RANGE  # Table 1's columns: the target's DEF


def shown(s: Stat, unit: str = "") -> str:
    """A stat as typed, with the average beside a dice expression: 2d6+8″ (avg 15″)."""
    if s.rolled:
        return f"{str(s.raw).strip()}{unit} (avg {number(s.value)}{unit})"
    return f"{number(s.value)}{unit}"


# ---------------------------------------------------------------- GEM Table 1


@dataclass(frozen=True)
class HitRow:
    """The d20 score an attack needs against DEF 1-10 (Table 1), and its chance."""

    label: str
    off: str
    cells: tuple[tuple[int, str], ...] = ()  # (score needed, percent) per DEF
    note: str = ""


def hit_row(label: str, off: Stat) -> HitRow:
    row = gem.table_row(off)
    if row is None:
        note = "rolled: look up Table 1 once rolled" if off.rolled else "no Table 1 row"
        return HitRow(label, str(off.raw), note=note)
    cells = tuple(
        (gem.needed(row, d), percent(chance))
        for d, chance in zip(DEFS, gem.hit_chances(row), strict=True)
    )
    return HitRow(label, str(off.raw), cells)


def weapon_name(name: str, kind: str, i: int) -> str:
    return name or f"{kind} {i + 1}"


def hit_rows(p: gem.GemProfile) -> tuple[HitRow, ...]:
    """A row for the basic attack, each extra melee attack and each missile weapon."""
    rows = [] if p.off is None else [hit_row("Basic attack", p.off)]
    rows += [hit_row(weapon_name(m.name, "Melee", i), m.off) for i, m in enumerate(p.melee)]
    rows += [hit_row(weapon_name(w.name, "Missile", i), w.off) for i, w in enumerate(p.missile)]
    return tuple(rows)


# ---------------------------------------------------------------- Gemini vehicles


@dataclass(frozen=True)
class Handling:
    """A vehicle's handling aids: what the Gemini rules make a player work out mid-move."""

    facts: tuple[tuple[str, str], ...]  # road speed, turn radii, largest turn, reverse
    turns: tuple[tuple[int, str], ...]  # 45° turns made, inches left
    turns_speed: str  # the speed the turns are worked from
    terrain: tuple[tuple[str, str], ...]  # dangerous terrain: up to 6″, above 6″


def handling(p: gem.GemProfile) -> Handling:
    assert p.max_speed is not None
    facts = []
    road = gem.road_speed(p)
    if road is not None and p.vehicle_class in gem.ROAD_CLASSES:
        on_roads = gettext_noop("%(speed)s″ (+%(bonus)s″ on roads, firm ground)")
        facts.append(
            (gettext_noop("Road speed"), Text(on_roads, speed=number(road), bonus=gem.ROAD_BONUS))
        )
    if p.trr is not None:
        trr = p.trr.value
        radii = (
            (gettext_noop("Turn radius at battle speed"), p.battle_speed),
            (gettext_noop("Turn radius at max speed"), p.max_speed),
        )
        for label, s in radii:
            if s is not None:
                facts.append((label, f"{number(gem.turn_radius(trr, s.value))}″"))
        facts.append((gettext_noop("Largest turn per move"), f"{number(gem.largest_turn(trr))}°"))
    if p.max_speed.rolled:
        half = gettext_noop("%(inches)s″ (half the average max speed)")
    else:
        half = gettext_noop("%(inches)s″ (half max speed)")
    reverse = Text(half, inches=number(gem.reverse_limit(p.max_speed.value)))
    facts.append((gettext_noop("Reverse up to"), reverse))
    speed, label = p.max_speed, gettext_noop("max speed %(speed)s")
    if p.battle_speed is not None:
        speed, label = p.battle_speed, gettext_noop("battle speed %(speed)s")
    turns = tuple((n, number(gem.movement_after_turns(speed.value, n))) for n in FINE_TURNS)
    return Handling(tuple(facts), turns, Text(label, speed=shown(speed, "″")), _terrain(p))


def _terrain(p: gem.GemProfile) -> tuple[tuple[str, str], ...]:
    assert p.max_speed is not None
    fastest = max(s.value for s in (p.max_speed, p.battle_speed) if s is not None)
    return _terrain_rows(fastest > gem.DANGEROUS_SPEED)


def _terrain_rows(fast: bool) -> tuple[tuple[str, str], ...]:
    """Dangerous terrain up to 6″, and above it for a vehicle that can go faster."""
    limit = gem.DANGEROUS_SPEED
    slow = gem.dangerous_terrain(Fraction(limit))
    at_most = Text(gettext_noop("Dangerous terrain at %(limit)s″ or less"), limit=limit)
    rows = [(at_most, Text(gettext_noop("%(odds)s immobilised"), odds=_odds(slow.immobilised)))]
    if fast:
        risk = gem.dangerous_terrain(Fraction(limit + 1))  # the same two dice at any speed above
        outcome = gettext_noop(
            "%(stopped)s stopped: %(immobilised)s immobilised, %(destroyed)s destroyed"
        )
        rows.append(
            (
                Text(gettext_noop("Dangerous terrain above %(limit)s″"), limit=limit),
                Text(
                    outcome,
                    stopped=_odds(risk.stopped),
                    immobilised=_odds(risk.immobilised),
                    destroyed=_odds(risk.destroyed),
                ),
            )
        )
    return tuple(rows)


def _odds(chance: Fraction) -> Text:
    """A dice chance as counted and as a percentage: 11 in 36 (≈30.6%)."""
    faces = gem.TERRAIN_DIE if chance.denominator <= gem.TERRAIN_DIE else gem.TERRAIN_DIE**2
    counted = gettext_noop("%(count)s in %(faces)s (%(percent)s%%)")
    return Text(counted, count=number(chance * faces), faces=faces, percent=percent(chance))


# ---------------------------------------------------------------- d10

# The d10 skills' names, as the editor labels them and a card lists their chances.
D10_LABELS = {
    "combat_skill": "Combat Skill",
    "willpower": "Willpower",
    "shooting": "Shooting",
    "cqc": "CQC",
    "physique": "Physique",
    "agility": "Agility",
}


@dataclass(frozen=True)
class SkillChance:
    label: str
    stat: int
    percent: str  # stat + d10 reaching the target number


def skill_chances(p: d10.D10Profile) -> tuple[SkillChance, ...]:
    return tuple(
        SkillChance(D10_LABELS[key], getattr(p, key), _success(getattr(p, key)))
        for key in d10.SKILLS
    )


def _success(stat: int) -> str:
    return percent(d10.success_chance(stat))


# ---------------------------------------------------------------- a builder card


@dataclass(frozen=True)
class CardAids:
    """What a unit card in the builder or on the share page adds below the unit's cost."""

    odds_url: str  # the system's odds calculator
    gem: bool = False  # a GEM unit: link its odds on Table 1
    off: int | None = None  # the first attack's Table 1 row, for that link from a shared page
    handling: Handling | None = None
    skills: tuple[SkillChance, ...] = ()
    target: int = d10.TARGET_NUMBER


def card_aids(pu: PricedUnit) -> CardAids | None:
    p = pu.unit.profile
    if isinstance(p, gem.GemProfile):
        offs = [p.off, *(m.off for m in p.melee), *(w.off for w in p.missile)]
        off = next((row for s in offs if s is not None and (row := gem.table_row(s))), None)
        return CardAids(
            reverse("odds:table-1"),
            gem=True,
            off=off,
            handling=handling(p) if p.is_vehicle else None,
        )
    if isinstance(p, d10.D10Profile):
        return CardAids(reverse("rules:d10-chances"), skills=skill_chances(p))
    return None
