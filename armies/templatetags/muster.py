from __future__ import annotations

from fractions import Fraction

from django import template

from points.numbers import decimal_text

register = template.Library()


@register.filter
def pts(value) -> str:
    """A points value as a player reads it: 28, 6.5, 0.5; long fractions to 4 places."""
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        return value
    exact = Fraction(value)
    text = decimal_text(exact)
    if text is not None and len(text.partition(".")[2]) <= 6:
        return text
    return f"≈{float(exact):.4f}"


@register.filter
def exact(value) -> str:
    """The exact rational behind a rounded number, e.g. 163/25, for the breakdown."""
    if not isinstance(value, Fraction) or value.denominator == 1:
        return ""
    return f"{value.numerator}/{value.denominator}"
