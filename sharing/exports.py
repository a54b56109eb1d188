"""Text exports for forums and chat (SPEC 5): plain text, Markdown and BBCode.

The army is read once into a TextArmy from what is stored (Army.total/legal/issues/
summary/rules_version, Unit.each/cost/profile): nothing is priced here. The three
formatters are pure functions of a TextArmy, so their shapes are tested on their own.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from fractions import Fraction

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpResponse
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from accounts.http import HtmxHttpRequest
from armies import unit_cards
from armies.access import army_for_owner, private, shared_army_or_404
from armies.models import Army, Unit, stored_number
from armies.templatetags.muster import pts
from rules.words import say

# The kinds of text export: (content type, file extension).
KINDS = {
    "txt": "text/plain; charset=utf-8",
    "md": "text/markdown; charset=utf-8",
    # No registered type for BBCode: it is plain text a forum reads.
    "bbcode": "text/plain; charset=utf-8",
}


@dataclass(frozen=True)
class TextUnit:
    quantity: int
    name: str
    each: str
    cost: str
    detail: str  # the unit's key stats or options, one short line


@dataclass(frozen=True)
class TextArmy:
    name: str
    system: str  # the system's label
    rules_version: str
    total: str
    limit: str | None
    points: str  # "pts", or "FP" for d10 force points
    legal: bool
    errors: tuple[str, ...]
    purchases: tuple[tuple[str, str], ...]  # army-wide purchases: label, points
    units: tuple[TextUnit, ...]
    share_url: str | None = None


# ---------------------------------------------------------------- reading an army


def text_army(army: Army, units: list[Unit], share_url: str | None) -> TextArmy:
    """An army as the exports show it, from its stored prices and its units' profiles."""
    names = {u.pk: u.name for u in units}
    issues = army.issues or {}
    errors = [say(e["message"]) for e in issues.get("errors", []) if e.get("unit") not in names]
    errors += [
        f"{names[e['unit']]}: {say(e['message'])}"
        for e in issues.get("errors", [])
        if e.get("unit") in names
    ]
    for u in units:
        errors += [f"{u.name}: {say(e['message'])}" for e in u.issues.get("errors", [])]
    purchases = tuple(
        (say(label), pts(stored_number(value)))
        for label, value, _ in (army.summary or {}).get("options", [])
        if not str(value).startswith("=")
    )
    limit = army.points_limit
    line = army.system_pages.export_line
    return TextArmy(
        name=army.name,
        system=army.system_label,
        rules_version=army.rules_version,
        total=pts(stored_number(army.total)),
        limit=None if limit is None else pts(Fraction(limit)),
        points=say(army.game_system.points_word),
        legal=army.legal,
        errors=tuple(errors),
        purchases=purchases,
        units=tuple(
            TextUnit(
                quantity=u.quantity,
                name=u.name,
                each=pts(stored_number(u.each)),
                cost=pts(stored_number(u.cost)),
                detail=line(unit_cards.detail(army.system, u.priced)),
            )
            for u in units
        ),
        share_url=share_url,
    )


# ---------------------------------------------------------------- the three formats


def _total(a: TextArmy) -> str:
    limit = f" / {a.limit}" if a.limit is not None else ""
    return f"{a.total}{limit} {a.points}"


def _each(u: TextUnit) -> str:
    # Points each, beside a cost of several models.
    return f" ({u.each} each)" if u.quantity > 1 else ""


def plain(a: TextArmy) -> str:
    lines = [a.name, f"{a.system} · rules {a.rules_version}"]
    lines.append(f"Total: {_total(a)} · {'legal' if a.legal else 'NOT LEGAL'}")
    lines += [f"! {e}" for e in a.errors]
    lines.append("")
    for u in a.units:
        lines.append(f"{u.quantity} × {u.name} — {u.cost} {a.points}{_each(u)}")
        lines.append(f"    {u.detail}")
    lines += [f"+ {label} — {cost} {a.points}" for label, cost in a.purchases]
    if a.share_url:
        lines += ["", f"Link: {a.share_url}"]
    return "\n".join(lines) + "\n"


# Backslash-escaped in Markdown so a name reads as typed on Discord and Reddit.
MARKDOWN_SPECIAL = re.compile(r"([\\`*_~|\[\]<>#])")
# An "&" that starts what Markdown reads as a character reference ("&amp;", "&#38;",
# "&#x26;"): a forum shows "&" for a typed "&amp;" unless it is escaped too. A lone "&"
# ("Salt & Pepper") reads as typed and is left alone.
MARKDOWN_REFERENCE = re.compile(r"&(?=#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]*;)")


def md_escape(text: str) -> str:
    return MARKDOWN_REFERENCE.sub(r"\\&", MARKDOWN_SPECIAL.sub(r"\\\1", text))


def markdown(a: TextArmy) -> str:
    e = md_escape
    lines = [f"## {e(a.name)}", "", f"{e(a.system)} · rules {e(a.rules_version)}  "]
    verdict = "✅ legal" if a.legal else "❌ **not legal**"
    lines.append(f"**Total: {_total(a)}** · {verdict}")
    if a.errors:
        lines.append("")
        lines += [f"- ❌ {e(error)}" for error in a.errors]
    # A paragraph between the two lists, or Markdown runs them together.
    lines += ["", "**Units**", ""]
    for u in a.units:
        lines.append(f"- {u.quantity} × **{e(u.name)}** — {u.cost} {a.points}{_each(u)}  ")
        lines.append(f"  *{e(u.detail)}*")
    lines += [f"- {e(label)} — {cost} {a.points}" for label, cost in a.purchases]
    if a.share_url:
        lines += ["", f"<{a.share_url}>"]
    return "\n".join(lines) + "\n"


# BBCode has no escape character, so square brackets in player text become their
# full-width look-alikes: a name reads as typed and no forum parses it as a tag.
BBCODE_SPECIAL = str.maketrans({"[": "［", "]": "］"})


def bb_escape(text: str) -> str:
    return text.translate(BBCODE_SPECIAL)


def bbcode(a: TextArmy) -> str:
    e = bb_escape
    lines = [f"[size=150][b]{e(a.name)}[/b][/size]", f"{e(a.system)} · rules {e(a.rules_version)}"]
    verdict = "[color=green]legal[/color]" if a.legal else "[color=red][b]not legal[/b][/color]"
    lines.append(f"[b]Total: {_total(a)}[/b] · {verdict}")
    if a.errors:
        lines.append("[list]")
        lines += [f"[*][color=red]{e(error)}[/color]" for error in a.errors]
        lines.append("[/list]")
    lines.append("[list]")
    for u in a.units:
        lines.append(f"[*]{u.quantity} × [b]{e(u.name)}[/b] — {u.cost} {a.points}{_each(u)}")
        lines.append(f"[i]{e(u.detail)}[/i]")
    lines += [f"[*]{e(label)} — {cost} {a.points}" for label, cost in a.purchases]
    lines.append("[/list]")
    if a.share_url:
        lines.append(f"[url]{a.share_url}[/url]")
    return "\n".join(lines) + "\n"


FORMATTERS = {"txt": plain, "md": markdown, "bbcode": bbcode}


# ---------------------------------------------------------------- views


def export_response(army: Army, kind: str, share_url: str | None) -> HttpResponse:
    # Per army version, link and language in Django's cache: the text changes only with them.
    link = hashlib.sha256((share_url or "").encode()).hexdigest()[:16]
    key = f"export:{army.pk}:{army.version}:{kind}:{link}:{get_language()}"

    def draw() -> str:
        return FORMATTERS[kind](text_army(army, list(army.units.all()), share_url))

    response = HttpResponse(cache.get_or_set(key, draw), content_type=KINDS[kind])
    # Inline: a browser shows the text; the file name is used when it is saved.
    response["Content-Disposition"] = f'inline; filename="{army.file_name(kind)}"'
    return response


@require_GET
@login_required
def army_text(request: HtmxHttpRequest, pk: int, kind: str) -> HttpResponse:
    army = army_for_owner(request, pk)
    share_url = request.build_absolute_uri(army.get_share_url()) if army.share_token else None
    return export_response(army, kind, share_url)


@require_GET
def shared_text(request: HtmxHttpRequest, token: str, kind: str) -> HttpResponse:
    army = shared_army_or_404(token)
    share_url = request.build_absolute_uri(army.get_share_url())
    return private(export_response(army, kind, share_url))
