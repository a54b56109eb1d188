"""Exact numbers written out in decimals: how many places one needs, and the text."""

from __future__ import annotations

import math
from fractions import Fraction

LOG2_5 = math.log2(5)


def decimal_places(x: Fraction) -> int | None:
    """How many decimals `x` needs, or None when it does not terminate (1/3).

    In a few big-integer operations, not one division per factor: a posted stat may carry
    63 decimals, and the products pricing makes of them have denominators of 10**400."""
    d = x.denominator
    twos = (d & -d).bit_length() - 1
    odd = d >> twos
    if odd == 1:
        return twos
    # What is left must be a power of five, whose exponent its bit length tells.
    fives = round((odd.bit_length() - 1) / LOG2_5)
    return max(twos, fives) if 5**fives == odd else None


def decimal_text(x: Fraction) -> str | None:
    """`x` written out exactly in decimals ("6.52"), or None when it does not terminate."""
    places = decimal_places(x)
    if places is None:
        return None
    if places == 0:
        return str(x.numerator)
    digits = str(abs(x.numerator) * 10**places // x.denominator).rjust(places + 1, "0")
    sign = "-" if x < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}"
