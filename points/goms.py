"""G.O.M.S. WWII skirmish: buying forces, HQ allowances and the acquisition roll (SPEC 3.4)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from points.errors import ArmyFileError
from points.fields import at, boolean, choice, known_keys, obj, required, whole
from points.messages import Text, gettext_noop
from points.model import Entry, Issue, Line, Priced

# The rules version (SPEC 3.7): move it with any change that prices a valid profile
# differently or makes a check answer differently; tests/points/test_versions.py holds it.
VERSION = "goms/2026.1"

KINDS = ("rifle-section", "platoon-hq", "company-hq", "engineer-section", "vehicle")
KIND_NAMES = {
    "rifle-section": "Rifle section",
    "platoon-hq": "Platoon HQ section",
    "company-hq": "Company HQ section",
    "engineer-section": "Engineer section",
    "vehicle": "Vehicle",
}
VEHICLE_CLASSES = ("soft-skin", "light", "medium", "heavy")
MORALE = {
    "unwilling-conscript": 6,
    "trained": 7,
    "veteran": 8,
    "seasoned-veteran": 9,
    "elite": 10,
}
MORALE_NAMES = {
    "unwilling-conscript": "Unwilling conscript",
    "trained": "Trained but green",
    "veteran": "Veteran",
    "seasoned-veteran": "Seasoned veteran",
    "elite": "Highly motivated elite",
}
DEFAULT_MORALE = "trained"
# Men in a section unless the player says otherwise; HQ make-up is listed in HQ_TEAMS.
DEFAULT_MEN = {"rifle-section": 10, "engineer-section": 10}
MAX_MEN = 100
HQ_TEAMS = {
    "platoon-hq": "sniper team, light mortar and team, MMG, AT team, 4 riflemen",
    "company-hq": "sniper team, AT gun, medium mortar, MMG or HMG, AT team, 4 riflemen",
}

GAME_SIZES = {"small": 5, "medium": 12, "large": 30}
UNIT_COST = Fraction(1)  # every section and vehicle
REROLL_COST = Fraction(1)
SETUP_EXTENSION_COST = Fraction(1)
SETUP_EXTENSION_INCHES = 8
MAX_SETUP_EXTENSIONS = 3  # the set-up zone grows to at most 24"
DUG_IN_COST = Fraction(1)
PLATOON_SECTIONS = 4  # a platoon is 4 rifle sections (SPEC 3.6 (8))
PLATOONS_PER_COMPANY_HQ = 3
MAX_OPTION = 1000

FIELDS = ("kind", "vehicle_class", "morale", "men")
OPTION_FIELDS = ("rerolls", "setup_extensions", "dug_in")

# Acquisition and manpower: what a 1d6 roll (1..6) means for each kind of unit, as
# numbers (index = die - 1); the words players read are written from them below.
MEN_LOST = (4, 3, 3, 2, 1, 0)  # infantry
LMGS_LOST = (1, 1, 0, 0, 0, 0)  # infantry
TEAMS_LOST = (2, 1, 1, 0, 0, 0)  # HQ and engineer specialist teams
# Vehicles: None = doesn't show, 0 = starts on table, n = arrives on an n+ (a d6 each turn).
ARRIVES_ON = {
    "soft-skin": (None, 4, 0, 0, 0, 0),
    "light": (None, 5, 4, 0, 0, 0),
    "medium": (None, 6, 5, 4, 0, 0),
    "heavy": (None, None, 6, 5, 4, 0),
}


def _losses(count: int, one: str, many: str, lmg: int = 0) -> str:
    if not count:
        return "Full strength"
    return f"Lose {count} {one if count == 1 else many}" + (" and an LMG" if lmg else "")


def _arrival(arrives: int | None) -> str:
    if arrives is None:
        return "Doesn't show"
    return f"Arrives on a {arrives}+" if arrives else "Starts on table"


ACQUISITION = {
    "infantry": tuple(
        _losses(n, "man", "men", lmg) for n, lmg in zip(MEN_LOST, LMGS_LOST, strict=True)
    ),
    **{row: tuple(map(_arrival, arrives)) for row, arrives in ARRIVES_ON.items()},
    "specialists": tuple(_losses(n, "team", "teams") for n in TEAMS_LOST),
}
ACQUISITION_NAMES = {
    "infantry": "Rifle sections",
    "soft-skin": "Soft-skin vehicles",
    "light": "Light armour",
    "medium": "Medium armour",
    "heavy": "Heavy armour",
    "specialists": "HQ and engineer teams",
}


@dataclass(frozen=True, slots=True)
class GomsProfile:
    kind: str
    vehicle_class: str | None = None  # vehicles only
    morale: str | None = None  # every kind but vehicles; "trained" unless given
    men: int | None = None  # rifle and engineer sections default to 10

    @property
    def morale_value(self) -> int | None:
        return None if self.morale is None else MORALE[self.morale]


@dataclass(frozen=True, slots=True)
class GomsOptions:
    rerolls: int = 0
    setup_extensions: int = 0
    dug_in: bool = False


# ---------------------------------------------------------------- reading and writing


def parse_profile(raw: object, path: str) -> GomsProfile:
    data = obj(raw, path)
    known_keys(data, FIELDS, path)
    kind = choice(required(data, "kind", path), KINDS, at(path, "kind"))
    if kind == "vehicle":
        for key in ("morale", "men"):
            if key in data:
                raise ArmyFileError(
                    at(path, key), Text(gettext_noop("vehicles have no %(field)s"), field=key)
                )
        where = at(path, "vehicle_class")
        vehicle_class = choice(required(data, "vehicle_class", path), VEHICLE_CLASSES, where)
        return GomsProfile(kind, vehicle_class=vehicle_class)
    if "vehicle_class" in data:
        raise ArmyFileError(
            at(path, "vehicle_class"), Text(gettext_noop("only vehicles have a vehicle class"))
        )
    morale = choice(data.get("morale", DEFAULT_MORALE), MORALE, at(path, "morale"))
    men = DEFAULT_MEN.get(kind)
    if "men" in data:
        men = whole(data["men"], at(path, "men"), 1, MAX_MEN)
    return GomsProfile(kind, morale=morale, men=men)


def dump_profile(p: GomsProfile) -> dict[str, object]:
    out: dict[str, object] = {"kind": p.kind}
    if p.vehicle_class is not None:
        out["vehicle_class"] = p.vehicle_class
    if p.morale is not None and p.morale != DEFAULT_MORALE:
        out["morale"] = p.morale
    if p.men is not None and p.men != DEFAULT_MEN.get(p.kind):
        out["men"] = p.men
    return out


def parse_options(raw: object, path: str) -> GomsOptions:
    data = obj(raw, path)
    known_keys(data, OPTION_FIELDS, path)
    found: dict[str, object] = {}
    for key in ("rerolls", "setup_extensions"):
        if key in data:
            found[key] = whole(data[key], at(path, key), 0, MAX_OPTION)
    if "dug_in" in data:
        found["dug_in"] = boolean(data["dug_in"], at(path, "dug_in"))
    return GomsOptions(**found)  # type: ignore[arg-type]


def dump_options(o: GomsOptions) -> dict[str, object]:
    out: dict[str, object] = {}
    if o.rerolls:
        out["rerolls"] = o.rerolls
    if o.setup_extensions:
        out["setup_extensions"] = o.setup_extensions
    if o.dug_in:
        out["dug_in"] = True
    return out


# ---------------------------------------------------------------- pricing


def price(p: GomsProfile) -> Priced:
    """Every section and vehicle costs 1 point; officers and NCOs come free."""
    lines = [Line(_unit_label(p), UNIT_COST, _unit_note(p))]
    if p.kind == "platoon-hq":
        lines.append(Line(Text(gettext_noop("Platoon officer and NCO")), Fraction(0), _FREE))
    elif p.kind == "company-hq":
        lines.append(Line(Text(gettext_noop("Company officer and NCO")), Fraction(0), _FREE))
    return Priced(UNIT_COST, UNIT_COST, tuple(lines))


_FREE = Text(gettext_noop("always free"))


def _unit_label(p: GomsProfile) -> str:
    # The seed's names of kinds, classes, grades and teams stay as printed, in every language.
    if p.vehicle_class is not None:
        vehicle_class = p.vehicle_class.replace("-", " ").capitalize()
        return Text(gettext_noop("%(vehicle_class)s vehicle"), vehicle_class=vehicle_class)
    return KIND_NAMES[p.kind]


def _unit_note(p: GomsProfile) -> str:
    if p.morale is None:
        return ""
    morale = Text(
        gettext_noop("%(grade)s (morale %(value)s)"),
        grade=MORALE_NAMES[p.morale].lower(),
        value=MORALE[p.morale],
    )
    if p.men is not None:
        return Text(gettext_noop("%(men)s men, %(morale)s"), men=p.men, morale=morale)
    return Text(gettext_noop("%(teams)s; %(morale)s"), teams=HQ_TEAMS[p.kind], morale=morale)


def price_options(o: GomsOptions) -> tuple[tuple[Line, ...], Fraction]:
    lines = []
    if o.rerolls:
        note = Text(gettext_noop("for the acquisition and manpower roll, bought before rolling"))
        label = Text(gettext_noop("Rerolls: %(rerolls)s"), rerolls=o.rerolls)
        lines.append(Line(label, o.rerolls * REROLL_COST, note))
    if o.setup_extensions:
        inches = o.setup_extensions * SETUP_EXTENSION_INCHES
        cost = o.setup_extensions * SETUP_EXTENSION_COST
        label = Text(gettext_noop('Set-up zone +%(inches)s"'), inches=inches)
        note = Text(gettext_noop('%(inches)s" a point'), inches=SETUP_EXTENSION_INCHES)
        lines.append(Line(label, cost, note))
    if o.dug_in:
        note = Text(gettext_noop("the force starts the game dug in"))
        lines.append(Line(Text(gettext_noop("Dug in")), DUG_IN_COST, note))
    return tuple(lines), sum((line.value for line in lines), Fraction(0))  # type: ignore[misc]


# ---------------------------------------------------------------- army rules


@dataclass(frozen=True, slots=True)
class Allowance:
    """What the rifle sections bought allow: platoons, and the HQs they may add."""

    rifle_sections: int
    platoons: int
    platoon_hqs: int
    company_hqs: int


def allowance(entries: Sequence[Entry]) -> Allowance:
    rifles = _count(entries, "rifle-section")
    platoons = rifles // PLATOON_SECTIONS
    return Allowance(rifles, platoons, platoons, platoons // PLATOONS_PER_COMPANY_HQ)


def _count(entries: Sequence[Entry], kind: str) -> int:
    return sum(e.quantity for e in entries if e.facts.get("kind") == kind)


def facts(p: GomsProfile) -> dict[str, object]:
    return {"kind": p.kind}


def army_checks(entries: Sequence[Entry], options: GomsOptions) -> tuple[list[Issue], list[Issue]]:
    allowed = allowance(entries)
    errors = _hq_issues(entries, "platoon-hq", allowed.platoon_hqs, _platoon_reason(allowed))
    errors += _hq_issues(entries, "company-hq", allowed.company_hqs, _company_reason(allowed))
    extensions = options.setup_extensions
    if extensions > MAX_SETUP_EXTENSIONS:
        errors.append(
            Issue(
                "setup-zone-max",
                Text(
                    gettext_noop(
                        "%(bought)s set-up zone extensions bought; at most %(most)s "
                        '(+%(inches)s") are allowed.'
                    ),
                    bought=extensions,
                    most=MAX_SETUP_EXTENSIONS,
                    inches=MAX_SETUP_EXTENSIONS * SETUP_EXTENSION_INCHES,
                ),
            )
        )
    return errors, []


def _platoon_reason(a: Allowance) -> Text:
    return Text(
        gettext_noop(
            "%(sections)s rifle sections make %(platoons)s platoon(s) of %(size)s, which "
            "allow %(hqs)s platoon HQ(s)"
        ),
        sections=a.rifle_sections,
        platoons=a.platoons,
        size=PLATOON_SECTIONS,
        hqs=a.platoon_hqs,
    )


def _company_reason(a: Allowance) -> Text:
    return Text(
        gettext_noop(
            "%(platoons)s platoon(s) allow %(hqs)s company HQ(s), one per %(per)s platoons"
        ),
        platoons=a.platoons,
        hqs=a.company_hqs,
        per=PLATOONS_PER_COMPANY_HQ,
    )


def _hq_issues(entries: Sequence[Entry], kind: str, allowed: int, reason: Text) -> list[Issue]:
    """One error for each HQ unit that goes past what the platoons allow."""
    issues = []
    seen = 0
    for i, unit in enumerate(entries):
        if unit.facts.get("kind") != kind:
            continue
        seen += unit.quantity
        if seen > allowed:
            code = f"{kind}-not-allowed"
            message = Text(
                gettext_noop("%(name)s is not allowed: %(reason)s."), name=unit.name, reason=reason
            )
            issues.append(Issue(code, message, i))
    return issues


def extras(entries: Sequence[Entry], options: GomsOptions, total: Fraction) -> dict[str, object]:
    allowed = allowance(entries)
    extensions = options.setup_extensions
    return {
        "allowances": {
            "rifle_sections": allowed.rifle_sections,
            "platoons": allowed.platoons,
            "platoon_hqs": allowed.platoon_hqs,
            "company_hqs": allowed.company_hqs,
            "setup_zone_inches": min(extensions, MAX_SETUP_EXTENSIONS) * SETUP_EXTENSION_INCHES,
        },
        "game_size": game_size(total),
    }


def game_size(total: Fraction) -> str | None:
    """The smallest game size the force fits in, or None when it is bigger than large."""
    for name, points in GAME_SIZES.items():
        if total <= points:
            return name
    return None


# ---------------------------------------------------------------- acquisition roll


def acquisition_row(p: GomsProfile) -> str:
    if p.vehicle_class is not None:
        return p.vehicle_class
    return "infantry" if p.kind == "rifle-section" else "specialists"


MAX_ACQUISITION_DICE = 500  # far beyond a large (30-point) game


@dataclass(frozen=True, slots=True)
class AcquisitionRoll:
    unit: int  # index into the rolled units
    copy: int  # which of the unit's quantity, from 0
    die: int
    result: str
    row: str = "infantry"
    earlier: tuple[int, ...] = ()  # the dice this one replaced, oldest first

    @property
    def rerolled(self) -> bool:
        return bool(self.earlier)


def acquisition_dice(
    rows: Sequence[tuple[str, int]], seed: int, picks: Sequence[int] = ()
) -> tuple[AcquisitionRoll, ...]:
    """Roll 1d6 per section or vehicle, then spend rerolls on the dice `picks` names.

    `rows` is each unit's table row and quantity, in list order. Every die comes from
    `random.Random(seed)`: first one randint(1, 6) per unit copy in order, then one per
    reroll in the order they were spent. So the seed and the picks re-derive the result.
    """
    rng = random.Random(seed)
    dice = [
        [unit, copy, row, rng.randint(1, 6), []]
        for unit, (row, quantity) in enumerate(rows)
        for copy in range(quantity)
    ]
    for pick in picks:
        if not 0 <= pick < len(dice):
            raise ValueError(f"there is no die {pick + 1} to reroll")
        dice[pick][4].append(dice[pick][3])
        dice[pick][3] = rng.randint(1, 6)
    return tuple(
        AcquisitionRoll(unit, copy, die, ACQUISITION[row][die - 1], row, tuple(earlier))
        for unit, copy, row, die, earlier in dice
    )


@dataclass(frozen=True, slots=True)
class AcquisitionTotals:
    men: int = 0
    lmgs: int = 0
    teams: int = 0
    missing: int = 0  # vehicles that don't show
    late: tuple[int, ...] = ()  # for each vehicle that arrives later, the d6 score it needs


def acquisition_totals(dice: Sequence[AcquisitionRoll]) -> AcquisitionTotals:
    men = lmgs = teams = missing = 0
    late = []
    for d in dice:
        i = d.die - 1
        if d.row == "infantry":
            men, lmgs = men + MEN_LOST[i], lmgs + LMGS_LOST[i]
        elif d.row == "specialists":
            teams += TEAMS_LOST[i]
        else:
            arrives = ARRIVES_ON[d.row][i]
            if arrives is None:
                missing += 1
            elif arrives:
                late.append(arrives)
    return AcquisitionTotals(men, lmgs, teams, missing, tuple(sorted(late)))
