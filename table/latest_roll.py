"""An army's latest G.O.M.S. acquisition roll as pages show it (the share page, the
roster, the table): what was rolled, what changed since. Reads only, but for
marking a roll final once REROLL_TIME has passed; making rolls and spending rerolls is
table/rolls.py."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from functools import cached_property

from django.db.models import Count, Window
from django.utils import timezone

from armies.models import Army
from armies.state import ArmyState
from points import goms
from points.model import PricedArmy
from table.models import AcquisitionRecord

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
    if not army.game_system.acquisition_roll:
        return None
    # The window counts every roll of the army before first() keeps the latest: one query.
    record = army.acquisitions.annotate(rolls=Window(Count("pk"))).first()
    if record is not None and not record.finished:
        finish_if_due(record)
    return record


def finish_if_due(record: AcquisitionRecord) -> None:
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


def priced_now(army: Army) -> PricedArmy:
    """The army's stored prices with its live units, as a roll snapshots them."""
    return army.priced(list(army.units.defer("lines", "exact")))  # type: ignore[return-value]


def latest(army: Army) -> Acquisition | None:
    """The army's latest roll as pages show it, or None."""
    record = latest_record(army)
    return None if record is None else describe(record, priced_now(army))


class LatestRoll:
    """The latest roll of the army a page shows (`state`), each part read when first
    asked for: the record alone is one query; its dice use the state's priced units."""

    def __init__(self, state: ArmyState):
        self.state = state

    @cached_property
    def record(self) -> AcquisitionRecord | None:
        """The army's latest acquisition roll (G.O.M.S.), without units: one query."""
        return latest_record(self.state.army)

    @property
    def key(self) -> tuple | None:
        """What a cached part showing the roll depends on besides the army's version."""
        return record_key(self.record)

    @cached_property
    def acquisition(self) -> Acquisition | None:
        """The latest roll as pages show it; units only when there is one."""
        if self.record is None:
            return None
        return describe(self.record, self.state.priced)
