from __future__ import annotations

from fractions import Fraction

from django import template
from django.conf import settings
from django.template.loader import render_to_string

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


# Unit rows by everything they show. A row is rendered once per process for each look
# it can have, so a 200-unit builder page costs little more than a 10-unit one. The row
# sees only what the key covers (an isolated context), so a template change that
# needs more shows up empty in tests instead of going stale. Bounded: when full it
# starts again, which only costs the rendering it saved.
_ROWS: dict[tuple, tuple[object, str]] = {}
ROW_MEMO_SIZE = 5000


@register.simple_tag(takes_context=True)
def unit_row(context, row, oob: bool = False) -> str:
    """{% unit_row row %}: the builder.html#unit-row partial for one Row."""
    shared, army_url = bool(context.get("shared")), context.get("army_url", "")
    # The PricedUnit carries the unit's name, quantity, stat line and price; the engine
    # hands back the same object for the same unit, and the entry keeps it alive.
    key = (
        id(row.priced),
        row.unit.pk,
        row.url,
        row.first,
        row.last,
        row.selected,
        tuple(row.errors),
        tuple(row.warnings),
        shared,
        oob,
        army_url,
    )
    seen = _ROWS.get(key)
    if seen is not None and seen[0] is row.priced and not settings.DEBUG:
        return seen[1]
    html = render_to_string(
        "armies/builder.html#unit-row",
        {"row": row, "shared": shared, "oob": oob, "army_url": army_url},
    )
    if len(_ROWS) >= ROW_MEMO_SIZE:
        _ROWS.clear()
    _ROWS[key] = (row.priced, html)
    return html
