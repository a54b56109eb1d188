"""What a change to an army touched, and which stored drawings that makes stale (SPEC 7:
stored drawings are made fresh in one module, from one explicit description of what a
change touched).

A change says what it did by filling in the `Change` that `services.changing()` hands
it: the units it wrote (through `Change.write`, the one way a change stores a unit's new
fields), added, trashed or restored, whether it moved units and whether it changed the
army's settings. Nothing is pinned on the army, and nothing has to be remembered: a
unit's fields are stored only through `write`, which leaves its parts blank.

After the change, `changing()` re-states the army (when the change touched its units or
settings) and hands the change here (`make_fresh`), which decides what else is stale: a
restored unit, and every unit whose army-wide issues changed (a second commander marks
the first). Those parts are blanked in one UPDATE. Nothing is drawn while the army's
write lock is held: the first page that shows a blank part draws it, and stores it once
its answer has been sent (armies/drawing.py, parts_of).

Which drawing a part is (`is_current`) is decided by one function: a part is current
when the release that drew it (settings.RELEASE, config/release.py) is this one.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from django.conf import settings
from django.utils import translation

from armies.models import DRAWN_FIELDS, Army, Unit

# A unit's parts as a change leaves them: blank, for the first page that shows them.
BLANK = dict.fromkeys(DRAWN_FIELDS, "")


def mark() -> str:
    """What a part is stored with (`drawn_for`): the release that drew it and the language
    it was drawn in (the active one), as 12 hex digits."""
    drawn = f"{settings.RELEASE} {translation.get_language()}"
    return hashlib.sha256(drawn.encode()).hexdigest()[:12]


def is_current(drawn_for: str) -> bool:
    """Whether a part stored with `drawn_for` is this release's drawing: the one check of
    which drawing a stored part is (a part that is not counts as blank)."""
    return drawn_for == mark()


@dataclass
class Change:
    """What one change did to its (locked) army, as the change says it."""

    army: Army
    # Units whose stored fields the change wrote (write): their parts show the old unit.
    written: set[int] = field(default_factory=set)
    # New units, as stored: born blank, drawn by the first page that shows them.
    added: list[Unit] = field(default_factory=list)
    removed: set[int] = field(default_factory=set)  # moved to the trash
    restored: set[int] = field(default_factory=set)  # back from the trash
    reordered: bool = False  # units moved in the list (no part depends on its place)
    settings: bool = False  # the army's limit, options or other settings
    recheck: bool = False  # the rules moved (reprice): check the army again regardless

    @property
    def restates(self) -> bool:
        """Whether the army's total, legality and issues may have changed: the change
        touched its units, its settings or the rules it is checked by."""
        return bool(
            self.written
            or self.added
            or self.removed
            or self.restored
            or self.reordered
            or self.settings
            or self.recheck
        )

    def write(self, unit_pk: int, fields: dict) -> None:
        """Store new `fields` of the army's live unit `unit_pk` (its name, stat line and
        price: services.priced_fields), its parts blank in the same UPDATE. Raises
        Unit.DoesNotExist (trashed or deleted meanwhile)."""
        if not Unit.objects.filter(army=self.army, pk=unit_pk).update(**fields, **BLANK):
            raise Unit.DoesNotExist
        self.written.add(unit_pk)


def about_units(issues: dict | None) -> dict[int, list]:
    """The army-wide issues (a stored army's `issues`) that name a unit, by unit id: a
    second commander marks the first."""
    found: dict[int, list] = {}
    for kind in ("errors", "warnings"):
        for issue in (issues or {}).get(kind, []):
            if issue.get("unit") is not None:
                found.setdefault(issue["unit"], []).append((kind, issue))
    return found


def renamed(before: dict | None, after: dict | None) -> set[int]:
    """The units the army's issues name differently after a change than `before`: each
    unit's row and cards show the army-wide issues about it."""
    was, now = about_units(before), about_units(after)
    return {pk for pk in was.keys() | now.keys() if was.get(pk) != now.get(pk)}


def make_fresh(change: Change, before: dict | None) -> None:
    """Blank the parts `change` made stale that its writes did not already blank:
    restored units (drawn when they were last live) and units whose army-wide issues
    changed from `before` (the army's issues before the change). One UPDATE, and none
    when there are none. Called by services.changing() with the army row locked."""
    stale = (change.restored | renamed(before, change.army.issues)) - change.written
    if stale:
        Unit.objects.filter(army=change.army, pk__in=stale).update(**BLANK)
