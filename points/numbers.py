"""Exact numbers: reading them from JSON, rounding them and writing them back."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from fractions import Fraction

# Written out in decimals; here too, as the numbers module is where readers look.
from points.decimals import decimal_places as decimal_places
from points.decimals import decimal_text as decimal_text
from points.errors import ArmyFileError
from points.messages import Text, gettext_noop

# SPEC 3.1: every value in a stat is at most 1000; also keeps hostile numbers small.
MAX_VALUE = 1000
MAX_TEXT = 64

NUMBER_TEXT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def exact_sum(values: Iterable[Fraction], start: Fraction = Fraction(0)) -> Fraction:
    """sum() of Fractions, exactly, but adding the numerators over each denominator first:
    an army's unit costs share a handful of denominators, so 200 of them make a few
    Fractions instead of 200 (each Fraction addition reduces by a gcd)."""
    by_denominator: dict[int, int] = {}
    for value in values:
        d = value.denominator
        by_denominator[d] = by_denominator.get(d, 0) + value.numerator
    total = start
    for d, n in by_denominator.items():
        total += Fraction(n, d)
    return total


def round_half_up(x: Fraction, places: int = 1) -> Fraction:
    """Round to `places` decimals, halves away from zero (5.25 -> 5.3, unlike round())."""
    scale = 10**places
    # Integer arithmetic on purpose: this runs once per priced unit.
    num, den = abs(x.numerator) * scale, x.denominator
    whole = (2 * num + den) // (2 * den)
    return Fraction(whole if x >= 0 else -whole, scale)


def typed_decimal(raw: object) -> str | None:
    """A number as typed (4, 2.50, " -03.10"), written as decimal_text writes its value
    ("-3.1"), from its digits alone; None for anything else (dice, 1e-05).

    Breakdowns quote every stat: for one typed with 60 decimals, decimal_text's big-integer
    work costs several times this."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return str(raw)
    text = repr(raw) if isinstance(raw, float) else raw.strip() if isinstance(raw, str) else ""
    if not NUMBER_TEXT.fullmatch(text):
        return None
    whole, _, decimals = text.lstrip("+-").partition(".")
    whole, decimals = whole.lstrip("0") or "0", decimals.rstrip("0")
    sign = "-" if text.startswith("-") and (whole != "0" or decimals) else ""
    return f"{sign}{whole}.{decimals}" if decimals else f"{sign}{whole}"


def to_number(x: Fraction) -> int | float:
    """A JSON number for `x`: 28 stays an int, 13/2 becomes 6.5.

    Dividing two ints rounds correctly, as reading the decimal "6.52" does: both give the
    float nearest the exact value, without writing the decimal out first."""
    n, d = x.numerator, x.denominator
    return n if d == 1 else n / d


def parse_number(raw: object, path: str) -> Fraction:
    """A JSON number or a numeric string ("2.5") as an exact Fraction; bool is not a number."""
    if isinstance(raw, bool):
        raise ArmyFileError(path, Text(gettext_noop("must be a number")))
    if isinstance(raw, int):
        return Fraction(raw)
    if isinstance(raw, float):
        if not math.isfinite(raw):
            raise ArmyFileError(path, Text(gettext_noop("must be a finite number")))
        # repr gives the shortest decimal that reads back as this float: what was typed.
        text = repr(raw)
        return Fraction(text) if "e" in text else decimal_fraction(text)
    if isinstance(raw, str):
        if len(raw) > MAX_TEXT:
            raise ArmyFileError(
                path, Text(gettext_noop("must be at most %(most)s characters"), most=MAX_TEXT)
            )
        text = raw.strip()
        if NUMBER_TEXT.fullmatch(text):
            return decimal_fraction(text)
    raise ArmyFileError(path, Text(gettext_noop("must be a number")))


def decimal_fraction(text: str) -> Fraction:
    """A decimal that NUMBER_TEXT matched ("-2.50", ".5", "3."), read in a few integer
    operations: Fraction(text) parses it again with a more general pattern, which
    doubles the cost of reading an army whose every stat carries 60 decimals."""
    whole, _, decimals = text.partition(".")
    digits = int(whole + decimals) if whole not in ("", "+", "-") else int(decimals)
    if whole.startswith("-"):
        digits = -abs(digits)
    return Fraction(digits, 10 ** len(decimals))


def ascii_int(text: str | None, digits: int) -> int | None:
    """`text` as a whole number when it is 1 to `digits` ASCII digits, else None: typed ids
    and indexes. str.isdigit() alone also says yes to "²", which int() refuses, and to
    5,000 digits, past what int() converts."""
    if text and len(text) <= digits and text.isascii() and text.isdigit():
        return int(text)
    return None


def shown_number(x: Fraction) -> str:
    """A derived number as a player reads it: 7.5, 114, ≈8.1."""
    text = decimal_text(x)
    if text is not None and len(text.partition(".")[2]) <= 2:
        return text
    return f"≈{float(x):.1f}"


def percent(chance: Fraction) -> str:
    """A chance as a percentage a player reads: 58.3, ≈8.1."""
    return shown_number(chance * 100)
