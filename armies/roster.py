"""Printable roster sheets (placeholder until the per-system layout lands)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from armies.models import Army


def render_roster(request: HttpRequest, army: Army, share_url: str | None) -> HttpResponse:
    units = list(army.units.all())
    priced = army.price(units)
    return render(
        request,
        "armies/roster.html",
        {"army": army, "units": units, "priced": priced, "share_url": share_url},
    )
