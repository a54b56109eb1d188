"""Public rules pages: a summary of each system and the Interpretations page."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from rules import fight_odds, pages
from rules.forms import FightForm
from rules.models import RuleEntry, SampleArmy


def system_page(request: HttpRequest, system: str) -> HttpResponse:
    page = pages.PAGES.get(system)
    if page is None:
        raise Http404("Muster has no rules page for that system.")
    # Two queries whatever the catalog's size: its entries, and the sample armies.
    entries = RuleEntry.objects.filter(system__in=page.systems).exclude(kind="interpretation")
    catalog = pages.by_kind(entries)
    context = {
        "system": system,
        "page": page,
        "systems": pages.PAGES,
        "samples": pages.sample_rows(SampleArmy.objects.for_system(system)),
        **page.context(catalog),
    }
    return render(request, f"rules/{system}.html", context)


def interpretations(request: HttpRequest) -> HttpResponse:
    entries = RuleEntry.objects.of_kind("interpretation").order_by("position")
    context = {"systems": pages.PAGES, "rows": pages.interpretation_rows(entries)}
    return render(request, "rules/interpretations.html", context)


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
        "page": pages.PAGES[system],
        "systems": pages.PAGES,
        "form": form,
        "result": result,
        "has_units": bool(units),
        "picker_armies": fight_odds.PICKER_ARMIES,
        "link": request.get_full_path() if result else "",
    }
    template = "rules/fight.html#calculator" if request.htmx else "rules/fight.html"
    return render(request, template, context)
