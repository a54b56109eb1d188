"""/matchup/: two armies (mine or shared) side by side, with a verdict and fixes."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from accounts.http import HtmxHttpRequest
from armies.forms import preset_range
from armies.models import Army, StoredPrices, shared_army
from points import fights
from points.matchup import balanced, rule_text, suggestions, tolerance
from points.numbers import ascii_int
from sharing import matchup_odds


@dataclass
class Side:
    army: Army
    priced: StoredPrices
    shared: bool  # reached through its share token, not as its owner

    @property
    def models(self) -> int:
        return sum(pu.unit.quantity for pu in self.priced.units)

    @property
    def public_ref(self) -> str | None:
        return self.army.share_token


def _resolve(request: HtmxHttpRequest, ref: str) -> tuple[Side | None, str]:
    """An army from what the player typed: one of their army ids, a share token or link."""
    ref = ref.strip()
    if not ref:
        return None, ""
    found = re.search(r"/s/([A-Za-z0-9_-]+)/?", ref)
    token = found.group(1) if found else ref
    army = None
    shared = True
    own = ascii_int(ref, 18)
    if own is not None and request.user.is_authenticated:
        army = Army.objects.for_owner(request.user).filter(pk=own).first()
        shared = False
    elif re.fullmatch(r"[A-Za-z0-9_-]{16,64}", token):
        army = shared_army(token)
    if army is None:
        return None, gettext("No army of yours, and no shared army, matches that.")
    return Side(army, army.priced(list(army.units.defer("lines", "exact"))), shared), ""


def _preset_check(side: Side) -> str:
    """How the army's total sits with the scenario or game size it was built for."""
    army = side.army
    preset = preset_range(army.system, army.preset)
    if preset is None:
        return ""
    total = side.priced.total
    if preset.ceiling:
        if total <= preset.high:
            said = gettext("{preset}: {points} points, within")
        else:
            said = gettext("{preset}: {points} points, over")
    elif preset.low <= total <= preset.high:
        said = gettext("{preset}: {points} points suggested, within it")
    else:
        said = gettext("{preset}: {points} points suggested, outside it")
    return said.format(preset=preset.name, points=preset.points)


def _picked(request: HtmxHttpRequest, key: str) -> tuple[str, bool]:
    """What one side asks for: a pasted link (`<key>_link`) wins over the select (`<key>`),
    which holds one of my army ids or the token of an army pasted before. Also whether
    the answer came from the pasted link (where a message about it belongs)."""
    pasted = request.GET.get(f"{key}_link", "").strip()
    return (pasted, True) if pasted else (request.GET.get(key, ""), False)


def _choice(side: Side | None) -> str:
    """The side's option in the select: an army of mine by id, a shared one by token."""
    if side is None:
        return ""
    return side.army.share_token if side.shared else str(side.army.pk)


@require_GET
def matchup(request: HtmxHttpRequest) -> HttpResponse:
    ref_a, pasted_a = _picked(request, "a")
    ref_b, pasted_b = _picked(request, "b")
    a, error_a = _resolve(request, ref_a)
    b, error_b = _resolve(request, ref_b)
    # Shared armies already on the page join the selects: after pasting a link once, the
    # player picks it again, or swaps sides, from the list.
    pasted = {side.army.share_token: side.army for side in (a, b) if side and side.shared}
    context: dict = {
        "a": a,
        "b": b,
        "error_a": error_a,
        "error_b": error_b,
        "link_error_a": error_a if pasted_a else "",
        "link_error_b": error_b if pasted_b else "",
        "pick_error_a": "" if pasted_a else error_a,
        "pick_error_b": "" if pasted_b else error_b,
        "typed_a": request.GET.get("a_link", ""),
        "typed_b": request.GET.get("b_link", ""),
        "choice_a": _choice(a),
        "choice_b": _choice(b),
        "pasted": list(pasted.items()),
        "mine": (
            list(
                Army.objects.for_owner(request.user)
                .order_by("name", "pk")
                .only("pk", "name", "system")
            )
            if request.user.is_authenticated
            else []
        ),
    }
    if a and b:
        system = a.army.system
        context["same_system"] = system == b.army.system
        if context["same_system"]:
            context.update(
                difference=abs(a.priced.total - b.priced.total),
                tolerance=tolerance(system, a.priced.total, b.priced.total),
                balanced=balanced(system, a.priced.total, b.priced.total),
                suggestions=suggestions(a.priced, b.priced),
                rule=rule_text(system),
                preset_a=_preset_check(a),
                preset_b=_preset_check(b),
            )
            if system in fights.FIGHT_SYSTEMS:
                # Points against odds (SPEC 3.8), the costly part: the page draws the totals
                # first and asks for the table at its own address (this one with odds=1).
                asked = request.GET.copy()
                asked["odds"] = "1"
                context["odds_url"] = f"{request.path}?{asked.urlencode()}"
                if request.GET.get("odds") == "1":
                    found = matchup_odds.odds_table(request, system, a.priced.units, b.priced.units)
                    context["odds" if isinstance(found, fights.OddsTable) else "wait"] = found
        if a.public_ref and b.public_ref:
            context["public_link"] = f"?a={a.public_ref}&b={b.public_ref}"
    status = 429 if "wait" in context else 200
    if request.htmx and request.GET.get("odds") == "1":
        response = render(request, "sharing/_matchup_odds.html#answer", context, status=status)
    else:
        response = render(request, "armies/matchup.html", context, status=status)
    # Share tokens can sit in this page's address: keep them from leaking to other sites.
    response["Referrer-Policy"] = "same-origin"
    if any(side and side.shared for side in (a, b)):
        # Like the share page itself: kept by no cache, so revoking the link ends it.
        response["Cache-Control"] = "no-store"
    return response
