"""The engine's plain data: stats, breakdown lines, priced units and armies."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

from points import dice
from points.messages import Text, text_data, text_from_data
from points.numbers import to_number

# Writes one of the engine's Texts for a reader: str (English) here, the web side's say().
type Say = Callable[[str], str]

# Fractions up to this many decimals print as plain JSON numbers; others also get "exact".
JSON_PLACES = 6


@dataclass(frozen=True, slots=True)
class Stat:
    """A stat as the player typed it (4, 2.5, "2d6+8") and the exact value used for pricing."""

    raw: int | float | str
    value: Fraction
    # The value as (numerator, denominator), read by hot pricing loops.
    pair: tuple[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pair", (self.value.numerator, self.value.denominator))

    def __str__(self) -> str:
        return str(self.raw)

    @property
    def rolled(self) -> bool:
        """A dice expression ("2d6+8"), not a number, whether typed as 4.5 or "4.5"."""
        return dice.rolled(self.raw)

    @property
    def whole(self) -> int | None:
        """The stat as a count or a table row: a plain whole number, else None."""
        if self.rolled or self.value.denominator != 1:
            return None
        return self.value.numerator


@dataclass(frozen=True, slots=True)
class Line:
    """One readable line of a breakdown: "Trait: Tough" 2, "Base size" 9/10 "25mm".

    Label, note and a worded value are `Text`s (points.messages): English as str, and a
    message id with its values for the page that translates them."""

    label: str
    value: Fraction | str
    note: str = ""

    def to_json(self, say: Say = str) -> dict[str, object]:
        """The API's form; `say` writes each Text in the reader's language."""
        value = self.value
        label, note = say(self.label), say(self.note) if self.note else ""
        if isinstance(value, str):
            return {"label": label, "value": say(value), "note": note}
        n, d = value.numerator, value.denominator
        if _EXACT_DENOMINATORS % d == 0:  # at most JSON_PLACES decimals: a plain number
            return {"label": label, "value": to_number(value), "note": note}
        shown = round(n / d, 4)
        return {"label": label, "value": shown, "note": note, "exact": f"{n}/{d}"}


def line_data(line: Line) -> list[object]:
    """A breakdown line as plain JSON data, exact: [label, value, note], where a number
    is written "n/d", a worded value is marked with a leading "=" (or is {"id", "params"}
    when it has values) and label and note are as text_data writes them."""
    value = line.value
    if type(value) is Fraction:
        shown: object = f"{value.numerator}/{value.denominator}"
    else:
        shown = text_data(value)
        if isinstance(shown, str):
            shown = f"={shown}"
    return [text_data(line.label), shown, text_data(line.note)]


def line_from_data(data: list) -> Line:
    """line_data read back; a line stored before ids existed reads as its English."""
    label, shown, note = data
    if isinstance(shown, dict):
        value: Fraction | str = text_from_data(shown)
    elif shown.startswith("="):
        value = Text(shown[1:])
    else:
        value = Fraction(shown)
    return Line(text_from_data(label), value, text_from_data(note))


# A fraction has at most JSON_PLACES decimals when its denominator divides this.
_EXACT_DENOMINATORS = 10**JSON_PLACES


class Priced:
    """Points per model (rounded by the system's rule), the exact value, and the breakdown.

    The breakdown may be given as a function: pricing a thousand units for a total
    should not pay for a thousand explanations nobody reads.
    """

    __slots__ = ("_explain", "_lines", "each", "exact")

    def __init__(
        self,
        each: Fraction,
        exact: Fraction,
        lines: tuple[Line, ...] | Callable[[], tuple[Line, ...]] = (),
    ) -> None:
        self.each = each
        self.exact = exact
        self._lines = lines if isinstance(lines, tuple) else None
        self._explain = None if isinstance(lines, tuple) else lines

    @property
    def lines(self) -> tuple[Line, ...]:
        if self._lines is None:
            assert self._explain is not None
            self._lines = tuple(self._explain())
        return self._lines

    def _key(self) -> tuple[Fraction, Fraction, tuple[Line, ...]]:
        return (self.each, self.exact, self.lines)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Priced) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Priced(each={self.each!r}, exact={self.exact!r}, lines={self.lines!r})"


@dataclass(frozen=True, slots=True)
class Issue:
    """A broken rule (error) or a heads-up (warning); `unit` is the index of the unit causing it."""

    code: str
    message: str  # a Text (points.messages)
    unit: int | None = None

    def to_json(self, say: Say = str) -> dict[str, object]:
        return {"code": self.code, "message": say(self.message), "unit": self.unit}


@dataclass(frozen=True, slots=True)
class NoOptions:
    """Army-level purchases of a system that has none (every system but G.O.M.S.)."""


@dataclass(frozen=True, slots=True)
class Unit:
    name: str
    quantity: int
    profile: object  # the system's profile dataclass


@dataclass(frozen=True, slots=True)
class Army:
    name: str
    system: str
    points_limit: Fraction | None
    options: object  # the system's options dataclass
    units: tuple[Unit, ...]
    # The rules version a file says it was priced under (SPEC 4), None when it names none.
    rules_version: str | None = None


@dataclass(frozen=True, slots=True)
class Entry:
    """What army-wide checks read of one unit: its name, quantity and the few facts its
    system's checks need (UnitResult.facts), so a stored army is checked without loading
    or validating a single profile."""

    name: str
    quantity: int
    facts: Mapping[str, object]


@dataclass(frozen=True, slots=True)
class PricedUnit:
    unit: Unit
    priced: Priced
    cost: Fraction  # points per model × quantity

    def to_json(self, say: Say = str) -> dict[str, object]:
        return {
            "name": self.unit.name,
            "quantity": self.unit.quantity,
            "each": to_number(self.priced.each),
            "cost": to_number(self.cost),
            "breakdown": [line.to_json(say) for line in self.priced.lines],
        }


@dataclass(frozen=True)
class PricedArmy:
    army: Army
    units: tuple[PricedUnit, ...]
    option_lines: tuple[Line, ...]
    total: Fraction
    errors: tuple[Issue, ...]
    warnings: tuple[Issue, ...]
    extras: Mapping[str, object] = field(default_factory=dict)
    rules_version: str = ""

    @property
    def legal(self) -> bool:
        return not self.errors

    @cached_property
    def issues_by_unit(self) -> tuple[tuple[tuple[Issue, ...], tuple[Issue, ...]], ...]:
        """Each unit's (errors, warnings), in one pass over the army's issues; worked out
        once, as the builder asks for it several times per save."""
        grouped: dict[int, tuple[list[Issue], list[Issue]]] = {}
        for kind, found in enumerate((self.errors, self.warnings)):
            for issue in found:
                if issue.unit is not None:
                    grouped.setdefault(issue.unit, ([], []))[kind].append(issue)
        # Most units have none: they share one empty pair.
        issues = [((), ())] * len(self.units)
        for unit, (errors, warnings) in grouped.items():
            issues[unit] = (tuple(errors), tuple(warnings))
        return tuple(issues)

    def to_json(self, say: Say = str) -> dict[str, object]:
        """The price API's and `manage.py price`'s answer; `say` writes the engine's words
        in the reader's language (English, as str, by default)."""
        limit = self.army.points_limit
        out: dict[str, object] = {
            "system": self.army.system,
            "rules_version": self.rules_version,
            "name": self.army.name,
            "total": to_number(self.total),
            "points_limit": None if limit is None else to_number(limit),
            "units": [unit.to_json(say) for unit in self.units],
            "options": [line.to_json(say) for line in self.option_lines],
            "errors": [issue.to_json(say) for issue in self.errors],
            "warnings": [issue.to_json(say) for issue in self.warnings],
        }
        out.update({key: _extra_json(value, say) for key, value in self.extras.items()})
        return out


def _extra_json(value: object, say: Say) -> object:
    if isinstance(value, Fraction):
        return to_number(value)
    if isinstance(value, Line):
        return value.to_json(say)
    if isinstance(value, Text):
        return say(value)
    if isinstance(value, tuple | list):
        return [_extra_json(item, say) for item in value]
    if isinstance(value, Mapping):
        return {key: _extra_json(item, say) for key, item in value.items()}
    return value


def exact_data(value: object) -> object:
    """Extras as plain JSON data that keeps every number exact (exact_from_data)."""
    if isinstance(value, Fraction):
        return {"fraction": f"{value.numerator}/{value.denominator}"}
    if isinstance(value, Line):
        return {"line": line_data(value)}
    if isinstance(value, Text):
        return {"text": text_data(value)}
    if isinstance(value, Mapping):
        return {key: exact_data(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [exact_data(item) for item in value]
    return value


def exact_from_data(data: object) -> object:
    if isinstance(data, dict):
        if data.keys() == {"fraction"}:
            return Fraction(data["fraction"])
        if data.keys() == {"line"}:
            return line_from_data(data["line"])
        if data.keys() == {"text"}:
            return text_from_data(data["text"])
        return {key: exact_from_data(item) for key, item in data.items()}
    if isinstance(data, list):
        return [exact_from_data(item) for item in data]
    return data
