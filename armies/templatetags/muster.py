from __future__ import annotations

import json
from fractions import Fraction
from html import escape

from django import template
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.http import urlencode
from django.utils.safestring import SafeString

import points
from armies import drawing
from points import fights
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
def tick_boxes(group: range) -> SafeString:
    """A group's empty tick boxes at once: a 200-unit roster draws thousands of them, and
    a template loop per box was most of drawing its cards."""
    return SafeString(TICK_BOX * len(group))  # fixed markup, nothing a player wrote


TICK_BOX = '<span class="box"></span>'


@register.filter
def described(field) -> SafeString:
    """{{ field|described }}: the field's widget, described by its help text and by the box
    where its messages show ({% feedback %}), so a screen reader reads both; Django's own
    pointers name an error box this page does not draw."""
    ids = [f"{field.auto_id}_helptext"] if field.help_text else []
    ids.append(f"fb-{field.html_name}")
    return field.as_widget(attrs={"aria-describedby": " ".join(ids)})


@register.simple_tag
def feedback(field, oob: bool = False) -> SafeString:
    """{% feedback field %}: the box beside a field where its messages show (fb-<name>)."""
    return _boxes([(field.html_name, field.errors)], oob)


@register.simple_tag
def feedback_boxes(form, oob: bool = False) -> SafeString:
    """{% feedback_boxes form %}: every field's box, then the form-wide one (fb-all), as
    {% feedback %} draws them. A re-price swaps in all of an editor's ~40 boxes, most
    of them empty, so they are drawn in one pass."""
    errors = form.errors
    boxes = [(form.add_prefix(name), errors.get(name, ())) for name in form.fields]
    return _boxes([*boxes, ("all", form.non_field_errors())], oob)


def _boxes(boxes: list[tuple[str, list]], oob: bool) -> SafeString:
    heads = _box_heads(tuple(name for name, _ in boxes), oob)
    drawn = [
        f"{head}{''.join(f'{conditional_escape(e)} ' for e in messages)}</div>"
        if messages
        else f"{head}</div>"
        for head, (_, messages) in zip(heads, boxes, strict=True)
    ]
    return SafeString("".join(drawn))  # names and messages all through conditional_escape


def _box_heads(names: tuple[str, ...], oob: bool) -> tuple[str, ...]:
    """Each box's opening tag: a form's field names are the same for every save."""
    swap = ' data-hx-swap-oob="true"' if oob else ""
    return tuple(
        f'<div id="fb-{conditional_escape(name)}" class="invalid-feedback d-block"'
        f' role="alert"{swap}>'
        for name in names
    )


@register.simple_tag
def breakdown(priced) -> SafeString:
    """{% breakdown priced %}: how a PricedUnit's price is worked out, line by line.

    Python rather than a template: a save's reply shows it for the edited unit, and its
    dozen lines took half the reply's drawing as a template (four filters a line)."""
    rows = []
    for line in priced.priced.lines:
        note = f' <span class="text-body-secondary small">({escape(line.note)})</span>'
        fraction = exact(line.value)
        rows.append(
            f'<tr><th scope="row" class="fw-normal">{escape(line.label)}'
            f"{note if line.note else ''}</th>"
            f'<td class="text-end font-monospace">{escape(pts(line.value))}'
            f"{f' <span {_EXACT}>= {fraction}</span>' if fraction else ''}</td></tr>"
        )
    link = f'<a href="{escape(reverse("rules:interpretations"))}">How Muster reads the rules</a>'
    table = '<table class="table table-sm breakdown mb-1"><tbody>'
    html = f'{table}{"".join(rows)}</tbody></table><p class="small mb-0">{link}</p>'
    return SafeString(html)  # labels, notes and values escaped; `fraction` is two integers


_EXACT = 'class="text-body-secondary small" title="exact value"'


@register.filter
def exact(value) -> str:
    """The exact rational behind a rounded number, e.g. 163/25, for the breakdown."""
    if not isinstance(value, Fraction) or value.denominator == 1:
        return ""
    return f"{value.numerator}/{value.denominator}"


@register.simple_tag
def unit_row(row, oob: bool = False) -> str:
    """{% unit_row row oob=True %}: one Row drawn for a reply (armies/drawing.py)."""
    return drawing.row_html(row, oob)


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
