"""Table mode's pages (SPEC 5): the owner's game and the opponent's read-only view. The
game's rules and every change to it are table/table.py."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from accounts.http import HtmxHttpRequest
from armies.access import army_for_owner, private, shared_army_or_404
from armies.models import Army
from points.numbers import ascii_int
from table import table
from table.models import Game
from table.table import Board, Refused

# ---------------------------------------------------------------- owner's views


def _current(army: Army) -> Game | None:
    return army.games.filter(ended__isnull=True).first()


def _earlier(army: Army) -> list:
    return list(army.games.filter(ended__isnull=False).values("number", "started", "ended")[:20])


def _context(army: Army, game: Game | None, page: int | str | None = 1, **extra) -> dict:
    """What a table-mode page draws: `page`, the page of cards it shows (the others are a
    link away: table.CARDS_PER_PAGE a page)."""
    board = Board(game, page) if game else None
    return {
        "army": army,
        "game": game,
        "board": board,
        "game_data": table.game_data(game),
        "card_data": partial(table.card_data, game),  # drawn only with the whole game
        "page_urls": _page_urls(army, game, board, extra),
        **extra,
    }


def _page_urls(army: Army, game: Game | None, board: Board | None, extra: dict) -> dict:
    """The address of this page of cards (which the page polls) and of the pages before
    and after it: a page's own path for the game under way (so the phone keeps each page
    offline), ?cards= for an earlier game's."""
    if board is None:
        return {}
    owner, past = extra.get("owner"), extra.get("past")

    def url(number: int) -> str:
        if past:
            name, args = (
                ("table:play-game", army.pk)
                if owner
                else ("table:shared-play-game", army.share_token)
            )
            return reverse(name, args=[args, game.number]) + (
                f"?cards={number}" if number > 1 else ""
            )
        key = army.pk if owner else army.share_token
        if number == 1:
            return reverse("table:play" if owner else "table:shared-play", args=[key])
        return reverse("table:play-page" if owner else "table:shared-play-page", args=[key, number])

    page = board.pages
    return {
        "here": url(page.number),
        "previous": url(page.previous_page_number()) if page.has_previous() else "",
        "next": url(page.next_page_number()) if page.has_next() else "",
    }


@login_required
@require_GET
def play(request: HtmxHttpRequest, pk: int, page: int = 1) -> HttpResponse:
    army = army_for_owner(request, pk)
    game = _current(army)
    if request.htmx and "at" in request.GET:  # the owner's page follows the game (play.js)
        if game is not None and request.GET["at"] == f"{game.pk}.{game.version}":
            return HttpResponse(status=204)
        return render(request, "table/play.html#game", _context(army, game, page, owner=True))
    context = _context(army, game, page, owner=True, earlier=_earlier(army))
    return render(request, "table/play.html", context)


def _seen_game(request: HtmxHttpRequest) -> int | None:
    return ascii_int(request.POST.get("version"), 9)


def _shown_game(request: HtmxHttpRequest) -> int | None:
    """Which game the page showed (its id), when it says."""
    return ascii_int(request.POST.get("game"), 18)


def _answer(request: HtmxHttpRequest, army: Army, game: Game | None, error: str = "", status=200):
    """The game after a change (or a refusal): for htmx, only what the change touched (or,
    after a refusal, the whole game and why); without JavaScript, back to the page."""
    if request.htmx:
        # The page of cards the tap was made on, drawn again after a refusal.
        context = _context(army, game, request.POST.get("page"), owner=True, error=error)
        if error or game is None:
            return render(request, "table/play.html#game", {**context, "oob": True}, status=status)
        context["changed_cards"] = context["board"].changed(game.changed)
        return render(request, "table/play.html#changed", context)
    if error:
        messages.error(request, error)
    return redirect("table:play", army.pk)


def _change(request: HtmxHttpRequest, pk: int, change) -> HttpResponse:
    army = army_for_owner(request, pk)
    try:
        game = change(army, _seen_game(request), _shown_game(request))
    except Refused as refused:
        return _answer(request, army, _current(army), refused.message, refused.status)
    return _answer(request, army, game)


@require_POST
@login_required
def tap_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    key, _, step = request.POST.get("tap", "").rpartition(":")
    number = {"1": 1, "-1": -1}.get(step, 0)
    return _change(
        request, pk, lambda army, seen, shown: table.tap(army, seen, key[:40], number, shown)
    )


@require_POST
@login_required
def undo_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _change(request, pk, table.undo)


@require_POST
@login_required
def new_game_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    seen = _seen_game(request)
    try:
        game = table.new_game(army, None if seen == 0 else seen, _shown_game(request))
    except Refused as refused:
        if request.htmx:  # a new game made offline, sent by play.js: the game as it stands
            return _answer(request, army, _current(army), refused.message, refused.status)
        messages.error(request, refused.message)
    else:
        if request.htmx:
            context = _context(army, game, owner=True, oob=True)
            return render(request, "table/play.html#game", context)
        messages.success(request, gettext("New game started: every card is back to full strength."))
    return redirect("table:play", army.pk)


@login_required
@require_GET
def earlier_game(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    game = get_object_or_404(army.games, number=number)
    context = _context(army, game, request.GET.get("cards"), owner=True, past=True)
    return render(request, "table/play.html", context)


# ---------------------------------------------------------------- the opponent's view


@require_GET
def shared_play(request: HtmxHttpRequest, token: str, page: int = 1) -> HttpResponse:
    """Read-only; polled by htmx every few seconds. A poll naming the game and version it
    already shows gets 204 (nothing to swap) while nothing changed."""
    army = shared_army_or_404(token)
    game = _current(army)
    if request.htmx:
        if game is not None and request.GET.get("at") == f"{game.pk}.{game.version}":
            return private(HttpResponse(status=204))
        return private(render(request, "table/play.html#game", _context(army, game, page)))
    context = _context(army, game, page, earlier=_earlier(army))
    return private(render(request, "table/play.html", context))


@require_GET
def shared_earlier_game(request: HtmxHttpRequest, token: str, number: int) -> HttpResponse:
    army = shared_army_or_404(token)
    game = army.games.filter(number=number).first()
    if game is None:
        raise Http404("No such game")
    context = _context(army, game, request.GET.get("cards"), past=True)
    return private(render(request, "table/play.html", context))
