"""The fight odds calculator's page (SPEC 3.8): each side picked from the player's own
armies, a share link, the catalog or a typed profile. Served from odds/ because it
reads the player's armies; the rules pages it sits among never do."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from accounts.http import HtmxHttpRequest
from armies.access import private, shared_army_or_404, unit_for_owner
from armies.models import fight_url
from odds import fight_odds
from rules.forms import FightForm
from rules.systems import SYSTEM_PAGES


@require_GET
def fight(request: HtmxHttpRequest, system: str) -> HttpResponse:
    """The fight odds calculator: its inputs are the query string, so a result is a link."""
    _fight_odds_or_404(system)
    units = fight_odds.own_units(request.user, system, fight_odds.asked_units(request.GET))
    choices, samples = fight_odds.catalog(system)
    bound = bool(request.GET)
    form = FightForm(
        request.GET if bound else None,
        system=system,
        units=fight_odds.unit_choices(units),
        catalog=choices,
    )
    by_pk = {unit.pk: unit for unit in units}
    result = fight_odds.work_out(form, by_pk, samples) if bound and form.is_valid() else None
    context = {
        "system": system,
        "page": SYSTEM_PAGES[system],
        "systems": SYSTEM_PAGES,
        "form": form,
        "result": result,
        "has_units": bool(units),
        "picker_armies": fight_odds.PICKER_ARMIES,
        "link": request.get_full_path() if result and result.answered else "",
    }
    template = "odds/fight.html#calculator" if request.htmx else "odds/fight.html"
    return render(request, template, context)


# "Odds against…" on a roster or card sheet, and on the share page: the sheet's cards are
# drawn once for both of the army's doors, so each links through the door it was opened
# by (armies/templatetags/muster.py: odds_against) and is sent on from there.


@require_GET
@login_required
def army_unit_fight(request: HtmxHttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    """The owner's door: the calculator with the unit, by its id."""
    unit = unit_for_owner(request, pk, unit_pk)
    _fight_odds_or_404(unit.army.system)
    return redirect(fight_url(unit.army.system, unit=unit.pk))


@require_GET
def shared_unit_fight(request: HtmxHttpRequest, token: str, unit_pk: int) -> HttpResponse:
    """A share link's door: the calculator with the unit's name, quantity and profile (as
    stored), which work for whoever holds the address, even once the link is turned off.
    Only a unit of the army the link shares is sent on."""
    army = shared_army_or_404(token)
    unit = army.units.filter(pk=unit_pk).first()
    if unit is None:
        raise Http404("No such unit in this army")
    _fight_odds_or_404(army.system)
    profile = json.dumps(unit.profile, separators=(",", ":"))
    side_a = {"name": unit.name, "quantity": unit.quantity, "profile": profile}
    return private(redirect(fight_url(army.system, **side_a)))


def _fight_odds_or_404(system: str) -> None:
    """The calculator and both doors to it answer 404 for a system without fight odds."""
    if system not in fight_odds.FIGHT_SYSTEMS:
        raise Http404("Muster works out fight odds for VSGMR, GEM and d10.")
