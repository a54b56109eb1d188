"""The G.O.M.S. acquisition roll's pages: the owner's sheet and the opponent's view through
the share link. The rules and every write are table/rolls.py."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_GET, require_POST

from accounts.http import HtmxHttpRequest
from armies.access import army_for_owner, private, shared_army_or_404
from armies.models import Army
from armies.services import Refused
from armies.state import ArmyState
from points import goms
from points.numbers import ascii_int
from table import latest_roll, rolls
from table.models import AcquisitionRecord


def _goms_army(request: HtmxHttpRequest, pk: int) -> Army:
    army = army_for_owner(request, pk)
    if not army.game_system.acquisition_roll:
        raise Http404("Only G.O.M.S. armies roll for acquisition")
    return army


def _back(army: Army) -> HttpResponse:
    return redirect("table:acquisition", army.pk)


@login_required
def page(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army = _goms_army(request, pk)
    state = ArmyState(army)
    priced, acquisition = state.priced, latest_roll.LatestRoll(state).acquisition
    dice_count = sum(pu.unit.quantity for pu in priced.units)
    return render(
        request,
        "table/acquisition.html",
        {
            "army": army,
            "acquisition": acquisition,
            "dice_count": dice_count,
            "rerolls_bought": priced.army.options.rerolls,  # type: ignore[attr-defined]
            "max_dice": goms.MAX_ACQUISITION_DICE,
            "reroll_minutes": latest_roll.REROLL_TIME // timedelta(minutes=1),
            "roll_url": _share_roll_url(request, army),
        },
    )


def _share_roll_url(request: HtmxHttpRequest, army: Army) -> str | None:
    """Where the opponent adds their seed: the share link's roll page."""
    if not army.share_token:
        return None
    return request.build_absolute_uri(reverse("table:shared-roll", args=[army.share_token]))


@require_POST
@login_required
def roll(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army = _goms_army(request, pk)
    fair = request.POST.get("mode") == "fair"
    try:
        rolled = rolls.roll(army, fair, request.user.get_username(), request.session.session_key)
    except Refused as refused:
        messages.error(request, refused.message)
    else:
        if fair:
            messages.success(
                request,
                ngettext(
                    "Fair roll started for {n} die: your seed is committed. "
                    "Send your opponent the link below to add theirs; the dice come then.",
                    "Fair roll started for {n} dice: your seed is committed. "
                    "Send your opponent the link below to add theirs; the dice come then.",
                    rolled.dice,
                ).format(n=rolled.dice),
            )
        else:
            messages.success(
                request,
                ngettext("Rolled {n} die, alone.", "Rolled {n} dice, alone.", rolled.dice).format(
                    n=rolled.dice
                ),
            )
    return _back(army)


@require_POST
@login_required
def reroll(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army = _goms_army(request, pk)
    try:
        done = rolls.reroll(army, ascii_int(request.POST.get("die", ""), 6) or 0)
    except Refused as refused:
        messages.error(request, refused.message)
    else:
        die, after = done.die, done.after
        messages.success(
            request,
            gettext("Rerolled die {n} ({unit}): {before} → {after}, {result}.").format(
                n=die.number,
                unit=die.unit_name,
                before=die.roll.die,
                after=after.die,
                result=after.result,
            ),
        )
    return _back(army)


@require_POST
@login_required
def finish(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army = _goms_army(request, pk)
    if rolls.finish(army):
        messages.success(
            request, gettext("The roll is final; its seed is now shown so anyone can check.")
        )
    return _back(army)


# ---------------------------------------------------------------- the opponent's side


@require_GET
def shared_roll(request: HtmxHttpRequest, token: str, record_pk: int | None = None) -> HttpResponse:
    """A roll as the opponent sees it (the latest, or one from the list), with the form
    for their seed while a fair roll waits for it. Read-only otherwise."""
    army = shared_army_or_404(token)
    try:
        record = rolls.shared_record(army, record_pk)
    except AcquisitionRecord.DoesNotExist:
        raise Http404("No such roll") from None
    acquisition = latest_roll.describe(record, ArmyState(army).priced)
    context = {
        "army": army,
        "acquisition": acquisition,
        "opponent_seed_max": rolls.OPPONENT_SEED_MAX,
        "own_roll": request.user.is_authenticated and request.user.pk == army.owner_id,
    }
    return private(render(request, "table/acquisition_shared.html", context))


@require_POST
def add_opponent_seed(request: HtmxHttpRequest, token: str, record_pk: int) -> HttpResponse:
    """The opponent's seed for a fair roll (table.rolls.add_opponent_seed)."""
    army = shared_army_or_404(token)
    seed = request.POST.get("seed", "").strip()
    try:
        rolls.add_opponent_seed(army, record_pk, seed, request.user, request.session.session_key)
    except AcquisitionRecord.DoesNotExist:
        raise Http404("No such roll") from None
    except Refused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, gettext("Your seed is in: the dice are rolled from both seeds."))
    return redirect("table:shared-roll-record", token, record_pk)
