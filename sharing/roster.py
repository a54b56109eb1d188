"""Printable roster sheets: what a player needs at the table, one card per unit (SPEC 5);
the cards themselves are armies/unit_cards.py.

Every number on a card comes from the engine (`points/`): this module only picks what
each system's players look up during a game and puts it in the order they read it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from functools import cached_property, partial

from django.core.cache import cache
from django.http import HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from accounts.http import HtmxHttpRequest
from armies import drawing
from armies.models import Army
from armies.state import ArmyState
from armies.unit_cards import Card, unit_cards
from rules.cards import ArmyPanel
from table.latest_roll import Acquisition, LatestRoll


class RosterState(ArmyState):
    """What a roster sheet and the unit cards show: each unit's stored card, except on a
    G.O.M.S. army with a roll, whose cards carry their dice and are drawn for the page."""

    def __init__(self, army: Army):
        super().__init__(army, breakdowns=True)

    @cached_property
    def rolls(self) -> tuple | None:
        """G.O.M.S.: each unit's recorded acquisition dice, in list order, while the roll
        is not stale; None otherwise (and for the other systems, without reading units)."""
        rolls = self.acquisition
        return None if rolls is None or rolls.stale else tuple(rolls.by_unit())

    @cached_property
    def acquisition(self) -> Acquisition | None:
        """The army's latest acquisition roll as the roster prints it (G.O.M.S.)."""
        return LatestRoll(self).acquisition

    @property
    def unit_count(self) -> int:
        return len(self.drawn("roster_html"))

    def rolled_cards(self) -> list[Card]:
        """Every card with its unit's dice from the roll (self.rolls is not None)."""
        assert self.rolls is not None
        cards = unit_cards(self.army, self.units)
        return [replace(card, rolled=dice) for card, dice in zip(cards, self.rolls, strict=True)]

    def drawn_cards(self) -> SafeString:
        """The roster's cards: each unit's stored card (armies/drawing.py), or on a
        G.O.M.S. army with a roll, drawn with each unit's dice (a snapshot of one roll,
        never stored on the unit)."""
        if self.unit_count and self.rolls is not None:
            return drawing.joined(drawing.roster_card_html(card) for card in self.rolled_cards())
        return drawing.joined(drawing.parts_of(self, "roster_html"))

    @cached_property
    def army_panel(self) -> ArmyPanel:
        return self.army.system_pages.roster_panel(self.summary)


@dataclass(frozen=True)
class PrintOptions:
    """What a printed roster or card set includes, kept in its URL so it can be printed
    again the same way. A box left unticked is sent as nothing, so a form that was sent
    says so with `o=1`; without it every option has its default."""

    breakdowns: bool = False  # each unit's cost, line by line
    table1: bool = True  # GEM: Table 1 hit chances against DEF 1-10
    aids: bool = True  # vehicle handling aids
    notes: bool = True  # the army's notes

    @classmethod
    def of(cls, params: QueryDict) -> PrintOptions:
        if params.get("o") != "1":
            return cls(breakdowns=params.get("breakdowns") == "1")
        return cls(
            breakdowns=params.get("breakdowns") == "1",
            table1=params.get("table1") == "1",
            aids=params.get("aids") == "1",
            notes=params.get("notes") == "1",
        )

    @property
    def classes(self) -> str:
        """Classes on the printed set: its parts are drawn (and cached) once, then shown or
        hidden by static/css/print-set.css."""
        shown = {
            "show-breakdowns": self.breakdowns,
            "hide-table1": not self.table1,
            "hide-aids": not self.aids,
            "hide-notes": not self.notes,
        }
        return " ".join(name for name, on in shown.items() if on)


def render_roster(request: HtmxHttpRequest, army: Army, share_url: str | None) -> HttpResponse:
    state = RosterState(army)
    owner = request.user.is_authenticated and request.user.pk == army.owner_id
    context = {
        "army": army,
        "state": state,
        **state.lazy(*LAZY),
        "share_url": share_url,
        "qr": partial(_qr_svg, army, share_url) if share_url else None,
        "back_url": army.get_absolute_url() if owner else army.get_share_url(),
        "printed": timezone.localdate(),
        "system_template": army.system_pages.roster_card,
        "drawn_cards": state.drawn_cards,
        "options": PrintOptions.of(request.GET),
        "cards_url": _cards_url(request, army, owner),
    }
    return render(request, "sharing/roster.html", context)


def _cards_url(request: HtmxHttpRequest, army: Army, owner: bool) -> str:
    """The unit cards of the same army, through the same door, with the same options."""
    url = (
        reverse("sharing:cards", args=[army.pk])
        if owner
        else reverse("sharing:shared-cards", args=[army.share_token])
    )
    query = request.GET.urlencode()
    return f"{url}?{query}" if query else url


LAZY = ("summary", "army_panel", "acquisition")


def _qr_svg(army: Army, url: str) -> SafeString:
    # The one drawn when the link was made, for the address it was made at; for another
    # address (the site reached by another name), in Django's cache per link. Safe:
    # segno's own markup, the address encoded in its path data (armies/drawing.py).
    if army.share_qr_url == url:
        svg = army.share_qr
    else:
        key = "qr:" + hashlib.sha256(url.encode()).hexdigest()
        svg = cache.get_or_set(key, partial(drawing.share_qr, url))
    return mark_safe(svg)  # noqa: S308
