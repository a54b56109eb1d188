"""Public rules pages: a summary of each system, the Interpretations page and the d10
chances calculator."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.http import HtmxHttpRequest
from points import d10
from rules import odds, pages
from rules.forms import D10ChancesForm
from rules.models import RuleEntry, SampleArmy
from rules.systems import SYSTEM_PAGES


def system_page(request: HtmxHttpRequest, system: str) -> HttpResponse:
    page = SYSTEM_PAGES.get(system)
    if page is None:
        raise Http404("Muster has no rules page for that system.")
    # Two queries whatever the catalog's size: its entries, and the sample armies.
    entries = RuleEntry.objects.filter(system__in=page.catalog_systems).exclude(
        kind="interpretation"
    )
    catalog = pages.by_kind(entries)
    context = {
        "system": system,
        "page": page,
        "systems": SYSTEM_PAGES,
        "samples": pages.sample_rows(SampleArmy.objects.for_system(system)),
        **page.rules_context(catalog),
    }
    return render(request, f"rules/{system}.html", context)


def interpretations(request: HtmxHttpRequest) -> HttpResponse:
    entries = RuleEntry.objects.of_kind("interpretation").order_by("position")
    context = {"systems": SYSTEM_PAGES, "rows": pages.interpretation_rows(entries)}
    return render(request, "rules/interpretations.html", context)


@require_GET
def d10_chances(request: HtmxHttpRequest) -> HttpResponse:
    bound = any(key in request.GET for key in odds.D10_FIELDS)
    form = D10ChancesForm(request.GET if bound else None)
    result = odds.d10_result(form) if bound and form.is_valid() else None
    context = {
        "form": form,
        "result": result,
        "systems": SYSTEM_PAGES,
        "target_number": d10.TARGET_NUMBER,
        "critical_margin": d10.CRITICAL_MARGIN,
    }
    template = "rules/d10_chances.html#calculator" if request.htmx else "rules/d10_chances.html"
    return render(request, template, context)
