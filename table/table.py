"""Table mode's game (SPEC 5), its rules and its writes: an army's game tracked on the
owner's phone, watched by the opponent. The pages are table/play.py.

A game (table.models.Game) keeps what each unit's card tracks, taken once from the
stored unit rows when the game starts (never re-priced), and a flat map of counters:
"turn", "vp.mine", "vp.theirs" and "<unit id>.<counter>" per unit. Each tap posts the
game's version with one counter and a step of +1 or -1; a tap from a page drawn at an
older version is refused with the game as it stands, so two devices never overwrite
each other. Undo walks back the last UNDO_STEPS changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from django.core.paginator import Paginator
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

import points
from armies import services
from armies.models import Army
from points.armyfile import ArmyFileError
from points.numbers import shown_number
from table import latest_roll
from table.models import Game

UNDO_STEPS = 50  # changes kept for undo; older ones can no longer be walked back
MAX_TURN = 99
MAX_VP = 999
MAX_BOXES = 120  # tick boxes drawn on one card; past this the count alone shows
# Cards a table-mode page draws (#45.4): a 1,000-unit army is 20 pages of about 200 kB,
# not one page of 3.6 MB that took 1.4 s of CPU to draw.
CARDS_PER_PAGE = 50


# ---------------------------------------------------------------- the cards, at game start


def new_cards(army: Army) -> dict:
    """What a new game tracks, from the army's stored unit rows as they are now."""
    units = list(army.units.defer("lines", "exact"))
    by_unit: list[tuple] = [()] * len(units)
    record = latest_roll.latest_record(army)
    if record is not None:
        roll = latest_roll.describe(record, army.priced(units))
        if not roll.stale and not roll.record.waiting:
            by_unit = roll.by_unit()
    cards = []
    for unit, rolled in zip(units, by_unit, strict=True):
        try:
            p = points.load_unit(unit.name, unit.quantity, unit.profile, army.system).profile
        except ArmyFileError:  # a unit stored before a rule tightened: show it, count nothing
            card = {"facts": [("Profile", "no longer valid: fix it in the builder")], "aids": []}
            card["counters"] = []
        else:
            card = army.system_pages.table_card(unit, p, rolled)
        card.update(id=unit.pk, name=unit.name, quantity=unit.quantity)
        for counter in card["counters"]:
            counter["key"] = f"{unit.pk}.{counter['key']}"
        cards.append(card)
    found: dict = {"system": army.system, "units": cards}
    if army.game_system.break_point:  # the game tracks the force's morale against it
        priced = army.priced()
        found["force"] = str(priced.total)
        found["break"] = str(priced.extras["break_point"])
    return found


# ---------------------------------------------------------------- reading a game


@dataclass(frozen=True)
class Count:
    key: str
    label: str
    value: int
    most: int
    left_label: str
    per: int  # tick boxes a model, 0 for none

    @property
    def left(self) -> int:
        return self.most - self.value

    @property
    def _shown_models(self) -> int:
        return min(self.most // self.per, MAX_BOXES // self.per) if self.per else 0

    @property
    def boxes(self) -> tuple[tuple[bool, ...], ...]:
        """Per model, each of its boxes ticked or not (worked out only when drawn)."""
        per, value = self.per, self.value
        return tuple(
            tuple(m * per + i < value for i in range(per)) for m in range(self._shown_models)
        )

    @property
    def boxes_left_off(self) -> int:
        return self.most - self._shown_models * self.per if self.per else 0


def _count(spec: dict, value: int) -> Count:
    return Count(spec["key"], spec["label"], value, spec["max"], spec["left"], spec["per"])


@dataclass(frozen=True)
class Card:
    id: int
    name: str
    quantity: int
    facts: list
    aids: list
    counts: tuple[Count, ...]
    commander_down: bool | None  # VSGMR: None for a figure that is not the commander

    @property
    def values(self) -> str:
        """Everything about the card that taps change: what its drawing is cached under."""
        return ",".join(str(c.value) for c in self.counts)


@dataclass(frozen=True)
class Morale:
    """A d10 force's morale points lost against its break point (half the force)."""

    force: Fraction
    break_point: Fraction
    lost: Fraction

    @property
    def broken(self) -> bool:
        return self.lost >= self.break_point

    @property
    def to_break(self) -> Fraction:
        return max(self.break_point - self.lost, Fraction(0))

    @property
    def shown(self) -> dict[str, str]:
        """The numbers as a player reads them (and as <meter> takes them): "3.5"."""
        return {
            "force": shown_number(self.force),
            "break": shown_number(self.break_point),
            "lost": shown_number(self.lost),
            "to_break": shown_number(self.to_break),
        }


class Board:
    """A game as its page shows it: every card with its counts, the turn and the VP."""

    def __init__(self, game: Game, page: int | str | None = 1):
        self.game = game
        # The page of cards shown (CARDS_PER_PAGE a page; past the last, the last).
        self.pages = Paginator(game.cards.get("units", []), CARDS_PER_PAGE).get_page(page)
        state = game.state
        self.turn = state.get("turn", 1)
        self.vp_mine = state.get("vp.mine", 0)
        self.vp_theirs = state.get("vp.theirs", 0)
        self.morale = self._morale(game.cards, state)
        self.can_undo = bool(game.history)

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        """The page's cards, worked out only when they are drawn: pages cache their drawing
        per game version, and a tap's answer draws only the card it changed."""
        state = self.game.state
        return tuple(self._card(c, state) for c in self.pages.object_list)

    def changed(self, key: str) -> list[Card]:
        """The card a counter key belongs to ("<unit id>.<counter>"), if any."""
        unit = key.partition(".")[0]
        state = self.game.state
        return [
            self._card(c, state) for c in self.game.cards.get("units", []) if str(c["id"]) == unit
        ]

    @staticmethod
    def _card(card: dict, state: dict) -> Card:
        counts = tuple(_count(c, state.get(c["key"], 0)) for c in card["counters"])
        commander = None
        if card.get("commander"):
            commander = bool(counts) and counts[0].left == 0
        return Card(
            card["id"],
            card["name"],
            card["quantity"],
            card["facts"],
            card["aids"],
            counts,
            commander,
        )

    @staticmethod
    def _morale(cards: dict, state: dict) -> Morale | None:
        if "break" not in cards:  # a force without a break point never breaks
            return None
        lost = sum(
            state.get(c["counters"][0]["key"], 0) * c["force_each"]
            for c in cards["units"]
            if "force_each" in c
        )
        return Morale(Fraction(cards["force"]), Fraction(cards["break"]), Fraction(lost))

    @property
    def commander_down(self) -> bool:
        """VSGMR: every figure of the commander's unit is down."""
        state = self.game.state
        return any(
            card.get("commander") and state.get(card["counters"][0]["key"], 0) >= card["quantity"]
            for card in self.game.cards.get("units", [])
            if card["counters"]
        )


def limits(game: Game) -> dict[str, tuple[int, int]]:
    """Every counter a tap may change, with its lowest and highest value."""
    found = {"turn": (1, MAX_TURN), "vp.mine": (0, MAX_VP), "vp.theirs": (0, MAX_VP)}
    for card in game.cards.get("units", []):
        for c in card["counters"]:
            found[c["key"]] = (0, c["max"])
    return found


def game_data(game: Game | None) -> dict:
    """What a table-mode page's script needs to follow the game and, offline, to count
    taps on the device (static/js/play.js): which game, its version, state and undo list.
    Small: sent with every tap's answer."""
    if game is None:
        return {"game": None}
    return {
        "game": game.pk,
        "number": game.number,
        "version": game.version,
        "state": game.state,
        "history": game.history,
    }


def card_data(game: Game) -> dict:
    """What stays the same for the whole game: each counter's bounds and name, and what
    the force's morale (d10) and the commander (VSGMR) are worked out from."""
    units = game.cards.get("units", [])
    labels = {"turn": "Turn", "vp.mine": "VP this army", "vp.theirs": "VP opponent"}
    for card in units:
        labels |= {c["key"]: f"{c['label']}, {card['name']}" for c in card["counters"]}
    found: dict = {"limits": limits(game), "labels": labels}
    if "break" in game.cards:
        found["morale"] = {
            "force": game.cards["force"],
            "break": game.cards["break"],
            "units": [
                [card["counters"][0]["key"], card["force_each"]]
                for card in units
                if "force_each" in card and card["counters"]
            ],
        }
    found["commanders"] = [
        [card["id"], card["counters"][0]["key"], card["quantity"]]
        for card in units
        if card.get("commander") and card["counters"]
    ]
    return found


# ---------------------------------------------------------------- changing a game


class Refused(services.Refused):
    """A tap, undo or new game the game does not allow: `status` is the HTTP answer."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


STALE = (
    "Changed on another device since this page was drawn: this is the game as it stands "
    "now. Tap again if it still needs doing."
)


def _is_stale(game: Game, seen: int | None, seen_game: int | None) -> bool:
    """A change from a page that showed another game, or this game at another version.
    Versions alone are not enough: a new game counts from 1 again, so a page still showing
    the game before it could name the new one's version."""
    return seen != game.version or (seen_game is not None and seen_game != game.pk)


def _locked_game(army: Army, seen: int | None, seen_game: int | None) -> Game:
    game = Game.objects.select_for_update().filter(army=army, ended__isnull=True).first()
    if game is None:
        raise Refused("No game under way: start a new game first.", 409)
    if _is_stale(game, seen, seen_game):
        raise Refused(STALE, 409)
    return game


def _save(game: Game) -> None:
    game.version += 1
    game.save(update_fields=["state", "history", "version", "updated"])


def tap(army: Army, seen: int | None, key: str, step: int, seen_game: int | None = None) -> Game:
    """One counter of the current game one up or down. `seen`, `seen_game`: the version and
    game the page showed (a page that sends no game is checked on its version alone)."""
    with transaction.atomic():
        game = _locked_game(army, seen, seen_game)
        bounds = limits(game).get(key)
        if bounds is None or step not in (1, -1):
            raise Refused("That counter isn't part of this game.", 422)
        default = 1 if key == "turn" else 0
        before = game.state.get(key, default)
        after = before + step
        low, high = bounds
        if not low <= after <= high:
            raise Refused(f"That would go past {low if after < low else high}: not counted.", 422)
        game.state = {**game.state, key: after}
        game.history = [*game.history, [key, before]][-UNDO_STEPS:]
        _save(game)
    game.changed = key
    return game


def undo(army: Army, seen: int | None, seen_game: int | None = None) -> Game:
    with transaction.atomic():
        game = _locked_game(army, seen, seen_game)
        if not game.history:
            raise Refused("Nothing to undo.", 422)
        *rest, (key, before) = game.history
        game.state = {**game.state, key: before}
        game.history = rest
        _save(game)
    game.changed = key
    return game


def new_game(army: Army, seen: int | None, seen_game: int | None = None) -> Game:
    """End the current game (kept, readable) and start a fresh one. `seen` is the current
    game's version the page showed (None when it showed no game), `seen_game` the game."""
    # Worked out before the transaction (a card a unit: 1,000 for the largest army), so
    # the write lock is not held meanwhile; the cards show the army as it stood then.
    cards = new_cards(army)
    with transaction.atomic():
        # One new game at a time per army, even from two devices: lock the army row.
        Army.objects.select_for_update().filter(pk=army.pk).first()
        current = army.games.filter(ended__isnull=True).first()
        if current is not None:
            if _is_stale(current, seen, seen_game):
                raise Refused(STALE, 409)
            current.ended = timezone.now()
            current.save(update_fields=["ended", "updated"])
        elif seen is not None:
            raise Refused(STALE, 409)
        number = (army.games.aggregate(n=Max("number"))["n"] or 0) + 1
        try:
            return Game.objects.create(army=army, number=number, cards=cards)
        except IntegrityError:  # pragma: no cover - the lock above makes this unreachable
            raise Refused(STALE, 409) from None
