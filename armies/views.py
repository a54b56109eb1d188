from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from functools import cached_property, partial

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Count, Max
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

import points
from armies import fragments, profiles
from armies.forms import (
    PARTS,
    ArmyForm,
    ArmyOptionsForm,
    ImportForm,
    LibraryFigureForm,
    LibraryPartForm,
    UnitForm,
    ascii_int,
    dumps_army,
)
from armies.models import (
    TRASH_DAYS,
    Army,
    LibraryEntry,
    StoredUnit,
    Unit,
    library_for,
    owned_army,
)
from armies.services import create_army_from_file
from armies.templatetags.muster import breakdown
from config.prepared import update_one
from points.armyfile import MAX_UNITS
from points.fields import MAX_NAME
from points.model import Issue, PricedArmy, PricedUnit
from rules.models import SampleArmy


@dataclass
class Row:
    """A unit as the builder shows it: stored values, its price and what is wrong with it."""

    unit: StoredUnit
    priced: PricedUnit
    errors: tuple[Issue, ...]
    warnings: tuple[Issue, ...]
    url: str = ""  # the unit's own URLs start here: …/units/<pk>/
    first: bool = False
    last: bool = False
    selected: bool = False


def army_for_owner(request: HttpRequest, pk: int) -> Army:
    # Anyone else gets the same 404 as for an army that does not exist.
    army = owned_army(request.user.pk, pk)
    if army is None:
        raise Http404("No such army")
    return army


def _rows(
    army: Army,
    units: list[StoredUnit],
    priced: PricedArmy,
    selected: StoredUnit | None,
    wanted: list[int] | None = None,
) -> list[Row]:
    """The rows of the units at the `wanted` places in the list (all when None)."""
    url, last, chosen = army.get_absolute_url(), len(units) - 1, selected and selected.pk
    issues = priced.issues_by_unit
    return [
        Row(
            units[i],
            priced.units[i],
            *issues[i],
            url=f"{url}units/{units[i].pk}/",
            first=i == 0,
            last=i == last,
            selected=units[i].pk == chosen,
        )
        for i in (range(len(units)) if wanted is None else wanted)
    ]


def _changed_rows(state: ArmyState, before: PricedArmy | None) -> list[Row]:
    """The rows a save changed: the unit itself and any whose errors or warnings did.
    Only those are built, so saving one unit of a long list does not draw them all."""
    if before is None:
        return []
    chosen = state.selected and state.selected.pk
    wanted = [
        i
        for i, (unit, now, was) in enumerate(
            zip(state.units, state.priced.issues_by_unit, before.issues_by_unit, strict=True)
        )
        if unit.pk == chosen or now != was
    ]
    return _rows(*state._row_args, wanted)


class ArmyState:
    """An army as the builder shows it, each part worked out when first asked for.

    A page whose remembered parts are current ({% remember %}, armies/fragments.py) never
    asks, so it neither loads nor prices the units.
    """

    def __init__(self, army: Army, units: list[StoredUnit] | None, selected: StoredUnit | None):
        self.army, self.selected = army, selected
        if units is not None:
            self.units = units

    def lazy(self, *names: str) -> dict[str, partial]:
        """Context entries for templates, which call them when they first need them."""
        return {name: partial(getattr, self, name) for name in names}

    @cached_property
    def units(self) -> list[StoredUnit]:
        return self.army.stored_units()

    @cached_property
    def priced(self) -> PricedArmy:
        return self.army.price(self.units)

    @cached_property
    def rows(self) -> list[Row]:
        return _rows(*self._row_args)

    @cached_property
    def selected_row(self) -> Row | None:
        if "rows" in self.__dict__:
            return next((row for row in self.rows if row.selected), None)
        # A save's reply shows the one row: build it alone, not all 200.
        chosen = self.selected and self.selected.pk
        at = next((i for i, unit in enumerate(self.units) if unit.pk == chosen), None)
        return None if at is None else _rows(*self._row_args, [at])[0]

    @property
    def _row_args(self) -> tuple:
        return self.army, self.units, self.priced, self.selected

    @cached_property
    def remaining(self):
        limit = self.priced.army.points_limit
        return None if limit is None else limit - self.priced.total

    @cached_property
    def army_errors(self) -> list[Issue]:
        return [e for e in self.priced.errors if e.unit is None]

    @cached_property
    def army_warnings(self) -> list[Issue]:
        return [w for w in self.priced.warnings if w.unit is None]

    @cached_property
    def record(self):
        """The army's latest acquisition roll (G.O.M.S.), without units: one query."""
        from armies import acquisition  # it builds on this module

        return acquisition.latest_record(self.army)

    @property
    def roll_key(self) -> tuple | None:
        """What a remembered part showing the roll depends on besides the army's version."""
        from armies import acquisition

        return acquisition.record_key(self.record)

    @cached_property
    def acquisition(self):
        """The latest roll as pages show it; units and prices only when there is one."""
        from armies import acquisition

        if self.record is None:
            return None
        return acquisition.describe(self.record, self.priced)

    @cached_property
    def library(self) -> list[LibraryEntry]:
        """The owner's homebrew for this army's system, for the "from my library" forms."""
        return library_for(self.army.owner_id, self.army.system)

    @cached_property
    def figures(self) -> list[LibraryEntry]:
        return [e for e in self.library if e.kind == LibraryEntry.Kind.FIGURE]

    @cached_property
    def parts(self) -> list[LibraryEntry]:
        return [e for e in self.library if e.kind != LibraryEntry.Kind.FIGURE]

    @cached_property
    def extras(self) -> list[tuple[str, object]]:
        return [
            (key.replace("_", " ").capitalize(), value)
            for key, value in self.priced.extras.items()
            if not isinstance(value, dict | list)
        ]


# Handed to templates as callables, which templates call when they first need them.
LAZY = (
    "priced",
    "rows",
    "selected_row",
    "remaining",
    "army_errors",
    "army_warnings",
    "extras",
    "figures",
    "parts",
)


def _builder_context(army: Army, units: list[StoredUnit] | None = None, **extra) -> dict:
    """What the builder's templates draw from; units are loaded when first needed."""
    state = ArmyState(army, units, extra.get("selected"))
    selected = extra.get("selected")
    return {
        "army": army,
        "state": state,
        **state.lazy(*LAZY),
        "army_url": army.get_absolute_url(),
        "trash_days": TRASH_DAYS,
        # Which row is highlighted, known without loading the units (a remembered key).
        "selected_id": selected.pk if selected else None,
        **extra,
    }


@login_required
def army_list(request: HttpRequest) -> HttpResponse:
    armies = Army.objects.for_owner(request.user)
    query = request.GET.get("q", "").strip()
    if query:
        # No name is longer than its field, and SQLite refuses LIKE patterns past 50,000;
        # no name holds NUL, which PostgreSQL refuses in any text.
        unmatched = len(query) > Army._meta.get_field("name").max_length or "\x00" in query
        armies = armies.none() if unmatched else armies.filter(name__icontains=query)
    sort = request.GET.get("sort", "-updated")
    if sort not in {"name", "-updated", "system"}:
        sort = "-updated"
    armies = list(armies.order_by(sort, "pk"))
    units = Unit.objects.filter(army__in=armies).stored_by_army()
    entries = [(army, army.price(units.get(army.pk, []))) for army in armies]
    return render(
        request, "armies/army_list.html", {"entries": entries, "query": query, "sort": sort}
    )


@login_required
def army_new(request: HttpRequest) -> HttpResponse:
    form = ArmyForm(request.POST or None, initial={"system": request.GET.get("system", "vsgmr")})
    if request.method == "POST" and form.is_valid():
        army = form.save(commit=False)
        army.owner = request.user
        army.save()
        messages.success(request, f"{army.name} is ready: add your first unit.")
        return redirect(army)
    return render(
        request,
        "armies/army_new.html",
        {"form": form, "samples": _samples()},
        status=_form_status(request),
    )


def _form_status(request: HttpRequest) -> int:
    """A form page's status: 400 when it comes back refused (it was posted and not
    saved, or the view would have redirected), 200 when it is shown to be filled in."""
    return 400 if request.method == "POST" else 200


def _samples():
    return SampleArmy.objects.order_by("system", "position", "name")


@require_POST
@login_required
def army_from_sample(request: HttpRequest, slug: str) -> HttpResponse:
    sample = get_object_or_404(SampleArmy, slug=slug)
    army = create_army_from_file(request.user, points.load(sample.army))
    messages.success(request, f"{army.name} copied from the sample armies: it is yours to change.")
    return redirect(army)


@login_required
def army_import(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        army = create_army_from_file(request.user, form.cleaned_data["army"])
        messages.success(request, f"Imported {army.name}.")
        return redirect(army)
    return render(request, "armies/army_import.html", {"form": form}, status=_form_status(request))


@login_required
def army_export(request: HttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    response = HttpResponse(dumps_army(army.to_file()), content_type="application/json")
    filename = "".join(c if c.isalnum() or c in "-_" else "-" for c in army.name)[:60] or "army"
    response["Content-Disposition"] = f'attachment; filename="{filename}.json"'
    return response


@login_required
def builder(request: HttpRequest, pk: int) -> HttpResponse:
    return _builder_page(request, army_for_owner(request, pk))


def _builder_page(request: HttpRequest, army: Army, settings_open: bool = False) -> HttpResponse:
    unit_id = ascii_int(request.GET.get("unit"), 18)  # a typo or a fuzzer opens no unit
    # Units are loaded only to open one in the editor, or when a remembered part of the
    # page is not current: most views of an unchanged army never load them.
    units = army.stored_units() if unit_id else None
    selected = _selected(units, unit_id) if units else None
    editor = UnitForm(army.system, unit=selected) if selected else None
    context = _builder_context(
        army,
        units,
        selected=selected,
        editor=editor,
        # The settings form is a third of the page's rendering time and usually stays
        # closed: it loads when opened (army_settings GET), inline only when asked for.
        settings_open=settings_open,
        settings_form=ArmyForm(instance=army) if settings_open else None,
        options_form=_options_form(army) if settings_open else None,
    )
    context.update(_side(request, context["state"], settings_open))
    template = "armies/builder.html"
    if request.htmx and request.htmx.target == "editor":
        template += "#editor"
    return fragments.render_page(request, template, context)


def _side(request: HttpRequest, state: ArmyState, settings_open: bool) -> dict:
    """How the builder page's side column (editor, settings, sharing) is remembered: per
    army version and everything else it shows. Only pages whose forms hold stored values
    remember it; a page with typed values in a form passes no side_army and draws it
    afresh. So does a forked army, whose "forked from" line shows another army's state."""
    army, selected = state.army, state.selected
    if army.forked_from_id:
        return {"side_army": None}
    # The editor offers the owner's library parts, which change without the army.
    library = tuple((e.pk, e.updated) for e in state.parts) if selected else ()
    key = (selected and selected.pk, settings_open, army.share_token, request.get_host(), library)
    return {"side_army": army, "side_key": (request.scheme, *key)}


def _selected(units: list[StoredUnit], unit_id: int | None) -> StoredUnit | None:
    return next((u for u in units if u.pk == unit_id), None)


def _options_form(army: Army, data=None) -> ArmyOptionsForm | None:
    if army.system != "goms":
        return None
    return ArmyOptionsForm(data, initial=army.options or {})


@require_http_methods(["GET", "POST"])
@login_required
def army_settings(request: HttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    if request.method == "GET":
        if not request.htmx:  # without JavaScript: the builder with the settings open
            return _builder_page(request, army, settings_open=True)
        context = {
            "army": army,
            "settings_form": ArmyForm(instance=army),
            "options_form": _options_form(army),
        }
        return render(request, "armies/builder.html#settings", context)
    # Bound to a copy: a refused form has already written the values it accepted onto
    # its instance (a limit over the maximum, say), and the page shows the army as stored.
    form = ArmyForm(request.POST, instance=copy.copy(army))
    options_form = _options_form(army, request.POST)
    valid = form.is_valid() and (options_form is None or options_form.is_valid())
    if valid:
        army = form.save(commit=False)
        if options_form is not None:
            army.options = options_form.options()
        # The claim and the change commit together: a page drawn in between would be
        # remembered under the new version with the old settings (armies/fragments.py).
        with transaction.atomic():
            claimed = _claim_version(request, army)
            if claimed:
                # Not the version: another tab may already have claimed the next one.
                army.save(update_fields=[*form.fields, "options", "updated"])
        if not claimed:
            return _settings_conflict(request, army)
        if not request.htmx:
            messages.success(request, "Army settings saved.")
            return redirect(army)
    context = _builder_context(
        army, settings_form=form, options_form=options_form, settings_open=True
    )
    if request.htmx:
        return render(request, "armies/builder.html#settings-saved", context)
    return render(request, "armies/builder.html", context, status=200 if valid else 400)


def _settings_conflict(request: HttpRequest, army: Army) -> HttpResponse:
    army.refresh_from_db()
    fresh, fresh_options = ArmyForm(instance=army), _options_form(army)
    typed = _typed_values(ArmyForm(request.POST, instance=army))
    if fresh_options is not None:
        typed += _typed_values(_options_form(army, request.POST))
    context = _builder_context(
        army,
        settings_form=fresh,
        options_form=fresh_options,
        settings_conflict=typed,
        settings_open=True,
    )
    template = "armies/builder.html#settings-saved" if request.htmx else "armies/builder.html"
    return render(request, template, context, status=409)


@require_POST
@login_required
def army_delete(request: HttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    army.trash()
    messages.success(
        request, f"Moved {army.name} to the trash: you can restore it for {TRASH_DAYS} days."
    )
    return redirect("armies:list")


# --- Trash ---------------------------------------------------------------------------
# Deleting moves an army or unit to its owner's trash; the default managers hide it from
# every page and share link. Restoring puts it back as it was; purge_trash removes what
# has waited longer than TRASH_DAYS.


@login_required
def trash(request: HttpRequest) -> HttpResponse:
    armies = Army.all_objects.for_owner(request.user).in_trash().order_by("-deleted_at")
    units = (
        Unit.all_objects.in_trash()
        .filter(army__owner=request.user, army__deleted_at__isnull=True)
        .select_related("army")
        .order_by("-deleted_at")
    )
    return render(
        request,
        "armies/trash.html",
        {"armies": armies, "units": units, "trash_days": TRASH_DAYS},
    )


@require_POST
@login_required
def army_restore(request: HttpRequest, pk: int) -> HttpResponse:
    army = get_object_or_404(Army.all_objects.for_owner(request.user).in_trash(), pk=pk)
    army.restore()
    messages.success(request, f"Restored {army.name}.")
    return redirect(army)


@require_POST
@login_required
def unit_restore(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    unit = get_object_or_404(Unit.all_objects.in_trash().filter(army=army), pk=unit_pk)
    if _army_is_full(request, army):
        return _to_builder(request, army)
    with transaction.atomic():  # the change and its version together (armies/fragments.py)
        unit.restore()
        army.bump_version()
    if not request.htmx:  # the undo bar's reply shows the unit back in the list
        messages.success(request, f"Restored {unit.name}.")
    return _after_list_change(request, army, selected=unit)


@require_POST
@login_required
def unit_add(request: HttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    unit = _append_unit(request, army, "New unit", 1, dict(profiles.DEFAULT_PROFILES[army.system]))
    return _editor_redirect(army, unit)


def _army_is_full(request: HttpRequest, army: Army, units: int | None = None) -> bool:
    """The file format's unit limit, so every stored army can still be exported and priced."""
    if (army.units.count() if units is None else units) < MAX_UNITS:
        return False
    messages.error(request, f"An army can have at most {MAX_UNITS} units.")
    return True


def _append_unit(
    request: HttpRequest, army: Army, name: str, quantity: int, profile: dict
) -> Unit | None:
    """A new unit at the end of the list; None, with a message, when the army is full."""
    found = army.units.aggregate(units=Count("pk"), last=Max("position"))
    if _army_is_full(request, army, found["units"]):
        return None
    with transaction.atomic():
        unit = Unit.objects.create(
            army=army,
            name=name,
            quantity=quantity,
            profile=profile,
            position=(found["last"] or 0) + 1,
        )
        army.bump_version()
    return unit


def _to_builder(request: HttpRequest, army: Army) -> HttpResponse:
    """Back to the builder page, to show a message just added. An htmx request's reply is
    not shown as a page, so the browser is sent there (HX-Redirect)."""
    if request.htmx:
        return HttpResponseClientRedirect(army.get_absolute_url())
    return redirect(army)


def _editor_redirect(army: Army, unit: Unit | StoredUnit | None) -> HttpResponse:
    """Back to the builder, with `unit` open in the editor."""
    return redirect(army.get_absolute_url() + (f"?unit={unit.pk}#editor" if unit else ""))


@require_POST
@login_required
def unit_update(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    units = army.stored_units()
    unit = _selected(units, unit_pk)
    if unit is None:
        raise Http404("No such unit in this army")
    form = UnitForm(army.system, request.POST, unit=unit)
    saved = form.is_valid()
    # Priced before the save too, to send back only the rows whose issues it changes.
    before = army.price(units) if saved and request.htmx else None
    if saved:
        name, quantity = form.cleaned_data["name"], form.cleaned_data["quantity"]
        # The claim and the save commit together: a page drawn in between would be
        # remembered under the new version with the old unit (armies/fragments.py).
        with transaction.atomic():
            claimed = _claim_version(request, army)
            if claimed:
                update_one(
                    Unit, unit.pk, {"name": name, "quantity": quantity, "profile": form.profile}
                )
        if not claimed:
            return _unit_conflict(request, army, unit, form)
        edited = StoredUnit(unit.pk, name, quantity, json.dumps(form.profile))
        units = [edited if u is unit else u for u in units]
        army.remember_units(units)  # the next save starts from them
        unit = edited
        if not request.htmx:
            messages.success(request, f"Saved {unit.name}.")
            return _editor_redirect(army, unit)
    # Re-price the whole army: totals and rule errors depend on every unit.
    context = _builder_context(army, units, selected=unit, editor=form, saved=saved)
    if request.htmx:
        context["changed_rows"] = _changed_rows(context["state"], before)
        return render(request, "armies/builder.html#unit-saved", context)
    return render(request, "armies/builder.html", context, status=400)


# --- Edits from a stale page --------------------------------------------------------
# Every editing form posts the army version its page was rendered from (builder.js keeps
# it current between htmx saves). Claiming the next version is one UPDATE ... WHERE
# version = posted, so of two tabs saving from the same version exactly one wins, on
# SQLite and PostgreSQL alike; the other is shown the current values and its own.


def _claim_version(request: HttpRequest, army: Army) -> bool:
    try:
        seen = int(request.POST.get("version", ""))
    except ValueError:
        return False
    return army.bump_version(seen)


def _typed_values(form) -> list[tuple[str, str]]:
    """What the player typed that differs from the stored values, as (label, value).

    `form` is bound to what was posted with the values stored now as its initial ones.
    """
    typed = []
    for name in form.changed_data:
        field = form[name]
        if isinstance(field.field, forms.BooleanField):
            value = "ticked" if field.data else "not ticked"
        else:
            value = ", ".join(form.data.getlist(name)) or "(empty)"
        # A row's fields share labels ("OFF"): its aria-label says which row.
        typed.append((field.field.widget.attrs.get("aria-label") or str(field.label), value))
    return typed


def _unit_conflict(request: HttpRequest, army: Army, unit: StoredUnit, form) -> HttpResponse:
    army.refresh_from_db()
    units = army.stored_units()
    current = _selected(units, unit.pk)
    if current is None:
        messages.error(request, f"Not saved: {unit.name} was deleted in another tab or device.")
        response = _to_builder(request, army)
        if request.htmx:
            response.status_code = 409  # refused: the save did not happen
        return response
    fresh = UnitForm(army.system, unit=current)
    context = _builder_context(
        army,
        units,
        selected=current,
        editor=fresh,
        # Against the values stored now, which may have moved on since `form` was built.
        conflict=_typed_values(UnitForm(army.system, form.data, unit=current)),
    )
    template = "armies/builder.html#unit-conflict" if request.htmx else "armies/builder.html"
    return render(request, template, context, status=409)


@require_GET
@login_required
def unit_breakdown(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    """How one unit's price is worked out, fetched when its row's "how?" is opened."""
    army = army_for_owner(request, pk)
    found = army.units.filter(pk=unit_pk).stored()
    if not found:
        raise Http404("No such unit in this army")
    if not request.htmx:
        return _editor_redirect(army, found[0])
    # A unit's price depends on its own stat line only: price it alone.
    return HttpResponse(breakdown(army.price(found).units[0]))


@require_POST
@login_required
def unit_duplicate(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    unit = get_object_or_404(army.units, pk=unit_pk)
    name = f"{unit.name} (copy)"[:MAX_NAME]
    duplicate = _append_unit(request, army, name, unit.quantity, unit.profile)
    if duplicate is None:
        return _to_builder(request, army)
    return _after_list_change(request, army, selected=duplicate)


@require_POST
@login_required
def unit_move(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    units = list(army.units.all())
    index = next((i for i, u in enumerate(units) if u.pk == unit_pk), None)
    if index is None:
        raise Http404("No such unit in this army")
    other = index - 1 if request.POST.get("direction") == "up" else index + 1
    if 0 <= other < len(units):
        units[index], units[other] = units[other], units[index]
        with transaction.atomic():
            for position, unit in enumerate(units, start=1):
                if unit.position != position:
                    unit.position = position
                    unit.save(update_fields=["position"])
            army.bump_version()
    return _after_list_change(request, army)


@require_POST
@login_required
def unit_delete(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    unit = get_object_or_404(army.units, pk=unit_pk)
    with transaction.atomic():
        unit.trash()
        army.bump_version()
    if not request.htmx:
        messages.success(request, f"Moved {unit.name} to the trash.")
    return _after_list_change(request, army, undo=unit)


def _after_list_change(
    request: HttpRequest, army: Army, selected: Unit | None = None, undo: Unit | None = None
) -> HttpResponse:
    if not request.htmx:
        return _editor_redirect(army, selected)
    context = _builder_context(army, undo=undo)
    return render(request, "armies/builder.html#list-changed", context)


# --- Homebrew library -------------------------------------------------------------


def _entry_for_owner(request: HttpRequest, pk: int) -> LibraryEntry:
    return get_object_or_404(LibraryEntry.objects.for_owner(request.user), pk=pk)


def _library_form(kind: str, system: str, data=None, entry=None):
    if kind == LibraryEntry.Kind.FIGURE:
        return LibraryFigureForm(system, data, entry=entry)
    return LibraryPartForm(kind, data, entry=entry)


def _library_system(kind: str, system: str) -> str:
    if kind in PARTS:
        return PARTS[kind].system
    if system not in points.SYSTEMS:
        raise Http404("Unknown system")
    return system


@login_required
def library(request: HttpRequest) -> HttpResponse:
    entries = LibraryEntry.objects.for_owner(request.user)
    return render(
        request, "armies/library.html", {"entries": entries, "systems": points.SYSTEMS.items()}
    )


@login_required
def library_new(request: HttpRequest, kind: str, system: str = "") -> HttpResponse:
    if kind not in LibraryEntry.Kind.values:
        raise Http404("Unknown kind of library entry")
    system = _library_system(kind, system)
    form = _library_form(kind, system, request.POST or None)
    if request.method == "POST" and form.is_valid():
        LibraryEntry.objects.create(
            owner=request.user,
            kind=kind,
            system=system,
            name=form.cleaned_data["name"],
            data=form.profile if kind == LibraryEntry.Kind.FIGURE else form.data_dict,
        )
        messages.success(request, f"Added {form.cleaned_data['name']} to your library.")
        return redirect("library:list")
    return render(
        request,
        "armies/library_form.html",
        {"form": form, "kind": LibraryEntry.Kind(kind), "system": points.SYSTEMS[system]},
        status=_form_status(request),
    )


@login_required
def library_edit(request: HttpRequest, pk: int) -> HttpResponse:
    entry = _entry_for_owner(request, pk)
    form = _library_form(entry.kind, entry.system, request.POST or None, entry=entry)
    if request.method == "POST" and form.is_valid():
        entry.name = form.cleaned_data["name"]
        entry.data = form.profile if entry.kind == LibraryEntry.Kind.FIGURE else form.data_dict
        entry.save()
        messages.success(request, f"Saved {entry.name}. Armies that used it keep their own copy.")
        return redirect("library:list")
    return render(
        request,
        "armies/library_form.html",
        {
            "form": form,
            "entry": entry,
            "kind": LibraryEntry.Kind(entry.kind),
            "system": points.SYSTEMS[entry.system],
        },
        status=_form_status(request),
    )


@require_POST
@login_required
def library_delete(request: HttpRequest, pk: int) -> HttpResponse:
    entry = _entry_for_owner(request, pk)
    entry.delete()
    messages.success(request, f"Removed {entry.name} from your library.")
    return redirect("library:list")


def _posted_entry(request: HttpRequest) -> int:
    """The library entry a form posted: anything but an id finds nothing, like a stale one."""
    pk = ascii_int(request.POST.get("entry"), 18)
    if pk is None:
        raise Http404("No such library entry")
    return pk


@require_POST
@login_required
def unit_add_from_library(request: HttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    entry = get_object_or_404(
        LibraryEntry.objects.for_owner(request.user).filter(kind="figure", system=army.system),
        pk=_posted_entry(request),
    )
    unit = _append_unit(request, army, entry.name, 1, dict(entry.data))
    if unit is not None:
        messages.success(request, f"Added a copy of {entry.name}.")
    return _editor_redirect(army, unit)


@require_POST
@login_required
def unit_add_part(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    """Copy a library weapon (GEM) or trait (VSGMR) onto one unit."""
    army = army_for_owner(request, pk)
    unit = get_object_or_404(army.units, pk=unit_pk)
    entry = get_object_or_404(
        LibraryEntry.objects.for_owner(request.user)
        .exclude(kind="figure")
        .filter(system=army.system),
        pk=_posted_entry(request),
    )
    key = PARTS[entry.kind].profile_key
    part = {"name": entry.name, **entry.data}
    profile = {**unit.profile, key: [*unit.profile.get(key, []), part]}
    try:
        points.SYSTEMS[army.system].parse_profile(profile, "profile")
    except points.ArmyFileError as exc:
        messages.error(request, f"Could not add {entry.name}: {exc}")
    else:
        unit.profile = profile
        with transaction.atomic():
            unit.save(update_fields=["profile"])
            army.bump_version()
        messages.success(request, f"Added {entry.name} to {unit.name}.")
    return _editor_redirect(army, unit)
