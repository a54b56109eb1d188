from __future__ import annotations

from fractions import Fraction
from functools import lru_cache, partial
from html import escape

from django import template
from django.template.loader import render_to_string
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString

from armies import fragments
from config.urlcache import reverse
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


@lru_cache(maxsize=256)
def _box_heads(names: tuple[str, ...], oob: bool) -> tuple[str, ...]:
    """Each box's opening tag: a form's field names are the same for every save."""
    swap = ' hx-swap-oob="true"' if oob else ""
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


# Unit rows and roster cards by everything they show. Each is rendered once per process
# for each look it can have, so 200 units cost little more than 10. A piece sees only
# what its key covers (an isolated context), so a template change that needs more
# shows up empty in tests instead of going stale. Keys start with the PricedUnit's id:
# it carries the unit's name, quantity, stat line and price, the engine hands back the
# same object for the same unit, and the entry keeps it alive (the anchor).


def _remembered(template: str, priced, key: tuple, context: dict) -> str:
    return fragments.drawn.get_or_draw(
        (template, id(priced), *key), lambda: render_to_string(template, context), priced
    )


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


class RememberNode(template.Node):
    def __init__(self, nodelist, where: tuple, army, vary: list):
        self.nodelist, self.where, self.army, self.vary = nodelist, where, army, vary

    def render(self, context) -> str:
        army = self.army.resolve(context)
        if not army:  # the view asked for this part drawn afresh (typed values in it)
            return self.nodelist.render(context)
        key = (*self.where, *fragments.army_key(army), *(v.resolve(context) for v in self.vary))
        # Asked for only when the part holds a form: making one sets the CSRF cookie.
        token = partial(fragments.csrf_text, context.get("csrf_token"))
        splice = context.get("splice")
        if splice is None:
            html = fragments.drawn.get_or_draw(key, lambda: self._draw(context, None))
            return fragments.with_csrf(html, token)
        part = fragments.drawn.get_or_draw(
            (*key, "utf-8"), lambda: self._draw(context, splice).encode()
        )
        return SafeString(splice.marker(part, token))  # a marker of ours: token and number

    def _draw(self, context, splice) -> str:
        # Drawn once for every request that shows it: the CSRF token is a stand-in that
        # each response replaces with its own. A part inside this one is drawn into it as
        # text: a marker, good for this response only, must never be kept in a part.
        pushed = {"csrf_token": fragments.CSRF_STAND_IN}
        if splice is not None:
            pushed["splice"] = None
        with context.push(**pushed):
            return self.nodelist.render(context)


@register.tag
def remember(parser, token):
    """{% remember army "name" value... %}...{% endremember %}: the part drawn once per
    army version (armies/fragments.py) and per each listed value it also depends on.
    When `army` is None or missing the part is drawn afresh and not kept.

    Inside, use only what the army's version decides plus the listed values: the
    view's expensive context (units, prices) is computed only when the part is drawn.
    {% csrf_token %} may be used: each response gets its own token in the part.
    On a page whose context holds a fragments.Splice as "splice", the part goes in as
    bytes once the page is rendered (the view calls splice.into(response)).
    """
    bits = token.split_contents()
    if len(bits) < 3:
        raise template.TemplateSyntaxError(
            '{% remember army "name" ... %} needs an army and a name'
        )
    nodelist = parser.parse(("endremember",))
    parser.delete_first_token()
    where = (parser.origin.name if parser.origin else "", bits[2])
    return RememberNode(
        nodelist,
        where,
        parser.compile_filter(bits[1]),
        [parser.compile_filter(b) for b in bits[3:]],
    )
