"""The G.O.M.S. acquisition and manpower roll, its rules and its writes (the pages are
table/acquisition.py): rolled once, rerolls spent one by one.

Rules kept here (the dice themselves are points.goms.acquisition_dice):
- one roll per army; rolling again is refused while that roll still matches the army.
  Changing the units or the rerolls bought afterwards makes it stale: the sheet says so,
  and a new roll may be made; every earlier roll stays on record for the opponent to see.
- a reroll is spent on a die the player picks, only while rerolls bought remain.
- the seed is shown once no reroll can be spent any more: all spent, the player says
  they are done, a new roll is made, or REROLL_TIME has passed since the roll, whichever
  comes first. Until then only its SHA-256 is shown, so no one can work out in advance
  what a reroll would give; after it, every roll on record can be checked, even one
  whose owner never said they were done.

Fair rolls (SPEC 5): the owner starts the roll, committing to a secret seed by its
SHA-256 (published at once); the opponent adds a seed of their own through the share
link, without an account; the dice then come from both (AcquisitionRecord.dice_seed),
so neither side could know or steer them alone. The owner's seed is revealed as above,
once no reroll can be spent. A roll made alone stays possible for solo play and is
marked "rolled by the owner alone" wherever it shows. An opponent's seed is taken once,
and never after the owner's seed is shown; never from the owner (signed in, or the
session that started the roll), and the record says who gave each seed.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count, Q, Window
from django.utils import timezone
from django.utils.translation import gettext

from armies.models import Army
from armies.services import Refused
from points import goms
from points.numbers import ascii_int
from table.latest_roll import (
    Die,
    describe,
    finish_if_due,
    latest,
    latest_record,
    priced_now,
    snapshot,
)
from table.models import AcquisitionRecord

SEED_BITS = 63  # fits a signed 64-bit column on every database
OWNER_SEED_BYTES = 32  # a fair roll's owner seed: 64 hex digits
# What an opponent's seed may hold: plain enough to paste into the Python on the record.
OPPONENT_SEED = re.compile(r"[A-Za-z0-9_-]{1,64}")
OPPONENT_SEED_MAX = 64
ROLLS_PER_PAGE = 100  # rolls listed on a page of the share page, newest first


def session_mark(session_key: str | None) -> str:
    """What a roll keeps of the session that started it: its SHA-256, never the key."""
    return hashlib.sha256(session_key.encode()).hexdigest() if session_key else ""


# ---------------------------------------------------------------- the changes


@dataclass(frozen=True)
class Rolled:
    record: AcquisitionRecord
    dice: int


def roll(army: Army, fair: bool, by: str, session_key: str | None) -> Rolled:
    """A new roll for the army, alone or fair (the owner's seed committed, the opponent's
    to come through the share link). `by` is the owner's name, `session_key` the session
    rolling. Raises Refused."""
    with transaction.atomic():
        # One roll at a time per army, even from two tabs: lock the army row first.
        Army.objects.select_for_update().filter(pk=army.pk).first()
        priced = priced_now(army)
        record = latest_record(army)
        acquisition = None if record is None else describe(record, priced)
        rolled, rerolls = snapshot(priced)
        dice_count = sum(quantity for _, _, quantity in rolled)
        # A fair roll still waiting for the opponent's seed has no dice: it may be dropped
        # for a new roll (it stays listed, its seed shown, as every roll does).
        if acquisition is not None and not acquisition.stale and not acquisition.record.waiting:
            raise Refused(
                gettext(
                    "This army has already rolled: a roll can't be made again. "
                    "Spend a reroll on a die instead, if you bought any."
                )
            )
        if dice_count == 0:
            raise Refused(gettext("Add a section or vehicle first: there is nothing to roll."))
        if dice_count > goms.MAX_ACQUISITION_DICE:
            raise Refused(
                gettext(
                    "{n} sections and vehicles is more than Muster rolls for ({most}): "
                    "far beyond a large game."
                ).format(n=dice_count, most=goms.MAX_ACQUISITION_DICE)
            )
        if fair and not army.share_token:
            raise Refused(
                gettext(
                    "Make a share link first (on the army page): your opponent adds their seed "
                    "through it."
                )
            )
        # No reroll can go to an earlier roll any more, and no seed can be added to one
        # still waiting: make them final, their seeds shown.
        army.acquisitions.filter(finished=False).update(finished=True)
        if fair:
            owner_seed = secrets.token_hex(OWNER_SEED_BYTES)
            made = AcquisitionRecord.objects.create(
                army=army,
                owner_seed=owner_seed,
                committed=hashlib.sha256(owner_seed.encode()).hexdigest(),
                owner_by=by,
                owner_session=session_mark(session_key),
                units=rolled,
                rerolls=rerolls,
            )
        else:
            made = AcquisitionRecord.objects.create(
                army=army,
                seed=secrets.randbits(SEED_BITS),
                owner_by=by,
                units=rolled,
                rerolls=rerolls,
                finished=rerolls == 0,
                rolled=timezone.now(),
            )
    return Rolled(made, dice_count)


@dataclass(frozen=True)
class Rerolled:
    die: Die
    after: goms.AcquisitionRoll


def reroll(army: Army, picked: int) -> Rerolled:
    """Spend a reroll on die number `picked` (from 1) of the latest roll. Raises Refused."""
    with transaction.atomic():
        # Two quick clicks must not spend one reroll twice: lock the army's rolls first.
        list(AcquisitionRecord.objects.select_for_update().filter(army=army).values("pk"))
        acquisition = latest(army)
        if acquisition is None:
            raise Refused(gettext("Roll first: there is no die to reroll yet."))
        if acquisition.record.waiting:
            raise Refused(gettext("Wait for your opponent's seed: there are no dice yet."))
        if acquisition.stale:
            raise Refused(gettext("The army changed after this roll: roll again instead."))
        if not acquisition.can_reroll:
            raise Refused(gettext("No rerolls left: the roll is final."))
        if not 1 <= picked <= len(acquisition.dice):
            raise Refused(gettext("Pick one of the dice listed to reroll."))
        die, record = acquisition.dice[picked - 1], acquisition.record
        record.picks = [*record.picks, die.number - 1]
        record.finished = record.rerolls_left == 0
        record.save(update_fields=["picks", "finished"])
    return Rerolled(die, record.dice()[die.number - 1])


def finish(army: Army) -> bool:
    """The owner is done rerolling: the latest roll is final, its seed shown. False when
    there was nothing to finish (or a fair roll still waits for the opponent's seed)."""
    latest_pk = army.acquisitions.values("pk")[:1]  # the latest: the model's ordering
    waiting = Q(opponent_seed="") & ~Q(owner_seed="")
    return bool(
        AcquisitionRecord.objects.filter(pk__in=latest_pk).exclude(waiting).update(finished=True)
    )


@dataclass(frozen=True)
class RollsOnRecord:
    """One page of an army's rolls, newest first, each numbered from the first roll (1)."""

    rolls: list[AcquisitionRecord]
    number: int  # the page, from 1
    count: int  # every roll of the army

    @property
    def first_number(self) -> int:
        return self.count - (self.number - 1) * ROLLS_PER_PAGE

    @property
    def pages(self) -> int:
        return max(1, -(-self.count // ROLLS_PER_PAGE))

    @property
    def previous(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def next(self) -> int | None:
        return self.number + 1 if self.number < self.pages else None


def rolls_on_record(army: Army, page: str | None = None) -> RollsOnRecord | None:
    """Every roll of the army, newest first, ROLLS_PER_PAGE a page: the share page lists
    them all, so a roll the owner did not like can't quietly disappear. One query: each
    row carries the count of all (a page past the last shows the first)."""
    if not army.game_system.acquisition_roll:
        return None
    number = max(1, ascii_int(page, 6) or 1)
    rolls = army.acquisitions.defer("units", "picks").annotate(count=Window(Count("pk")))
    start = (number - 1) * ROLLS_PER_PAGE
    listed = list(rolls[start : start + ROLLS_PER_PAGE])
    if not listed and number > 1:
        number, listed = 1, list(rolls[:ROLLS_PER_PAGE])
    return RollsOnRecord(listed, number, listed[0].count if listed else 0)


def shared_record(army: Army, record_pk: int | None) -> AcquisitionRecord:
    """A roll of a shared army (the latest when `record_pk` is None), with `rolls`.
    Raises AcquisitionRecord.DoesNotExist."""
    if not army.game_system.acquisition_roll:
        raise AcquisitionRecord.DoesNotExist
    records = army.acquisitions.annotate(rolls=Window(Count("pk")))
    record = records.first() if record_pk is None else records.filter(pk=record_pk).first()
    if record is None:
        raise AcquisitionRecord.DoesNotExist
    if not record.finished:
        finish_if_due(record)
    return record


def add_opponent_seed(army: Army, record_pk: int, seed: str, user, session_key: str | None):
    """The opponent's seed for a fair roll, from `user` (anonymous: a visitor with the
    link) in session `session_key`: taken once, before the owner's seed is shown, and
    never from the owner. Raises AcquisitionRecord.DoesNotExist or Refused."""
    if not OPPONENT_SEED.fullmatch(seed):
        raise Refused(
            gettext("Your seed: 1 to 64 letters, digits, - or _ (the page fills in a random one).")
        )
    with transaction.atomic():
        # Two posts at once must not both land: lock the roll first.
        record = (
            AcquisitionRecord.objects.select_for_update().filter(army=army, pk=record_pk).first()
        )
        if record is None or not army.game_system.acquisition_roll:
            raise AcquisitionRecord.DoesNotExist
        if not record.fair:
            raise Refused(gettext("This roll was made by the owner alone: it takes no seed."))
        if record.opponent_seed:
            raise Refused(gettext("This roll already has the opponent's seed: it can't change."))
        if record.finished:
            raise Refused(
                gettext(
                    "The owner's seed is already shown, so a seed added now could be picked to "
                    "suit: this roll takes no more seeds. Ask for a new fair roll."
                )
            )
        mine = user.is_authenticated and user.pk == army.owner_id
        if mine or (record.owner_session and record.owner_session == session_mark(session_key)):
            raise Refused(
                gettext(
                    "This army's owner started this roll, so the other seed must come from "
                    "the opponent: send them this page's link to add theirs on their own device."
                )
            )
        record.opponent_seed = seed
        record.opponent_by = user.get_username() if user.is_authenticated else ""
        record.rolled = timezone.now()
        record.finished = record.rerolls == 0
        record.save(update_fields=["opponent_seed", "opponent_by", "rolled", "finished"])
    return record
