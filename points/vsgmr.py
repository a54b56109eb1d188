"""VSGMR v7 — Very Simple Generic Miniatures Rules: figure purchases, traits, super powers."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from points.errors import ArmyFileError
from points.fields import (
    at,
    between,
    boolean,
    choice,
    index,
    items,
    known_keys,
    number,
    obj,
    quoted,
    required,
    text,
)
from points.messages import Text, gettext_noop
from points.model import Entry, Issue, Line, Priced, Stat

# The rules version (SPEC 3.7): move it with any change that prices a valid profile
# differently or makes a check answer differently; tests/points/test_versions.py holds it.
VERSION = "vsgmr/2026.1"

KINDS = ("guy", "cavalry", "vehicle")
FLAVORS = ("troop", "hero", "mook")
ARMORS = ("none", "light", "heavy")
TIERS = ("minor", "major", "superior")
SUPPORT_ROLLS = ("distance", "hand-to-hand", "armor", "skill")

FIGURE_COST = {
    "troop": Fraction(1),
    "hero": Fraction(2),
    "mook": Fraction(1, 2),
    "cavalry": Fraction(2),
    "vehicle": Fraction(3),
}
DISTANCE_ATTACK_COST = Fraction(1)
AUTOMATIC_FIRE_COST = Fraction(1)
GUY_ARMOR_COST = {"none": Fraction(0), "light": Fraction(1), "heavy": Fraction(2)}
MOUNT_ARMOR_COST = {"light": Fraction(0), "heavy": Fraction(1)}  # cavalry and vehicles
TRAIT_COST = Fraction(2)
HOMEBREW_COST = between(0, 20)  # in halves
COMMANDER_FLAVORS = ("troop", "hero")
BALANCE_MARGIN = 5  # two armies are balanced when their totals are within 5 points


@dataclass(frozen=True, slots=True)
class Trait:
    name: str
    summary: str
    cost: Fraction = TRAIT_COST


# Summaries in Muster's own words; the rule texts stay with their authors.
TRAITS = {
    "area-effect-attack": Trait(
        "Area Effect Attack",
        "A hit with a distance attack allows up to two more distance attacks on nearby figures.",
    ),
    "cause-fear": Trait("Cause Fear", "Attackers rolling 1 or 2 fail and back away in fear."),
    "combat-master": Trait(
        "Combat Master", "+1 on hand to hand attacks (+2 for heroes and vehicles)."
    ),
    "disable": Trait(
        "Disable", "Instead of attacking, on 4+ an enemy within range loses its next round."
    ),
    "double-strike": Trait(
        "Double Strike", "A hand to hand hit allows a second hand to hand attack."
    ),
    "flight": Trait(
        "Flight",
        "Moves over rough terrain and obstacles; in flight it cannot be reached hand to hand.",
    ),
    "ignores-armor": Trait("Ignores Armor", "Armoured targets must pass two armour rolls."),
    "independent": Trait(
        "Independent", "A cavalry or vehicle figure that needs no rider or driver."
    ),
    "inspiration": Trait("Inspiration", "Once a round, any friendly figure may reroll one die."),
    "recruit": Trait("Recruit", "A figure it defeats hand to hand changes sides on 5+."),
    "revenge": Trait("Revenge", "When defeated, it strikes back once at its attacker."),
    "sharpshooter": Trait("Sharpshooter", "+1 on distance attacks (+2 for heroes and vehicles)."),
    "sniper": Trait("Sniper", "Distance attacks reach twice as far (24 inches)."),
    "stealth": Trait("Stealth", "Always counts as in cover against distance attacks."),
    "summon": Trait("Summon", "Instead of attacking, on 5+ brings an ally to its side."),
    "support": Trait("Support", "+1 to one chosen kind of roll for itself and allies close by."),
    "tough": Trait("Tough", "+1 on armour rolls (+2 for vehicles)."),
}


@dataclass(frozen=True, slots=True)
class SuperPower:
    name: str
    roll: Text  # what the bigger die is used for
    cost: dict[str, Fraction]  # tier -> points
    guys_only: bool = False


SUPER_POWERS = {
    "super-armor": SuperPower(
        "Super-Armor",
        Text(gettext_noop("armour rolls")),
        {"minor": Fraction(3), "major": Fraction(4), "superior": Fraction(5)},
    ),
    "super-blast": SuperPower(
        "Super-Blast",
        Text(gettext_noop("distance attacks")),
        {"minor": Fraction(2), "major": Fraction(3), "superior": Fraction(4)},
    ),
    "super-fight": SuperPower(
        "Super-Fight",
        Text(gettext_noop("hand to hand attacks")),
        {"minor": Fraction(2), "major": Fraction(3), "superior": Fraction(4)},
    ),
    "super-move": SuperPower(
        "Super-Move",
        Text(gettext_noop("extra movement and initiative")),
        {"minor": Fraction(2), "major": Fraction(3), "superior": Fraction(4)},
    ),
    "super-skill": SuperPower(
        "Super-Skill",
        Text(gettext_noop("skill rolls")),
        {"minor": Fraction(1), "major": Fraction(2), "superior": Fraction(3)},
        guys_only=True,
    ),
}
TIER_DIE = {"minor": "d8", "major": "d10", "superior": "d12"}
# Super-Move is the one power without a bigger die: it adds movement and initiative.
SUPER_MOVE_TIER = {
    "minor": Text(gettext_noop("+½ move unit, +1 initiative")),
    "major": Text(gettext_noop("+1 move unit, +2 initiative")),
    "superior": Text(gettext_noop("+1½ move units, +3 initiative")),
}


def tier_effect(power: str, tier: str) -> Text:
    """What a power does at a tier, in a few words: "d10 for armour rolls"."""
    if power == "super-move":
        return SUPER_MOVE_TIER[tier]
    roll = SUPER_POWERS[power].roll
    return Text(gettext_noop("%(die)s for %(roll)s"), die=TIER_DIE[tier], roll=roll)


# Suggested points per player (SPEC 3.3), by side where a scenario has sides.
SCENARIOS = {
    "basic-game": ("Basic Game", {"": (25, 40)}),
    "escape": ("Escape", {"": (25, 40)}),
    "transport": ("Transport", {"": (25, 40)}),
    "spawning": ("Spawning", {"": (25, 40)}),
    "ambush": ("Ambush", {"ambusher": (25, 25), "target": (40, 40)}),
    "fortress-assault": ("Fortress Assault", {"assaulter": (20, 20), "defender": (40, 40)}),
}

FIELDS = (
    "kind",
    "flavor",
    "commander",
    "distance_attack",
    "automatic_fire",
    "armor",
    "traits",
    "super_powers",
    "large",
    "support_roll",
)
HOMEBREW_FIELDS = ("name", "cost", "text")
MAX_TRAITS = 40
MAX_TRAIT_NAME = 60


@dataclass(frozen=True, slots=True)
class HomebrewTrait:
    name: str
    cost: Stat
    text: str = ""


@dataclass(frozen=True, slots=True)
class VsgmrProfile:
    kind: str
    flavor: str | None = None  # guys only
    commander: bool = False
    distance_attack: bool = False
    automatic_fire: bool = False
    armor: str = "none"  # as chosen; see bought_armor() for what a hero commander gets
    traits: tuple[str | HomebrewTrait, ...] = ()
    super_powers: tuple[tuple[str, str], ...] = ()  # (power, tier), in the order given
    large: bool = False  # cavalry carrying one extra guy
    support_roll: str | None = None

    @property
    def is_guy(self) -> bool:
        return self.kind == "guy"

    @property
    def hero_commander(self) -> bool:
        return self.commander and self.flavor == "hero"

    def has_trait(self, slug: str) -> bool:
        return slug in self.traits


def default_armor(kind: str) -> str:
    return "none" if kind == "guy" else "light"


def bought_armor(p: VsgmrProfile) -> str:
    """A hero commander always has heavy armour, whatever was chosen (SPEC 3.6 (6))."""
    return "heavy" if p.hero_commander else p.armor


# ---------------------------------------------------------------- reading and writing


def parse_profile(raw: object, path: str) -> VsgmrProfile:
    data = obj(raw, path)
    known_keys(data, FIELDS, path)
    kind = choice(required(data, "kind", path), KINDS, at(path, "kind"))
    found: dict[str, object] = {"kind": kind, "armor": default_armor(kind)}
    if kind == "guy":
        found["flavor"] = choice(required(data, "flavor", path), FLAVORS, at(path, "flavor"))
    elif "flavor" in data:
        raise ArmyFileError(at(path, "flavor"), Text(gettext_noop("only guys have a flavor")))
    for key in ("commander", "distance_attack", "automatic_fire"):
        if key in data:
            found[key] = boolean(data[key], at(path, key))
    if "armor" in data:
        found["armor"] = _armor(data["armor"], kind, at(path, "armor"))
    if "traits" in data:
        found["traits"] = _traits(data["traits"], at(path, "traits"))
    if "super_powers" in data:
        found["super_powers"] = _super_powers(data["super_powers"], at(path, "super_powers"))
    if "large" in data:
        if kind != "cavalry":
            raise ArmyFileError(at(path, "large"), Text(gettext_noop("only cavalry can be large")))
        found["large"] = boolean(data["large"], at(path, "large"))
    if "support_roll" in data:
        where = at(path, "support_roll")
        found["support_roll"] = choice(data["support_roll"], SUPPORT_ROLLS, where)
    return VsgmrProfile(**found)  # type: ignore[arg-type]


def _armor(raw: object, kind: str, path: str) -> str:
    armor = choice(raw, ARMORS, path)
    if armor == "none" and kind != "guy":
        raise ArmyFileError(
            path, Text(gettext_noop("cavalry and vehicles always have at least light armour"))
        )
    return armor


def _traits(raw: object, path: str) -> tuple[str | HomebrewTrait, ...]:
    found: list[str | HomebrewTrait] = []
    for i, entry in enumerate(items(raw, path, MAX_TRAITS)):
        where = index(path, i)
        if isinstance(entry, str):
            if entry not in TRAITS:
                raise ArmyFileError(
                    where, Text(gettext_noop("unknown trait %(trait)s"), trait=quoted(entry))
                )
            found.append(entry)
        elif isinstance(entry, dict):
            found.append(_homebrew(entry, where))
        else:
            raise ArmyFileError(
                where, Text(gettext_noop("must be a trait name or a homebrew trait object"))
            )
    return tuple(found)


def _homebrew(raw: dict[str, object], path: str) -> HomebrewTrait:
    data = obj(raw, path)
    known_keys(data, HOMEBREW_FIELDS, path)
    name = text(required(data, "name", path), at(path, "name"), MAX_TRAIT_NAME)
    cost = number(required(data, "cost", path), at(path, "cost"), HOMEBREW_COST)
    if cost.pair[1] not in (1, 2):
        raise ArmyFileError(
            at(path, "cost"), Text(gettext_noop("must be a whole or half number of points"))
        )
    summary = text(data.get("text", ""), at(path, "text"), blank_ok=True)
    return HomebrewTrait(name, cost, summary)


def _super_powers(raw: object, path: str) -> tuple[tuple[str, str], ...]:
    data = obj(raw, path)
    known_keys(data, SUPER_POWERS, path)
    return tuple((power, choice(tier, TIERS, at(path, power))) for power, tier in data.items())


def dump_profile(p: VsgmrProfile) -> dict[str, object]:
    out: dict[str, object] = {"kind": p.kind}
    if p.flavor is not None:
        out["flavor"] = p.flavor
    for key in ("commander", "distance_attack", "automatic_fire", "large"):
        if getattr(p, key):
            out[key] = True
    if p.armor != default_armor(p.kind):
        out["armor"] = p.armor
    if p.traits:
        out["traits"] = [_dump_trait(t) for t in p.traits]
    if p.support_roll is not None:
        out["support_roll"] = p.support_roll
    if p.super_powers:
        out["super_powers"] = dict(p.super_powers)
    return out


def _dump_trait(t: str | HomebrewTrait) -> str | dict[str, object]:
    if isinstance(t, str):
        return t
    out: dict[str, object] = {"name": t.name, "cost": t.cost.raw}
    if t.text:
        out["text"] = t.text
    return out


# ---------------------------------------------------------------- pricing


def price(p: VsgmrProfile) -> Priced:
    """A figure costs the sum of its purchase lines (VSGMR IV-VI)."""
    lines = _purchases(p)
    each = sum((line.value for line in lines), Fraction(0))  # type: ignore[misc]
    return Priced(each, each, lines)


def _purchases(p: VsgmrProfile) -> tuple[Line, ...]:
    lines = [_figure_line(p)]
    if p.distance_attack:
        lines.append(Line(Text(gettext_noop("Distance attack")), DISTANCE_ATTACK_COST))
    if p.automatic_fire:
        lines.append(Line(Text(gettext_noop("Automatic fire")), AUTOMATIC_FIRE_COST))
    armour = _armour_line(p)
    if armour is not None:
        lines.append(armour)
    lines += [_trait_line(t) for t in p.traits]
    lines += [_power_line(power, tier) for power, tier in p.super_powers]
    return tuple(lines)


def _figure_line(p: VsgmrProfile) -> Line:
    if p.is_guy:
        assert p.flavor is not None
        note = Text(gettext_noop("commander")) if p.commander else ""
        return Line(FIGURE_LABELS[p.flavor], FIGURE_COST[p.flavor], note)
    large = gettext_noop("large: carries its rider and one more guy")
    return Line(FIGURE_LABELS[p.kind], FIGURE_COST[p.kind], Text(large) if p.large else "")


# The seed's own words for what a figure is: kept as printed in every language.
FIGURE_LABELS = {
    "troop": Text(gettext_noop("Troop")),
    "hero": Text(gettext_noop("Hero")),
    "mook": Text(gettext_noop("Mook")),
    "cavalry": Text(gettext_noop("Cavalry")),
    "vehicle": Text(gettext_noop("Vehicle")),
}


def _armour_line(p: VsgmrProfile) -> Line | None:
    armor = bought_armor(p)
    if p.hero_commander:
        return Line(Text(gettext_noop("Heavy armour (free for hero commander)")), Fraction(0))
    if p.is_guy:
        if armor == "none":
            return None
        return Line(ARMOUR_LABELS[armor], GUY_ARMOR_COST[armor])
    if armor == "light":
        return Line(Text(gettext_noop("Light armour (free)")), MOUNT_ARMOR_COST[armor])
    return Line(ARMOUR_LABELS["heavy"], MOUNT_ARMOR_COST[armor])


ARMOUR_LABELS = {
    "light": Text(gettext_noop("Light armour")),
    "heavy": Text(gettext_noop("Heavy armour")),
}


def _trait_line(t: str | HomebrewTrait) -> Line:
    if isinstance(t, str):
        return Line(_trait_label(TRAITS[t].name), TRAITS[t].cost)
    if t.text:
        note = Text(gettext_noop("homebrew: %(text)s"), text=t.text)
    else:
        note = Text(gettext_noop("homebrew"))
    return Line(_trait_label(t.name), t.cost.value, note)


def _trait_label(name: str) -> Text:
    # The trait's name as the seed (or the player) wrote it, in every language.
    return Text(gettext_noop("Trait: %(trait)s"), trait=name)


def _power_line(power: str, tier: str) -> Line:
    info = SUPER_POWERS[power]
    label = Text(gettext_noop("%(power)s (%(tier)s)"), power=info.name, tier=tier)
    return Line(label, info.cost[tier], tier_effect(power, tier))


# ---------------------------------------------------------------- army rules


def trait_key(t: str | HomebrewTrait) -> str:
    """What makes two traits the same: "Combat Master" (homebrew) clashes with combat-master."""
    name = t if isinstance(t, str) else t.name
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def facts(p: VsgmrProfile) -> dict[str, object]:
    return {
        "commander": p.commander,
        "guy": p.is_guy,
        "kind": p.kind,
        "flavor": p.flavor,
        "independent": p.has_trait("independent"),
    }


def unit_checks(name: str, p: VsgmrProfile) -> tuple[list[Issue], list[Issue]]:
    warnings = []
    if p.has_trait("support") and p.support_roll is None:
        warnings.append(
            Issue(
                "support-roll-unset",
                Text(
                    gettext_noop(
                        "%(name)s: choose the roll its Support trait helps (distance, hand "
                        "to hand, armour or skill)."
                    ),
                    name=name,
                ),
            )
        )
    return _figure_issues(None, name, p), warnings


def army_checks(entries: Sequence[Entry], options: object) -> tuple[list[Issue], list[Issue]]:
    return _commander_issues(entries), _rider_issues(entries)


def _commander_issues(entries: Sequence[Entry]) -> list[Issue]:
    issues: list[Issue] = []
    count = 0
    extra: int | None = None
    for i, unit in enumerate(entries):
        f = unit.facts
        if not f.get("commander"):
            continue
        count += unit.quantity
        if count > 1 and extra is None:
            extra = i
        if not (f.get("guy") and f.get("flavor") in COMMANDER_FLAVORS):
            if f.get("guy"):
                message = gettext_noop(
                    "%(name)s cannot be the commander: the commander must be a troop or "
                    "hero guy, not a %(what)s."
                )
            else:
                message = gettext_noop(
                    "%(name)s cannot be the commander: the commander must be a troop or "
                    "hero guy, not %(what)s."
                )
            what = str(f.get("flavor") if f.get("guy") else f.get("kind"))
            issues.append(Issue("bad-commander", Text(message, name=unit.name, what=what), i))
    if count == 0:
        issues.insert(
            0,
            Issue(
                "exactly-one-commander",
                Text(
                    gettext_noop(
                        "The army has no commander: name one hero (or troop) guy as commander."
                    )
                ),
            ),
        )
    elif count > 1:
        issues.insert(
            0,
            Issue(
                "exactly-one-commander",
                Text(
                    gettext_noop("The army has %(count)s commanders; it needs exactly one."),
                    count=count,
                ),
                extra,
            ),
        )
    return issues


def _figure_issues(i: int | None, name: str, p: VsgmrProfile) -> list[Issue]:
    issues = []
    if p.automatic_fire and not p.distance_attack:
        issues.append(
            Issue(
                "automatic-fire-needs-distance-attack",
                Text(
                    gettext_noop(
                        "%(name)s has automatic fire but no distance attack to use it with."
                    ),
                    name=name,
                ),
                i,
            )
        )
    counts = Counter(trait_key(t) for t in p.traits)
    for key, times in counts.items():
        if times > 1:
            issues.append(
                Issue(
                    "duplicate-trait",
                    Text(
                        gettext_noop(
                            "%(name)s has the %(trait)s trait %(times)s times; a figure can "
                            "have each trait only once."
                        ),
                        name=name,
                        trait=_trait_name(key),
                        times=times,
                    ),
                    i,
                )
            )
    if p.is_guy and p.has_trait("independent"):
        issues.append(
            Issue(
                "independent-not-for-guys",
                Text(
                    gettext_noop(
                        "%(name)s is a guy; only cavalry and vehicles can be Independent."
                    ),
                    name=name,
                ),
                i,
            )
        )
    for power, _ in p.super_powers:
        info = SUPER_POWERS[power]
        if info.guys_only and not p.is_guy:
            message = Text(
                gettext_noop("%(name)s is %(kind)s; only guys can have %(power)s."),
                name=name,
                kind=p.kind,
                power=info.name,
            )
            issues.append(Issue(f"{power}-guys-only", message, i))
    return issues


def _trait_name(key: str) -> str:
    return TRAITS[key].name if key in TRAITS else key.replace("-", " ").title()


def _rider_issues(entries: Sequence[Entry]) -> list[Issue]:
    guys = mounts = 0
    for unit in entries:
        if unit.facts.get("guy"):
            guys += unit.quantity
        elif not unit.facts.get("independent"):
            mounts += unit.quantity
    if guys >= mounts:
        return []
    return [
        Issue(
            "mounts-need-riders",
            Text(
                gettext_noop(
                    "The army has %(mounts)s cavalry and vehicles that need a rider or driver "
                    "but only %(guys)s guys to ride or drive them."
                ),
                mounts=mounts,
                guys=guys,
            ),
        )
    ]
