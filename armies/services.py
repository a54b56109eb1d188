"""Every change to an army goes through here (SPEC 7: one write path per change).

`changing()` locks the army row (always the army first, then its units: one lock order,
so two writes never deadlock), refuses a stale version and hands the change a
`freshness.Change` to say what it did; then, in the same transaction, it re-states the
army, moves the version on and blanks what the change made stale (armies/freshness.py).
A unit is validated and priced alone when it is written (`priced_fields`); the army's
total and checks read only what each unit gives them (unit_state: its name, quantity,
cost, facts and whether it has errors), in one query.
"""

from __future__ import annotations

import json
import math
import re
import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Context, Decimal, Inexact, InvalidOperation, localcontext
from fractions import Fraction

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import (
    BooleanField,
    Count,
    ExpressionWrapper,
    F,
    Max,
    Q,
    QuerySet,
    TextField,
)
from django.db.models.functions import Cast, Lower
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy, ngettext

import points
from accounts import throttle
from armies import drawing
from armies.freshness import Change, make_fresh
from armies.models import (
    MAX_LIBRARY,
    MAX_TAGS,
    MAX_TAGS_PER_ARMY,
    SHARE_TOKEN_BYTES,
    Army,
    LibraryEntry,
    Tag,
    Unit,
)
from points.armyfile import MAX_QUANTITY, MAX_UNITS
from points.fields import MAX_NAME
from points.messages import text_data
from points.model import Entry, exact_data, line_data
from points.numbers import decimal_text

# Per account (SPEC 7, bounded work): stated on the army list and enforced on create.
MAX_ARMIES = 500
# Armies an account's trash keeps (stated on the trash page): deleting one more removes the
# one deleted longest ago for good, as a full recycle bin does. As many as the account may
# keep live, so one delete, however many armies it takes, never empties the trash of
# what it deleted itself.
MAX_TRASH = MAX_ARMIES


class StaleVersion(Exception):
    """The army changed (another tab or device) since the page that posted was drawn."""


class ArmyFull(Exception):
    """The army already has MAX_UNITS units."""


class TooManyArmies(Exception):
    """The account already has MAX_ARMIES armies."""

    def __str__(self) -> str:
        """What the player is told when making, importing, copying or restoring one more
        army would pass MAX_ARMIES."""
        return gettext(
            "An account can keep at most {most} armies: delete some (they wait in the "
            "trash) before making more."
        ).format(most=MAX_ARMIES)


class ImportLimit(Exception):
    """The account has imported and copied IMPORT_UNITS_PER_HOUR units within the hour."""

    def __init__(self, wait: int):
        super().__init__(wait)
        self.wait = wait  # seconds until the hour's count runs out (a Retry-After)

    def __str__(self) -> str:
        minutes = max(1, math.ceil(self.wait / 60))
        units = settings.IMPORT_UNITS_PER_HOUR
        limit = ngettext(
            "An account may import or copy at most {units} unit an hour",
            "An account may import or copy at most {units} units an hour",
            units,
        ).format(units=f"{units:,}")
        wait = ngettext(
            "try again in {minutes} minute.", "try again in {minutes} minutes.", minutes
        ).format(minutes=minutes)
        return gettext("{limit}: {wait}").format(limit=limit, wait=wait)


class Refused(Exception):
    """A change the rules do not allow; `message` says why, for the page to show."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class LibraryFull(Exception):
    """The account's library already holds MAX_LIBRARY entries."""

    message = format_lazy(
        gettext_lazy(
            "A library keeps at most {most} figures, weapons and traits: delete one you "
            "no longer use before adding another."
        ),
        most=MAX_LIBRARY,
    )


@dataclass(frozen=True)
class UnitSpec:
    name: str
    quantity: int
    profile: dict


def exact_text(x: Fraction) -> str:
    """A number as stored: decimal text when it ends ("6.5"), else "n/d"; Fraction() reads both."""
    return decimal_text(x) or f"{x.numerator}/{x.denominator}"


def stored_issue(issue: points.model.Issue) -> dict:
    """An issue as a row keeps it: its code, and its message as an id with its values
    (points.messages.text_data), translated when a page shows it (rules.words.say)."""
    return {"code": issue.code, "message": text_data(issue.message)}


def priced_fields(system: str, spec: UnitSpec, loaded: points.model.Unit | None = None) -> dict:
    """Validate and price one unit: the stored fields of its row. Raises ArmyFileError.
    `loaded`: the unit as the engine already read it from `spec` (an army file's), not
    read again."""
    if loaded is None:
        loaded = points.load_unit(spec.name, spec.quantity, spec.profile, system)
    result = points.price_unit(system, loaded)
    issues = {}
    if result.errors:
        issues["errors"] = [stored_issue(e) for e in result.errors]
    if result.warnings:
        issues["warnings"] = [stored_issue(w) for w in result.warnings]
    return {
        "name": spec.name,
        "quantity": spec.quantity,
        "profile": spec.profile,
        "each": exact_text(result.each),
        "exact": f"{result.exact.numerator}/{result.exact.denominator}",
        "cost": exact_text(result.cost),
        "lines": [line_data(line) for line in result.lines],
        "issues": issues,
        "facts": result.facts,
        "rules_version": points.SYSTEMS[system].version,
    }


# What a change reads of the locked army: not its list row, QR code or notes, which run to
# kilobytes and which only the changes that set them write.
NOT_LOCKED_FOR = ("list_html", "share_qr", "notes")


@contextmanager
def changing(army: Army, seen: int | None = None) -> Iterator[Change]:
    """Lock `army`, check it is still at version `seen` (None: whatever it is now), and
    yield a Change for the change to fill in (its `army` is the locked row); then
    re-state the army when the change touched its units or settings, move its version
    on, and blank what the change made stale (freshness.make_fresh). `army` is updated in
    place."""
    with transaction.atomic():
        locked = Army.all_objects.select_for_update().defer(*NOT_LOCKED_FOR).get(pk=army.pk)
        if seen is not None and locked.version != seen:
            raise StaleVersion
        before = locked.issues
        change = Change(locked)
        yield change
        restate(locked, change.restates)
        make_fresh(change, before)
    for field in (
        (*STATE_FIELDS, "version", "updated") if change.restates else ("version", "updated")
    ):
        setattr(army, field, getattr(locked, field))


STATE_FIELDS = ("total", "legal", "issues", "summary", "rules_version")


def unit_state(units: QuerySet) -> list[tuple]:
    """What re-stating an army reads of each live unit, in list order: id, name, quantity,
    cost, facts, and whether it has errors of its own (asked of the database, so the
    issues are never decoded). One query, of those columns alone. The facts are read as
    text and decoded here, once for each different text (most units of an army share
    theirs): a JSONField decodes each row through Django's converter, which took longer
    than the rest of the query (200 units: 2.6 ms against 1.7, on SQLite)."""
    has_errors = ExpressionWrapper(Q(issues__has_key="errors"), output_field=BooleanField())
    rows = (
        units.order_by("position", "id")
        .annotate(facts_text=Cast("facts", TextField()), has_errors=has_errors)
        .values_list("pk", "name", "quantity", "cost", "facts_text", "has_errors")
    )
    decoded: dict[str, dict] = {}
    found = []
    for pk, name, quantity, cost, text, errors in rows:
        facts = decoded.get(text)
        if facts is None:
            facts = decoded[text] = json.loads(text)
        found.append((pk, name, quantity, cost, facts, errors))
    return found


def army_state(system_key: str, options: dict, points_limit, rows: Sequence[tuple]) -> dict:
    """The army's stored fields (STATE_FIELDS) from its units' unit_state() rows. Plain
    data in and out, so the data migration that first fills them uses it too."""
    system = points.SYSTEMS[system_key]
    checked = points.check_army(
        system_key,
        [Entry(name, quantity, facts) for _, name, quantity, _, facts, _ in rows],
        [sum_costs(cost for *_, cost, _, _ in rows)],
        system.parse_options(options or {}, "options"),
        None if points_limit is None else Fraction(points_limit),
    )

    def stored(issue) -> dict:
        unit = None if issue.unit is None else rows[issue.unit][0]
        return {**stored_issue(issue), "unit": unit}

    return {
        "total": exact_text(checked.total),
        "legal": not checked.errors and not any(errors for *_, errors in rows),
        "issues": {
            "errors": [stored(e) for e in checked.errors],
            "warnings": [stored(w) for w in checked.warnings],
        },
        "summary": {
            "options": [line_data(line) for line in checked.option_lines],
            "extras": exact_data(checked.extras),
        },
        "rules_version": system.version,
    }


def sum_costs(costs: Iterable[str]) -> Fraction:
    """The exact sum of stored costs. They are decimal text ("6.5"), which Decimal adds
    several times faster than Fraction parses it; any rounding at all (or a cost written
    "n/d") is trapped, and the sum is then done in fractions."""
    costs = list(costs)
    try:
        with localcontext(Context(prec=MAX_PREC, traps=[Inexact, InvalidOperation])):
            return Fraction(sum(map(Decimal, costs), Decimal(0)))
    except (Inexact, InvalidOperation):
        return sum(map(Fraction, costs), Fraction(0))


MAX_PREC = 10_000  # digits: far past any sum of costs; beyond it, fractions take over


def restate(army: Army, units: bool = True) -> None:
    """Move the army's version on and, with `units` (the change touched its units or
    settings), re-work its total, legality and army-wide issues from its units' stored
    costs and facts (one query; nothing is loaded or re-validated). Writes only the
    columns that changed."""
    fields = ["version", "updated"]
    if units:
        rows = unit_state(army.units.all())
        for field, value in army_state(army.system, army.options, army.points_limit, rows).items():
            if getattr(army, field) != value:
                setattr(army, field, value)
                fields.append(field)
    army.version += 1
    army.updated = timezone.now()
    army.save(update_fields=fields)


# --- The changes -----------------------------------------------------------------------


def save_unit(army: Army, unit_pk: int, spec: UnitSpec, seen: int | None) -> Unit:
    """Store a unit's new name, quantity and stat line. Raises StaleVersion,
    Unit.DoesNotExist (deleted meanwhile) or ArmyFileError (bad stat line)."""
    fields = priced_fields(army.system, spec)
    if not _save_as_seen(army, unit_pk, fields, seen):
        with changing(army, seen) as change:
            change.write(unit_pk, fields)
    return Unit(pk=unit_pk, army=army, **fields)


def _save_as_seen(army: Army, unit_pk: int, fields: dict, seen: int | None) -> bool:
    """A save in two statements under the lock instead of four: when `army` (as this
    request read it) is at the version the page posted, its new state is worked out
    before the transaction, from its units' state read then with the saved unit's new
    fields in its place; the transaction writes the army row only if it is still at that
    version (the condition takes its lock, army first as always), then the unit through
    the Change, and blanks what that made stale (freshness.make_fresh), as changing()
    does. Any change in between moved the version on (every change does), so the units
    read are the units at `seen` exactly when the army row is. False, with nothing
    written, when the army moved or the unit is gone: the save then goes through
    changing(), which refuses it (StaleVersion, Unit.DoesNotExist) or makes it."""
    if seen is None or army.version != seen:
        return False
    rows = unit_state(army.units.all())
    places = [i for i, row in enumerate(rows) if row[0] == unit_pk]
    if not places:
        return False
    rows[places[0]] = (
        unit_pk,
        fields["name"],
        fields["quantity"],
        fields["cost"],
        fields["facts"],
        "errors" in fields["issues"],
    )
    state = army_state(army.system, army.options, army.points_limit, rows)
    now = timezone.now()
    with transaction.atomic():
        moved_on = {**state, "version": seen + 1, "updated": now}
        if not Army.all_objects.filter(pk=army.pk, version=seen).update(**moved_on):
            return False
        # The army as it now stands, for the Change (which reads its id and issues).
        change = Change(Army(pk=army.pk, issues=state["issues"]))
        change.write(unit_pk, fields)
        make_fresh(change, army.issues)
    for field, value in moved_on.items():
        setattr(army, field, value)
    return True


def edit_unit(army: Army, unit: Unit, spec: UnitSpec, seen: int | None) -> Unit:
    """The editor's save: `unit` (as stored) given what the form holds. A unit opened and
    saved unchanged is not written (the army's version and the unit's drawing stay), so a
    save from a tab that is behind loses nothing when it changes nothing; otherwise
    save_unit."""
    if (spec.name, spec.quantity, spec.profile) == (unit.name, unit.quantity, unit.profile):
        return unit
    return save_unit(army, unit.pk, spec, seen)


def add_units(army: Army, specs: Sequence[UnitSpec], seen: int | None = None) -> list[Unit]:
    """New units at the end of the list. Raises ArmyFull, StaleVersion or ArmyFileError."""
    return _add_priced(army, priced_units(army.system, specs), seen)


def priced_units(
    system: str, specs: Sequence[UnitSpec], loaded: Sequence[points.model.Unit] | None = None
) -> list[Unit]:
    """New, unsaved units, each validated and priced (priced_fields); `loaded`: the
    engine's reading of each, when it has read them already. Raises ArmyFileError."""
    if loaded is None:
        return [Unit(**priced_fields(system, spec)) for spec in specs]
    return [
        Unit(**priced_fields(system, spec, unit)) for spec, unit in zip(specs, loaded, strict=True)
    ]


def _add_priced(army: Army, made: list[Unit], seen: int | None = None) -> list[Unit]:
    """Store units priced beforehand (priced_units) at the end of the army's list, all in
    one INSERT. They are drawn by the first page that shows them (drawing.parts_of), as a
    save leaves its unit: an import or a fork of 1,000 units would otherwise draw 3,000
    parts while it holds the database's write lock."""
    with changing(army, seen) as change:
        found = change.army.units.aggregate(last=Max("position"), count=Count("pk"))
        if found["count"] + len(made) > MAX_UNITS:
            raise ArmyFull
        for i, unit in enumerate(made, start=(found["last"] or 0) + 1):
            unit.army, unit.position = change.army, i
        Unit.objects.bulk_create(made)
        change.added += made
    return made


def step_quantity(army: Army, unit_pk: int, step: int, seen: int | None) -> Unit:
    """One model fewer (step -1) or more (+1), kept from 1 to MAX_QUANTITY: the row's − and
    + buttons, saved like an editor save. Raises Unit.DoesNotExist or StaleVersion."""
    unit = army.units.get(pk=unit_pk)
    quantity = min(max(unit.quantity + step, 1), MAX_QUANTITY)
    if quantity == unit.quantity:
        return unit
    return save_unit(army, unit.pk, UnitSpec(unit.name, quantity, unit.profile), seen)


def add_part(army: Army, unit: Unit, key: str, part: dict | str, seen: int | None) -> Unit:
    """Copy a library weapon or trait (`part`: its entry, or a d10 weapon's name) onto the
    end of the unit's `key` list.
    Raises ArmyFileError, StaleVersion or Unit.DoesNotExist."""
    profile = {**unit.profile, key: [*unit.profile.get(key, []), part]}
    return save_unit(army, unit.pk, UnitSpec(unit.name, unit.quantity, profile), seen)


def duplicate_unit(army: Army, unit_pk: int, seen: int | None) -> Unit:
    unit = army.units.get(pk=unit_pk)
    name = f"{unit.name} (copy)"[:MAX_NAME]
    return add_units(army, [UnitSpec(name, unit.quantity, unit.profile)], seen)[0]


def move_unit(army: Army, unit_pk: int, up: bool, seen: int | None) -> None:
    """One place up or down the list; at either end it stays where it is."""
    # From index i (place i + 1): up is place i, down is place i + 2.
    _move(army, unit_pk, seen, lambda index: index if up else index + 2)


def move_unit_to(army: Army, unit_pk: int, place: int, seen: int | None) -> None:
    """Put a unit at `place` in the list (1 is the top; past the end is the end)."""
    _move(army, unit_pk, seen, lambda index: place)


def _move(army: Army, unit_pk: int, seen: int | None, place_of: Callable[[int], int]) -> None:
    """Move a unit to place_of(its index now), clamped to the list, renumbering the rest."""
    with changing(army, seen) as change:
        units = list(change.army.units.order_by("position", "id").only("pk", "position"))
        index = next((i for i, u in enumerate(units) if u.pk == unit_pk), None)
        if index is None:
            raise Unit.DoesNotExist
        unit = units.pop(index)
        units.insert(min(max(place_of(index), 1), len(units) + 1) - 1, unit)
        changed = []
        for position, each in enumerate(units, start=1):
            if each.position != position:
                each.position = position
                changed.append(each)
        Unit.objects.bulk_update(changed, ["position"])
        change.reordered = bool(changed)


def trash_unit(army: Army, unit_pk: int, seen: int | None) -> Unit:
    with changing(army, seen) as change:
        unit = change.army.units.get(pk=unit_pk)
        unit.deleted_at = timezone.now()
        unit.save(update_fields=["deleted_at"])
        change.removed.add(unit.pk)
    return unit


def restore_unit(army: Army, unit_pk: int, seen: int | None = None) -> Unit:
    with changing(army, seen) as change:
        unit = Unit.all_objects.in_trash().get(army=change.army, pk=unit_pk)
        if change.army.units.count() >= MAX_UNITS:
            raise ArmyFull
        unit.deleted_at = None
        unit.save(update_fields=["deleted_at"])
        change.restored.add(unit.pk)
    return unit


def save_settings(army: Army, changes: dict, seen: int | None) -> None:
    """Store the army's settings (name, limit, preset, notes, options): the limit and
    options change its checks, so it is re-stated like any other change."""
    with changing(army, seen) as change:
        for field, value in changes.items():
            setattr(change.army, field, value)
            setattr(army, field, value)
        change.army.save(update_fields=list(changes))
        change.settings = True


def check_room_for_army(owner, more: int = 1) -> None:
    """Refuse `more` live armies past MAX_ARMIES. Called in a transaction: it locks the
    owner's row, so two tabs creating or restoring at once are counted one after the other."""
    get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
    if Army.objects.for_owner(owner).count() + more > MAX_ARMIES:
        raise TooManyArmies


def create_army(owner, **fields) -> Army:
    """A new, empty army of `owner`. Raises TooManyArmies."""
    with transaction.atomic():
        check_room_for_army(owner)
        army = Army.objects.create(owner=owner, **fields)
        with changing(army) as change:
            change.settings = True  # stated from its settings, with no units yet
    return army


def add_library_entry(owner, kind: str, system: str, name: str, data: dict) -> LibraryEntry:
    """A new homebrew entry in `owner`'s library. Raises LibraryFull."""
    with transaction.atomic():
        # The owner's row locked: two adds at once cannot both see room for one more.
        get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
        if LibraryEntry.objects.for_owner(owner).count() >= MAX_LIBRARY:
            raise LibraryFull
        return LibraryEntry.objects.create(
            owner=owner, kind=kind, system=system, name=name, data=data
        )


def save_library_entry(entry: LibraryEntry, name: str, data: dict, seen: int | None = None) -> None:
    """Change a homebrew entry if it is still at version `seen` (None: whatever it is now),
    else raise StaleVersion; armies that copied it keep their copy."""
    with transaction.atomic():
        locked = _locked_entry(entry, seen)
        locked.name, locked.data, locked.version = name, data, locked.version + 1
        locked.save(update_fields=["name", "data", "version", "updated"])
    entry.name, entry.data, entry.version = locked.name, locked.data, locked.version


def delete_library_entry(entry: LibraryEntry, seen: int | None = None) -> None:
    """Delete a homebrew entry if it is still at version `seen` (None: whatever it is now),
    else raise StaleVersion: a page drawn before another tab's edit does not delete that
    edit unseen (there is no trash for library entries)."""
    with transaction.atomic():
        _locked_entry(entry, seen).delete()


def _locked_entry(entry: LibraryEntry, seen: int | None) -> LibraryEntry:
    """`entry` read again and locked for the change, if it is still at version `seen`
    (None: whatever it is now); else StaleVersion. Inside a transaction."""
    locked = LibraryEntry.objects.select_for_update().get(pk=entry.pk)
    if seen is not None and locked.version != seen:
        raise StaleVersion
    return locked


COPY_NUMBER = re.compile(r" \((\d{1,9})\)$")


def distinct_name(owner, name: str) -> str:
    """`name`, or the first "name (2)", "name (3)"… none of the owner's armies has: an
    imported, forked or sample copy is told apart from the army it was copied beside.
    A copy of "Dwarves (2)" is numbered from "Dwarves". One query: an account holds at
    most MAX_ARMIES armies."""
    base = COPY_NUMBER.sub("", name)
    stem = base[: MAX_NAME - len(" (999)")]
    taken = {
        found
        for found in Army.objects.for_owner(owner)
        .filter(name__startswith=stem)
        .values_list("name", flat=True)
    }
    if name not in taken:
        return name
    for n in range(2, MAX_ARMIES + 2):
        suffix = f" ({n})"
        candidate = base[: MAX_NAME - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
    return name  # unreachable: fewer armies than numbers tried


def create_army_from_file(
    owner, army: points.model.Army, profiles: Sequence[dict] | None = None, **extra
) -> Army:
    """Store a loaded muster-army/1 army as a new army of `owner`, units in file order,
    each priced as it is stored; its name is told apart from the owner's other armies
    (distinct_name). `profiles`: the units' profiles as the file wrote them (an import
    keeps them so, SPEC 4), else as the engine writes them. Raises TooManyArmies."""
    doc = points.dump(army)
    if profiles is not None:
        for unit, profile in zip(doc["units"], profiles, strict=True):
            unit["profile"] = profile
    limit = doc.get("points_limit")
    specs = [UnitSpec(u["name"], u.get("quantity", 1), u["profile"]) for u in doc["units"]]
    # Priced before the transaction: nothing is worked out or drawn while it holds the
    # write lock (on SQLite, every other player's write waits for it).
    made = priced_units(doc["system"], specs, army.units)
    with transaction.atomic():
        stored = create_army(
            owner,
            name=distinct_name(owner, doc["name"]),
            system=doc["system"],
            points_limit=None if limit is None else Decimal(str(limit)),
            options=doc.get("options") or {},
            **extra,
        )
        if made:
            _add_priced(stored, made)
    return stored


@dataclass(frozen=True)
class Repriced:
    army: Army
    old_total: Fraction
    new_total: Fraction
    notice: dict | None  # what changed for players, None when nothing they see did


def _errors_by_unit(army_issues: dict, units) -> dict:
    """Each unit's errors (its own and the army's about it) as {pk: {code: message}}, and
    the army's own under None."""
    found: dict = {None: {}}
    for pk, issues in units:
        found[pk] = {e["code"]: e["message"] for e in (issues or {}).get("errors", [])}
    for e in (army_issues or {}).get("errors", []):
        found.setdefault(e.get("unit"), {})[e["code"]] = e["message"]
    return found


def _appeared_and_cleared(was: dict, now: dict) -> tuple[list[str], list[str]]:
    return [now[c] for c in now if c not in was], [was[c] for c in was if c not in now]


def reprice(army: Army) -> Repriced:
    """Price every unit of the army again with today's engine (after a rules version
    moves) and re-state it. A change players would see (a unit's points, an error that
    appears or clears, the total or legality) is recorded on the army as its rules notice
    until the owner accepts it; an army whose numbers did not move gets no notice."""
    with transaction.atomic():
        with changing(army) as change:
            locked = change.army
            change.recheck = True  # today's rules check the army, whatever its units say
            was = Army(
                total=locked.total,
                legal=locked.legal,
                rules_version=locked.rules_version,
                rules_notice=locked.rules_notice,
            )
            before = list(locked.units.all())
            old_errors = _errors_by_unit(locked.issues, [(u.pk, u.issues) for u in before])
            for unit in before:
                fields = priced_fields(
                    locked.system, UnitSpec(unit.name, unit.quantity, unit.profile)
                )
                if any(getattr(unit, key) != value for key, value in fields.items()):
                    change.write(unit.pk, fields)
        after = {u.pk: u for u in army.units.all()}
        new_errors = _errors_by_unit(army.issues, [(pk, u.issues) for pk, u in after.items()])
        units = []
        for unit in before:
            appeared, cleared = _appeared_and_cleared(
                old_errors.get(unit.pk, {}), new_errors.get(unit.pk, {})
            )
            each = [unit.each, after[unit.pk].each]
            if each[0] != each[1] or appeared or cleared:
                units.append(
                    {"name": unit.name, "each": each, "appeared": appeared, "cleared": cleared}
                )
        appeared, cleared = _appeared_and_cleared(old_errors[None], new_errors[None])
        notice = None
        if units or appeared or cleared or army.total != was.total:
            # Not yet accepted: the owner still knows the numbers from before the first move.
            known = was.rules_notice or {
                "from": was.rules_version,
                "total": [was.total],
                "legal": [was.legal],
            }
            notice = {
                "from": known["from"],
                "to": army.rules_version,
                "total": [known["total"][0], army.total],
                "legal": [known["legal"][0], army.legal],
                "units": units,
                "army": {"appeared": appeared, "cleared": cleared},
            }
            Army.all_objects.filter(pk=army.pk).update(rules_notice=notice)
            army.rules_notice = notice
    return Repriced(army, Fraction(was.total), Fraction(army.total), notice)


def redraw_army(army: Army) -> int:
    """Draw every live unit of `army` (trashed or not) again and store the parts, locked
    like any change so that a save meanwhile never meets a half-drawn army. Returns how
    many units were drawn. The version stays: what the army is has not changed."""
    with transaction.atomic():
        locked = Army.all_objects.select_for_update().get(pk=army.pk)
        pks = list(Unit.objects.filter(army=locked).values_list("pk", flat=True))
        drawing.redraw(locked, pks)
    return len(pks)


def accept_rules(army: Army, seen: int | None) -> None:
    """The owner has read what the new rules version changed: the notice goes."""
    with changing(army, seen) as change:
        change.army.rules_notice = None
        change.army.save(update_fields=["rules_notice"])
    army.rules_notice = None


# --- Whole armies: trash, archive, sharing, forks and tags -----------------------------
# None of these changes a price. Trashing and restoring take the army off or put it back
# on every page and link, and sharing changes what the builder shows, so they move the
# version on; archiving and tags only sort the army list, so a builder tab open meanwhile
# can still save.

# What a bulk action changes: which of the owner's armies it applies to, and the change.
LIST_ACTIONS = ("archive", "unarchive", "delete", "undelete")


def change_armies(owner, action: str, ids: Sequence[int]) -> list[tuple[int, str]]:
    """Archive, unarchive, delete (to the trash) or undelete the owner's armies among
    `ids`, in one transaction: the id and name of each it changed, by name. Another
    player's ids match nothing. Undeleting past MAX_ARMIES live armies raises
    TooManyArmies and restores none."""
    # An id past a 64-bit column matches no army (and SQLite refuses to compare it).
    ids = [pk for pk in ids if 0 < pk < 2**63]
    mine = Army.all_objects.for_owner(owner).filter(pk__in=ids)
    now = timezone.now()
    targets, change = {
        "archive": (
            mine.filter(deleted_at__isnull=True, archived_at__isnull=True),
            {"archived_at": now},
        ),
        "unarchive": (
            mine.filter(deleted_at__isnull=True, archived_at__isnull=False),
            {"archived_at": None},
        ),
        "delete": (
            mine.filter(deleted_at__isnull=True),
            {"deleted_at": now, "version": F("version") + 1},
        ),
        "undelete": (
            mine.filter(deleted_at__isnull=False),
            {"deleted_at": None, "version": F("version") + 1},
        ),
    }[action]
    with transaction.atomic():
        names = list(
            targets.select_for_update().order_by(Lower("name"), "pk").values_list("pk", "name")
        )
        if action == "undelete" and names:
            check_room_for_army(owner, more=len(names))
        # update(): neither the army's prices nor its "last edited" time change.
        Army.all_objects.filter(pk__in=[pk for pk, _ in names]).update(**change)
        if action == "delete" and names:
            _trim_trash(owner)
    return names


def _trim_trash(owner) -> None:
    """Delete for good the owner's armies in the trash past the MAX_TRASH deleted most
    recently (with their units): the trash cannot grow the database without bound."""
    trash = Army.all_objects.for_owner(owner).in_trash().order_by("-deleted_at", "-pk")
    over = list(trash.values_list("pk", flat=True)[MAX_TRASH:])
    if over:
        Army.all_objects.filter(pk__in=over).delete()


def trash_army(owner, pk: int) -> str:
    """Move one of the owner's live armies to the trash; its name. Raises Army.DoesNotExist."""
    changed = change_armies(owner, "delete", [pk])
    if not changed:
        raise Army.DoesNotExist
    return changed[0][1]


def restore_army(owner, pk: int) -> str:
    """Put one of the owner's armies back from the trash; its name. Raises
    Army.DoesNotExist (not in their trash) or TooManyArmies."""
    changed = change_armies(owner, "undelete", [pk])
    if not changed:
        raise Army.DoesNotExist
    return changed[0][1]


def purge_trash(dry_run: bool = False) -> tuple[int, int]:
    """Delete for good the armies and units in the trash for longer than TRASH_DAYS (an
    expired army takes all its units with it); how many of each. A trashed unit counts
    in no army's state, so no army is re-stated."""
    armies, units = Army.all_objects.expired(), Unit.all_objects.expired()
    counts = armies.count(), units.count()
    if not dry_run:
        with transaction.atomic():
            armies.delete()
            units.delete()
    return counts


def share_army(army: Army, absolute: Callable[[str], str] | None = None) -> str:
    """Turn sharing on with a fresh token (a new one revokes the old link); the token.
    With `absolute` (the request's build_absolute_uri, as the roster's views make the
    link's address), the link's QR code is drawn for the roster too."""
    token = secrets.token_urlsafe(SHARE_TOKEN_BYTES)
    _set_link(army, token, absolute)
    return token


def unshare_army(army: Army) -> None:
    """Turn sharing off: the link stops working."""
    _set_link(army, None)


def _set_link(army: Army, token: str | None, absolute: Callable[[str], str] | None = None):
    fields = ("share_token", "share_qr", "share_qr_url")
    with changing(army) as change:
        locked = change.army
        locked.share_token = token
        locked.share_qr_url = absolute(locked.get_share_url()) if token and absolute else ""
        locked.share_qr = drawing.share_qr(locked.share_qr_url) if locked.share_qr_url else ""
        locked.save(update_fields=fields)
    for field in fields:
        setattr(army, field, getattr(locked, field))


def fork_army(owner, original: Army, token: str) -> Army:
    """A copy of a shared army for `owner`, linked back to it through the share link it
    was copied from (while that link lives). Raises TooManyArmies or ImportLimit."""
    check_import_room(owner)
    army = points.load(original.to_file())
    with spending_units(owner, len(army.units)):
        return create_army_from_file(
            owner,
            army,
            forked_from=original,
            forked_from_token=token,
            origin=Army.Origin.FORK,
        )


def import_army(owner, army: points.model.Army, profiles: Sequence[dict]) -> Army:
    """An imported army file (read and checked by the engine; `profiles` as the file wrote
    them) stored as a new army of `owner`. Raises TooManyArmies or ImportLimit."""
    with spending_units(owner, len(army.units)):
        return create_army_from_file(owner, army, profiles, origin=Army.Origin.IMPORT)


# Imports and forks are counted per account, in the database (accounts.throttle): each
# unit costs CPU to price, and on its army's first pages to draw.
IMPORT_WINDOW = 60 * 60


def _import_key(owner) -> str:
    return f"imports:user:{owner.pk}"


def check_import_room(owner) -> None:
    """Raise ImportLimit when the account has no units left to import or copy this hour:
    asked before a file is even read, so a refused import costs next to nothing."""
    found = throttle.full(_import_key(owner), settings.IMPORT_UNITS_PER_HOUR)
    if found is not None:
        raise ImportLimit(throttle.retry_after(found))


@contextmanager
def spending_units(owner, units: int) -> Iterator[None]:
    """Take `units` (an empty army counts as one) from the account's hourly budget for
    the change inside, or raise ImportLimit; a change that fails gives them back."""
    key, amount = _import_key(owner), max(1, units)
    found = throttle.spend(key, amount, settings.IMPORT_UNITS_PER_HOUR, IMPORT_WINDOW)
    if found is not None:
        raise ImportLimit(throttle.retry_after(found))
    try:
        yield
    except BaseException:
        throttle.refund(key, amount)
        raise


def tag_armies(owner, ids: Sequence[int], name: str) -> int:
    """Tag the owner's armies among `ids` with `name` (their tag of that name in any
    case, made if new); how many armies. Raises Refused past MAX_TAGS tags or
    MAX_TAGS_PER_ARMY on an army; then nothing is tagged."""
    with transaction.atomic():
        armies = list(Army.objects.for_owner(owner).filter(pk__in=ids).select_for_update())
        if not armies:
            raise Refused(gettext("Pick one or more armies to tag first."))
        tag = Tag.objects.filter(owner=owner, name__iexact=name).first()
        if tag is None:
            if Tag.objects.filter(owner=owner).count() >= MAX_TAGS:
                raise Refused(
                    gettext(
                        "An account keeps at most {most} tags: remove one you no longer use."
                    ).format(most=MAX_TAGS)
                )
            tag = Tag.objects.create(owner=owner, name=name)
        through = Army.tags.through
        counts = dict(
            through.objects.filter(army__in=armies)
            .values_list("army_id")
            .annotate(n=Count("pk"))
            .values_list("army_id", "n")
        )
        have = set(
            through.objects.filter(army__in=armies, tag=tag).values_list("army_id", flat=True)
        )
        full = [
            a.name for a in armies if a.pk not in have and counts.get(a.pk, 0) >= MAX_TAGS_PER_ARMY
        ]
        if full:
            raise Refused(
                gettext("An army has at most {most} tags: {names} has no room.").format(
                    most=MAX_TAGS_PER_ARMY, names=", ".join(full[:3])
                )
            )
        through.objects.bulk_create(
            [through(army_id=a.pk, tag_id=tag.pk) for a in armies if a.pk not in have]
        )
    return len(armies)


def untag_armies(owner, ids: Sequence[int], name: str) -> int:
    """Take the owner's tag `name` off their armies among `ids`; how many armies. A tag
    left on no army is deleted, so it leaves the list's filter. Raises Refused when
    `ids` names none of their armies."""
    with transaction.atomic():
        armies = list(Army.objects.for_owner(owner).filter(pk__in=ids).select_for_update())
        if not armies:
            raise Refused(gettext("Pick one or more armies to tag first."))
        tag = Tag.objects.filter(owner=owner, name=name).first()
        if tag is not None and armies:
            Army.tags.through.objects.filter(army__in=armies, tag=tag).delete()
            Tag.objects.filter(pk=tag.pk, armies__isnull=True).delete()
    return len(armies)
