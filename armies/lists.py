"""Many lists (SPEC 5): the army list with search, sort, tags and an archive, and bulk
archive or delete with undo.

Every number on the list is stored on the army row, so a page of 50 armies costs the
same few queries whether the account holds one army or hundreds. Tags and archiving
change no prices: they bump no army version and need none posted (doing one twice does
nothing more).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Case, Exists, F, FloatField, OuterRef, Prefetch, Q, Value, When
from django.db.models.functions import Cast, Lower
from django.http import HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import dateformat
from django.utils.safestring import SafeString
from django.utils.timezone import localtime
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from accounts.http import HtmxHttpRequest
from armies import drawing, services
from armies.access import army_for_owner
from armies.models import (
    MAX_TAG,
    MAX_TAGS,
    MAX_TAGS_PER_ARMY,
    TRASH_DAYS,
    Army,
    Tag,
    stored_number,
)
from armies.templatetags.muster import pts
from points.armyfile import MAX_UNITS
from points.numbers import ascii_int
from rules.systems import SYSTEM_PAGES

ARMIES_PER_PAGE = 50


def home(request: HtmxHttpRequest) -> HttpResponse:
    """Muster's front page: what it is and its systems; a signed-in player with no army
    yet (just signed up, say) is offered a first army or a sample to start from, one with
    armies a way back to them."""
    has_armies = request.user.is_authenticated and Army.objects.for_owner(request.user).exists()
    return render(request, "home.html", {"has_armies": has_armies, "systems": SYSTEM_PAGES})


# Sort keys offered on the list: label and ordering (ties broken by id, so pages are stable).
SORTS = {
    "-updated": (gettext_lazy("Last edited"), ("-updated",)),
    "name": (gettext_lazy("Name"), (Lower("name"),)),
    "system": (gettext_lazy("System"), ("system", Lower("name"))),
    "-total": (gettext_lazy("Total, highest first"), (F("total_number").desc(),)),
    "total": (gettext_lazy("Total, lowest first"), ("total_number",)),
}

# What a bulk action does, what undoes it, and how the message says it.
ACTIONS = {
    "archive": ("unarchive", gettext_lazy("Archived: {names}.")),
    "unarchive": ("archive", gettext_lazy("Restored from the archive: {names}.")),
    "delete": ("undelete", gettext_lazy("Moved to the trash: {names}.")),
    "undelete": ("delete", gettext_lazy("Restored from the trash: {names}.")),
}
UNDO_KEY = "army_list_undo"


@dataclass(frozen=True)
class ListState:
    """What the list shows: read from its query string, kept in every link and form."""

    query: str = ""
    sort: str = "-updated"
    tag: str = ""
    archived: bool = False
    page: str = "1"

    @classmethod
    def of(cls, params: QueryDict) -> ListState:
        sort = params.get("sort", "-updated")
        return cls(
            query=params.get("q", "").strip(),
            sort=sort if sort in SORTS else "-updated",
            tag=params.get("tag", "").strip(),
            archived=params.get("archived") == "1",
            page=params.get("page", "1"),
        )

    def querystring(self, **changes) -> str:
        params = QueryDict(mutable=True)
        values = {
            "q": self.query,
            "sort": self.sort,
            "tag": self.tag,
            "archived": "1" if self.archived else "",
            "page": self.page,
        }
        values.update({key: str(value) for key, value in changes.items()})
        for key, value in values.items():
            if value and (key, value) not in {("sort", "-updated"), ("page", "1")}:
                params[key] = value
        return params.urlencode()

    def url_with(self, **changes) -> str:
        query = self.querystring(**changes)
        return reverse("armies:list") + (f"?{query}" if query else "")

    @property
    def url(self) -> str:
        return self.url_with()


def _text_ok(text: str, longest: int) -> bool:
    # No name is longer than its field, and SQLite refuses LIKE patterns past 50,000;
    # no stored text holds NUL, which PostgreSQL refuses in any text.
    return len(text) <= longest and "\x00" not in text


def listed_armies(owner, state: ListState):
    """The owner's armies as the list shows them: filtered, searched and sorted."""
    armies = Army.objects.for_owner(owner).in_list(archived=state.archived)
    if state.tag:
        armies = (
            armies.filter(tags__name=state.tag) if _text_ok(state.tag, MAX_TAG) else armies.none()
        )
    if state.query:
        if not _text_ok(state.query, Army._meta.get_field("name").max_length):
            return armies.none()
        # By the army's name or one of its tags: an owner has at most MAX_ARMIES armies and
        # MAX_TAGS tags, so a search costs the same however many units the armies hold.
        tagged = Army.tags.through.objects.filter(
            army=OuterRef("pk"), tag__name__icontains=state.query
        )
        armies = armies.filter(Q(name__icontains=state.query) | Exists(tagged))
    if state.sort in ("total", "-total"):
        # Totals are stored as exact decimal text; a fraction ("n/d") is never written
        # for a list of whole and half points, and would sort as 0 rather than fail.
        armies = armies.annotate(
            total_number=Case(
                When(total__contains="/", then=Value(0.0)),
                default=Cast("total", FloatField()),
                output_field=FloatField(),
            )
        )
    return armies.order_by(*SORTS[state.sort][1], "pk")


@login_required
def army_list(request: HtmxHttpRequest) -> HttpResponse:
    return _list_page(request, ListState.of(request.GET))


def _list_page(
    request: HtmxHttpRequest,
    state: ListState,
    *,
    status: int = 200,
    tag_error: str = "",
    typed_tag: str = "",
    picked: frozenset[int] = frozenset(),
) -> HttpResponse:
    armies = (
        listed_armies(request.user, state)
        .defer("notes", "options", "issues", "summary", "share_qr")  # not on the list
        .prefetch_related(Prefetch("tags", queryset=Tag.objects.only("name"), to_attr="tag_list"))
    )
    # Stored totals: a page of armies costs the same whatever they hold.
    page = Paginator(armies, ARMIES_PER_PAGE).get_page(state.page)
    rows = army_rows(list(page), picked)
    undo = request.session.pop(UNDO_KEY, None) if request.method == "GET" else None
    context = {
        "entries": bool(rows),
        "rows": rows,
        "prev_url": page.has_previous() and state.url_with(page=page.previous_page_number()),
        "next_url": page.has_next() and state.url_with(page=page.next_page_number()),
        "main_url": state.url_with(archived="", page="1"),
        "archive_url": state.url_with(archived="1", page="1"),
        "page": page,
        "state": state,
        "query": state.query,
        "sort": state.sort,
        "sorts": [(key, label) for key, (label, _) in SORTS.items()],
        "tags": list(Tag.objects.filter(owner=request.user).values_list("name", flat=True)),
        "back": state.querystring(),
        "undo": undo,
        "tag_error": tag_error,
        "typed_tag": typed_tag,
        "picked": picked,
        "max_armies": services.MAX_ARMIES,
        "max_units": MAX_UNITS,
        "max_tags": MAX_TAGS,
        "max_tag": MAX_TAG,
        "max_tags_per_army": MAX_TAGS_PER_ARMY,
        "trash_days": TRASH_DAYS,
    }
    return render(request, "armies/army_list.html", context, status=status)


@dataclass(frozen=True)
class ListRow:
    """One army on the list, as armies/army_list.html draws it."""

    army: Army
    total: str  # "412" or "412 / 500"
    edited_at: datetime  # when it was last edited, local time, to the second
    archived: bool
    picked: bool

    @property
    def edited(self) -> str:
        """As the row shows it, "5 Mar 2026, 14:07": worked out only for a row drawn
        afresh (a stored row is known by edited_iso; formatting every row of a page of
        50 took a millisecond)."""
        return dateformat.format(self.edited_at, "j M Y, H:i")

    @property
    def edited_iso(self) -> str:
        """The same for the <time> element."""
        return self.edited_at.isoformat()


def army_rows(armies: list[Army], picked: frozenset[int]) -> SafeString:
    """The list's rows, from the numbers stored on each army, as a player reads them;
    each drawn once and stored until what it shows changes (armies/drawing.py)."""
    rows = []
    for army in armies:
        total = pts(stored_number(army.total))
        if army.points_limit is not None:
            total += f" / {pts(Fraction(army.points_limit))}"
        edited = localtime(army.updated).replace(microsecond=0)
        archived = army.archived_at is not None
        rows.append(ListRow(army, total, edited, archived, army.pk in picked))
    return drawing.army_rows(rows)


# ---------------------------------------------------------------- writes


def _back(request: HtmxHttpRequest) -> ListState:
    """The list the posting page showed (its query string, posted as `back`)."""
    return ListState.of(QueryDict(request.POST.get("back", "")[:2000]))


def _picked(request: HtmxHttpRequest) -> list[int]:
    ids = (ascii_int(v, 18) for v in request.POST.getlist("army")[: services.MAX_ARMIES])
    return sorted({i for i in ids if i is not None})


def _tag_name(text: str) -> tuple[str, str]:
    """A typed tag with its spaces tidied, and what is wrong with it ("" when nothing)."""
    name = " ".join(text.split())
    if not name:
        return name, gettext("Type a tag to add, e.g. “tournament”.")
    if len(name) > MAX_TAG:
        return name, gettext("A tag is at most {most} characters.").format(most=MAX_TAG)
    # No stored text holds a control character (PostgreSQL refuses NUL in any text).
    if any(unicodedata.category(c) == "Cc" for c in name):
        return name, gettext(
            "A tag is letters, digits, spaces and punctuation: no control characters."
        )
    return name, ""


def _done(request: HtmxHttpRequest, action: str, changed: list[tuple[int, str]]) -> None:
    """Say what changed, and keep how to undo it for the list's Undo button."""
    undo, verb = ACTIONS[action]
    names = [name for _, name in changed]
    if not names:
        messages.info(request, gettext("Nothing changed: pick one or more of your armies first."))
        return
    shown = ", ".join(names[:3])
    if len(names) > 3:
        more = len(names) - 3
        shown = ngettext("{names} and {n} more", "{names} and {n} more", more).format(
            names=shown, n=more
        )
    messages.success(request, str(verb).format(names=shown))
    request.session[UNDO_KEY] = {"action": undo, "ids": [pk for pk, _ in changed]}


@require_http_methods(["GET", "POST"])
@login_required
def bulk(request: HtmxHttpRequest) -> HttpResponse:
    """The list's bulk bar: archive, restore, delete or undelete the picked armies, or
    add or remove a tag on them. A GET (a reload, a bookmark) is sent to the list."""
    if request.method == "GET":
        return redirect("armies:list")
    state, ids, action = _back(request), _picked(request), request.POST.get("action", "")
    if action in ("tag", "untag"):
        return _tag_many(request, state, ids, action)
    if action not in ACTIONS:
        messages.error(
            request, gettext("Pick what to do with the armies: archive, delete or restore.")
        )
        return redirect(state.url)
    try:
        changed = services.change_armies(request.user, action, ids)
    except services.TooManyArmies:
        messages.error(request, str(services.TooManyArmies()))
        return redirect(state.url)
    _done(request, action, changed)
    return redirect(state.url)


def _tag_many(
    request: HtmxHttpRequest, state: ListState, ids: list[int], action: str
) -> HttpResponse:
    typed = request.POST.get("new_tag", "")
    name, problem = _tag_name(typed)
    if not problem:
        try:
            if action == "untag":
                count = services.untag_armies(request.user, ids, name)
            else:
                count = services.tag_armies(request.user, ids, name)
        except services.Refused as refused:
            problem = refused.message
    if problem:
        return _list_page(
            request,
            state,
            status=400,
            tag_error=problem,
            typed_tag=typed[:200],
            picked=frozenset(ids),
        )
    if action == "untag":
        said = ngettext(
            "Took the tag “{name}” off {n} army.", "Took the tag “{name}” off {n} armies.", count
        )
    else:
        said = ngettext("Tagged {n} army “{name}”.", "Tagged {n} armies “{name}”.", count)
    messages.success(request, said.format(name=name, n=count))
    return redirect(state.url)


@require_POST
@login_required
def tag_remove(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The × on one army's tag."""
    army = army_for_owner(request, pk)
    name, problem = _tag_name(request.POST.get("tag", "")[: MAX_TAG + 1])
    if problem:
        # No tag of that name can exist: nothing to take off.
        return _list_page(request, _back(request), status=400, tag_error=problem)
    services.untag_armies(request.user, [army.pk], name)
    messages.success(
        request, gettext("Took the tag “{name}” off {army}.").format(name=name, army=army.name)
    )
    return redirect(_back(request).url)


@require_POST
@login_required
def tag_add(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Tag one army (from its row, or the bulk bar's field with one army)."""
    army = army_for_owner(request, pk)
    return _tag_many(request, _back(request), [army.pk], "tag")


@require_POST
@login_required
def archive(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    _done(request, "archive", services.change_armies(request.user, "archive", [army.pk]))
    return redirect(_back(request).url)


@require_POST
@login_required
def unarchive(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    _done(request, "unarchive", services.change_armies(request.user, "unarchive", [army.pk]))
    return redirect(_back(request).url)
