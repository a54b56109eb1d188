"""The two doors to an army, shared by every page: its owner's (signed in, by id) and
the read-only share link (by token). Both answer 404 for anything else."""

from __future__ import annotations

from django.http import Http404, HttpResponse

from accounts.http import HtmxHttpRequest
from armies.models import Army, Unit, shared_army


def army_for_owner(request: HtmxHttpRequest, pk: int) -> Army:
    """The live army `pk` of the signed-in player; anyone else gets the same 404 as for
    an army that does not exist."""
    army = Army.objects.for_owner(request.user).filter(pk=pk).first()
    if army is None:
        raise Http404("No such army")
    return army


def unit_for_owner(request: HtmxHttpRequest, pk: int, unit_pk: int) -> Unit:
    """The live unit `unit_pk` of the signed-in player's live army `pk`, its army read in
    the same query (`unit.army`, as army_for_owner gives it); else the same 404."""
    try:
        return Unit.objects.for_owner(request.user).get(pk=unit_pk, army=pk)
    except Unit.DoesNotExist:
        raise Http404("No such unit") from None


class ShareLinkGone(Http404):
    """A share link that finds no army: turned off, renewed, its army deleted, or copied
    incompletely. armies.middleware answers it with a page of its own (404), whatever
    DEBUG says: the opponent holding the link is told what happened, not shown Django's
    list of URL patterns."""


def shared_army_or_404(token: str) -> Army:
    """The live army shared under `token`, with its owner's name as `owner_name`;
    ShareLinkGone (a 404) when there is none."""
    army = shared_army(token)
    if army is None:
        raise ShareLinkGone("No such share link")
    return army


def private(response: HttpResponse) -> HttpResponse:
    """A page reached through a share token: the token is the only key, so it never
    leaks to other sites and is never indexed."""
    # "same-origin", not "no-referrer": other sites get no Referer, while our own forms
    # (Copy to my armies) still send a real Origin. Under no-referrer Chromium sends
    # "Origin: null" and Django's CSRF check refuses the fork.
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
