"""The G.O.M.S. acquisition and manpower roll: rolled once, rerolls spent one by one.

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
and never after the owner's seed is shown.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Count, Q, Window
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from armies.forms import ascii_int
from armies.models import AcquisitionRecord, Army
from armies.shared import _private, _shared_army
from armies.state import ArmyState
from armies.views import army_for_owner
from points import goms
from points.model import PricedArmy

SEED_BITS = 63  # fits a signed 64-bit column on every database
OWNER_SEED_BYTES = 32  # a fair roll's owner seed: 64 hex digits
# What an opponent's seed may hold: plain enough to paste into the Python on the record.
OPPONENT_SEED = re.compile(r"[A-Za-z0-9_-]{1,64}")
ROLLS_LISTED = 100  # earlier rolls listed on the share page, newest first
# Rerolls are spent at the table, just after rolling: past this, the roll is final.
REROLL_TIME = timedelta(minutes=30)


@dataclass(frozen=True)
class Die:
    number: int  # from 1, as the page shows it
    unit_name: str
    copy: int  # from 1
    quantity: int
    roll: goms.AcquisitionRoll


@dataclass(frozen=True)
class Acquisition:
    """The latest roll of an army as pages show it, with what changed since."""

    record: AcquisitionRecord
    dice: tuple[Die, ...]
    totals: goms.AcquisitionTotals
    stale: bool
    earlier: int  # rolls made before this one

    @property
    def rerolled_dice(self) -> str:
        """The dice rerolls were spent on, in order, numbered as the pages number them."""
        return ", ".join(str(pick + 1) for pick in self.record.picks)

    @property
    def arrivals(self) -> str:
        """The scores late vehicles arrive on, as the seed writes them: "4+, 5+"."""
        return ", ".join(f"{n}+" for n in self.totals.late)

    @property
    def final_by(self):
        """When the roll is final at the latest, whether or not its owner says so."""
        return (self.record.rolled or self.record.created) + REROLL_TIME

    @property
    def picked_dice(self) -> list[int]:
        """The dice rerolls were spent on, numbered from 1, in the order spent."""
        return [pick + 1 for pick in self.record.picks]

    @property
    def can_reroll(self) -> bool:
        record = self.record
        return (
            not self.stale
            and not record.finished
            and not record.waiting
            and record.rerolls_left > 0
        )

    def by_unit(self) -> list[tuple[Die, ...]]:
        """Each rolled unit's dice, in list order (for roster cards)."""
        grouped: dict[int, list[Die]] = {}
        for die in self.dice:
            grouped.setdefault(die.roll.unit, []).append(die)
        return [tuple(grouped.get(i, ())) for i in range(len(self.record.units))]


def snapshot(priced: PricedArmy) -> tuple[list[list], int]:
    """What a roll is made for: each unit's name, table row and quantity, and the rerolls."""
    rolled = [
        [pu.unit.name, goms.acquisition_row(pu.unit.profile), pu.unit.quantity]  # type: ignore[arg-type]
        for pu in priced.units
    ]
    return rolled, priced.army.options.rerolls  # type: ignore[attr-defined]


def latest_record(army: Army) -> AcquisitionRecord | None:
    """The army's latest roll, with `rolls`: how many it has had. One query; None for
    an army that never rolled or cannot (only G.O.M.S. armies roll)."""
    if army.system != "goms":
        return None
    # The window counts every roll of the army before first() keeps the latest: one query.
    record = army.acquisitions.annotate(rolls=Window(Count("pk"))).first()
    if record is not None and not record.finished:
        _finish_if_due(record)
    return record


def _finish_if_due(record: AcquisitionRecord) -> None:
    """A roll whose rerolls were not spent in REROLL_TIME is final from then on, shown
    with its seed whoever looks first: the owner never saying "done" hides nothing.
    A fair roll still waiting for the opponent's seed has no dice yet: it waits."""
    if record.waiting:
        return
    if timezone.now() - (record.rolled or record.created) >= REROLL_TIME:
        AcquisitionRecord.objects.filter(pk=record.pk).update(finished=True)
        record.finished = True


def record_key(record: AcquisitionRecord | None) -> tuple | None:
    """Everything about a roll that pages show and can change after it is made."""
    if record is None:
        return None
    return (record.pk, record.rolls, len(record.picks), record.finished, record.waiting)


def describe(record: AcquisitionRecord, priced: PricedArmy) -> Acquisition:
    dice = record.dice()
    names = [(name, quantity) for name, _, quantity in record.units]
    rolled, rerolls = snapshot(priced)
    return Acquisition(
        record=record,
        dice=tuple(
            Die(i + 1, names[d.unit][0], d.copy + 1, names[d.unit][1], d)
            for i, d in enumerate(dice)
        ),
        totals=goms.acquisition_totals(dice),
        stale=(rolled, rerolls) != (record.units, record.rerolls),
        earlier=record.rolls - 1,
    )


def _goms_army(request: HttpRequest, pk: int) -> Army:
    army = army_for_owner(request, pk)
    if army.system != "goms":
        raise Http404("Only G.O.M.S. armies roll for acquisition")
    return army


def _state(army: Army) -> tuple[PricedArmy, Acquisition | None]:
    state = ArmyState(army)
    return state.priced, state.acquisition


def _back(army: Army) -> HttpResponse:
    return redirect("armies:acquisition", army.pk)


@login_required
def page(request: HttpRequest, pk: int) -> HttpResponse:
    army = _goms_army(request, pk)
    priced, acquisition = _state(army)
    dice_count = sum(pu.unit.quantity for pu in priced.units)
    return render(
        request,
        "armies/acquisition.html",
        {
            "army": army,
            "acquisition": acquisition,
            "dice_count": dice_count,
            "rerolls_bought": priced.army.options.rerolls,  # type: ignore[attr-defined]
            "max_dice": goms.MAX_ACQUISITION_DICE,
            "reroll_minutes": REROLL_TIME // timedelta(minutes=1),
            "roll_url": _share_roll_url(request, army),
        },
    )


def _share_roll_url(request: HttpRequest, army: Army) -> str | None:
    """Where the opponent adds their seed: the share link's roll page."""
    if not army.share_token:
        return None
    return request.build_absolute_uri(reverse("shared-roll", args=[army.share_token]))


@require_POST
@login_required
def roll(request: HttpRequest, pk: int) -> HttpResponse:
    army = _goms_army(request, pk)
    fair = request.POST.get("mode") == "fair"
    with transaction.atomic():
        # One roll at a time per army, even from two tabs: lock the army row first.
        Army.objects.select_for_update().filter(pk=army.pk).first()
        priced, acquisition = _state(army)
        rolled, rerolls = snapshot(priced)
        dice_count = sum(quantity for _, _, quantity in rolled)
        # A fair roll still waiting for the opponent's seed has no dice: it may be dropped
        # for a new roll (it stays listed, its seed shown, as every roll does).
        if acquisition is not None and not acquisition.stale and not acquisition.record.waiting:
            messages.error(
                request,
                "This army has already rolled: a roll can't be made again. "
                "Spend a reroll on a die instead, if you bought any.",
            )
        elif dice_count == 0:
            messages.error(request, "Add a section or vehicle first: there is nothing to roll.")
        elif dice_count > goms.MAX_ACQUISITION_DICE:
            messages.error(
                request,
                f"{dice_count} sections and vehicles is more than Muster rolls for "
                f"({goms.MAX_ACQUISITION_DICE}): far beyond a large game.",
            )
        elif fair and not army.share_token:
            messages.error(
                request,
                "Make a share link first (on the army page): your opponent adds their seed "
                "through it.",
            )
        else:
            # No reroll can go to an earlier roll any more, and no seed can be added to
            # one still waiting: make them final, their seeds shown.
            army.acquisitions.filter(finished=False).update(finished=True)
            if fair:
                owner_seed = secrets.token_hex(OWNER_SEED_BYTES)
                AcquisitionRecord.objects.create(
                    army=army,
                    owner_seed=owner_seed,
                    committed=hashlib.sha256(owner_seed.encode()).hexdigest(),
                    units=rolled,
                    rerolls=rerolls,
                )
                messages.success(
                    request,
                    f"Fair roll started for {dice_count} dice: your seed is committed. "
                    "Send your opponent the link below to add theirs; the dice come then.",
                )
            else:
                AcquisitionRecord.objects.create(
                    army=army,
                    seed=secrets.randbits(SEED_BITS),
                    units=rolled,
                    rerolls=rerolls,
                    finished=rerolls == 0,
                    rolled=timezone.now(),
                )
                messages.success(request, f"Rolled {dice_count} dice, alone.")
    return _back(army)


@require_POST
@login_required
def reroll(request: HttpRequest, pk: int) -> HttpResponse:
    army = _goms_army(request, pk)
    with transaction.atomic():
        # Two quick clicks must not spend one reroll twice: lock the army's rolls first.
        list(AcquisitionRecord.objects.select_for_update().filter(army=army).values("pk"))
        acquisition = _state(army)[1]
        number = request.POST.get("die", "")
        picked = ascii_int(number, 6) or 0
        if acquisition is None:
            messages.error(request, "Roll first: there is no die to reroll yet.")
        elif acquisition.record.waiting:
            messages.error(request, "Wait for your opponent's seed: there are no dice yet.")
        elif acquisition.stale:
            messages.error(request, "The army changed after this roll: roll again instead.")
        elif not acquisition.can_reroll:
            messages.error(request, "No rerolls left: the roll is final.")
        elif not 1 <= picked <= len(acquisition.dice):
            messages.error(request, "Pick one of the dice listed to reroll.")
        else:
            die, record = acquisition.dice[picked - 1], acquisition.record
            record.picks = [*record.picks, die.number - 1]
            record.finished = record.rerolls_left == 0
            record.save(update_fields=["picks", "finished"])
            after = record.dice()[die.number - 1]
            messages.success(
                request,
                f"Rerolled die {die.number} ({die.unit_name}): {die.roll.die} → {after.die}, "
                f"{after.result}.",
            )
    return _back(army)


@require_POST
@login_required
def finish(request: HttpRequest, pk: int) -> HttpResponse:
    army = _goms_army(request, pk)
    latest = army.acquisitions.values("pk")[:1]  # the latest: the model's ordering
    # A fair roll still waiting for its opponent's seed is not final: it has no dice yet.
    waiting = Q(opponent_seed="") & ~Q(owner_seed="")
    updated = AcquisitionRecord.objects.filter(pk__in=latest).exclude(waiting).update(finished=True)
    if updated:
        messages.success(request, "The roll is final; its seed is now shown so anyone can check.")
    return _back(army)


# ---------------------------------------------------------------- the opponent's side


def rolls_on_record(army: Army) -> list[AcquisitionRecord]:
    """Every roll of the army, newest first (up to ROLLS_LISTED): the share page lists
    them all, so a roll the owner did not like can't quietly disappear. One query."""
    if army.system != "goms":
        return []
    return list(army.acquisitions.defer("units", "picks")[:ROLLS_LISTED])


def _shared_record(army: Army, record_pk: int | None) -> AcquisitionRecord:
    if army.system != "goms":
        raise Http404("Only G.O.M.S. armies roll for acquisition")
    records = army.acquisitions.annotate(rolls=Window(Count("pk")))
    record = records.first() if record_pk is None else records.filter(pk=record_pk).first()
    if record is None:
        raise Http404("No such roll")
    if not record.finished:
        _finish_if_due(record)
    return record


@require_GET
def shared_roll(request: HttpRequest, token: str, record_pk: int | None = None) -> HttpResponse:
    """A roll as the opponent sees it (the latest, or one from the list), with the form
    for their seed while a fair roll waits for it. Read-only otherwise."""
    army = _shared_army(token)
    record = _shared_record(army, record_pk)
    acquisition = describe(record, ArmyState(army).priced)
    context = {"army": army, "acquisition": acquisition, "opponent_seed_max": 64}
    return _private(render(request, "armies/acquisition_shared.html", context))


@require_POST
def add_opponent_seed(request: HttpRequest, token: str, record_pk: int) -> HttpResponse:
    """The opponent's seed for a fair roll: taken once, before the owner's seed is shown."""
    army = _shared_army(token)
    seed = request.POST.get("seed", "").strip()
    back = redirect("shared-roll-record", token, record_pk)
    if not OPPONENT_SEED.fullmatch(seed):
        messages.error(
            request,
            "Your seed: 1 to 64 letters, digits, - or _ (the page fills in a random one).",
        )
        return back
    with transaction.atomic():
        # Two posts at once must not both land: lock the roll first.
        record = (
            AcquisitionRecord.objects.select_for_update().filter(army=army, pk=record_pk).first()
        )
        if record is None or army.system != "goms":
            raise Http404("No such roll")
        if not record.fair:
            messages.error(request, "This roll was made by the owner alone: it takes no seed.")
        elif record.opponent_seed:
            messages.error(request, "This roll already has the opponent's seed: it can't change.")
        elif record.finished:
            messages.error(
                request,
                "The owner's seed is already shown, so a seed added now could be picked to "
                "suit: this roll takes no more seeds. Ask for a new fair roll.",
            )
        else:
            record.opponent_seed = seed
            record.rolled = timezone.now()
            record.finished = record.rerolls == 0
            record.save(update_fields=["opponent_seed", "rolled", "finished"])
            messages.success(request, "Your seed is in: the dice are rolled from both seeds.")
    return back
