"""The GEM Table 1 calculator with the player's own units to pick from. The calculator
and its chart are rules/odds.py, which reads no army; this page adds the units."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.http import HtmxHttpRequest
from armies.models import Unit
from odds import fight_odds
from points import gem
from points.numbers import ascii_int
from rules import odds, pages
from rules.forms import Table1Form
from rules.systems import SYSTEM_PAGES


def _own_gem_units(request: HtmxHttpRequest) -> list[Unit]:
    """The units the picker offers (of the player's most recently edited GEM armies), and
    any unit the address asks for by id (the builder's "Odds on Table 1" link), as long as
    the player owns it."""
    asked = {ascii_int(request.GET.get(key), 18) for key in ("attacker", "target")} - {None}
    return fight_odds.own_units(request.user, "gem", asked)


@require_GET
def table_1(request: HtmxHttpRequest) -> HttpResponse:
    units = _own_gem_units(request)
    by_pk = {unit.pk: unit for unit in units}
    bound = any(key in request.GET for key in odds.TABLE_1_FIELDS)
    form = Table1Form(request.GET if bound else None, units=odds.unit_choices(units))
    result = odds.table_1_result(form, by_pk) if bound and form.is_valid() else None
    context = {
        "picker_armies": fight_odds.PICKER_ARMIES,
        "form": form,
        "result": result,
        "matrix": pages.table_1(),
        "defs": gem.TABLE_RANGE,
        "systems": SYSTEM_PAGES,
        "has_units": bool(units),
    }
    template = "odds/table_1.html#calculator" if request.htmx else "odds/table_1.html"
    return render(request, template, context)
