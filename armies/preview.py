"""What a unit would cost as typed, before it is saved: the editor asks on every keystroke
and shows the answer at once, while the save itself follows when typing pauses.

A preview writes nothing and reads one row: the unit with its army (one query, so the
army's stored total and the unit's stored cost come from the same moment). The army's
total as typed is its stored total less the unit's stored cost plus the new one: an
army's total is its units' costs plus what its options cost, whatever the units are.
Legality and army-wide checks wait for the save, which works them out from every unit."""

from __future__ import annotations

from fractions import Fraction

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from accounts.http import HtmxHttpRequest
from armies import services
from armies.access import unit_for_owner
from armies.forms import UnitForm
from points.errors import ArmyFileError


@require_POST
@login_required
def unit_preview(request: HtmxHttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    unit = unit_for_owner(request, pk, unit_pk)
    army = unit.army
    form = UnitForm(army.system, request.POST, unit=unit)
    if not form.is_valid():
        # Nothing to show until the typing makes a unit: the save marks the fields.
        return HttpResponse(status=204)
    spec = services.UnitSpec(form.cleaned_data["name"], form.cleaned_data["quantity"], form.profile)
    try:
        fields = services.priced_fields(army.system, spec)
    except ArmyFileError:
        return HttpResponse(status=204)
    cost = Fraction(fields["cost"])
    total = Fraction(army.total) - Fraction(unit.cost) + cost
    limit = army.points_limit
    context = {
        "each": Fraction(fields["each"]),
        "cost": cost,
        "quantity": spec.quantity,
        "total": total,
        "limit": limit,
        "remaining": None if limit is None else Fraction(limit) - total,
    }
    return render(request, "armies/_preview.html", context)
