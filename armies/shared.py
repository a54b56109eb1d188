"""What happens after building: the read-only share link, forking it, and the roster."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

import points
from armies import drawing, roster
from armies.models import Army, shared_army
from armies.services import create_army_from_file
from armies.views import _builder_context, army_for_owner


def _shared_army(token: str) -> Army:
    army = shared_army(token)
    if army is None:
        raise Http404("No such share link")
    return army


def _private(response: HttpResponse) -> HttpResponse:
    # The token is the only key: never leak it to other sites, never let it be indexed.
    # "same-origin", not "no-referrer": other sites get no Referer, while our own forms
    # (Copy to my armies) still send a real Origin. Under no-referrer Chromium sends
    # "Origin: null" and Django's CSRF check refuses the fork.
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_GET
def shared(request: HttpRequest, token: str) -> HttpResponse:
    army = _shared_army(token)
    context = _builder_context(army, shared=True)
    state = context["state"]
    # The units' stored cards; the roll is cached per army version and roll (shared.html).
    context.update(state.lazy("acquisition"))
    context["drawn_cards"] = partial(drawing.shared_cards, state)
    context["roll_key"] = state.roll_key
    # Every roll of the army, listed for the opponent (G.O.M.S. only; not cached).
    from armies import acquisition  # it builds on this module

    context["rolls"] = partial(acquisition.rolls_on_record, army)
    return _private(render(request, "armies/shared.html", context))


@require_GET
def shared_roster(request: HttpRequest, token: str) -> HttpResponse:
    army = _shared_army(token)
    return _private(_render_roster(request, army, request.build_absolute_uri(army.get_share_url())))


@require_GET
@login_required
def army_roster(request: HttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    share_url = request.build_absolute_uri(army.get_share_url()) if army.share_token else None
    return _private(_render_roster(request, army, share_url))


@require_POST
@login_required
def fork(request: HttpRequest, token: str) -> HttpResponse:
    original = _shared_army(token)
    copy = create_army_from_file(request.user, points.load(original.to_file()))
    copy.forked_from, copy.forked_from_token = original, token
    copy.save(update_fields=["forked_from", "forked_from_token"])
    messages.success(request, f"{copy.name} is now in your armies: change it as you like.")
    return redirect(copy)


@require_POST
@login_required
def share_on(request: HttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    regenerated = bool(army.share_token)
    army.share()
    messages.success(
        request,
        "New share link made: the old one no longer works."
        if regenerated
        else "Share link made: anyone with it can view this army, nobody can change it.",
    )
    return redirect(army.get_absolute_url() + "#share")


@require_POST
@login_required
def share_off(request: HttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    army.unshare()
    messages.success(request, "Sharing is off: the old link no longer works.")
    return redirect(army.get_absolute_url() + "#share")


def _render_roster(request: HttpRequest, army: Army, share_url: str | None) -> HttpResponse:
    state = roster.RosterState(army)
    owner = request.user.is_authenticated and request.user.pk == army.owner_id
    context = {
        "army": army,
        "state": state,
        **state.lazy(*roster.LAZY),
        "share_url": share_url,
        "qr": partial(roster.qr_svg, share_url) if share_url else None,
        "back_url": army.get_absolute_url() if owner else army.get_share_url(),
        "printed": timezone.localdate(),
        "system_template": f"armies/roster_{army.system}.html",
        "options": roster.PrintOptions.of(request.GET),
        "cards_url": _cards_url(request, army, owner),
        "drawn_cards": partial(drawing.roster_cards, state),
    }
    return render(request, "armies/roster.html", context)


def _cards_url(request: HttpRequest, army: Army, owner: bool) -> str:
    """The unit cards of the same army, through the same door, with the same options."""
    url = (
        reverse("armies:cards", args=[army.pk])
        if owner
        else reverse("shared-cards", args=[army.share_token])
    )
    query = request.GET.urlencode()
    return f"{url}?{query}" if query else url
