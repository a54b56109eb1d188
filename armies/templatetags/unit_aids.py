"""{% unit_aids row.priced as aids %}: a unit card's table aids, worked out by armies.aids."""

from __future__ import annotations

from django import template

from armies import aids
from points.model import PricedUnit

register = template.Library()


@register.simple_tag
def unit_aids(priced: PricedUnit) -> aids.CardAids | None:
    return aids.card_aids(priced)
