from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction

from django import template
from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.safestring import SafeString

import points
from armies import unit_cards
from points import fights
from points.armyfile import MAX_QUANTITY
from points.numbers import decimal_text
from points.systems import SYSTEMS

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
def described(field) -> SafeString:
    """{{ field|described }}: the field's widget, described by its help text and by the box
    where its messages show ({% feedback %}), so a screen reader reads both; Django's own
    pointers name an error box this page does not draw."""
    ids = [f"{field.auto_id}_helptext"] if field.help_text else []
    ids.append(f"fb-{field.html_name}")
    return field.as_widget(attrs={"aria-describedby": " ".join(ids)})


@register.inclusion_tag("armies/_feedback.html")
def feedback(field, oob: bool = False) -> dict:
    """{% feedback field %}: the box beside a field where its messages show (fb-<name>)."""
    return {"boxes": [(field.html_name, field.errors)], "oob": oob}


@register.inclusion_tag("armies/_feedback.html")
def feedback_boxes(form, oob: bool = False) -> dict:
    """{% feedback_boxes form %}: every field's box, then the form-wide one (fb-all), as
    {% feedback %} draws them: a re-price swaps in all of an editor's ~40 boxes."""
    errors = form.errors
    boxes = [(form.add_prefix(name), errors.get(name, ())) for name in form.fields]
    return {"boxes": [*boxes, ("all", form.non_field_errors())], "oob": oob}


@register.filter
def exact(value) -> str:
    """The exact rational behind a rounded number, e.g. 163/25, for the breakdown."""
    if not isinstance(value, Fraction) or value.denominator == 1:
        return ""
    return f"{value.numerator}/{value.denominator}"


def _drawn_once(state, keys: list[str], draw: Callable[[list[int]], dict[int, str]]):
    """The part of each unit of `state.listed`, in list order, from Django's cache, where
    every worker finds what one drew; draw(pks) draws the parts no cache had, by unit id,
    reading only those units. A part's key holds the version that last wrote its unit
    (Unit.revision) and whatever else it shows, so a save in a 200-unit army reads and
    draws one unit, not 200. A unit trashed meanwhile is left out, and nothing is kept
    for it."""
    found = cache.get_many(keys)
    missing = {pk: k for (pk, _), k in zip(state.listed, keys, strict=True) if k not in found}
    if missing:
        drawn = {missing[pk]: html for pk, html in draw(list(missing)).items()}
        found.update(drawn)
        cache.set_many(drawn, CACHE_SECONDS)
    parts = [found[k] for k in keys if k in found]
    return SafeString("".join(parts))  # each part a rendered template


CACHE_SECONDS = 24 * 60 * 60


def _part_keys(name: str, state, *more: Callable[[int, int], object]) -> list[str]:
    """The cache key of each unit's part, in list order: its id and revision, the
    army-wide issues naming it, and what `more` adds for the unit at place i with id pk."""
    about = state.about_units
    return [
        ":".join([name, str(pk), str(revision), about.get(pk, "-"), *(str(m(i, pk)) for m in more)])
        for i, (pk, revision) in enumerate(state.listed)
    ]


ROW_TEMPLATE = "armies/builder.html#unit-row"


@register.simple_tag(takes_context=True)
def unit_rows(context, state) -> SafeString:
    """{% unit_rows state %}: the builder.html#unit-row partial for each unit, cached."""
    army_url = context.get("army_url", "")
    order, selected = state.order, state.selected and state.selected.pk

    def look(i: int, pk: int) -> str:
        flags = (i == 0, i == len(order) - 1, pk == selected)
        return "".join("1" if flag else "0" for flag in flags)

    def draw(pks: list[int]) -> dict[int, str]:
        row_context = {**_row_context(army_url), "oob": False}
        return {
            row.unit.pk: render_to_string(ROW_TEMPLATE, {**row_context, "row": row})
            for row in state.rows_of(pks)
        }

    # "3": keyed on the army's issues about the unit; its own come with its revision.
    return _drawn_once(state, _part_keys("unit-row-4", state, look), draw)


@register.simple_tag(takes_context=True)
def roster_cards(context, state) -> SafeString:
    """{% roster_cards state %}: the roster.html#card partial for each unit, cached."""
    words, template = context["army"].game_system.points_word, context["system_template"]

    def draw(pks: list[int]) -> dict[int, str]:
        shown = {"points_word": words, "system_template": template}
        return {
            card.unit.pk: render_to_string("armies/roster.html#card", {**shown, "card": card})
            for card in state.cards_of(pks)
        }

    # The card shows its number in the list and, for G.O.M.S., the roll's dice for it.
    keys = _part_keys("roster-card3", state, lambda i, pk: i + 1, state.rolled_key)
    return _drawn_once(state, keys, draw)


@register.simple_tag
def shared_cards(state) -> SafeString:
    """{% shared_cards state %}: the share page's _shared_units.html#card for each unit,
    cached per unit revision: a save redraws the unit it changed, not all of them."""

    def draw(pks: list[int]) -> dict[int, str]:
        return {
            card.unit.pk: render_to_string("armies/_shared_units.html#card", {"card": card})
            for card in unit_cards.unit_cards(state, pks)
        }

    return _drawn_once(state, _part_keys("shared-card-3", state), draw)


@register.simple_tag(takes_context=True)
def unit_row(context, row, oob: bool = False) -> str:
    """{% unit_row row %}: the builder.html#unit-row partial for one Row."""
    row_context = _row_context(context.get("army_url", ""))
    return render_to_string(ROW_TEMPLATE, {**row_context, "row": row, "oob": oob})


def _row_context(army_url: str) -> dict:
    return {"army_url": army_url, "max_quantity": MAX_QUANTITY}


@register.filter
def points_word(value) -> str:
    """ "point" after exactly 1, else "points": 1 point, 0.5 points, 2 points."""
    try:
        return "point" if value is not None and value != "" and Fraction(value) == 1 else "points"
    except (TypeError, ValueError):  # "≈0.3333": not one
        return "points"


@register.filter
def models_word(value) -> str:
    return "model" if value == 1 else "models"


@register.filter
def system_name(key: str) -> str:
    """A system's full name: "GEM — Generic Easy Miniatures"."""
    return points.SYSTEMS[key].name


@register.simple_tag
def odds_against(priced: object, pk: int | None = None) -> str:
    """The fight calculator with this unit as side A ("Odds against…"): by its id for the
    owner, else the profile itself, so the link works for whoever holds it. "" when the
    system has no fight odds."""
    unit = getattr(priced, "unit", None)
    system = fights.system_of(getattr(unit, "profile", None))
    if system is None or unit is None:
        return ""
    if pk is not None:
        return _fight_url(system, unit=pk)
    profile = json.dumps(SYSTEMS[system].dump_profile(unit.profile), separators=(",", ":"))
    return _fight_url(system, name=unit.name, quantity=unit.quantity, profile=profile)


def _fight_url(system: str, **query: object) -> str:
    """The fight calculator's address with side A filled in: the "Odds against…" links."""
    values = {f"a_{key}": value for key, value in query.items() if value is not None}
    return f"{reverse('fight', args=[system])}?{urlencode(values)}"
