"""Filters for showing the engine's exact numbers the way a player writes them."""

from __future__ import annotations

import re
from fractions import Fraction

from django import template
from django.utils import formats

from points import fights
from points.fields import fmt
from points.numbers import decimal_text
from rules import words

register = template.Library()

# A number as the engine writes it for people: 462.8, -2, ≈0.3333 (not 1/3, not "—").
_DECIMAL = re.compile(r"-?≈?\d+\.\d+")


def local(text: str) -> str:
    """A number written for people in the page's language: 462.8 reads 462,8 in German.
    The army file, the API and what scripts read keep the dot (|unlocalize there)."""
    return formats.number_format(text) if _DECIMAL.fullmatch(text) else text


@register.filter
def say(text) -> str:
    """{{ o.note|say }}: the engine's words in the reader's language (rules.words)."""
    return words.say(text)


@register.filter
def num(value: object) -> str:
    """Fraction(9, 10) -> "0.9", Fraction(1, 3) -> "1/3", 2 -> "2"; None -> an em dash."""
    if value is None or isinstance(value, bool):
        return "—"
    if isinstance(value, int | float | Fraction):
        return local(fmt(Fraction(value)))
    return str(value)


@register.filter
def signed(value: int | None) -> str:
    """A die modifier: +1, −1, 0."""
    if value is None:
        return "—"
    if value > 0:
        return f"+{value}"
    return "0" if value == 0 else f"−{-value}"


@register.filter
def percent(value: Fraction) -> str:
    """A chance as a whole percentage: Fraction(3, 5) -> "60%"."""
    return f"{round(value * 100)}%"


@register.filter
def plus(value: int | None) -> str:
    """A target on a die: 5 -> "5+"; None -> a dash (cannot)."""
    return "–" if value is None else f"{value}+"


@register.filter
def out_of(value: Fraction, faces: int) -> str:
    """A chance as faces of a die: Fraction(1, 2)|out_of:20 -> "10 in 20"."""
    return f"{fmt(Fraction(value) * faces)} in {faces}"


@register.filter
def expected(value: Fraction | None) -> str:
    """An expected number of hits: 1.3, 0.25, ≈0.33."""
    if value is None:
        return "–"
    text = decimal_text(Fraction(value))
    if text is not None and len(text.partition(".")[2]) <= 2:
        return local(text)
    return local(f"≈{float(value):.2f}")


@register.filter
def fight_percent(value: Fraction | float | None) -> str:
    """A chance as a percentage to one decimal, as the fight odds show them: "60.0"."""
    return "—" if value is None else local(fights.percent(value))


@register.filter
def fight_decimal(value: Fraction | float) -> str:
    """Points to two decimals, halves up: 7/3 -> "2.33"."""
    return local(fights.two_places(value))


@register.filter
def index(items: object, i: int) -> object:
    return items[i]  # type: ignore[index]
