"""Reading one field of an army file: each check names the field's path when it fails."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from fractions import Fraction

from points.dice import MALFORMED, average
from points.errors import ArmyFileError
from points.messages import Text, gettext_noop
from points.model import Stat
from points.numbers import MAX_VALUE, decimal_text, parse_number

MAX_NAME = 200
_SHOWN = 40  # longest piece of a player's text quoted back in a message


def at(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def index(path: str, i: int) -> str:
    return f"{path}[{i}]"


def shown(text: str) -> str:
    """A player's text made safe for a one-line message: shortened, control characters out."""
    short = text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"
    return "".join(c if c.isprintable() else "?" for c in short)


def quoted(text: str) -> str:
    return f'"{shown(text)}"'


def one_of(options: Iterable[str]) -> Text:
    """ "must be one of a, b, c": the choices are the file's own words, never translated."""
    return Text(gettext_noop("must be one of %(choices)s"), choices=", ".join(options))


def fmt(x: Fraction) -> str:
    """A bound or value as a player writes it: 10, 0.5, 1/3."""
    return decimal_text(x) or f"{x.numerator}/{x.denominator}"


@dataclass(frozen=True, slots=True)
class Range:
    """Allowed values of a numeric field; forms can read these for their min and max."""

    low: Fraction | None = None
    high: Fraction | None = None
    low_open: bool = False  # True when the value must be greater than `low`

    def check(self, value: tuple[int, int], path: str) -> None:
        """`value` as (numerator, denominator), denominator positive (Stat.pair)."""
        # Compared as integers: Fraction's own comparisons cost several times more, and
        # every stat of a 1000-unit army passes here.
        n, d = value
        low, high = self.low, self.high
        too_low = low is not None and (
            n * low.denominator <= low.numerator * d
            if self.low_open
            else n * low.denominator < low.numerator * d
        )
        too_high = high is not None and n * high.denominator > high.numerator * d
        if too_low or too_high:
            raise ArmyFileError(path, self.describe())

    def describe(self) -> Text:
        if self.low is not None and self.high is not None and not self.low_open:
            return Text(
                gettext_noop("must be between %(low)s and %(high)s"), low=self.low, high=self.high
            )
        if self.low is not None and self.low_open:
            return Text(gettext_noop("must be greater than %(low)s"), low=self.low)
        if self.low is not None:
            return Text(gettext_noop("must be at least %(low)s"), low=self.low)
        if self.high is not None:
            return Text(gettext_noop("must be at most %(high)s"), high=self.high)
        return Text(gettext_noop("must be a number"))


def between(low: int, high: int) -> Range:
    return Range(Fraction(low), Fraction(high))


def at_least(low: int) -> Range:
    return Range(Fraction(low))


def above(low: int) -> Range:
    return Range(Fraction(low), low_open=True)


def obj(raw: object, path: str) -> dict[str, object]:
    if not isinstance(raw, dict):
        raise ArmyFileError(path, Text(gettext_noop("must be an object")))
    for key in raw:
        if not isinstance(key, str):
            raise ArmyFileError(path, Text(gettext_noop("field names must be text")))
    return raw


def known_keys(data: dict[str, object], allowed: Collection[str], path: str) -> None:
    """Unknown keys are errors, not ignored (SPEC 4): a typo must not silently drop a stat."""
    for key in data:
        if key not in allowed:
            raise ArmyFileError(at(path, shown(key)), Text(gettext_noop("unknown field")))


def required(data: dict[str, object], key: str, path: str) -> object:
    if key not in data:
        raise ArmyFileError(at(path, key), Text(gettext_noop("required")))
    return data[key]


def items(raw: object, path: str, most: int) -> list[object]:
    if not isinstance(raw, list | tuple):
        raise ArmyFileError(path, Text(gettext_noop("must be a list")))
    if len(raw) > most:
        raise ArmyFileError(
            path, Text(gettext_noop("must have at most %(most)s entries"), most=most)
        )
    return list(raw)


def choice(raw: object, options: Iterable[str], path: str) -> str:
    options = tuple(options)
    if not isinstance(raw, str) or raw not in options:
        raise ArmyFileError(path, one_of(options))
    return raw


def boolean(raw: object, path: str) -> bool:
    if not isinstance(raw, bool):
        raise ArmyFileError(path, Text(gettext_noop("must be true or false")))
    return raw


def whole(raw: object, path: str, low: int, high: int = MAX_VALUE) -> int:
    """A whole JSON number; "3" and 3.0 are refused so files stay unambiguous."""
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < low:
        raise ArmyFileError(
            path, Text(gettext_noop("must be a whole number of at least %(low)s"), low=low)
        )
    if raw > high:
        raise ArmyFileError(path, Text(gettext_noop("must be at most %(high)s"), high=high))
    return raw


def whole_between(raw: object, path: str, low: int, high: int) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise ArmyFileError(
            path,
            Text(
                gettext_noop("must be a whole number between %(low)s and %(high)s"),
                low=low,
                high=high,
            ),
        )
    return raw


# Every whole-number stat from 0 to the largest value, made once: most stats in a file
# are small whole numbers, and an army of 1000 units with 20 weapons each has 60,000.
_WHOLE = tuple(Stat(n, Fraction(n)) for n in range(MAX_VALUE + 1))


def stat(raw: object, path: str, allowed: Range) -> Stat:
    """A stat: a number, a numeric string or a dice expression, priced at its average."""
    if type(raw) is int and 0 <= raw <= MAX_VALUE:
        found = _WHOLE[raw]
    elif isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
        raise ArmyFileError(path, MALFORMED)
    else:
        found = Stat(raw, average(raw, path))
    allowed.check(found.pair, path)
    return found


def number(raw: object, path: str, allowed: Range) -> Stat:
    """A plain number (no dice), kept as typed."""
    if type(raw) is int and 0 <= raw <= MAX_VALUE:
        found = _WHOLE[raw]
    elif isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
        raise ArmyFileError(path, Text(gettext_noop("must be a number")))
    else:
        value = parse_number(raw, path)
        if abs(value.numerator) > MAX_VALUE * value.denominator:
            raise ArmyFileError(
                path, Text(gettext_noop("must be at most %(high)s"), high=MAX_VALUE)
            )
        found = Stat(raw, value)
    allowed.check(found.pair, path)
    return found


def text(raw: object, path: str, most: int = MAX_NAME, *, blank_ok: bool = False) -> str:
    if not isinstance(raw, str):
        raise ArmyFileError(path, Text(gettext_noop("must be text")))
    if len(raw) > most:
        raise ArmyFileError(
            path, Text(gettext_noop("must be at most %(most)s characters"), most=most)
        )
    if not blank_ok and not raw.strip():
        raise ArmyFileError(path, Text(gettext_noop("must not be empty")))
    if not raw.isprintable():
        raise ArmyFileError(path, Text(gettext_noop("must be one line of printable text")))
    return raw


def const(value: int | float | str) -> Stat:
    """A default stat, written as the rules write it."""
    return Stat(value, Fraction(value))
