"""What happens after building: the read-only share link, forking it, and the roster."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from accounts.http import HtmxHttpRequest
from armies import drawing, services
from armies.access import army_for_owner, private, shared_army_or_404
from armies.replies import too_many_armies
from armies.services import ImportLimit, TooManyArmies
from sharing import roster
from table import latest_roll, rolls


@require_GET
def shared(request: HtmxHttpRequest, token: str) -> HttpResponse:
    army = shared_army_or_404(token)
    context = drawing.builder_context(army, shared=True)
    state = context["state"]
    # The units' stored cards; the roll is cached per army version and roll (shared.html).
    roll = latest_roll.LatestRoll(state)
    context["acquisition"] = partial(getattr, roll, "acquisition")
    context["drawn_cards"] = partial(drawing.shared_cards, state)
    context["roll_key"] = roll.key
    # Every roll of the army, listed for the opponent (G.O.M.S. only; not cached).
    context["rolls"] = partial(rolls.rolls_on_record, army, request.GET.get("rolls"))
    return private(render(request, "sharing/shared.html", context))


@require_GET
def shared_roster(request: HtmxHttpRequest, token: str) -> HttpResponse:
    army = shared_army_or_404(token)
    return private(
        roster.render_roster(request, army, request.build_absolute_uri(army.get_share_url()))
    )


@require_GET
@login_required
def army_roster(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    share_url = request.build_absolute_uri(army.get_share_url()) if army.share_token else None
    return private(roster.render_roster(request, army, share_url))


@require_POST
@login_required
def fork(request: HtmxHttpRequest, token: str) -> HttpResponse:
    original = shared_army_or_404(token)
    try:
        copy = services.fork_army(request.user, original, token)
    except TooManyArmies:
        return too_many_armies(request)
    except ImportLimit as limit:
        messages.error(request, str(limit))
        return redirect(original.get_share_url())
    messages.success(
        request,
        gettext("{name} is now in your armies: change it as you like.").format(name=copy.name),
    )
    return redirect(copy)


@require_POST
@login_required
def share_on(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    regenerated = bool(army.share_token)
    services.share_army(army, request.build_absolute_uri)
    messages.success(
        request,
        gettext("New share link made: the old one no longer works.")
        if regenerated
        else gettext("Share link made: anyone with it can view this army, nobody can change it."),
    )
    return redirect(army.get_absolute_url() + "#share")


@require_POST
@login_required
def share_off(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    services.unshare_army(army)
    messages.success(request, gettext("Sharing is off: the old link no longer works."))
    return redirect(army.get_absolute_url() + "#share")
