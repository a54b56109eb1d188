"""The print set beside the roster sheet (SPEC 5): unit cards cut to size, blank cards to
fill in by hand, and a one-page quick reference per system, all with the page header and
page numbers of static/css/print-set.css.

Unit cards draw the roster's own cards (armies/unit_cards.py), so a card says exactly what the
roster says; the options kept in the URL (PrintOptions) show or hide parts of both.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

import points
from accounts.http import HtmxHttpRequest
from armies.access import army_for_owner, private, shared_army_or_404
from armies.models import Army
from rules.systems import SYSTEM_PAGES
from sharing import roster

# ---------------------------------------------------------------- unit cards


def render_cards(request: HtmxHttpRequest, army: Army, back_url: str) -> HttpResponse:
    state = roster.RosterState(army)
    options = roster.PrintOptions.of(request.GET)
    context = {
        "army": army,
        "state": state,
        **state.lazy(*roster.LAZY),
        "options": options,
        "back_url": back_url,
        "printed": timezone.localdate(),
        "system_template": army.system_pages.roster_card,
        "drawn_cards": state.drawn_cards,
        "header": gettext("%(name)s · unit cards") % {"name": army.name},
    }
    return private(render(request, "sharing/cards.html", context))


@require_GET
@login_required
def army_cards(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    return render_cards(request, army, army.get_absolute_url())


@require_GET
def shared_cards(request: HtmxHttpRequest, token: str) -> HttpResponse:
    army = shared_army_or_404(token)
    return render_cards(request, army, army.get_share_url())


# ---------------------------------------------------------------- blank cards

BLANK_CARDS = 9  # one page of poker cards


def _system(system: str):
    if system not in points.SYSTEMS:
        raise Http404("Muster has no such system.")
    return points.SYSTEMS[system]


@require_GET
def blank_cards(request: HtmxHttpRequest, system: str) -> HttpResponse:
    info = _system(system)
    page = SYSTEM_PAGES[system]
    context = {
        "system": system,
        "pages": page,
        "label": info.label,
        "cards": range(BLANK_CARDS),
        "header": gettext("Muster blank cards · %(system)s") % {"system": info.label},
        **page.blank_choices(),
    }
    return render(request, "sharing/cards_blank.html", context)


@require_GET
def quick_reference(request: HtmxHttpRequest, system: str) -> HttpResponse:
    info = _system(system)
    context = {
        "system": system,
        "pages": SYSTEM_PAGES[system],
        "label": info.label,
        "version": info.version,
        "header": gettext("Muster quick reference · %(system)s") % {"system": info.label},
        "ref": SYSTEM_PAGES[system].reference(),
    }
    return render(request, "sharing/cards_reference.html", context)
