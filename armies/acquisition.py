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
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Count, Window
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from armies.forms import ascii_int
from armies.models import AcquisitionRecord, Army
from armies.views import ArmyState, army_for_owner
from points import goms
from points.model import PricedArmy

SEED_BITS = 63  # fits a signed 64-bit column on every database
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
        return self.record.created + REROLL_TIME

    @property
    def can_reroll(self) -> bool:
        return not self.stale and not self.record.finished and self.record.rerolls_left > 0

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
    with its seed whoever looks first: the owner never saying "done" hides nothing."""
    if timezone.now() - record.created >= REROLL_TIME:
        AcquisitionRecord.objects.filter(pk=record.pk).update(finished=True)
        record.finished = True


def record_key(record: AcquisitionRecord | None) -> tuple | None:
    """Everything about a roll that pages show and can change after it is made."""
    if record is None:
        return None
    return (record.pk, record.rolls, len(record.picks), record.finished)


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
        },
    )


@require_POST
@login_required
def roll(request: HttpRequest, pk: int) -> HttpResponse:
    army = _goms_army(request, pk)
    with transaction.atomic():
        # One roll at a time per army, even from two tabs: lock the army row first.
        Army.objects.select_for_update().filter(pk=army.pk).first()
        priced, acquisition = _state(army)
        rolled, rerolls = snapshot(priced)
        dice_count = sum(quantity for _, _, quantity in rolled)
        if acquisition is not None and not acquisition.stale:
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
        else:
            # No reroll can go to an earlier roll any more: make it final, its seed shown.
            army.acquisitions.filter(finished=False).update(finished=True)
            AcquisitionRecord.objects.create(
                army=army,
                seed=secrets.randbits(SEED_BITS),
                units=rolled,
                rerolls=rerolls,
                finished=rerolls == 0,
            )
            messages.success(request, f"Rolled {dice_count} dice.")
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
    updated = AcquisitionRecord.objects.filter(
        pk__in=army.acquisitions.values("pk")[:1]  # the latest: the model's ordering
    ).update(finished=True)
    if updated:
        messages.success(request, "The roll is final; its seed is now shown so anyone can check.")
    return _back(army)
