"""Public rules pages: a summary of each system and the Interpretations page."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from rules import pages
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
