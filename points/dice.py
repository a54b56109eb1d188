"""Dice expressions such as ``2d6+8``: a stat's value for pricing is its average (GEM 4.2.5)."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import NoReturn

from points.errors import ArmyFileError
from points.messages import Text, gettext_noop
from points.numbers import MAX_TEXT, MAX_VALUE, NUMBER_TEXT, decimal_fraction, parse_number

MAX_DICE = 100
MIN_SIDES = 2
MAX_SIDES = MAX_VALUE

# One term: NdM (groups count, sides) or a number. A whole expression is matched once and
# its signed terms listed once, not matched term by term: a 64-character stat holds up
# to 21 terms, and a 1 MB army 15,000 such stats.
_TERM_TEXT = r"\s*(?:([0-9]*)[dD]([0-9]+)|([0-9]+(?:\.[0-9]+)?|\.[0-9]+))\s*"
_TERM = re.compile(_TERM_TEXT)
_EXPRESSION = re.compile(rf"{_TERM_TEXT}(?:[+-]{_TERM_TEXT})*")
_SIGNED_TERM = re.compile(rf"([+-]?){_TERM_TEXT}")
MALFORMED = Text(gettext_noop("must be a number or a dice expression such as 2d6+8"))


def rolled(raw: int | float | str) -> bool:
    """A dice expression ("2d6+8"), not a number, whether typed as 4.5 or "4.5"."""
    return isinstance(raw, str) and not NUMBER_TEXT.fullmatch(raw.strip())


def average(raw: int | float | str, path: str) -> Fraction:
    """The exact average of a stat: a number, a numeric string or a dice expression."""
    if isinstance(raw, str):
        if len(raw) > MAX_TEXT:
            raise ArmyFileError(
                path, Text(gettext_noop("must be at most %(most)s characters"), most=MAX_TEXT)
            )
        text = raw.strip()
        if not NUMBER_TEXT.fullmatch(text):
            return _dice_average(raw, path)
        value = decimal_fraction(text)
    else:
        value = parse_number(raw, path)
    if abs(value.numerator) > MAX_VALUE * value.denominator:
        raise ArmyFileError(path, Text(gettext_noop("must be at most %(high)s"), high=MAX_VALUE))
    return value


def _dice_average(text: str, path: str) -> Fraction:
    if not _EXPRESSION.fullmatch(text):
        _refuse(text, path)
    # Twice the average: whole numbers unless a term has decimals.
    twice: int | Fraction = 0
    for sign, count, sides, number in _SIGNED_TERM.findall(text):
        term = _twice_average(count, sides, number, path)
        twice = twice - term if sign == "-" else twice + term
    return Fraction(twice, 2)


def _refuse(text: str, path: str) -> NoReturn:
    """Raise for a malformed expression, naming its first out-of-range term if one comes
    before the point where it stops making sense."""
    pos = 0
    while True:
        term = _TERM.match(text, pos)
        if term is None or term.end() == pos:
            raise ArmyFileError(path, MALFORMED)
        _twice_average(*term.groups(), path)
        pos = term.end()
        if pos == len(text) or text[pos] not in "+-":
            raise ArmyFileError(path, MALFORMED)
        pos += 1


def _twice_average(
    count: str | None, sides: str | None, number: str | None, path: str
) -> int | Fraction:
    """Twice one term's average (so a die's is whole): a number, or NdM with N dice of M
    sides, each averaging (M + 1) / 2."""
    if number:
        value = int(number) if "." not in number else decimal_fraction(number)
        if value > MAX_VALUE:
            raise ArmyFileError(
                path,
                Text(
                    gettext_noop("numbers in a dice expression must be at most %(high)s"),
                    high=MAX_VALUE,
                ),
            )
        return 2 * value
    dice, faces = int(count or "1"), int(sides or "0")
    if not 1 <= dice <= MAX_DICE:
        raise ArmyFileError(
            path, Text(gettext_noop("must roll 1 to %(most)s dice in each term"), most=MAX_DICE)
        )
    if not MIN_SIDES <= faces <= MAX_SIDES:
        raise ArmyFileError(
            path,
            Text(
                gettext_noop("dice must have %(least)s to %(most)s sides"),
                least=MIN_SIDES,
                most=MAX_SIDES,
            ),
        )
    return dice * (faces + 1)
