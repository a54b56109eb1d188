"""{% unit_aids row.priced as aids %}: a unit card's table aids, worked out by rules.aids."""

from __future__ import annotations

from django import template

from points.model import PricedUnit
from rules import aids

register = template.Library()


@register.simple_tag
def unit_aids(priced: PricedUnit) -> aids.CardAids | None:
    return aids.card_aids(priced)
