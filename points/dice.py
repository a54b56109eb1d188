"""Dice expressions such as ``2d6+8``: a stat's value for pricing is its average (GEM 4.2.5)."""

from __future__ import annotations

import re
from fractions import Fraction

from points.errors import ArmyFileError
from points.numbers import MAX_TEXT, MAX_VALUE, NUMBER_TEXT, decimal_fraction, parse_number

MAX_DICE = 100
MIN_SIDES = 2
MAX_SIDES = MAX_VALUE

_TERM = re.compile(
    r"\s*(?:(?P<count>[0-9]*)[dD](?P<sides>[0-9]+)|(?P<number>[0-9]+(?:\.[0-9]+)?|\.[0-9]+))\s*"
)
# The same grammar read in two passes of the regex engine, not one match per term: a
# 64-character stat holds up to 21 terms, and a 1 MB army 15,000 such stats.
_BARE_TERM = r"\s*(?:[0-9]*[dD][0-9]+|[0-9]+(?:\.[0-9]+)?|\.[0-9]+)\s*"
_EXPRESSION = re.compile(rf"{_BARE_TERM}(?:[+-]{_BARE_TERM})*")
_SIGNED_TERM = re.compile(r"([+-]?)\s*(?:([0-9]*)[dD]([0-9]+)|([0-9.]+))")
_MALFORMED = "must be a number or a dice expression such as 2d6+8"


def rolled(raw: int | float | str) -> bool:
    """A dice expression ("2d6+8"), not a number, whether typed as 4.5 or "4.5"."""
    return isinstance(raw, str) and not NUMBER_TEXT.fullmatch(raw.strip())


def average(raw: int | float | str, path: str) -> Fraction:
    """The exact average of a stat: a number, a numeric string or a dice expression."""
    if isinstance(raw, str):
        if len(raw) > MAX_TEXT:
            raise ArmyFileError(path, f"must be at most {MAX_TEXT} characters")
        text = raw.strip()
        if not NUMBER_TEXT.fullmatch(text):
            return _dice_average(raw, path)
        value = decimal_fraction(text)
    else:
        value = parse_number(raw, path)
    if abs(value.numerator) > MAX_VALUE * value.denominator:
        raise ArmyFileError(path, f"must be at most {MAX_VALUE}")
    return value


def _dice_average(text: str, path: str) -> Fraction:
    if not _EXPRESSION.fullmatch(text):
        return _read_terms(text, path)  # to say what is wrong
    # Twice the average, in integers: one die of M sides averages (M + 1) / 2. Numbers
    # with decimals (rare) are added as fractions.
    twice = 0
    decimals: Fraction | int = 0
    for sign, count, sides, number in _SIGNED_TERM.findall(text):
        if "." in number:
            value = decimal_fraction(number)
            if value > MAX_VALUE:
                return _read_terms(text, path)
            decimals = decimals - value if sign == "-" else decimals + value
        elif number:
            whole = int(number)
            if whole > MAX_VALUE:
                return _read_terms(text, path)
            twice += -2 * whole if sign == "-" else 2 * whole
        else:
            n, m = int(count or "1"), int(sides)
            if not (1 <= n <= MAX_DICE and MIN_SIDES <= m <= MAX_SIDES):
                return _read_terms(text, path)
            twice += -n * (m + 1) if sign == "-" else n * (m + 1)
    average = Fraction(twice, 2)
    return average + decimals if decimals else average


def _read_terms(text: str, path: str) -> Fraction:
    """Term by term, naming the first thing wrong with the expression."""
    total = Fraction(0)
    sign = 1
    pos = 0
    while True:
        term = _TERM.match(text, pos)
        if term is None or term.end() == pos:
            raise ArmyFileError(path, _MALFORMED)
        total += sign * _term_average(term, path)
        pos = term.end()
        if pos == len(text):
            return total
        if text[pos] not in "+-":
            raise ArmyFileError(path, _MALFORMED)
        sign = 1 if text[pos] == "+" else -1
        pos += 1


def _term_average(term: re.Match[str], path: str) -> Fraction:
    if term["number"] is not None:
        value = Fraction(term["number"])
        if value > MAX_VALUE:
            raise ArmyFileError(path, f"numbers in a dice expression must be at most {MAX_VALUE}")
        return value
    count = int(term["count"] or "1")
    sides = int(term["sides"])
    if not 1 <= count <= MAX_DICE:
        raise ArmyFileError(path, f"must roll 1 to {MAX_DICE} dice in each term")
    if not MIN_SIDES <= sides <= MAX_SIDES:
        raise ArmyFileError(path, f"dice must have {MIN_SIDES} to {MAX_SIDES} sides")
    # One die of M sides averages (M + 1) / 2.
    return Fraction(count * (sides + 1), 2)
