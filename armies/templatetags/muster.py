from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django import template
from django.utils import formats
from django.utils.safestring import SafeString
from django.utils.translation import ngettext

import points
from armies import drawing
from armies.models import fight_url
from points import fights
from points.messages import Text
from points.numbers import decimal_text
from rules import words
from rules.templatetags.rules_tags import local

register = template.Library()


@register.filter
def say(text) -> str:
    """{{ line.label|say }}: the engine's words in the reader's language (rules.words)."""
    return words.say(text)


@register.filter
def pts(value) -> str:
    """A points value as a player reads it, in the active language's way of writing numbers:
    28, 6.5, 0.5 (6,5 in German and French); long fractions to 4 places. A worded value
    ("not priced") is the engine's, said in the reader's language."""
    if value is None or value == "":
        return ""
    if isinstance(value, Text):
        return words.say(value)
    if isinstance(value, str):
        return local(value)  # a number the engine wrote already (≈0.3333)
    exact = Fraction(value)
    text = decimal_text(exact)
    if text is not None and len(text.partition(".")[2]) <= 6:
        return formats.number_format(Decimal(text))
    return "≈" + formats.number_format(Decimal(f"{float(exact):.4f}"))


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


@register.simple_tag
def unit_row(row, oob: bool = False) -> str:
    """{% unit_row row oob=True %}: one Row drawn for a reply (armies/drawing.py)."""
    return drawing.row_html(row, oob)


@register.filter
def is_one(value) -> bool:
    """Exactly 1 (1 point, not 0.5 or "≈0.3333"): a word after it takes its singular."""
    try:
        return value is not None and value != "" and Fraction(value) == 1
    except (TypeError, ValueError):  # "≈0.3333": not one
        return False


@register.filter
def points_word(value) -> str:
    """ "point" after exactly 1, else "points": 1 point, 0.5 points, 2 points; in the page's
    language (a fraction takes the form of a number other than one)."""
    return ngettext("point", "points", 1 if is_one(value) else 2)


@register.filter
def models_word(value) -> str:
    return ngettext("model", "models", value if isinstance(value, int) else 2)


@register.filter
def system_name(key: str) -> str:
    """A system's full name: "GEM — Generic Easy Miniatures"."""
    return points.SYSTEMS[key].name


@register.simple_tag
def odds_against(priced: object, pk: int, door: str | None = None) -> str:
    """The fight calculator with unit `pk` as side A ("Odds against…"); "" when its system
    has no fight odds. In the owner's builder, the calculator's own address with the
    unit's id. On a page reached through one of the army's doors (the owner's
    /armies/<id>/, a share link's /s/<token>/), `door` is the way back to the door from
    the page ("" or "../"), and the link goes through it (odds/fights.py): the page's
    cards are stored once for both doors, and a short link keeps each card small (the
    profile itself in every link made a 200-unit roster 60 kB larger)."""
    unit = getattr(priced, "unit", None)
    system = fights.system_of(getattr(unit, "profile", None))
    if system is None:
        return ""
    if door is None:
        return fight_url(system, unit=pk)
    return f"{door}units/{pk}/fight/"
