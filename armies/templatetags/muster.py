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


# Unit rows and roster cards by everything they show. Each is rendered once per process
# for each look it can have, so 200 units cost little more than 10. A piece sees only
# what its key covers (an isolated context), so a template change that needs more
# shows up empty in tests instead of going stale. Keys start with the PricedUnit's id:
# it carries the unit's name, quantity, stat line and price, the engine hands back the
# same object for the same unit, and the entry keeps it alive. Bounded: when full it
# starts again, which only costs the rendering it saved. Off under DEBUG, where
# templates change under a running server.
_DRAWN: dict[tuple, tuple[object, str]] = {}
DRAWN_MEMO_SIZE = 5_000  # about 15 MB of HTML at most


def _remembered(template: str, priced, key: tuple, context: dict) -> str:
    key = (template, id(priced), *key)
    seen = _DRAWN.get(key)
    if seen is not None and seen[0] is priced and not settings.DEBUG:
        return seen[1]
    html = render_to_string(template, context)
    if len(_DRAWN) >= DRAWN_MEMO_SIZE:
        _DRAWN.clear()
    _DRAWN[key] = (priced, html)
    return html


@register.simple_tag(takes_context=True)
def unit_row(context, row, oob: bool = False) -> str:
    """{% unit_row row %}: the builder.html#unit-row partial for one Row."""
    shared, army_url = bool(context.get("shared")), context.get("army_url", "")
    key = (
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
    return _remembered(
        "armies/builder.html#unit-row",
        row.priced,
        key,
        {"row": row, "shared": shared, "oob": oob, "army_url": army_url},
    )


@register.simple_tag(takes_context=True)
def roster_card(context, card) -> str:
    """{% roster_card card %}: the roster.html#card partial for one Card."""
    system, template = context["army"].system, context["system_template"]
    key = (card.number, tuple(card.errors), tuple(card.warnings), card.rolled, system, template)
    return _remembered(
        "armies/roster.html#card",
        card.priced,
        key,
        {"card": card, "system": system, "system_template": template},
    )
