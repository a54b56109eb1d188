"""The fight odds calculator's page (SPEC 3.8): each side picked from the player's own
armies, a share link, the catalog or a typed profile. Served from armies/ because it
reads the player's armies; the rules pages it sits among never do."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from rules.forms import FightForm
from rules.systems import SYSTEM_PAGES
from sharing import fight_odds


@require_GET
def fight(request: HttpRequest, system: str) -> HttpResponse:
    """The fight odds calculator: its inputs are the query string, so a result is a link."""
    if system not in fight_odds.FIGHT_SYSTEMS:
        raise Http404("Muster works out fight odds for VSGMR, GEM and d10.")
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
        "link": request.get_full_path() if result else "",
    }
    template = "rules/fight.html#calculator" if request.htmx else "rules/fight.html"
    return render(request, template, context)
