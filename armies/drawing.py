"""Each unit's drawn HTML, stored on its row beside its price (SPEC 7: stored when it
changes, not worked out when read).

Each unit has three parts: its row in the builder's list (row_html), its card on the
share page (shared_html) and its card on the roster sheet and unit cards (roster_html).
A page is one query for the parts, joined in list order: no template runs per unit, so a
cold 200-unit page costs what a warm one does, and every worker reads the same drawing.

No change draws: what a change makes stale is left blank (armies/freshness.py decides
which parts, from the change's own description), and the first page that shows a blank
part draws it for its answer and stores it once the answer is sent (parts_of,
after_page). Nothing is drawn while a write holds the army's lock.

Nothing in a part depends on its place in the list or on which unit is open (CSS numbers
cards and hides the first row's "up" and the last row's "down"; the open unit's row is
drawn for its page), nor on the door the page was opened by (a card's "Odds against…" is
relative to its page, and the owner's door and a share link's each send it on:
odds/fights.py), only on the unit and the army's issues about it. Parts are marked with
the release that drew them (freshness.is_current): a part drawn by another release counts
as blank, so after a template change the first page that shows a unit draws it again;
`manage.py redraw` draws every unit at once (as `reprice` prices them).

Each army's row on the army list is stored on the army likewise (army_rows), with a
digest of all it shows in place of a release mark.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from functools import partial

import segno
from django.core.signals import request_finished, request_started
from django.db import DatabaseError, transaction
from django.dispatch import receiver
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString

from armies import unit_cards
from armies.freshness import is_current, mark, renamed
from armies.models import DRAWN_FIELDS, TRASH_DAYS, Army, StoredPrices, Unit
from armies.state import ArmyState, Row, rows
from points.armyfile import MAX_QUANTITY, MAX_UNITS
from points.systems import SYSTEMS

ROW_TEMPLATE = "armies/builder.html#unit-row"
SHARED_TEMPLATE = "sharing/_shared_units.html#card"
ROSTER_TEMPLATE = "sharing/roster.html#card"
LIST_ROW_TEMPLATE = "armies/army_list.html#army-row"
FIELDS = DRAWN_FIELDS
QR_BORDER = 2  # modules of quiet zone: the printed sheet's white margin adds the rest

logger = logging.getLogger(__name__)


def share_qr(url: str) -> str:
    """The QR code of a share link, as inline SVG for the roster (segno writes only its own
    markup; the address is in the path data). Choosing its mask is most of the work: about
    10 ms of CPU, so it is drawn when the link is made."""
    return segno.make(url, micro=False).svg_inline(border=QR_BORDER, omitsize=True)


def row_html(row: Row, oob: bool = False) -> str:
    """One unit's row in the builder's list; `oob` for an htmx reply that swaps it in."""
    return render_to_string(ROW_TEMPLATE, {"row": row, "oob": oob, "max_quantity": MAX_QUANTITY})


def roster_card_html(card: unit_cards.Card) -> str:
    system = card.system
    context = {
        "card": card,
        "system": system,
        "points_word": SYSTEMS[system].points_word,
        "system_template": card.system_pages.roster_card,
    }
    return render_to_string(ROSTER_TEMPLATE, context)


def parts(army, units: list[Unit], fields=FIELDS) -> dict[int, dict[str, str]]:
    """The drawn parts `fields` of each of `units` (live units of `army`), by unit id."""
    priced = StoredPrices(army, units)
    drawn = {}
    url = reverse("armies:builder", args=[army.pk])
    for row in rows(army, priced, url=url):
        card = unit_cards.Card(row.unit, row.priced, row.errors, row.warnings, army.system)
        found = {}
        if "row_html" in fields:
            found["row_html"] = row_html(row)
        if "shared_html" in fields:
            found["shared_html"] = render_to_string(SHARED_TEMPLATE, {"card": card})
        if "roster_html" in fields:
            found["roster_html"] = roster_card_html(card)
        drawn[row.unit.pk] = found
    return drawn


def redraw(army, pks: Iterable[int]) -> None:
    """Draw the live units `pks` of `army` (its row locked by the caller) again and store
    their parts: `manage.py redraw`, not a change."""
    # Locked, as the army is: no other transaction deletes a row stored below.
    units = list(Unit.objects.select_for_update().filter(army=army, pk__in=set(pks)))
    if not units:
        return
    for unit in units:
        unit.army = army  # what the drawing reads of the army, without a query per unit
    store(units, parts(army, units))


def store(units: list[Unit], drawn: dict[int, dict[str, str]], fields=FIELDS) -> None:
    """Keep the parts `fields` of each of `units` (live rows of an army whose row the caller
    has locked) as `drawn` (by unit id), marked with this release. A unit whose other parts
    another release drew has them blanked, so they still count as blank (a page stores
    only the part it shows)."""
    current = [unit for unit in units if is_current(unit.drawn_for)]
    behind = [unit for unit in units if not is_current(unit.drawn_for)]
    for unit in units:
        for field in FIELDS:
            if field in fields:
                setattr(unit, field, drawn[unit.pk][field])
            elif not is_current(unit.drawn_for):
                setattr(unit, field, "")
    for unit in behind:
        unit.drawn_for = mark()
    if set(fields) == set(FIELDS):
        _upsert(units, [*FIELDS, "drawn_for"])
        return
    # A page's one part. The others were not read (LiveUnitManager defers them): blank
    # here, only so the upsert's INSERT, which never happens, reads no column per unit.
    for unit in current:
        for field in set(FIELDS) - set(fields):
            setattr(unit, field, "")
    _upsert(current, list(fields))
    # Units no part of which this release drew (an import's, all of them) now have every
    # part known, this one drawn and the others blank.
    _upsert(behind, [*FIELDS, "drawn_for"])


def _upsert(units: list[Unit], fields: list[str]) -> None:
    """Store `fields` of `units` (rows that exist): one INSERT … ON CONFLICT UPDATE of
    those columns, where the INSERT never happens. bulk_update writes a CASE WHEN per
    unit and column, which Django builds in Python: 160-230 ms of a 200-unit import,
    against 20-40 ms, and 2-4 s of CPU for the first page of a 1,000-unit import."""
    if units:
        Unit.objects.bulk_create(
            units, update_conflicts=True, unique_fields=["pk"], update_fields=fields
        )


def changed_rows(army: Army, unit: Unit, before: dict | None, selected: bool = True) -> list[Row]:
    """The rows a save's reply draws: the unit itself (`selected`: open in the editor) and
    any whose army-wide issues changed from `before` (a second commander marks the first).
    Only those are read and drawn."""
    others = renamed(before, army.issues) - {unit.pk}
    units = [unit, *army.units.filter(pk__in=others).defer("lines", "exact")] if others else [unit]
    return rows(army, army.priced(units), unit.pk if selected else None)


# --- Pages: the stored parts, joined ---------------------------------------------------
# Joined in Python: each part is a template's output, stored by parts() above.


def builder_rows(state) -> SafeString:
    """The builder's list: every unit's stored row, the open unit's drawn for the page
    (highlighted, its actions in place for a browser without JavaScript)."""
    selected = state.selected_row
    pks = [pk for pk, _ in state.drawn("row_html")]
    return joined(
        row_html(selected) if selected is not None and pk == selected.unit.pk else html
        for pk, html in zip(pks, parts_of(state, "row_html"), strict=True)
    )


def parts_of(state, field: str) -> list[str]:
    """Each live unit's stored part `field`, in list order. Units a save left blank are
    drawn here (one query for them) and stored once the page is sent (after_page)."""
    drawn = state.drawn(field)
    blank = [pk for pk, html in drawn if not html]
    if not blank:
        return [html for _, html in drawn]
    army = state.army
    units = list(army.units.filter(pk__in=blank))
    fresh = parts(army, units, fields=(field,))  # this page's part: the others wait for theirs
    after_page(partial(keep, army, units, fresh, field))
    return [html or fresh.get(pk, {}).get(field, "") for pk, html in drawn]


def keep(army: Army, units: list[Unit], drawn: dict[int, dict[str, str]], field: str) -> None:
    """Store what a page drew of `units`, unless the army changed since the page read it
    (a save blanked them again: the next page draws them)."""
    with transaction.atomic():
        # The army row's lock, as a save takes it: no save can come between the check and
        # the write.
        if Army.all_objects.select_for_update().filter(pk=army.pk, version=army.version):
            store(units, drawn, fields=(field,))


# --- The army list: each army's row, stored on the army ---------------------------------
# A row shows only what the army row and its tags hold, so it is stored with a digest of
# all of it, and drawn again when the digest differs: no write path has to remember it.


def army_rows(rows) -> SafeString:
    """The army list's rows (armies/lists.py's ListRow: an army, with its tags as
    `tag_list`, and what its row shows), each as stored or drawn afresh. A picked row (the
    list shown again after a refused post) is drawn with its box ticked and not stored."""
    drawn, fresh = [], {}
    for row in rows:
        army, digest = row.army, shown_on_list(row)
        if army.list_drawn == digest and not row.picked:
            drawn.append(army.list_html)
            continue
        html = render_to_string(LIST_ROW_TEMPLATE, {"row": row})
        if not row.picked:
            fresh[army.pk] = (html, digest)
        drawn.append(html)
    if fresh:
        after_page(partial(keep_army_rows, fresh))
    return joined(drawn)


def shown_on_list(row) -> str:
    """A digest of everything an army's row shows, and of the release that draws it."""
    army = row.army
    shown = [
        mark(),
        army.name,
        army.system,
        army.legal,
        bool(army.rules_notice),
        row.total,
        row.edited_iso,  # the last edit, to the second (the shown text follows from it)
        row.archived,
        [tag.name for tag in army.tag_list],
    ]
    return hashlib.sha256(json.dumps(shown).encode()).hexdigest()


def keep_army_rows(fresh: dict[int, tuple[str, str]]) -> None:
    """Store drawn list rows with their digests. An army changed meanwhile keeps a row
    whose digest no longer matches it: the next list draws it again. Nothing else of the
    army is written (its `updated`, the list's "Last edited", stays as it was)."""
    armies = [Army(pk=pk, list_html=html, list_drawn=seen) for pk, (html, seen) in fresh.items()]
    Army.all_objects.bulk_update(armies, ["list_html", "list_drawn"])


# --- Storing after the page is sent ----------------------------------------------------
# Storing is a write: it waits for the database's write lock, on SQLite behind every save
# under way. A page does not make its player wait for it: what it drew is stored once its
# answer is sent (Django sends request_finished when the server closes the response,
# after the body went out). Outside a request (a command, a test calling parts_of) it is
# stored at once. A store that fails is not retried: the parts stay blank, and the next
# page that shows them draws them again.

_after_page: ContextVar[list[Callable[[], None]] | None] = ContextVar("after_page", default=None)


def after_page(job: Callable[[], None]) -> None:
    jobs = _after_page.get()
    if jobs is None:
        job()
    else:
        jobs.append(job)


@receiver(request_started, dispatch_uid="armies.drawing.page_started")
def page_started(**kwargs) -> None:
    _after_page.set([])


@receiver(request_finished, dispatch_uid="armies.drawing.page_sent")
def page_sent(**kwargs) -> None:
    jobs = _after_page.get() or []
    _after_page.set(None)
    for job in jobs:
        try:
            job()
        except DatabaseError as error:
            logger.info("Drawn parts not stored, to be drawn again: %s", error)


def shared_cards(state) -> SafeString:
    return joined(parts_of(state, "shared_html"))


def joined(parts: Iterable[str]) -> SafeString:
    """Drawn parts, one after another: each is a template's output, drawn with escaping on."""
    return SafeString("".join(parts))  # each part a rendered template


# --- The builder's context -------------------------------------------------------------

# Handed to templates as callables, which templates call when they first need them.
LAZY = (
    "summary",
    "selected_row",
    "remaining",
    "army_errors",
    "unit_errors",
    "army_warnings",
    "extras",
    "figures",
    "parts",
    "samples",
)


def builder_context(army: Army, **extra) -> dict:
    """What the builder's templates draw from; units are read when first needed."""
    selected = extra.get("selected")
    state = ArmyState(army, selected, breakdowns=bool(extra.get("shared")))
    return {
        "army": army,
        "state": state,
        **state.lazy(*LAZY),
        "army_url": army.get_absolute_url(),
        "trash_days": TRASH_DAYS,
        "max_units": MAX_UNITS,
        "group_word": army.game_system.group_word,
        # The stored rows, joined, the open unit's drawn for the page.
        "drawn_rows": partial(builder_rows, state),
        **extra,
    }
