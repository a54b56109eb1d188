"""Fight odds (SPEC 3.8): who wins when two units meet, exactly, with the working shown.

Every chance is a Fraction worked out from the seed's dice, never simulated:

- the VSGMR duel, one figure against one, as a small Markov chain in closed form;
- the GEM melee of two units, by dynamic programming over (HIT left to A, HIT left to B);
- the d10 skirmish close fight and exchange of shots, in closed form.

A fight is a pure function of its inputs; nothing is kept between calls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import floor, lcm

from points import d10, gem, vsgmr, walk
from points.errors import ArmyFileError
from points.fields import at, fmt, index, known_keys, obj, one_of, required, text, whole
from points.messages import Text, gettext_noop
from points.model import Stat
from points.systems import SYSTEMS

ZERO, ONE, HALF = Fraction(0), Fraction(1), Fraction(1, 2)
Chance = Fraction | float  # exact, or walked in double precision (Fight.exact says which)
ROUNDS = 6  # rounds the table "still fighting after N rounds" shows
FIGHTS = ("hand-to-hand", "distance")
SIDES = ("a", "b")


class TooLarge(ValueError):
    """A fight beyond the sizes Muster answers (SPEC 6); `largest`: the quantities of the
    same two units whose fight is answered, if any."""

    def __init__(self, message: Text, largest: tuple[int, int] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.largest = largest


@dataclass(frozen=True, slots=True)
class Attack:
    """One side's attack as the working shows it: its chance and where that comes from."""

    side: str  # "a" or "b"
    name: str
    chance: Fraction  # per attack
    cell: str  # the table cell or roll it reads ("Table 1: OFF 4 v DEF 3 needs 9")
    modifiers: tuple[str, ...] = ()
    count: int = 1  # attacks of this kind a model makes each round


@dataclass(frozen=True, slots=True)
class Round:
    """Round n: the chance the fight ends in it each way, and is still going after it."""

    number: int
    a_wins: Chance
    b_wins: Chance
    draw: Chance
    going: Chance


@dataclass(frozen=True, slots=True, kw_only=True)
class Fight:
    system: str
    a_name: str
    b_name: str
    a_wins: Chance
    b_wins: Chance
    draw: Chance
    rounds: tuple[Round, ...]
    a_hit_lost: Chance  # expected HIT (or figures) each side loses
    b_hit_lost: Chance
    a_hit: int  # HIT (or figures) each side starts with
    b_hit: int
    attacks: tuple[Attack, ...]
    lines: tuple[str, ...]  # the working, in words
    not_in_these_odds: tuple[str, ...]
    version: str
    work: int = 0  # what the exact melee added up (its guard's count); 0 elsewhere
    # a_left[k]: the chance A ends the fight with k HIT (or figures) left, in double
    # precision (it is read as percentages); empty where not worked out.
    a_left: tuple[float, ...] = ()
    b_left: tuple[float, ...] = ()
    exact: bool = True  # False: walked in double precision, each chance within `error`
    error: float = 0.0
    # HIT each model has: a GEM model loses several before it is gone; 1 elsewhere.
    a_model_hit: int = 1
    b_model_hit: int = 1

    def working(self) -> list[str]:
        """The working in words, exact: each attack's chance and the table cell or roll it
        reads, the HIT (or figures) each side expects to lose, then the fight's own lines."""
        names = {"a": self.a_name, "b": self.b_name}
        out = [_attack_line(x, names[x.side]) for x in self.attacks]
        a_lost = Text(
            gettext_noop("%(lost)s of %(counted)s"),
            lost=exact(self.a_hit_lost),
            counted=self._counted(self.a_hit),
        )
        b_lost = Text(
            gettext_noop("%(lost)s of %(counted)s"),
            lost=exact(self.b_hit_lost),
            counted=self._counted(self.b_hit),
        )
        out.append(
            Text(
                gettext_noop("Expected losses: %(a)s %(a_lost)s, %(b)s %(b_lost)s."),
                a=self.a_name,
                a_lost=a_lost,
                b=self.b_name,
                b_lost=b_lost,
            )
        )
        return out + list(self.lines)

    def _counted(self, n: int) -> Text:
        """A side's loss is counted in HIT in GEM, in figures in the other systems (whose
        fights are one figure against one)."""
        if self.system == "gem":
            return Text(gettext_noop("%(n)s HIT"), n=n)
        if n == 1:
            return Text(gettext_noop("%(n)s figure"), n=n)
        return Text(gettext_noop("%(n)s figures"), n=n)

    @property
    def outcomes(self) -> Fraction:
        return self.a_wins + self.b_wins + self.draw

    def to_json(self, say: Callable[[str], str] = str) -> dict[str, object]:
        """The fight API's answer; `say` writes the working in the reader's language."""
        return {
            "exact": self.exact,
            "error_bound": self.error,
            "a_wins": exact(self.a_wins),
            "b_wins": exact(self.b_wins),
            "draw": exact(self.draw),
            "percent": {
                "a_wins": percent(self.a_wins),
                "b_wins": percent(self.b_wins),
                "draw": percent(self.draw),
            },
            "rounds": [
                {
                    "round": r.number,
                    "a_wins": exact(r.a_wins),
                    "b_wins": exact(r.b_wins),
                    "draw": exact(r.draw),
                    "going": exact(r.going),
                }
                for r in self.rounds
            ],
            "not_in_these_odds": [say(x) for x in self.not_in_these_odds],
            "lines": [say(line) for line in self.working()],
            "rules_version": self.version,
        }


def _attack_line(x: Attack, name: str) -> Text:
    said = {"name": name, "attack": x.name, "chance": exact(x.chance), "cell": x.cell}
    mods = ", ".join(x.modifiers)
    match (x.count != 1, bool(x.modifiers)):
        case (False, False):
            return Text(
                gettext_noop("%(name)s, %(attack)s: each hits %(chance)s (%(cell)s)."), **said
            )
        case (False, True):
            line = gettext_noop("%(name)s, %(attack)s: each hits %(chance)s (%(cell)s; %(mods)s).")
            return Text(line, **said, mods=mods)
        case (True, False):
            line = gettext_noop(
                "%(name)s, %(attack)s: %(count)s a model, each hits %(chance)s (%(cell)s)."
            )
            return Text(line, **said, count=x.count)
        case _:
            line = gettext_noop(
                "%(name)s, %(attack)s: %(count)s a model, each hits %(chance)s "
                "(%(cell)s; %(mods)s)."
            )
            return Text(line, **said, count=x.count, mods=mods)


SIGNIFICANT = 12  # digits of a chance walked in double precision (SPEC 3.8)


def exact(x: Chance) -> str:
    """A chance as "n/d", a whole number ("0", "1") as itself; one walked in double
    precision as a decimal of 12 significant digits ("0.549999999999")."""
    if isinstance(x, float):
        return decimal(x)
    if x.denominator == 1:
        return digits(x.numerator)
    return f"{digits(x.numerator)}/{digits(x.denominator)}"


DIGITS_AT_ONCE = 4000  # Python refuses str() of longer integers (a guard against slow input)


def digits(n: int) -> str:
    """A non-negative integer in decimal, however long: a big melee's exact odds run to
    thousands of digits, past what str() writes in one go."""
    if n < 10**DIGITS_AT_ONCE:
        return str(n)
    high, low = divmod(n, 10**DIGITS_AT_ONCE)
    return digits(high) + str(low).zfill(DIGITS_AT_ONCE)


def decimal(x: float) -> str:
    """A double as a decimal of 12 significant digits, never in exponent form."""
    if x == 0:
        return "0"
    exponent = int(f"{x:.{SIGNIFICANT - 1}e}".split("e")[1])  # of x rounded to 12 digits
    return f"{x:.{max(SIGNIFICANT - 1 - exponent, 0)}f}"


def two_places(x: Chance) -> str:
    """A number (HIT, points) to two decimals, halves up, exact or double: 7/3 -> "2.33"."""
    hundredths = floor(x * 100 + (HALF if isinstance(x, Fraction) else 0.5))
    return f"{hundredths // 100}.{hundredths % 100:02d}"


def percent(x: Chance) -> str:
    """A chance (or a ratio) as a percentage to one decimal, halves rounded up: 3/5 ->
    "60.0". A chance that is not certain never reads 100.0 or 0.0 (SPEC 3.8): ">99.9",
    "<0.1"."""
    tenths = floor(x * 1000 + (HALF if isinstance(x, Fraction) else 0.5))
    if 0 < x < 1 and tenths >= 1000:
        return ">99.9"
    if 0 < x < 1 and tenths <= 0:
        return "<0.1"
    return f"{tenths // 10}.{tenths % 10}"


def _rounds(
    a_round: Fraction, b_round: Fraction, draw_round: Fraction, going: Fraction, n: int = ROUNDS
) -> tuple[Round, ...]:
    """The same chances every round: round k ends each way with going**(k-1) times them."""
    out, left = [], ONE
    for k in range(1, n + 1):
        out.append(Round(k, left * a_round, left * b_round, left * draw_round, left * going))
        left *= going
    return tuple(out)


def _settle(
    a_round: Fraction, b_round: Fraction, draw_round: Fraction, going: Fraction
) -> tuple[Fraction, Fraction, Fraction]:
    """Repeat a round until it ends; if it never can, neither side wins: a draw."""
    if going == 1:
        return ZERO, ZERO, ONE
    ends = 1 - going
    return a_round / ends, b_round / ends, draw_round / ends


# ---------------------------------------------------------------- reading the sides


@dataclass(frozen=True, slots=True)
class Side:
    name: str
    quantity: int
    profile: object


MAX_QUANTITY = 1000


def read_side(raw: object, path: str, system: str) -> Side:
    """A unit as in the army file: {"name", "quantity", "profile"}; errors name the field."""
    data = obj(raw, path)
    known_keys(data, ("name", "quantity", "profile"), path)
    name = text(data.get("name", path.upper() or "Unit"), at(path, "name"))
    quantity = whole(data.get("quantity", 1), at(path, "quantity"), 1, MAX_QUANTITY)
    profile = SYSTEMS[system].parse_profile(required(data, "profile", path), at(path, "profile"))
    return Side(name, quantity, profile)


# ---------------------------------------------------------------- VSGMR duel

VSGMR_DIE = 6
VSGMR_HAND_TO_HAND, VSGMR_DISTANCE, VSGMR_COVER, VSGMR_STEALTH_COVER = 4, 5, 6, 7
LIGHT_SAVE, HEAVY_SAVE = 6, 4
VSGMR_IN_ODDS = ("combat-master", "sharpshooter", "tough", "ignores-armor", "stealth")
VSGMR_IN_ODDS += ("double-strike",)


def _d6_at_least(target: int, modifier: int, die: int = VSGMR_DIE) -> Fraction:
    faces = sum(1 for f in range(1, die + 1) if f + modifier >= target)
    return Fraction(faces, die)


def _attack_modifiers(p: vsgmr.VsgmrProfile, fight: str) -> list[tuple[str, int]]:
    mods: list[tuple[str, int]] = []
    big = p.kind == "vehicle" or p.flavor == "hero"
    if big:
        mods.append(("hero guy" if p.is_guy else "vehicle", 1))
    if p.flavor == "mook":
        mods.append(("mook", -1))
    trait = "combat-master" if fight == "hand-to-hand" else "sharpshooter"
    if p.has_trait(trait):
        mods.append((vsgmr.TRAITS[trait].name, 2 if big else 1))
    return mods


def _armour(p: vsgmr.VsgmrProfile) -> tuple[int | None, list[tuple[str, int]]]:
    armour = vsgmr.bought_armor(p)
    if armour == "none":
        return None, []
    mods: list[tuple[str, int]] = []
    if p.kind == "vehicle":
        mods.append(("vehicle", 1))
    if p.has_trait("tough"):
        mods.append(("Tough", 2 if p.kind == "vehicle" else 1))
    if p.flavor == "mook":
        mods.append(("mook", -1))
    return (LIGHT_SAVE if armour == "light" else HEAVY_SAVE), mods


def _signed(mods: Sequence[tuple[str, int]]) -> tuple[str, ...]:
    return tuple(f"{name} {n:+d}" for name, n in mods)


@dataclass(frozen=True, slots=True)
class _Strike:
    defeats: Fraction  # chance one turn's attacking defeats the target
    attack: Attack | None
    lines: tuple[str, ...]


def _vsgmr_strike(side: str, x: Side, y: Side, fight: str, target_in_cover: bool) -> _Strike:
    p, q = x.profile, y.profile
    assert isinstance(p, vsgmr.VsgmrProfile) and isinstance(q, vsgmr.VsgmrProfile)
    if fight == "distance" and not p.distance_attack:
        line = Text(
            gettext_noop("%(name)s has no distance attack: it cannot shoot back."), name=x.name
        )
        return _Strike(ZERO, None, (line,))
    mods = _attack_modifiers(p, fight)
    total = sum(n for _, n in mods)
    if fight == "hand-to-hand":
        needs, where = VSGMR_HAND_TO_HAND, Text(gettext_noop("hand to hand"))
    else:
        stealth = q.has_trait("stealth")
        cover = target_in_cover or stealth
        needs = (
            (VSGMR_STEALTH_COVER if stealth and target_in_cover else VSGMR_COVER)
            if cover
            else VSGMR_DISTANCE
        )
        if stealth and target_in_cover:
            where = Text(gettext_noop("at distance (target in cover, with Stealth)"))
        elif stealth:
            where = Text(gettext_noop("at distance (Stealth)"))
        elif cover:
            where = Text(gettext_noop("at distance (target in cover)"))
        else:
            where = Text(gettext_noop("at distance"))
    one = _d6_at_least(needs, total)
    two_dice = fight == "distance" and p.automatic_fire
    hit = 1 - (1 - one) ** 2 if two_dice else one
    if two_dice:
        cell = gettext_noop("d6 %(needs)s+ %(where)s, Automatic Fire: best of two dice")
    else:
        cell = gettext_noop("d6 %(needs)s+ %(where)s")
    cell = Text(cell, needs=needs, where=where)
    save, armour_mods = _armour(q)
    saved = ZERO if save is None else _d6_at_least(save, sum(n for _, n in armour_mods))
    ignores = p.has_trait("ignores-armor") and save is not None
    stands = 1 - saved**2 if ignores else 1 - saved
    per_attack = hit * stands
    double = fight == "hand-to-hand" and p.has_trait("double-strike")
    # Double Strike: a hit that the armour turned allows one more attack.
    defeats = per_attack + hit * (1 - stands) * per_attack if double else per_attack
    lines = [
        Text(
            gettext_noop("%(name)s hits %(target)s on %(cell)s: %(chance)s."),
            name=x.name,
            target=y.name,
            cell=cell,
            chance=fmt_chance(hit),
        )
    ]
    if save is not None:
        armour = vsgmr.bought_armor(q)
        if ignores:
            rolls = Text(gettext_noop("two armour rolls, both must succeed (Ignores Armor)"))
        else:
            rolls = Text(gettext_noop("its armour roll"))
        said = {"target": y.name, "armour": armour, "save": save}
        said |= {"saved": fmt_chance(saved), "rolls": rolls, "stands": fmt_chance(stands)}
        if armour_mods:
            line = gettext_noop(
                "%(target)s's %(armour)s armour turns a hit on %(save)s+ (%(mods)s): "
                "%(saved)s per roll; a hit stands through %(rolls)s %(stands)s."
            )
            lines.append(Text(line, **said, mods=", ".join(_signed(armour_mods))))
        else:
            line = gettext_noop(
                "%(target)s's %(armour)s armour turns a hit on %(save)s+: "
                "%(saved)s per roll; a hit stands through %(rolls)s %(stands)s."
            )
            lines.append(Text(line, **said))
    if double:
        line = gettext_noop("Double Strike: a hit turned by armour gives %(name)s a second attack.")
        lines.append(Text(line, name=x.name))
    lines.append(
        Text(
            gettext_noop("%(name)s defeats %(target)s in one turn: %(chance)s."),
            name=x.name,
            target=y.name,
            chance=fmt_chance(defeats),
        )
    )
    attack = Attack(
        side,
        Text(
            gettext_noop("Distance attack") if fight == "distance" else gettext_noop("Hand to hand")
        ),
        per_attack,
        cell,
        _signed(mods),
    )
    return _Strike(defeats, attack, tuple(lines))


def fmt_chance(x: Fraction) -> str:
    return f"{exact(x)} ({percent(x)}%)"


def _vsgmr_left_out(p: vsgmr.VsgmrProfile, name: str) -> list[str]:
    out = []
    for t in p.traits:
        if isinstance(t, vsgmr.HomebrewTrait):
            out.append(
                Text(gettext_noop("%(name)s: %(trait)s (homebrew trait)"), name=name, trait=t.name)
            )
        elif t not in VSGMR_IN_ODDS:
            out.append(f"{name}: {vsgmr.TRAITS[t].name}")
    for power, tier in p.super_powers:
        out.append(f"{name}: {vsgmr.SUPER_POWERS[power].name} ({tier})")
    return out


def vsgmr_duel(
    a: Side, b: Side, fight: str = "hand-to-hand", cover: tuple[bool, bool] = (False, False)
) -> Fight:
    """One figure against one: each round each side has the initiative half the time; the
    first attacks, then the other if still standing; rounds repeat until one is defeated."""
    if fight not in FIGHTS:
        raise ArmyFileError("fight", one_of(FIGHTS))
    sa = _vsgmr_strike("a", a, b, fight, cover[1])
    sb = _vsgmr_strike("b", b, a, fight, cover[0])
    ka, kb = sa.defeats, sb.defeats
    a_round = HALF * ka + HALF * (1 - kb) * ka
    b_round = HALF * kb + HALF * (1 - ka) * kb
    going = (1 - ka) * (1 - kb)
    a_wins, b_wins, draw = _settle(a_round, b_round, ZERO, going)
    lines = [
        *sa.lines,
        *sb.lines,
        Text(
            gettext_noop("Each round each side has the initiative half the time and attacks first.")
        ),
        Text(
            gettext_noop(
                "In one round %(a)s wins %(a_round)s, %(b)s %(b_round)s, and the fight goes on "
                "%(going)s."
            ),
            a=a.name,
            a_round=fmt_chance(a_round),
            b=b.name,
            b_round=fmt_chance(b_round),
            going=fmt_chance(going),
        ),
    ]
    if going == 1:
        lines.append(Text(gettext_noop("Neither can ever defeat the other: the fight is a draw.")))
    left_out = _vsgmr_left_out(a.profile, a.name) + _vsgmr_left_out(b.profile, b.name)  # type: ignore[arg-type]
    if a.quantity > 1 or b.quantity > 1:
        lines.append(
            Text(gettext_noop("A duel is one figure against one: quantities are left out."))
        )
    return Fight(
        system="vsgmr",
        a_name=a.name,
        b_name=b.name,
        a_wins=a_wins,
        b_wins=b_wins,
        draw=draw,
        rounds=_rounds(a_round, b_round, ZERO, going),
        a_hit_lost=b_wins,  # one figure against one: a side loses its figure when it loses
        b_hit_lost=a_wins,
        a_hit=1,
        b_hit=1,
        attacks=tuple(x.attack for x in (sa, sb) if x.attack is not None),
        lines=tuple(lines),
        not_in_these_odds=tuple(left_out),
        version=vsgmr.VERSION,
    )


# ---------------------------------------------------------------- GEM melee


@dataclass(frozen=True, slots=True)
class Table3:
    slug: str
    label: str
    roll: int
    first_round_only: bool = False
    group: str = ""


# The seed's melee modifiers (its Table 3), added to each d20 the side rolls.
TABLE_3 = (
    Table3(
        "charged", Text(gettext_noop("Charged into combat this turn")), 2, first_round_only=True
    ),
    Table3(
        "rank-deeper", Text(gettext_noop("One rank deeper than the opponent (tick once a rank)")), 2
    ),
    Table3("higher-ground", Text(gettext_noop("Higher ground")), 1),
    Table3("enemy-behind-obstacle", Text(gettext_noop("Enemy behind an obstacle")), -1),
    Table3("flank", Text(gettext_noop("Flank attack")), 5, group="facing"),
    Table3("rear", Text(gettext_noop("Rear attack")), 10, group="facing"),
)
TABLE_3_BY_SLUG = {m.slug: m for m in TABLE_3}
REPEATABLE = ("rank-deeper",)
MAX_RANKS = 10
# Work the exact melee may take, counted before it starts (melee_work): every product of
# a number as long as the one denominator every chance shares by a hit table entry, added,
# and every product building the hit tables, counts its two lengths' product in bits (the
# shorter one plus ADD_BITS for the addition) plus STEP_WORK for Python's own part; each
# state STATE_WORK more; the answers' reduction and decimals, ANSWER_WORK times the square
# of their length. Two sides with different chances, or models with several kinds of
# attack, make longer numbers.
# Measured on a loaded 2-core machine: MAX_MELEE_COST is 80-160 ms of CPU whatever the
# melee's shape, 200 ms when the machine is at its busiest: the bar (SPEC 6).
ADD_BITS = 150
STEP_WORK = 600_000
STATE_WORK = 3_500_000
ANSWER_WORK = 16
MAX_MELEE_COST = 200_000_000_000
# What fits, measured with the benchmark's plain blocks (OFF 5 against DEF 4) a side.
LARGEST_MELEES = (
    "about 27 models a side of HIT 1 and ATT 1, 14 of HIT 2 and ATT 2, or 10 of HIT 3 and ATT 3"
)


def table_3_modifier(chosen: Iterable[str], path: str, first_round: bool) -> tuple[int, list[str]]:
    """The d20 modifier a side's ticked Table 3 rows add up to, and each row as a player
    says it ("Higher ground +1", "2 ranks deeper +4": a repeated row once, counted)."""
    chosen = list(chosen)
    total, shown, groups = 0, [], set()
    seen: set[str] = set()
    for i, slug in enumerate(chosen):
        where = index(path, i)
        m = TABLE_3_BY_SLUG.get(slug) if isinstance(slug, str) else None
        if m is None:
            raise ArmyFileError(where, one_of(TABLE_3_BY_SLUG))
        again = slug in seen
        if again and slug not in REPEATABLE:
            raise ArmyFileError(where, Text(gettext_noop("%(slug)s is ticked twice"), slug=slug))
        if m.group and m.group in groups and not again:
            raise ArmyFileError(where, Text(gettext_noop("pick flank or rear, not both")))
        seen.add(slug)
        groups.add(m.group) if m.group else None
        if m.first_round_only and not first_round:
            continue
        total += m.roll
        if slug == "rank-deeper" and not again:
            ranks = chosen.count(slug)
            if ranks == 1:
                deeper = gettext_noop("%(ranks)s rank deeper %(roll)s")
            else:
                deeper = gettext_noop("%(ranks)s ranks deeper %(roll)s")
            shown.append(Text(deeper, ranks=ranks, roll=f"{ranks * m.roll:+d}"))
        elif slug != "rank-deeper":
            shown.append(
                Text(gettext_noop("%(label)s %(roll)s"), label=m.label, roll=f"{m.roll:+d}")
            )
    if sum(1 for s in chosen if s == "rank-deeper") > MAX_RANKS:
        raise ArmyFileError(
            path, Text(gettext_noop("at most %(most)s ranks deeper"), most=MAX_RANKS)
        )
    return total, shown


def _whole(s: Stat | None, path: str, what: str, low: int, high: int) -> int:
    if s is None or s.whole is None or not low <= s.whole <= high:
        shown = Text(gettext_noop("none")) if s is None else str(s)
        message = gettext_noop(
            "%(stat)s %(value)s cannot be looked up: the odds need a whole number %(low)s–%(high)s"
        )
        raise ArmyFileError(path, Text(message, stat=what, value=shown, low=low, high=high))
    return s.whole


@dataclass(frozen=True, slots=True)
class _Melee:
    """One side of a melee, read for the odds."""

    name: str
    models: int
    hit: int  # per model
    frontage: int
    rolls: tuple[tuple[Fraction, int], ...]  # (chance, attacks a model) every round
    first: tuple[tuple[Fraction, int], ...]  # the same in the first round (a charge)
    attacks: tuple[Attack, ...]


def _melee_side(
    side: str,
    s: Side,
    target: gem.GemProfile,
    chosen: Sequence[str],
    frontage: int | None,
    path: str,
) -> _Melee:
    p = s.profile
    assert isinstance(p, gem.GemProfile)
    where = at(path, "profile")
    hit = _whole(p.hit, at(where, "hit"), "HIT", 1, 1000)
    siz = _whole(p.siz, at(where, "siz"), "SIZ", 1, 1000) if not p.is_vehicle else 1
    other = "b" if side == "a" else "a"
    def_ = _whole(target.def_, f"{other}.profile.def", "DEF", 1, 10)
    models = s.quantity * siz
    mods_path = f"modifiers.{side}"
    steady, steady_shown = table_3_modifier(chosen, mods_path, first_round=False)
    charge, charge_shown = table_3_modifier(chosen, mods_path, first_round=True)
    attacks: list[tuple[str, int, int]] = []  # (name, off, att)
    if p.off is not None:
        attacks.append(
            (
                Text(gettext_noop("Basic attack")),
                _whole(p.off, at(where, "off"), "OFF", 1, 10),
                _whole(p.att, at(where, "att"), "ATT", 0, 100),
            )
        )
    for i, m in enumerate(p.melee):
        mp = index(at(where, "melee"), i)
        attacks.append(
            (
                m.name or Text(gettext_noop("Extra attack %(number)s"), number=i + 1),
                _whole(m.off, at(mp, "off"), "OFF", 1, 10),
                _whole(m.att, at(mp, "att"), "ATT", 1, 100),
            )
        )
    rolls, first, shown = [], [], []
    for name, off, att in attacks:
        if att == 0:
            continue
        chance = gem.hit_chance(off, def_, steady)
        rolls.append((chance, att))
        first.append((gem.hit_chance(off, def_, charge), att))
        if (off, def_) in gem.NATURAL_20_ONLY:
            cell = gettext_noop(
                "Table 1: OFF %(off)s against DEF %(def)s needs %(needs)s (only a natural 20 "
                "hits; no modifier applies)"
            )
        else:
            cell = gettext_noop("Table 1: OFF %(off)s against DEF %(def)s needs %(needs)s")
        cell = Text(cell, off=off, needs=gem.needed(off, def_), **{"def": def_})
        shown.append(Attack(side, name, chance, cell, tuple(steady_shown), att))
        if charge != steady:
            shown.append(
                Attack(
                    side,
                    Text(gettext_noop("%(attack)s, first round"), attack=name),
                    first[-1][0],
                    cell,
                    tuple(charge_shown),
                    att,
                )
            )
    front = models if frontage is None else min(frontage, models)
    return _Melee(s.name, models, hit, front, tuple(rolls), tuple(first), tuple(shown))


def _hit_table(
    rolls: Sequence[tuple[Fraction, int]], most: int, cap: int
) -> tuple[list[list[int]], int]:
    """rows[m][i] / per**m: the chance m attacking models score exactly i hits, for m in
    0..most, with hits past `cap` (all the HIT the other side has) lumped on cap; `per` is
    one model's dice (the product of its attacks' denominators). Whole numbers throughout:
    a row's numerators add up to per**m."""
    model, per = [1], 1
    for chance, att in rolls:
        miss, hit = chance.denominator - chance.numerator, chance.numerator
        for _ in range(att):
            model = _times(model, [miss, hit], cap)
            per *= chance.denominator
    rows = [[1]]
    for _ in range(most):
        rows.append(_times(rows[-1], model, cap))
    return rows, per


def _times(x: list[int], y: list[int], cap: int) -> list[int]:
    out = [0] * min(len(x) + len(y) - 1, cap + 1)
    for i, xi in enumerate(x):
        if xi:
            for j, yj in enumerate(y):
                out[min(i + j, cap)] += xi * yj
    return out


def _dice(rolls: Sequence[tuple[Fraction, int]]) -> tuple[int, int]:
    """One model's dice, and how many of their outcomes miss with every attack."""
    per = miss = 1
    for chance, att in rolls:
        per *= chance.denominator**att
        miss *= (chance.denominator - chance.numerator) ** att
    return per, miss


def _capped(dist: list[int], cap: int) -> list[int]:
    """Hits beyond `cap` HIT left do no more: lump them on cap."""
    if len(dist) <= cap + 1:
        return dist
    return [*dist[:cap], sum(dist[cap:])]


def _standing(left: int, hit: int) -> int:
    return -(-left // hit)


def _attackers(m: _Melee) -> list[int]:
    """Models attacking with `left` HIT left, for left in 0..HIT of the unit."""
    return [min(_standing(left, m.hit), m.frontage) for left in range(m.models * m.hit + 1)]


def _blocks(attackers: list[int]) -> list[tuple[int, int]]:
    """Runs of HIT left with as many attackers, from the top: (highest, lowest)."""
    out: list[tuple[int, int]] = []
    for left in range(len(attackers) - 1, 0, -1):
        if out and attackers[left] == attackers[out[-1][1]]:
            out[-1] = (out[-1][0], left)
        else:
            out.append((left, left))
    return out


def _attacks(m: _Melee) -> int:
    return sum(n for _, n in m.rolls)


def _pairs(a: _Melee, b: _Melee) -> int:
    """Products of a long number by a hit table entry the exact melee makes (as
    _melee_odds makes them): for each run of A's HIT left with as many attackers and each
    HIT left to B, every state's spread over B's hits and the pushes of A scoring nothing,
    then A's hits from every HIT the spread reaches."""
    att_a, att_b = _attacks(a), _attacks(b)
    sa, sb = _attackers(a), _attackers(b)
    total = 0
    for top, bottom in _blocks(sa):
        most_a = sa[top] * att_a
        for y in range(1, len(sb)):
            most_b = sb[y] * att_b
            total += (top - max(bottom - most_b, 0) + 1) * (min(most_a, y) + 1)
            for x in range(bottom, top + 1):
                on_a = min(most_b, x) + 1
                total += on_a + min(on_a, x - bottom + 1) - 1
    return total


def _table_work(rolls: Sequence[tuple[Fraction, int]], most: int, cap: int, longest: int) -> int:
    """What building one hit table takes, counted as melee_work counts."""
    att = sum(n for _, n in rolls)
    per = _dice(rolls)[0].bit_length()
    model = 2 * att * (min(att, cap) + 1)  # each attack: one model's row times two dice counts
    rows = most * (cap + 1) * (min(att, cap) + 1)
    return model * (per * ADD_BITS + STEP_WORK) + rows * (longest * (per + ADD_BITS) + STEP_WORK)


@dataclass(frozen=True, slots=True)
class _Work:
    """The exact melee's work (see MAX_MELEE_COST) but for the length of the one
    denominator every chance shares: products, the longest hit table entry in bits,
    building the tables, and states."""

    pairs: int
    longest: int
    tables: int
    states: int

    def at(self, common_bits: int) -> int:
        pairs = self.pairs * (common_bits * (self.longest + ADD_BITS) + STEP_WORK)
        return pairs + self.tables + self.states * STATE_WORK + ANSWER_WORK * common_bits**2


def melee_work(a: _Melee, b: _Melee) -> _Work:
    """What the exact melee of a and b will take, known before anything is added up."""
    ha, hb = a.models * a.hit, b.models * b.hit
    sides = [(a.rolls, a.frontage, hb), (b.rolls, b.frontage, ha)]
    if a.first != a.rolls or b.first != b.rolls:
        sides += [(a.first, a.frontage, hb), (b.first, b.frontage, ha)]
    longest = max(_dice(rolls)[0].bit_length() * most for rolls, most, _ in sides)
    tables = sum(_table_work(*side, longest) for side in sides)
    return _Work(_pairs(a, b), longest, tables, ha * hb)


def gem_melee(
    a: Side,
    b: Side,
    modifiers: tuple[Sequence[str], Sequence[str]] = ((), ()),
    frontage: tuple[int | None, int | None] = (None, None),
    double: bool = False,
) -> Fight:
    """Two units in simultaneous melee rounds until one side (or both at once) is gone:
    exactly where the fraction fits the time bar, walked in double precision beyond it (or
    always, with `double`)."""
    pa, pb = a.profile, b.profile
    assert isinstance(pa, gem.GemProfile) and isinstance(pb, gem.GemProfile)
    ma = _melee_side("a", a, pb, modifiers[0], frontage[0], "a")
    mb = _melee_side("b", b, pa, modifiers[1], frontage[1], "b")
    ha, hb = ma.models * ma.hit, mb.models * mb.hit
    limit = MAX_MELEE_COST
    if ha > MAX_WALK_HIT or hb > MAX_WALK_HIT:
        raise TooLarge(too_large_message(ma, mb), largest_walkable(a, b, ma, mb))
    # The exact sum never fits the bar past some 30 x 30 states: no need to count its work.
    exactly = not double and ha * hb <= EXACT_MAX_STATES
    work = melee_work(ma, mb) if exactly else None
    try:
        if work is None or work.at(1) > limit:
            raise TooLarge(too_large_message(ma, mb))
        common, ends = _common_denominator(ma, mb, work, limit)
    except TooLarge:
        # Too long to add up exactly in time: the same walk in double precision.
        if not walkable(ma, mb):
            raise TooLarge(too_large_message(ma, mb), largest_walkable(a, b, ma, mb)) from None
        return _walked_melee(a, b, ma, mb)
    steady = (_hit_table(ma.rolls, ma.frontage, hb), _hit_table(mb.rolls, mb.frontage, ha))
    first = (
        _hit_table(ma.first, ma.frontage, hb) if ma.first != ma.rolls else steady[0],
        _hit_table(mb.first, mb.frontage, ha) if mb.first != mb.rolls else steady[1],
    )
    a_wins, draw, a_keeps, b_keeps, a_end, b_end = _melee_odds(ma, mb, first, steady, common, ends)
    b_wins = 1 - a_wins - draw
    stall = not ends[ma.frontage, mb.frontage]
    rounds = _melee_rounds(ma, mb, first, steady)
    return _melee_fight(
        a,
        b,
        ma,
        mb,
        (a_wins, b_wins, draw),
        rounds,
        (ha - a_keeps, hb - b_keeps),
        (a_end, b_end),
        stall,
        work.at(common.bit_length()),
    )


def _melee_fight(
    a: Side,
    b: Side,
    ma: _Melee,
    mb: _Melee,
    wins: tuple[Chance, Chance, Chance],
    rounds: tuple[Round, ...],
    lost: tuple[Chance, Chance],
    left: tuple[tuple[float, ...], tuple[float, ...]],
    stall: bool,
    work: int = 0,
    error: float | None = None,
) -> Fight:
    """The melee's answer, worked out exactly or walked in double precision (`error`)."""
    pa, pb = a.profile, b.profile
    assert isinstance(pa, gem.GemProfile) and isinstance(pb, gem.GemProfile)
    lines = [
        *(
            Text(
                gettext_noop(
                    "%(name)s: %(models)s of HIT %(hit)s, %(front)s attacking at full strength."
                ),
                name=m.name,
                models=_models(m.models),
                hit=m.hit,
                front=m.frontage,
            )
            for m in (ma, mb)
        ),
        Text(
            gettext_noop(
                "Each round every model still standing in the front makes its attacks; both "
                "sides' hits land together, one HIT at a time off the current model."
            )
        ),
        Text(
            gettext_noop(
                "A side with no models left has lost; both gone in the same round is a draw."
            )
        ),
    ]
    if stall:
        lines.append(Text(gettext_noop("Neither side can harm the other: the fight is a draw.")))
    left_out = [
        Text(gettext_noop("Morale (fear and rout checks)")),
        Text(gettext_noop("Missile fire before the melee")),
    ]
    for s, p in ((a, pa), (b, pb)):
        if p.is_vehicle:
            line = gettext_noop("%(name)s: vehicle damage tables once HIT reaches 0")
            left_out.append(Text(line, name=s.name))
    if error is not None:
        line = gettext_noop(
            "Too large to add up exactly in time: every state of the fight was walked in "
            "double precision, so each chance is within %(error)s of the exact one."
        )
        lines.append(Text(line, error=f"{error:.0e}"))
    return Fight(
        system="gem",
        a_name=a.name,
        b_name=b.name,
        a_wins=wins[0],
        b_wins=wins[1],
        draw=wins[2],
        rounds=rounds,
        a_hit_lost=lost[0],
        b_hit_lost=lost[1],
        a_hit=ma.models * ma.hit,
        b_hit=mb.models * mb.hit,
        attacks=ma.attacks + mb.attacks,
        lines=tuple(lines),
        not_in_these_odds=tuple(left_out),
        version=gem.VERSION,
        work=work,
        a_left=left[0],
        b_left=left[1],
        exact=error is None,
        error=error or 0.0,
        a_model_hit=ma.hit,
        b_model_hit=mb.hit,
    )


EXACT_MAX_STATES = 60 * 60
# The double-precision walk's bounds (points/walk.py): past these a melee is refused. Its
# cost grows as (HIT of A)^2 (HIT of B)^2; SPEC 6's grid tops out at 150 HIT a side.
MAX_WALK_HIT = 200
MAX_WALK_WORK = 2 * 150**4  # multiply-adds, about twice the grid's largest melee
ROUND_WORK = 30_000_000  # the walked round-by-round table stops after this many


def _fighter(m: _Melee) -> walk.Fighter:
    def rolls(found: tuple[tuple[Fraction, int], ...]) -> tuple[tuple[float, float, int], ...]:
        return tuple((float(c), float(1 - c), n) for c, n in found)

    return walk.Fighter(_attackers(m), rolls(m.rolls), rolls(m.first), m.frontage)


def walkable(a: _Melee, b: _Melee) -> bool:
    """Whether the double-precision walk answers this melee in time, within its bound."""
    ha, hb = a.models * a.hit, b.models * b.hit
    if ha > MAX_WALK_HIT or hb > MAX_WALK_HIT or ha * ha * hb * hb > MAX_WALK_WORK:
        return False
    return walk.error_bound(_fighter(a), _fighter(b)) <= walk.MAX_ERROR


def largest_walkable(a: Side, b: Side, ma: _Melee, mb: _Melee) -> tuple[int, int] | None:
    """The largest quantities of the same two units whose melee is answered: each side's
    quantity cut in the same proportion, the most that fits."""
    best = None
    low, high = 0, max(a.quantity, b.quantity)
    while low < high:
        mid = (low + high + 1) // 2
        qa, qb = min(a.quantity, mid), min(b.quantity, mid)
        fits = walkable(_resized(ma, qa, a.quantity), _resized(mb, qb, b.quantity))
        if fits:
            low, best = mid, (qa, qb)
        else:
            high = mid - 1
    return best


def _resized(m: _Melee, quantity: int, was: int) -> _Melee:
    models = m.models // was * quantity
    return replace(m, models=models, frontage=min(m.frontage, models))


def _walked_melee(a: Side, b: Side, ma: _Melee, mb: _Melee, rounds: bool = True) -> Fight:
    """The melee walked in double precision: the same states, the same rounds."""
    w = walk.melee(_fighter(ma), _fighter(mb), ROUNDS if rounds else 0, ROUND_WORK)
    a_wins, b_wins, draw = w.a_wins, w.b_wins, w.draw
    # Zero is exact in the walk (no chance flows where none can): so is a certain answer.
    if b_wins == 0 and draw == 0:
        a_wins = 1.0
    elif a_wins == 0 and draw == 0:
        b_wins = 1.0
    elif a_wins == 0 and b_wins == 0:
        draw = 1.0
    rounds = tuple(Round(k, *r) for k, r in enumerate(w.rounds, 1))
    ha, hb = ma.models * ma.hit, mb.models * mb.hit
    lost = (
        ha - sum(x * p for x, p in enumerate(w.a_left)),
        hb - sum(y * p for y, p in enumerate(w.b_left)),
    )
    stall = walk.stalls(_fighter(ma), _fighter(mb))
    return _melee_fight(
        a,
        b,
        ma,
        mb,
        (a_wins, b_wins, draw),
        rounds,
        lost,
        (w.a_left, w.b_left),
        stall,
        error=w.error,
    )


def _models(n: int) -> Text:
    if n == 1:
        return Text(gettext_noop("%(n)s model"), n=n)
    return Text(gettext_noop("%(n)s models"), n=n)


def too_large_message(a: _Melee, b: _Melee) -> Text:
    return Text(
        gettext_noop(
            "This melee (%(a_models)s of HIT %(a_hit)s against %(b_models)s of HIT %(b_hit)s) is "
            "larger than Muster works out: up to %(most)s HIT a side, about 30 models of "
            "HIT 5 against 30 of HIT 5. Try fewer models or a smaller frontage."
        ),
        a_models=_models(a.models),
        a_hit=a.hit,
        b_models=b.models,
        b_hit=b.hit,
        most=MAX_WALK_HIT,
    )


Table = tuple[list[list[int]], int]  # a side's hit table: rows and one model's dice
Ends = dict[tuple[int, int], int]


def _common_denominator(a: _Melee, b: _Melee, work: _Work, limit: int) -> tuple[int, Ends]:
    """One denominator for the chance of reaching every state of the melee, and each
    state's `ends`: the count of a round's dice outcomes (over A's attackers' dice times
    B's) in which someone is hit, by the two sides' attackers. From a state a round ends
    elsewhere with chance w / ends, w a whole number (A's hit table entry times B's): a
    state that keeps repeating itself is left in the end. Every round that moves removes
    some HIT, so a fight passes each total of HIT left (x + y) at most once; the product
    over those totals of the least common multiple of their states' `ends` (times the first
    round's dice, if a charge makes it differ) is a multiple of every such chance's
    denominator. A state neither side can hit from (ends 0) stops the fight: a draw."""
    ha, hb = a.models * a.hit, b.models * b.hit
    sa, sb = _attackers(a), _attackers(b)
    (per_a, miss_a), (per_b, miss_b) = _dice(a.rolls), _dice(b.rolls)
    ends = {
        (s, t): per_a**s * per_b**t - miss_a**s * miss_b**t
        for s in set(sa[1:])
        for t in set(sb[1:])
    }
    common = 1
    if a.first != a.rolls or b.first != b.rolls:
        common = _dice(a.first)[0] ** a.frontage * _dice(b.first)[0] ** b.frontage
    for total in range(ha + hb, 1, -1):
        xs = range(max(1, total - hb), min(ha, total - 1) + 1)
        level = {ends[sa[x], sb[total - x]] for x in xs}
        level.discard(0)
        common *= lcm(*level)
        if work.at(common.bit_length()) > limit:  # it only grows: stop as soon as it is over
            raise TooLarge(too_large_message(a, b))
    return common, ends


def _melee_odds(
    a: _Melee,
    b: _Melee,
    first: tuple[Table, Table],
    steady: tuple[Table, Table],
    common: int,
    ends: Ends,
) -> tuple[Fraction, Fraction, Fraction, Fraction, tuple[float, ...], tuple[float, ...]]:
    """A wins, a draw, the HIT A and B expect to keep, and the chance of each HIT left to
    A and to B at the end (in double precision), by dynamic programming forwards
    over the states (HIT left to A, HIT left to B): the chance of ever standing at each,
    times `common` (see _common_denominator), a whole number. Added without a single gcd;
    only the four answers are reduced, once."""
    ha, hb = a.models * a.hit, b.models * b.hit
    (rows_a, _), (rows_b, _) = steady
    sa, sb = _attackers(a), _attackers(b)
    # mass[x][y]: `common` times the chance the fight ever stands at (x, y).
    mass = [[0] * (hb + 1) for _ in range(ha + 1)]
    if first != steady:
        (first_a, per_a), (first_b, per_b) = first
        unit = common // (per_a**a.frontage * per_b**b.frontage)
        on_a = _capped(first_b[b.frontage], ha)
        on_b = [unit * p for p in _capped(first_a[a.frontage], hb)]
        for j, pj in enumerate(on_a):
            row = mass[ha - j]
            for i, w in enumerate(on_b):
                row[hb - i] += w * pj
    else:
        mass[ha][hb] = common
    stalled = [0, 0, 0]  # mass, times HIT A keeps, times HIT B keeps
    stalled_a, stalled_b = [0] * (ha + 1), [0] * (hb + 1)  # stalled mass by HIT left
    # States whose A has as many attackers share A's hits on B: a column of them spreads
    # its mass over the HIT B's hits leave A first, then A's hits go from each of those
    # once, instead of once a state: HIT 3 models make a third of the products.
    for top, bottom in _blocks(sa):
        s = sa[top]
        for y in range(hb, 0, -1):
            t = sb[y]
            n = ends[s, t]
            on_b = _capped(rows_a[s], y)[::-1]  # A's hits on B: on_b[k] lands on low + k
            low = y + 1 - len(on_b)
            spread = [0] * (top + 1)  # mass by the HIT B's hits leave A
            for x in range(top, bottom - 1, -1):
                m = mass[x][y]
                if not m:
                    continue
                if not n:
                    stalled[0] += m
                    stalled[1] += x * m
                    stalled[2] += y * m
                    stalled_a[x] += m
                    stalled_b[y] += m
                    continue
                m //= n  # exact: `common` holds this state's `ends` too
                on_a = _capped(rows_b[t], x)
                # A scoring nothing lands now where the column goes on: those states
                # are next. No hits either way (j = 0) is the state itself: left out.
                nothing = m * on_b[-1]
                for j in range(1, min(len(on_a), x - bottom + 1)):
                    mass[x - j][y] += nothing * on_a[j]
                for j, pj in enumerate(on_a):
                    spread[x - j] += m * pj
            for left, w in enumerate(spread):
                if w:
                    # In the column, A scoring nothing has landed already (above).
                    end = y if left >= bottom else y + 1
                    row = mass[left]
                    row[low:end] = [r + w * p for r, p in zip(row[low:end], on_b, strict=False)]
    a_won = sum(mass[x][0] for x in range(1, ha + 1))
    a_keeps = sum(x * mass[x][0] for x in range(1, ha + 1)) + stalled[1]
    b_keeps = sum(y * mass[0][y] for y in range(1, hb + 1)) + stalled[2]
    drawn = mass[0][0] + stalled[0]
    b_won = sum(mass[0][y] for y in range(1, hb + 1))
    a_left = [(mass[x][0] + stalled_a[x]) / common for x in range(ha + 1)]
    b_left = [(mass[0][y] + stalled_b[y]) / common for y in range(hb + 1)]
    a_left[0], b_left[0] = (b_won + mass[0][0]) / common, (a_won + mass[0][0]) / common
    return (
        Fraction(a_won, common),
        Fraction(drawn, common),
        Fraction(a_keeps, common),
        Fraction(b_keeps, common),
        tuple(a_left),
        tuple(b_left),
    )


MAX_ROUND_WORK = 10_000  # the round-by-round table stops after this many outcome pairs


def _melee_rounds(
    a: _Melee, b: _Melee, first: tuple[Table, Table], steady: tuple[Table, Table]
) -> tuple[Round, ...]:
    """Round by round, forwards. Every chance here is a whole number over a power of the
    dice's sides, so the states carry integer numerators over one denominator a round:
    exact, and several times faster than adding Fractions. The table stops after the
    round that takes it past MAX_ROUND_WORK outcome pairs; that last round's outcomes
    need no pairs (the two sides' hits are independent), only each state's chances of
    taking all the other side's HIT."""
    (fa, ga), (fb, gb) = _over_one(first[0], a.frontage), _over_one(first[1], b.frontage)
    (sa, gsa), (sb, gsb) = _over_one(steady[0], a.frontage), _over_one(steady[1], b.frontage)
    attack_a, attack_b = _attackers(a), _attackers(b)
    states = {(a.models * a.hit, b.models * b.hit): 1}
    out, denominator, work = [], 1, 0
    for k in range(1, ROUNDS + 1):
        on_b_by, on_a_by, dice_a, dice_b = (fa, fb, ga, gb) if k == 1 else (sa, sb, gsa, gsb)
        denominator *= dice_a * dice_b
        work += sum(
            min(len(on_b_by[attack_a[x]]), y + 1) * min(len(on_a_by[attack_b[y]]), x + 1)
            for x, y in states
        )
        if k == ROUNDS or work > MAX_ROUND_WORK:
            out.append(_last_round(k, states, on_b_by, on_a_by, a, b, denominator))
            break
        nxt: dict[tuple[int, int], int] = {}
        a_w = b_w = dr = 0
        for (x, y), p in states.items():
            on_b = _capped(on_b_by[attack_a[x]], y)
            on_a = _capped(on_a_by[attack_b[y]], x)
            for j, pj in enumerate(on_a):
                if not pj:
                    continue
                pj *= p
                nx = x - j
                for i, pi in enumerate(on_b):
                    if not pi:
                        continue
                    w = pi * pj
                    ny = y - i
                    if ny == 0:
                        if nx == 0:
                            dr += w
                        else:
                            a_w += w
                    elif nx == 0:
                        b_w += w
                    else:
                        nxt[(nx, ny)] = nxt.get((nx, ny), 0) + w
        states = nxt
        going = sum(states.values())
        out.append(
            Round(
                k,
                Fraction(a_w, denominator),
                Fraction(b_w, denominator),
                Fraction(dr, denominator),
                Fraction(going, denominator),
            )
        )
        if not states:
            break
    return tuple(out)


def _last_round(
    k: int,
    states: dict[tuple[int, int], int],
    on_b_by: list[list[int]],
    on_a_by: list[list[int]],
    a: _Melee,
    b: _Melee,
    denominator: int,
) -> Round:
    """Round k's outcomes from each state's chance that A's hits take all B's HIT left and
    B's all A's, which the round's two rolls decide independently."""
    attack_a, attack_b = _attackers(a), _attackers(b)
    a_w = b_w = dr = going = 0
    for (x, y), p in states.items():
        on_b, on_a = on_b_by[attack_a[x]], on_a_by[attack_b[y]]
        kill_b, kill_a = sum(on_b[y:]), sum(on_a[x:])
        live_b, live_a = sum(on_b) - kill_b, sum(on_a) - kill_a
        a_w += p * kill_b * live_a
        b_w += p * live_b * kill_a
        dr += p * kill_b * kill_a
        going += p * live_b * live_a
    return Round(
        k,
        Fraction(a_w, denominator),
        Fraction(b_w, denominator),
        Fraction(dr, denominator),
        Fraction(going, denominator),
    )


def _over_one(table: Table, most: int) -> tuple[list[list[int]], int]:
    """A hit table's rows as numerators over one denominator, one model's dice to the
    power `most`, so that a round's outcomes from different states add up."""
    rows, per = table
    return [[c * per ** (most - m) for c in row] for m, row in enumerate(rows)], per**most


# ---------------------------------------------------------------- d10 skirmish

D10_CLOSE = (
    ("from-rear", Text(gettext_noop("Attacks from the rear arc")), -2),
    ("up-slope", Text(gettext_noop("Fights up stairs or a slope")), 1),
    ("specialist-melee-weapon", Text(gettext_noop("Katana, axe or specialist melee weapon")), -1),
    ("melee-weapon", Text(gettext_noop("Pistol, knife, bayonet or improvised weapon")), 0),
    ("smg", Text(gettext_noop("SMG or short assault weapon")), 1),
    ("rifle", Text(gettext_noop("Full-size rifle or LMG")), 2),
    ("suppressed", Text(gettext_noop("Suppressed")), 2),
)
D10_SHOOTING = (
    ("long-range", Text(gettext_noop("Long range")), 2),
    ("suppressive-fire", Text(gettext_noop("Suppressive fire")), 2),
    ("target-in-hard-cover", Text(gettext_noop("Target in hard cover")), 2),
    ("aiming", Text(gettext_noop("Aiming (did not move)")), -1),
    ("target-unaware", Text(gettext_noop("Target unaware or flanked")), -1),
    ("suppressed", Text(gettext_noop("Suppressed")), 2),
)
D10_CLOSE_BY_SLUG = {s: (label, n) for s, label, n in D10_CLOSE}
D10_SHOOTING_BY_SLUG = {s: (label, n) for s, label, n in D10_SHOOTING}
MELEE_WEAPONS = ("specialist-melee-weapon", "melee-weapon")
MELEE_WEAPON_BONUS = 1  # the seed's knife example: physique + 1
WEAPON_BY_NAME = {w.name.casefold(): w for w in d10.WEAPONS} | {w.slug: w for w in d10.WEAPONS}


def _d10_modifier(
    chosen: Sequence[str], table: dict[str, tuple[str, int]], path: str
) -> tuple[int, tuple[str, ...]]:
    total, shown, seen = 0, [], set()
    for i, slug in enumerate(chosen):
        if not isinstance(slug, str) or slug not in table:
            raise ArmyFileError(index(path, i), one_of(table))
        if slug in seen:
            raise ArmyFileError(
                index(path, i), Text(gettext_noop("%(slug)s is ticked twice"), slug=slug)
            )
        seen.add(slug)
        label, n = table[slug]
        total += n
        shown.append(Text(gettext_noop("%(label)s %(change)s TN"), label=label, change=f"{n:+d}"))
    return total, tuple(shown)


@dataclass(frozen=True, slots=True)
class Wound:
    """One damage roll (d10 + damage against Defence): downed, or dead (by 5 or more)."""

    downed: Fraction
    dead: Fraction

    @property
    def out(self) -> Fraction:
        return self.downed + self.dead


def wound(damage: int, defence: int) -> Wound:
    """d10 + damage against Defence: a natural 1 fails, a natural 0 succeeds (as 10)."""
    downed = dead = 0
    for face in d10.FACES:
        total = damage + face
        if face == d10.NATURAL_FAIL:
            continue
        if total >= defence + d10.CRITICAL_MARGIN:
            dead += 1
        elif total >= defence or face == d10.NATURAL_SUCCESS:
            downed += 1
    n = len(d10.FACES)
    return Wound(Fraction(downed, n), Fraction(dead, n))


def _out_after(first: Wound, twice: bool) -> Fraction:
    """Out of the fight: downed or dead; a critical rolls two wounds (two downed: dead)."""
    if not twice:
        return first.out
    return 1 - (1 - first.out) ** 2


# Who acts first in a d10 fight (shoots first, or is the active model and wins a tied close
# fight): the player's choice. "either" is each side half the time: the mean of the two.
FIRSTS = ("either", "a", "b")


def _orders(first: str) -> tuple[str, ...]:
    if first not in FIRSTS:
        raise ArmyFileError("first", one_of(FIRSTS))
    return SIDES if first == "either" else (first,)


@dataclass(frozen=True, slots=True)
class _Order:
    """A d10 fight with one side acting first: what each round does."""

    first: str
    a_round: Fraction
    b_round: Fraction
    going: Fraction

    @property
    def settled(self) -> tuple[Fraction, Fraction, Fraction]:
        return _settle(self.a_round, self.b_round, ZERO, self.going)

    @property
    def rounds(self) -> tuple[Round, ...]:
        return _rounds(self.a_round, self.b_round, ZERO, self.going)


def _mean(xs: Iterable[Fraction]) -> Fraction:
    xs = list(xs)
    return sum(xs, ZERO) / len(xs)


def _d10_fight(
    a: Side,
    b: Side,
    orders: Sequence[_Order],
    attacks: Iterable[Attack],
    lines: Iterable[str],
    left_out: Iterable[str],
) -> Fight:
    """The fight as the mean of its orders, round by round (one order: its own answer)."""
    a_wins, b_wins, draw = (_mean(o.settled[i] for o in orders) for i in range(3))
    rounds = tuple(
        Round(
            same[0].number,
            _mean(r.a_wins for r in same),
            _mean(r.b_wins for r in same),
            _mean(r.draw for r in same),
            _mean(r.going for r in same),
        )
        for same in zip(*(o.rounds for o in orders), strict=True)
    )
    return Fight(
        system="d10",
        a_name=a.name,
        b_name=b.name,
        a_wins=a_wins,
        b_wins=b_wins,
        draw=draw,
        rounds=rounds,
        a_hit_lost=b_wins,  # one model against one: a side loses its model when it loses
        b_hit_lost=a_wins,
        a_hit=1,
        b_hit=1,
        attacks=tuple(attacks),
        lines=tuple(lines),
        not_in_these_odds=tuple(left_out),
        version=d10.VERSION,
    )


def _contest_sides(
    pa: d10.D10Profile, pb: d10.D10Profile, mod_a: int, mod_b: int, active: str
) -> tuple[Fraction, Fraction, Fraction, Fraction, Fraction]:
    """(A wins, A wins by 5 or more, B wins, B by 5 or more, neither) with `active` active."""
    if active == "a":
        c = d10.contest(pa.cqc, pb.cqc, mod_a, mod_b)
        return c.active, c.active_critical, c.passive, c.passive_critical, c.neither
    c = d10.contest(pb.cqc, pa.cqc, mod_b, mod_a)
    return c.passive, c.passive_critical, c.active, c.active_critical, c.neither


def _close_round(won: Fraction, critical: Fraction, armed: bool, w: Wound) -> Fraction:
    """A critical win kills outright with a melee weapon; otherwise it is a wound roll."""
    kills = critical if armed else ZERO
    return kills + (won - kills) * w.out


def d10_close(
    a: Side,
    b: Side,
    modifiers: tuple[Sequence[str], Sequence[str]] = ((), ()),
    first: str = "either",
) -> Fight:
    """Close quarters: contested CQC + d10 each round (the active model, the one acting
    first, wins ties); the winner rolls to wound, a critical win with a melee weapon kills
    outright; the fight ends when one model is downed or dead (its enemy in contact
    finishes it). `first` is "a", "b" or "either" (each active half the time: the mean)."""
    pa, pb = a.profile, b.profile
    assert isinstance(pa, d10.D10Profile) and isinstance(pb, d10.D10Profile)
    mod_a, shown_a = _d10_modifier(modifiers[0], D10_CLOSE_BY_SLUG, "modifiers.a")
    mod_b, shown_b = _d10_modifier(modifiers[1], D10_CLOSE_BY_SLUG, "modifiers.b")
    armed_a = any(s in MELEE_WEAPONS for s in modifiers[0])
    armed_b = any(s in MELEE_WEAPONS for s in modifiers[1])
    dmg_a = pa.physique + (MELEE_WEAPON_BONUS if armed_a else 0)
    dmg_b = pb.physique + (MELEE_WEAPON_BONUS if armed_b else 0)
    wa, wb = wound(dmg_a, pb.defence), wound(dmg_b, pa.defence)
    names = {"a": a.name, "b": b.name}
    cqc_tn = gettext_noop("CQC %(cqc)s, TN %(tn)s")
    tn = {
        "a": Text(cqc_tn, cqc=pa.cqc, tn=d10.target_number(mod_a)),
        "b": Text(cqc_tn, cqc=pb.cqc, tn=d10.target_number(mod_b)),
    }
    sides = _orders(first)
    if len(sides) == 1:
        active, other = sides[0], "b" if sides[0] == "a" else "a"
        line = gettext_noop(
            "Contested CQC: %(active)s (%(active_tn)s) is the active model and wins ties; "
            "%(other)s (%(other_tn)s)."
        )
        lines = [
            Text(
                line,
                active=names[active],
                active_tn=tn[active],
                other=names[other],
                other_tn=tn[other],
            )
        ]
    else:
        line = gettext_noop(
            "Contested CQC: %(a)s (%(a_tn)s) against %(b)s (%(b_tn)s); each side is the active "
            "model (acting first, winning ties) half the time, and the odds are the mean of "
            "the two."
        )
        lines = [Text(line, a=a.name, a_tn=tn["a"], b=b.name, b_tn=tn["b"])]
    orders, contests, round_lines = [], [], []
    for active in sides:
        a_won, a_crit, b_won, b_crit, neither = _contest_sides(pa, pb, mod_a, mod_b, active)
        a_round = _close_round(a_won, a_crit, armed_a, wa)
        b_round = _close_round(b_won, b_crit, armed_b, wb)
        order = _Order(active, a_round, b_round, 1 - a_round - b_round)
        orders.append(order)
        contests.append((a_won, b_won))
        contest = {
            "a": a.name,
            "a_won": fmt_chance(a_won),
            "a_crit": fmt_chance(a_crit),
            "b": b.name,
            "b_won": fmt_chance(b_won),
            "b_crit": fmt_chance(b_crit),
            "neither": fmt_chance(neither),
        }
        one_round = {
            "a": a.name,
            "b": b.name,
            "a_round": fmt_chance(a_round),
            "b_round": fmt_chance(b_round),
            "going": fmt_chance(order.going),
        }
        if len(sides) > 1:
            contest_line = gettext_noop(
                "With %(first)s first: %(a)s wins the contest %(a_won)s, by 5 or more "
                "%(a_crit)s; %(b)s %(b_won)s, by 5 or more %(b_crit)s; neither succeeds "
                "%(neither)s."
            )
            round_line = gettext_noop(
                "With %(first)s first: in one round %(a)s puts %(b)s down %(a_round)s, %(b)s "
                "puts %(a)s down %(b_round)s, and the fight goes on %(going)s."
            )
            lines.append(Text(contest_line, first=names[active], **contest))
            round_lines.append(Text(round_line, first=names[active], **one_round))
        else:
            contest_line = gettext_noop(
                "%(a)s wins the contest %(a_won)s, by 5 or more %(a_crit)s; %(b)s %(b_won)s, by "
                "5 or more %(b_crit)s; neither succeeds %(neither)s."
            )
            round_line = gettext_noop(
                "In one round %(a)s puts %(b)s down %(a_round)s, %(b)s puts %(a)s down "
                "%(b_round)s, and the fight goes on %(going)s."
            )
            lines.append(Text(contest_line, **contest))
            round_lines.append(Text(round_line, **one_round))
    wounds = gettext_noop(
        "%(name)s wounds with damage %(damage)s against Defence %(defence)s: downed "
        "%(downed)s, dead %(dead)s."
    )
    lines += [
        Text(
            wounds,
            name=a.name,
            damage=dmg_a,
            defence=pb.defence,
            downed=fmt_chance(wa.downed),
            dead=fmt_chance(wa.dead),
        ),
        Text(
            wounds,
            name=b.name,
            damage=dmg_b,
            defence=pa.defence,
            downed=fmt_chance(wb.downed),
            dead=fmt_chance(wb.dead),
        ),
        Text(gettext_noop("A downed model is out of the fight: the enemy in contact finishes it.")),
        *round_lines,
        *_either_lines(orders, a, b),
    ]
    if len(sides) > 1:
        cell = Text(gettext_noop("CQC + d10, contested, each side active half the time"))
    else:
        cell = Text(gettext_noop("CQC + d10, contested"))
    close_combat = Text(gettext_noop("Close combat"))
    attacks = (
        Attack("a", close_combat, _mean(x for x, _ in contests), cell, shown_a),
        Attack("b", close_combat, _mean(y for _, y in contests), cell, shown_b),
    )
    left_out = [
        *_d10_left_out(a, "hand-to-hand"),
        *_d10_left_out(b, "hand-to-hand"),
        Text(gettext_noop("Allies adding dice, pushback")),
    ]
    return _d10_fight(a, b, orders, attacks, lines, left_out)


def _either_lines(orders: Sequence[_Order], a: Side, b: Side) -> list[str]:
    """With each side first half the time: each order's answer, and their mean."""
    if len(orders) == 1:
        return []
    names = {"a": a.name, "b": b.name}
    out = []
    for o in orders:
        a_wins, b_wins, _ = o.settled
        line = gettext_noop("With %(first)s first, %(a)s wins %(a_wins)s and %(b)s %(b_wins)s.")
        out.append(
            Text(
                line,
                first=names[o.first],
                a=a.name,
                a_wins=fmt_chance(a_wins),
                b=b.name,
                b_wins=fmt_chance(b_wins),
            )
        )
    return [*out, Text(gettext_noop("Each order is as likely: the odds above are their mean."))]


# How the exchange of shots reads each weapon trait of the seed (named as the seed prints
# them, d10.WEAPON_TRAITS): in the odds, and how; or left out, and why. A close fight
# reads no weapon at all: the player ticks the weapon's close-combat condition.
D10_TRAITS_IN_SHOTS = {
    "pump": gettext_noop("one shot with no penalty for moving, as every shot here"),
    "cqc": gettext_noop("counts in close combat only, not in an exchange of shots"),
}
# Each one a message id; %(rof)s is the weapon's rate of fire.
D10_TRAITS_LEFT_OUT = {
    "bulky": gettext_noop("1 harder to hit after moving; here the shooters stand still"),
    "heavy": gettext_noop(
        "cannot fire after moving, and moves 1 inch less; here the shooters stand still"
    ),
    "assault": gettext_noop(
        "1 easier to hit at 6 inches or closer; the odds know effective and long range only"
    ),
    "bolt": gettext_noop("1 harder to hit after moving; here the shooters stand still"),
    "semiauto": gettext_noop(
        "rate of fire %(rof)s: two rapid shots at effective range; here one shot a turn"
    ),
    "auto": gettext_noop(
        "rate of fire %(rof)s: two rapid shots, or suppressive fire with as many hit rolls "
        "as its Auto number; here one shot a turn"
    ),
    "sniper-scope": gettext_noop(
        "rerolls a miss beyond 6 inches when firing one shot without moving"
    ),
    "acog-scope": gettext_noop(
        "rerolls a miss between 6 inches and effective range when firing one shot without moving"
    ),
    "bipod": gettext_noop(
        "long range costs 1 instead of 2 on the target number when it stays still"
    ),
}
SPRAY = "spray"  # the shotgun's effect, as the seed words it ("+2TN bonus due to spray")


def _carried(p: d10.D10Profile) -> list[d10.Weapon]:
    """The model's weapons that are on the seed's table, each once, in its own order."""
    return list(dict.fromkeys(w for w in map(_weapon, p.weapons) if w is not None))


def _effects(w: d10.Weapon) -> tuple[str, ...]:
    return (*w.trait_names, *([SPRAY] if w.to_hit else []))


def _d10_left_out(s: Side, fight: str) -> list[str]:
    """What the odds leave out of the model's weapons, each by its name in the seed."""
    p = s.profile
    assert isinstance(p, d10.D10Profile)
    unknown = gettext_noop("%(name)s: %(weapon)s (not on the seed's weapon list)")
    out = [Text(unknown, name=s.name, weapon=w) for w in p.weapons if _weapon(w) is None]
    carried = _carried(p)
    if fight != "distance":
        line = gettext_noop(
            "%(name)s, %(weapon)s — %(effects)s: close combat reads no weapon; tick its "
            "close-combat condition"
        )
        out += [
            Text(line, name=s.name, weapon=w.name, effects=", ".join(_effects(w))) for w in carried
        ]
        return out
    if carried:
        used, *others = carried
        for t in used.trait_slugs:
            if t in D10_TRAITS_LEFT_OUT:
                why = D10_TRAITS_LEFT_OUT[t]
                why = Text(why, rof=used.rof) if "%(rof)s" in why else Text(why)
                line = gettext_noop("%(name)s, %(weapon)s: %(trait)s — %(why)s")
                out.append(
                    Text(line, name=s.name, weapon=used.name, trait=d10.WEAPON_TRAITS[t], why=why)
                )
        line = gettext_noop(
            "%(name)s, %(weapon)s: not used — a model shoots the first weapon of its list that "
            "is on the seed's table"
        )
        out += [Text(line, name=s.name, weapon=w.name) for w in others]
    return out


def _d10_in_shots(s: Side) -> list[str]:
    """The working's lines for what the odds take from the weapon a model shoots."""
    p = s.profile
    assert isinstance(p, d10.D10Profile)
    w = _first_weapon(p)
    if w is None:
        return []
    line = gettext_noop("%(name)s, %(weapon)s: %(trait)s — %(how)s.")
    out = [
        Text(
            line,
            name=s.name,
            weapon=w.name,
            trait=d10.WEAPON_TRAITS[t],
            how=Text(D10_TRAITS_IN_SHOTS[t]),
        )
        for t in w.trait_slugs
        if t in D10_TRAITS_IN_SHOTS
    ]
    if w.to_hit:
        line = gettext_noop(
            "%(name)s, %(weapon)s: %(spray)s — %(easier)s easier to hit: its target number is "
            "%(easier)s lower."
        )
        out.append(Text(line, name=s.name, weapon=w.name, spray=SPRAY, easier=-w.to_hit))
    if "/" in w.damage:
        close, far = w.damage.split("/")
        line = gettext_noop(
            "%(name)s, %(weapon)s: damage %(damage)s — %(close)s at effective range, %(far)s at "
            "long range."
        )
        out.append(Text(line, name=s.name, weapon=w.name, damage=w.damage, close=close, far=far))
    return out


def _weapon(name: str) -> d10.Weapon | None:
    return WEAPON_BY_NAME.get(name.casefold())


def _first_weapon(p: d10.D10Profile) -> d10.Weapon | None:
    """The weapon a model shoots: the first of its list that is on the seed's table."""
    return next((w for w in map(_weapon, p.weapons) if w is not None), None)


@dataclass(frozen=True, slots=True)
class Shot:
    """One shot: hit (critical: two wound rolls), and the chance it puts the target out."""

    hit: Fraction
    critical: Fraction
    wound: Wound
    out: Fraction
    weapon: str
    damage: int
    target: int = d10.TARGET_NUMBER  # the target number rolled against
    to_hit: int = 0  # what the weapon itself adds to it (the shotgun's spray: -2)


def shot(shooter: d10.D10Profile, target: d10.D10Profile, modifier: int, long: bool) -> Shot | None:
    """The shooter's first weapon on the seed's table against the target; None when it has
    none, or is at long range with a weapon that has no long range ("24/-")."""
    weapon = _first_weapon(shooter)
    if weapon is None or (long and weapon.long is None):
        return None
    parts = weapon.damage.split("/")
    damage = int(parts[1] if long and len(parts) > 1 else parts[0])
    tn = d10.target_number(modifier + weapon.to_hit)
    hit = d10.success_chance(shooter.shooting, tn)
    crit = d10.critical_chance(shooter.shooting, tn)
    w = wound(damage, target.defence)
    out = (hit - crit) * _out_after(w, False) + crit * _out_after(w, True)
    return Shot(hit, crit, w, out, weapon.name, damage, tn, weapon.to_hit)


def d10_shots(
    a: Side,
    b: Side,
    modifiers: tuple[Sequence[str], Sequence[str]] = ((), ()),
    first: str = "either",
) -> Fight:
    """An exchange of single shots, one side first, then the other, until one is downed or
    dead. `first` is "a", "b" or "either" (each shoots first half the time: the mean)."""
    pa, pb = a.profile, b.profile
    assert isinstance(pa, d10.D10Profile) and isinstance(pb, d10.D10Profile)
    mod_a, shown_a = _d10_modifier(modifiers[0], D10_SHOOTING_BY_SLUG, "modifiers.a")
    mod_b, shown_b = _d10_modifier(modifiers[1], D10_SHOOTING_BY_SLUG, "modifiers.b")
    sa = shot(pa, pb, mod_a, "long-range" in modifiers[0])
    sb = shot(pb, pa, mod_b, "long-range" in modifiers[1])
    ka = sa.out if sa else ZERO
    kb = sb.out if sb else ZERO
    going = (1 - ka) * (1 - kb)
    orders = [
        _Order("a", ka, (1 - ka) * kb, going)
        if opener == "a"
        else _Order("b", (1 - kb) * ka, kb, going)
        for opener in _orders(first)
    ]
    lines, attacks = [], []
    for side, s, t, sh, shown in (("a", a, b, sa, shown_a), ("b", b, a, sb, shown_b)):
        if sh is None:
            w = _first_weapon(s.profile)  # type: ignore[arg-type]
            if w is None:
                line = gettext_noop("%(name)s has no weapon from the seed's list: it cannot shoot.")
                lines.append(Text(line, name=s.name))
            else:
                line = gettext_noop(
                    "%(name)s's %(weapon)s has no long range (%(range)s): it cannot shoot at "
                    "long range."
                )
                lines.append(Text(line, name=s.name, weapon=w.name, range=w.range))
            continue
        line = gettext_noop(
            "%(name)s shoots (%(weapon)s, Shooting %(shooting)s + d10 against TN %(tn)s): hits "
            "%(hit)s, critical (two wound rolls) %(critical)s; a wound (damage %(damage)s "
            "against Defence %(defence)s) downs %(downed)s, kills %(dead)s; one shot puts "
            "%(target)s out %(out)s."
        )
        lines.append(
            Text(
                line,
                name=s.name,
                weapon=sh.weapon,
                shooting=s.profile.shooting,  # type: ignore[attr-defined]
                tn=sh.target,
                hit=fmt_chance(sh.hit),
                critical=fmt_chance(sh.critical),
                damage=sh.damage,
                defence=t.profile.defence,  # type: ignore[attr-defined]
                downed=fmt_chance(sh.wound.downed),
                dead=fmt_chance(sh.wound.dead),
                target=t.name,
                out=fmt_chance(sh.out),
            )
        )
        if sh.to_hit:
            spray = Text(gettext_noop("Spray %(change)s TN"), change=f"{sh.to_hit:+d}")
            shown = (*shown, spray)
        cell = Text(gettext_noop("Shooting + d10 against TN"))
        attacks.append(Attack(side, sh.weapon, sh.hit, cell, shown))
    lines += [*_d10_in_shots(a), *_d10_in_shots(b)]
    names = {"a": a.name, "b": b.name}
    if len(orders) == 1:
        line = gettext_noop(
            "%(first)s shoots first; shots alternate until one model is downed or dead."
        )
        lines.append(Text(line, first=names[orders[0].first]))
    else:
        line = gettext_noop(
            "Each side shoots first half the time; shots alternate until one model is downed "
            "or dead."
        )
        lines.append(Text(line))
    lines += _either_lines(orders, a, b)
    left_out = [
        *_d10_left_out(a, "distance"),
        *_d10_left_out(b, "distance"),
        Text(gettext_noop("Suppression from non-damaging hits")),
        Text(gettext_noop("Recovering from downed")),
    ]
    return _d10_fight(a, b, orders, attacks, lines, left_out)


# ---------------------------------------------------------------- points against odds

TABLE_SIDE = 30  # units of each army in the table; the rest are summarised
# The table's GEM melees are walked in double precision (points/walk.py), each costing
# about walk_cost(); the whole table may cost this much, about 2 s of CPU on a 2-core
# machine: two armies of 30 units of up to 20 models (HIT and ATT up to 3) fit whole.
TABLE_WORK = 150_000_000


def walk_cost(a_hit: int, b_hit: int) -> int:
    """What walking a melee of a_hit against b_hit HIT costs, in the table's units (about
    15 ns each on a 2-core machine): its products grow as a_hit * b_hit * (a_hit + b_hit),
    and each row and each melee has a cost of its own."""
    return a_hit * b_hit * (a_hit + b_hit) + 1500 * (a_hit + b_hit) + 20_000


@dataclass(frozen=True, slots=True)
class Pair:
    """One unit of A against one of B: the odds, the points each side puts in, and the
    points each expects to lose (its points times the share of HIT or figures lost)."""

    fight: Fight | None
    a_points: Fraction
    b_points: Fraction
    note: str = ""  # why there are no odds

    # The table adds up hundreds of pairs: in double precision, read as percentages.
    @property
    def a_lost(self) -> float:
        f = self.fight
        return 0.0 if f is None else float(f.a_hit_lost) / f.a_hit * float(self.a_points)

    @property
    def b_lost(self) -> float:
        f = self.fight
        return 0.0 if f is None else float(f.b_hit_lost) / f.b_hit * float(self.b_points)


@dataclass(frozen=True, slots=True)
class OddsTable:
    system: str
    fight: str  # what each pair fights, in words
    a_names: tuple[str, ...]
    b_names: tuple[str, ...]
    rows: tuple[tuple[Pair, ...], ...]  # rows[i][j]: A's unit i against B's unit j
    a_more: int  # units of A beyond the table
    b_more: int
    not_worked: int  # pairs in the table without odds

    @property
    def a_lost(self) -> float:
        return sum(p.a_lost for row in self.rows for p in row)

    @property
    def b_lost(self) -> float:
        return sum(p.b_lost for row in self.rows for p in row)

    @property
    def a_buys(self) -> float | None:
        """By these fights, what 1 point of A buys as a share of what 1 point of B buys:
        B's points A's units destroy for each point of A's they lose."""
        return self.b_lost / self.a_lost if self.a_lost and self.b_lost else None

    @property
    def b_buys(self) -> float | None:
        return self.a_lost / self.b_lost if self.a_lost and self.b_lost else None


def points_against_odds(
    system: str, a_units: Sequence[object], b_units: Sequence[object]
) -> OddsTable:
    """Every unit of A against every unit of B (the first TABLE_SIDE of each) in the fight
    its system defines: a VSGMR duel hand to hand, a GEM melee of the whole units, a d10
    close fight. Units are priced units: `.unit` (name, quantity, profile) and
    `.priced.each`. Identical pairs are worked out once."""
    if system not in FIGHT_SYSTEMS:
        raise ValueError(f"no fight odds for {system}")
    a_side = [_entrant(u, system) for u in a_units[:TABLE_SIDE]]
    b_side = [_entrant(u, system) for u in b_units[:TABLE_SIDE]]
    done: dict[tuple[object, ...], Fight | str] = {}
    left = TABLE_WORK
    rows = []
    missing = 0
    for sa, pa in a_side:
        row = []
        for sb, pb in b_side:
            key = (sa.profile, sa.quantity, sb.profile, sb.quantity)
            if key not in done:
                done[key], spent = _pair_fight(system, sa, sb, left)
                left -= spent
            found = done[key]
            if isinstance(found, str):
                missing += 1
                row.append(Pair(None, pa, pb, found))
            else:
                named = _renamed(found, sa.name, sb.name)
                row.append(Pair(named, pa, pb))
        rows.append(tuple(row))
    fight = {
        "vsgmr": Text(gettext_noop("one figure of each, hand to hand")),
        "gem": Text(gettext_noop("the whole units in melee")),
    }
    return OddsTable(
        system,
        fight.get(system, Text(gettext_noop("one model of each, in close combat"))),
        tuple(s.name for s, _ in a_side),
        tuple(s.name for s, _ in b_side),
        tuple(rows),
        max(len(a_units) - TABLE_SIDE, 0),
        max(len(b_units) - TABLE_SIDE, 0),
        missing,
    )


def _entrant(u: object, system: str) -> tuple[Side, Fraction]:
    unit, each = u.unit, u.priced.each  # type: ignore[attr-defined]
    # A VSGMR duel and a d10 close fight are one figure against one; GEM fights the unit.
    quantity = unit.quantity if system == "gem" else 1
    return Side(unit.name, quantity, unit.profile), each * quantity


def _pair_fight(system: str, a: Side, b: Side, left: int) -> tuple[Fight | str, int]:
    """A pair's fight, and what it cost of the table's work (GEM melees only)."""
    try:
        if system == "vsgmr":
            return vsgmr_duel(a, b), 0
        if system == "d10":
            return d10_close(a, b), 0
        return _table_melee(a, b, left)
    except TooLarge:
        return Text(gettext_noop("too large to work out here")), 0
    except ArmyFileError as exc:
        return exc.message, 0


def _table_melee(a: Side, b: Side, left: int) -> tuple[Fight | str, int]:
    """A GEM pair of the table, walked in double precision without its round-by-round
    table, if the table's work left allows it."""
    pa, pb = a.profile, b.profile
    assert isinstance(pa, gem.GemProfile) and isinstance(pb, gem.GemProfile)
    ma = _melee_side("a", a, pb, (), None, "a")
    mb = _melee_side("b", b, pa, (), None, "b")
    ha, hb = ma.models * ma.hit, mb.models * mb.hit
    if ha > MAX_WALK_HIT or hb > MAX_WALK_HIT or not walkable(ma, mb):
        raise TooLarge(too_large_message(ma, mb))
    cost = walk_cost(ha, hb)
    if cost > left:
        return Text(gettext_noop("not worked out: the table's time is spent")), 0
    return _walked_melee(a, b, ma, mb, rounds=False), cost


def _renamed(f: Fight, a_name: str, b_name: str) -> Fight:
    if (f.a_name, f.b_name) == (a_name, b_name):
        return f
    return replace(f, a_name=a_name, b_name=b_name)


# ---------------------------------------------------------------- one entry point


@dataclass(frozen=True, slots=True)
class Request:
    """A fight as posted: the system, both sides and the conditions it uses."""

    system: str
    a: Side
    b: Side
    fight: str = "hand-to-hand"
    cover: tuple[bool, bool] = (False, False)
    modifiers: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    frontage: tuple[int | None, int | None] = (None, None)
    extra: dict[str, object] = field(default_factory=dict)
    first: str = "either"  # d10: who acts first, "a", "b" or "either" (FIRSTS)


FIGHT_SYSTEMS = ("vsgmr", "gem", "d10")
REQUEST_KEYS = {
    "vsgmr": ("system", "a", "b", "fight", "cover"),
    "gem": ("system", "a", "b", "modifiers", "frontage"),
    "d10": ("system", "a", "b", "fight", "modifiers", "first"),
}


def read_request(raw: object) -> Request:
    """A fight as JSON (the API and the `fight` command); errors name the field."""
    data = obj(raw, "")
    system = required(data, "system", "")
    if system not in FIGHT_SYSTEMS:
        raise ArmyFileError("system", one_of(FIGHT_SYSTEMS))
    known_keys(data, REQUEST_KEYS[system], "")
    a = read_side(required(data, "a", ""), "a", system)
    b = read_side(required(data, "b", ""), "b", system)
    fight = data.get("fight", "hand-to-hand")
    if fight not in FIGHTS:
        raise ArmyFileError("fight", one_of(FIGHTS))
    cover = _per_side(data.get("cover", False), "cover", _bool)
    modifiers = _per_side(data.get("modifiers", {}), "modifiers", _slugs, both=False)
    frontage = _per_side(data.get("frontage", {}), "frontage", _frontage, both=False)
    first = data.get("first", "either")
    _orders(first)  # a bad value is told against its field, before any fight is worked
    return Request(system, a, b, fight, cover, modifiers, frontage, first=first)  # type: ignore[arg-type]


def _per_side(raw: object, path: str, read, both: bool = True) -> tuple[object, object]:
    if both and not isinstance(raw, dict):
        value = read(raw, path)
        return value, value
    data = obj(raw, path)
    known_keys(data, SIDES, path)
    return read(data.get("a"), at(path, "a")), read(data.get("b"), at(path, "b"))


def _bool(raw: object, path: str) -> bool:
    if raw is None:
        return False
    if not isinstance(raw, bool):
        raise ArmyFileError(path, Text(gettext_noop("must be true or false")))
    return raw


def _slugs(raw: object, path: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or len(raw) > 20:
        raise ArmyFileError(path, Text(gettext_noop("must be a list of at most 20 modifiers")))
    for i, s in enumerate(raw):
        if not isinstance(s, str):
            raise ArmyFileError(index(path, i), Text(gettext_noop("must be a modifier's name")))
    return tuple(raw)


def _frontage(raw: object, path: str) -> int | None:
    return None if raw is None else whole(raw, path, 1, MAX_QUANTITY)


def compute(r: Request) -> Fight:
    if r.system == "vsgmr":
        return vsgmr_duel(r.a, r.b, r.fight, r.cover)
    if r.system == "gem":
        return gem_melee(r.a, r.b, r.modifiers, r.frontage)
    if r.fight == "distance":
        return d10_shots(r.a, r.b, r.modifiers, first=r.first)
    return d10_close(r.a, r.b, r.modifiers, first=r.first)


def swapped(r: Request) -> Request:
    """The same fight with the sides' places exchanged."""
    return Request(
        r.system,
        r.b,
        r.a,
        r.fight,
        (r.cover[1], r.cover[0]),
        (r.modifiers[1], r.modifiers[0]),
        (r.frontage[1], r.frontage[0]),
        first={"a": "b", "b": "a"}.get(r.first, r.first),
    )


def system_of(profile: object) -> str | None:
    """The system a loaded profile belongs to, when Muster works out fights for it."""
    for key, kind in (
        ("vsgmr", vsgmr.VsgmrProfile),
        ("gem", gem.GemProfile),
        ("d10", d10.D10Profile),
    ):
        if isinstance(profile, kind):
            return key
    return None


def describe_modifiers(system: str, fight: str) -> tuple[tuple[str, str, int], ...]:
    """The conditions a page may tick for this system: (slug, label, roll)."""
    if system == "gem":
        return tuple((m.slug, m.label, m.roll) for m in TABLE_3)
    if system == "d10":
        return D10_SHOOTING if fight == "distance" else D10_CLOSE
    return ()


def summary(f: Fight) -> Text:
    return Text(
        gettext_noop("%(a)s wins %(a_wins)s%%, %(b)s %(b_wins)s%%, draw %(draw)s%%"),
        a=f.a_name,
        a_wins=percent(f.a_wins),
        b=f.b_name,
        b_wins=percent(f.b_wins),
        draw=percent(f.draw),
    )


__all__ = ["Fight", "Request", "TooLarge", "compute", "fmt", "read_request"]
