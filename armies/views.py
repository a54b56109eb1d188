from __future__ import annotations

import copy
from fractions import Fraction

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

import points
from accounts.http import HtmxHttpRequest
from armies import drawing, services
from armies.access import army_for_owner, unit_for_owner
from armies.forms import (
    PARTS,
    ArmyForm,
    ArmyOptionsForm,
    ImportForm,
    LibraryD10WeaponForm,
    LibraryFigureForm,
    LibraryPartForm,
    UnitForm,
    dumps_army,
)
from armies.models import MAX_LIBRARY, TRASH_DAYS, Army, LibraryEntry, Unit
from armies.replies import (
    add_unit,
    army_full,
    editor_redirect,
    list_conflict,
    posted_version,
    say_if_renamed,
    to_builder,
    too_many_armies,
    typed_values,
    unit_conflict,
)
from armies.services import (
    ArmyFull,
    ImportLimit,
    StaleVersion,
    TooManyArmies,
    UnitSpec,
    create_army_from_file,
)
from armies.state import rows
from points.fields import fmt
from points.model import Army as ArmyFile
from points.numbers import ascii_int
from rules.models import SampleArmy
from rules.systems import DEFAULT_SYSTEM, system_of_kind


@login_required
def army_new(request: HtmxHttpRequest) -> HttpResponse:
    form = ArmyForm(
        request.POST or None, initial={"system": request.GET.get("system", DEFAULT_SYSTEM)}
    )
    if request.method == "POST" and form.is_valid():
        try:
            army = services.create_army(
                request.user, **{f: form.cleaned_data[f] for f in form.Meta.fields}
            )
        except TooManyArmies:
            return too_many_armies(request)
        messages.success(
            request, gettext("{name} is ready: add your first unit.").format(name=army.name)
        )
        return redirect(army)
    return render(
        request,
        "armies/army_new.html",
        {"form": form, "samples": _samples()},
        status=_form_status(request),
    )


def _form_status(request: HtmxHttpRequest) -> int:
    """A form page's status: 400 when it comes back refused (it was posted and not
    saved, or the view would have redirected), 200 when it is shown to be filled in."""
    return 400 if request.method == "POST" else 200


def _samples():
    return SampleArmy.objects.order_by("system", "position", "name")


@require_POST
@login_required
def army_from_sample(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    sample = get_object_or_404(SampleArmy, slug=slug)
    try:
        army = create_army_from_file(
            request.user, points.load(sample.army), origin=Army.Origin.SAMPLE
        )
    except TooManyArmies:
        return too_many_armies(request)
    messages.success(
        request,
        gettext("{name} copied from the sample armies: it is yours to change.").format(
            name=army.name
        ),
    )
    say_if_renamed(request, army, sample.army["name"])
    if request.htmx:  # from an empty army's list, whose buttons post through htmx
        return HttpResponseClientRedirect(army.get_absolute_url())
    return redirect(army)


@login_required
def army_import(request: HtmxHttpRequest) -> HttpResponse:
    refused = None
    if request.method == "POST":
        try:  # before the file is read: an import refused for the hour costs next to nothing
            services.check_import_room(request.user)
        except ImportLimit as limit:
            refused = limit
    form = ImportForm(
        request.POST or None, request.FILES or None, refused=str(refused) if refused else ""
    )
    if request.method == "POST" and form.is_valid():
        try:
            army = services.import_army(
                request.user, form.cleaned_data["army"], form.cleaned_data["profiles"]
            )
        except TooManyArmies:
            return too_many_armies(request)
        except ImportLimit as limit:
            refused = limit
            form.refuse(str(limit))
        else:
            return _imported(request, army, form.cleaned_data["army"])
    response = render(
        request, "armies/army_import.html", {"form": form}, status=_form_status(request)
    )
    if refused is not None:
        response.status_code = 429
        response["Retry-After"] = str(refused.wait)
    return response


def _imported(request: HtmxHttpRequest, army: Army, read: ArmyFile) -> HttpResponse:
    """To the imported army, saying so (and when it was renamed beside a same-named army,
    or the file was priced under other rules)."""
    messages.success(request, gettext("Imported {name}.").format(name=army.name))
    say_if_renamed(request, army, read.name)
    was = read.rules_version
    if was and was != army.rules_version:
        messages.warning(
            request,
            gettext(
                "The file was priced under rules {was}; Muster prices it under {now} today, "
                "so its total here is {total}. "
                "The file carries no prices of its own to compare unit by unit."
            ).format(was=was, now=army.rules_version, total=fmt(Fraction(army.total))),
        )
    return redirect(army)


@login_required
def army_export(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    response = HttpResponse(dumps_army(army.to_file()), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{army.file_name("json")}"'
    return response


@login_required
def builder(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _builder_page(request, army_for_owner(request, pk))


def _builder_page(
    request: HtmxHttpRequest, army: Army, settings_open: bool = False
) -> HttpResponse:
    unit_id = ascii_int(request.GET.get("unit"), 18)  # a typo or a fuzzer opens no unit
    selected = army.units.filter(pk=unit_id).first() if unit_id else None
    editor = UnitForm(army.system, unit=selected) if selected else None
    context = drawing.builder_context(
        army,
        selected=selected,
        editor=editor,
        # The settings form usually stays closed: it loads when opened (army_settings
        # GET), inline only when asked for.
        settings_open=settings_open,
        settings_form=ArmyForm(instance=army) if settings_open else None,
        options_form=_options_form(army) if settings_open else None,
    )
    template = "armies/builder.html"
    if request.htmx and request.htmx.target == "editor":
        template += "#editor"
    return render(request, template, context)


def _options_form(army: Army, data=None) -> ArmyOptionsForm | None:
    if not army.game_system.army_options:
        return None
    return ArmyOptionsForm(data, initial=army.options or {})


@require_http_methods(["GET", "POST"])
@login_required
def army_settings(request: HtmxHttpRequest, pk: int) -> HttpResponse:
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
        changes = {field: form.cleaned_data[field] for field in form.fields}
        if options_form is not None:
            changes["options"] = options_form.options()
        try:
            services.save_settings(army, changes, posted_version(request))
        except StaleVersion:
            return _settings_conflict(request, army)
        if not request.htmx:
            messages.success(request, gettext("Army settings saved."))
            return redirect(army)
    context = drawing.builder_context(
        army, settings_form=form, options_form=options_form, settings_open=True
    )
    if request.htmx:
        return render(request, "armies/builder.html#settings-saved", context)
    return render(request, "armies/builder.html", context, status=200 if valid else 400)


def _settings_conflict(request: HtmxHttpRequest, army: Army) -> HttpResponse:
    army.refresh_from_db()
    fresh, fresh_options = ArmyForm(instance=army), _options_form(army)
    typed = typed_values(ArmyForm(request.POST, instance=army))
    if fresh_options is not None:
        typed += typed_values(_options_form(army, request.POST))
    context = drawing.builder_context(
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
def accept_rules(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    try:
        services.accept_rules(army, posted_version(request))
    except StaleVersion:
        return list_conflict(request, army)
    messages.success(
        request,
        gettext("{name} is now priced under {rules}.").format(
            name=army.name, rules=army.rules_version
        ),
    )
    return redirect(army)


@require_POST
@login_required
def army_delete(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    try:
        name = services.trash_army(request.user, pk)
    except Army.DoesNotExist:
        raise Http404("No such army") from None
    messages.success(
        request,
        ngettext(
            "Moved {name} to the trash: you can restore it for {days} day.",
            "Moved {name} to the trash: you can restore it for {days} days.",
            TRASH_DAYS,
        ).format(name=name, days=TRASH_DAYS),
    )
    return redirect("armies:list")


# --- Trash ---------------------------------------------------------------------------
# Deleting moves an army or unit to its owner's trash; the default managers hide it from
# every page and share link. Restoring puts it back as it was; purge_trash removes what
# has waited longer than TRASH_DAYS.


TRASH_PER_PAGE = 50


@login_required
def trash(request: HtmxHttpRequest) -> HttpResponse:
    # Only what the rows show: an army's stored list row and drawings run to kilobytes.
    armies = (
        Army.all_objects.for_owner(request.user)
        .in_trash()
        .only("pk", "name", "system", "deleted_at")
        .order_by("-deleted_at", "-pk")
    )
    units = (
        Unit.all_objects.in_trash()
        .filter(army__owner=request.user, army__deleted_at__isnull=True)
        .select_related("army")
        .only("pk", "name", "quantity", "deleted_at", "army_id", "army__name")
        .order_by("-deleted_at", "-pk")
    )
    # Each list paged on its own: a page costs the same however much waits in the trash.
    army_page = Paginator(armies, TRASH_PER_PAGE).get_page(request.GET.get("armies"))
    unit_page = Paginator(units, TRASH_PER_PAGE).get_page(request.GET.get("units"))
    context = {
        "armies": army_page,
        "units": unit_page,
        "trash_days": TRASH_DAYS,
        "max_trash": services.MAX_TRASH,
        # A link to another page of one list keeps the other list's page.
        "armies_page": army_page.number,
        "units_page": unit_page.number,
    }
    return render(request, "armies/trash.html", context)


@require_POST
@login_required
def army_restore(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    try:
        name = services.restore_army(request.user, pk)
    except Army.DoesNotExist:
        raise Http404("No such army in your trash") from None
    except TooManyArmies:
        return too_many_armies(request)
    messages.success(request, gettext("Restored {name}.").format(name=name))
    return redirect("armies:builder", pk)


@require_POST
@login_required
def unit_restore(request: HtmxHttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    # From the trash page there is no army version to post: a restore loses nothing.
    seen = posted_version(request) if "version" in request.POST else None

    def restore(army: Army, _: int) -> HttpResponse:
        unit = services.restore_unit(army, unit_pk, seen)
        if not request.htmx:  # the undo bar's reply shows the unit back in the list
            messages.success(request, gettext("Restored {name}.").format(name=unit.name))
        return _after_list_change(request, army, selected=unit)

    return _list_action(request, pk, unit_pk, restore)


@require_POST
@login_required
def unit_add(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    profile = dict(army.system_pages.default_profile)
    return add_unit(request, army, UnitSpec(gettext("New unit"), 1, profile))


@require_POST
@login_required
def unit_update(request: HtmxHttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    unit = unit_for_owner(request, pk, unit_pk)
    army = unit.army
    seen = posted_version(request)
    form = UnitForm(army.system, request.POST, unit=unit)
    saved = form.is_valid()
    before = army.issues
    if saved:
        spec = UnitSpec(form.cleaned_data["name"], form.cleaned_data["quantity"], form.profile)
        try:
            unit = services.edit_unit(army, unit, spec, seen)
        except (StaleVersion, Unit.DoesNotExist):
            return unit_conflict(request, army, unit, form)
        if not request.htmx:
            messages.success(request, gettext("Saved {name}.").format(name=unit.name))
            return editor_redirect(army, unit)
    context = drawing.builder_context(army, selected=unit, editor=form, saved=saved)
    if request.htmx:
        context["changed_rows"] = drawing.changed_rows(army, unit, before) if saved else []
        # A new type or kind brings other fields: the editor is drawn again for it.
        shown_for = request.POST.get("shown_for")
        context["redraw_editor"] = shown_for is not None and shown_for != (form.switch_value or "")
        return render(request, "armies/builder.html#unit-saved", context)
    return render(request, "armies/builder.html", context, status=400)


@require_GET
@login_required
def unit_breakdown(request: HtmxHttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    """How one unit's price is worked out and what can be done with it, fetched when its
    row's "More" is opened."""
    unit = unit_for_owner(request, pk, unit_pk)
    army = unit.army
    if not request.htmx:
        return editor_redirect(army, unit)
    # With the row's actions (move, duplicate, delete), which its stored drawing leaves out.
    (row,) = rows(army, army.priced([unit]))
    return render(request, "armies/builder.html#unit-opened", {"row": row})


def _list_action(request: HtmxHttpRequest, pk: int, unit_pk: int, action) -> HttpResponse:
    """A change to the unit list (duplicate, move, delete): `action(army, seen)`."""
    army = army_for_owner(request, pk)
    try:
        done = action(army, posted_version(request))
    except Unit.DoesNotExist:
        raise Http404("No such unit in this army") from None
    except ArmyFull:
        return army_full(request, army)
    except StaleVersion:
        return list_conflict(request, army)
    return done


@require_POST
@login_required
def unit_duplicate(request: HtmxHttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    def duplicate(army: Army, seen: int) -> HttpResponse:
        copy_ = services.duplicate_unit(army, unit_pk, seen)
        return _after_list_change(request, army, selected=copy_)

    return _list_action(request, pk, unit_pk, duplicate)


@require_POST
@login_required
def unit_move(request: HtmxHttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    direction = request.POST.get("direction")

    def move(army: Army, seen: int) -> HttpResponse:
        if direction == "to":  # "Move to position" or a drag and drop
            place = ascii_int(request.POST.get(f"to-{unit_pk}", "").strip(), 4)
            if place is None:
                messages.error(
                    request, gettext("Type a position from 1 to the number of units, then Move.")
                )
                return to_builder(request, army)
            services.move_unit_to(army, unit_pk, place, seen)
        else:
            services.move_unit(army, unit_pk, direction == "up", seen)
        return _after_list_change(request, army)

    return _list_action(request, pk, unit_pk, move)


@require_POST
@login_required
def unit_quantity(request: HtmxHttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    """The row's − and + buttons: one model fewer or more, saved like an editor save."""
    step = -1 if request.POST.get("step") == "-1" else 1

    def change(army: Army, seen: int) -> HttpResponse:
        before = army.issues
        unit = services.step_quantity(army, unit_pk, step, seen)
        if not request.htmx:
            return redirect(f"{army.get_absolute_url()}#unit-{unit.pk}")
        # The unit open in the editor (builder.js sends which) is drawn again with the new
        # quantity, so its next save does not put the old one back.
        is_open = ascii_int(request.POST.get("open"), 18) == unit.pk
        context = drawing.builder_context(
            army,
            selected=unit if is_open else None,
            editor=UnitForm(army.system, unit=unit) if is_open else None,
            changed_rows=drawing.changed_rows(army, unit, before, selected=is_open),
        )
        return render(request, "armies/builder.html#quantity-changed", context)

    return _list_action(request, pk, unit_pk, change)


@require_POST
@login_required
def unit_delete(request: HtmxHttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    def delete(army: Army, seen: int) -> HttpResponse:
        unit = services.trash_unit(army, unit_pk, seen)
        if not request.htmx:
            messages.success(request, gettext("Moved {name} to the trash.").format(name=unit.name))
        return _after_list_change(request, army, undo=unit)

    return _list_action(request, pk, unit_pk, delete)


def _after_list_change(
    request: HtmxHttpRequest, army: Army, selected: Unit | None = None, undo: Unit | None = None
) -> HttpResponse:
    if not request.htmx:
        return editor_redirect(army, selected)
    context = drawing.builder_context(army, undo=undo)
    return render(request, "armies/builder.html#list-changed", context)


# --- Homebrew library -------------------------------------------------------------

LIBRARY_PER_PAGE = 50


def _entry_for_owner(request: HtmxHttpRequest, pk: int) -> LibraryEntry:
    return get_object_or_404(LibraryEntry.objects.for_owner(request.user), pk=pk)


def _library_form(kind: str, system: str, data=None, entry=None):
    if kind == LibraryEntry.Kind.FIGURE:
        return LibraryFigureForm(system, data, entry=entry)
    if kind == LibraryEntry.Kind.D10_WEAPON:
        return LibraryD10WeaponForm(data, entry=entry)
    return LibraryPartForm(kind, data, entry=entry)


def _library_system(kind: str, system: str) -> str:
    kept_by = system_of_kind(kind)  # a weapon or trait belongs to one system
    if kept_by is not None:
        return kept_by
    if system not in points.SYSTEMS:
        raise Http404("Unknown system")
    return system


@login_required
def library(request: HtmxHttpRequest) -> HttpResponse:
    entries = LibraryEntry.objects.for_owner(request.user)
    page = Paginator(entries, LIBRARY_PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "page": page,
        "entries": list(page),
        "count": page.paginator.count,
        "max_library": MAX_LIBRARY,
        "systems": points.SYSTEMS.items(),
    }
    return render(request, "armies/library.html", context)


@login_required
def library_new(request: HtmxHttpRequest, kind: str, system: str = "") -> HttpResponse:
    if kind not in LibraryEntry.Kind.values:
        raise Http404("Unknown kind of library entry")
    system = _library_system(kind, system)
    form = _library_form(kind, system, request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.profile if kind == LibraryEntry.Kind.FIGURE else form.data_dict
        try:
            services.add_library_entry(request.user, kind, system, form.cleaned_data["name"], data)
        except services.LibraryFull as full:
            form.add_error(None, full.message)  # what was typed stays in the form
        else:
            messages.success(
                request,
                gettext("Added {name} to your library.").format(name=form.cleaned_data["name"]),
            )
            return redirect("library:list")
    return render(
        request,
        "armies/library_form.html",
        {"form": form, "kind": LibraryEntry.Kind(kind), "system": points.SYSTEMS[system]},
        status=_form_status(request),
    )


@login_required
def library_edit(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    entry = _entry_for_owner(request, pk)
    form = _library_form(entry.kind, entry.system, request.POST or None, entry=entry)
    # The page posts the version it was drawn at, and keeps it until a save goes through.
    version = posted_version(request) if request.method == "POST" else entry.version
    status = _form_status(request)
    if request.method == "POST" and form.is_valid():
        data = form.profile if entry.kind == LibraryEntry.Kind.FIGURE else form.data_dict
        try:
            services.save_library_entry(entry, form.cleaned_data["name"], data, version)
        except StaleVersion:
            # What was typed stays in the form; the next Save replaces what is there now.
            entry.refresh_from_db()
            version, status = entry.version, 409
            form.add_error(
                None,
                _changed_elsewhere(
                    entry,
                    gettext("Not saved"),
                    gettext(
                        "What you typed is kept below: Save again to replace the entry with "
                        "it, or Cancel to keep it as it is."
                    ),
                ),
            )
        else:
            messages.success(
                request,
                gettext("Saved {name}. Armies that used it keep their own copy.").format(
                    name=entry.name
                ),
            )
            return redirect("library:list")
    return render(
        request,
        "armies/library_form.html",
        {
            "form": form,
            "entry": entry,
            "version": version,
            "kind": LibraryEntry.Kind(entry.kind),
            "system": points.SYSTEMS[entry.system],
        },
        status=status,
    )


@require_POST
@login_required
def library_delete(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    entry = _entry_for_owner(request, pk)
    try:
        services.delete_library_entry(entry, posted_version(request))
    except StaleVersion:
        entry.refresh_from_db()
        messages.error(
            request,
            _changed_elsewhere(
                entry,
                gettext("Not deleted"),
                gettext("Delete it again if you still want it gone."),
            ),
        )
    else:
        messages.success(
            request, gettext("Removed {name} from your library.").format(name=entry.name)
        )
    return redirect("library:list")


def _changed_elsewhere(entry: LibraryEntry, refused: str, then: str) -> str:
    """Why a save or delete of a library entry was refused: the page was drawn before
    another tab's change, read again into `entry`."""
    return gettext(
        "{refused}: this entry was changed in another tab or device since this page was "
        "opened (it is called {name} now). {then}"
    ).format(refused=refused, name=entry.name, then=then)


def _posted_entry(request: HtmxHttpRequest) -> int:
    """The library entry a form posted: anything but an id finds nothing, like a stale one."""
    pk = ascii_int(request.POST.get("entry"), 18)
    if pk is None:
        raise Http404("No such library entry")
    return pk


@require_POST
@login_required
def unit_add_from_library(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    entry = get_object_or_404(
        LibraryEntry.objects.for_owner(request.user).filter(kind="figure", system=army.system),
        pk=_posted_entry(request),
    )
    spec = UnitSpec(entry.name, 1, dict(entry.data))
    return add_unit(
        request, army, spec, done=gettext("Added a copy of {name}.").format(name=entry.name)
    )


@require_POST
@login_required
def unit_add_part(request: HtmxHttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    """Copy a library weapon (GEM, d10) or trait (VSGMR) onto one unit."""
    unit = unit_for_owner(request, pk, unit_pk)
    army = unit.army
    entry = get_object_or_404(
        LibraryEntry.objects.for_owner(request.user)
        .exclude(kind="figure")
        .filter(system=army.system),
        pk=_posted_entry(request),
    )
    if entry.kind == LibraryEntry.Kind.D10_WEAPON:
        key, part = "weapons", entry.name  # a d10 unit's weapons are names
    else:
        key, part = PARTS[entry.kind].profile_key, {"name": entry.name, **entry.data}
    try:
        services.add_part(army, unit, key, part, posted_version(request))
    except points.ArmyFileError as exc:
        messages.error(
            request, gettext("Could not add {name}: {why}").format(name=entry.name, why=exc)
        )
    except (StaleVersion, Unit.DoesNotExist):
        return list_conflict(request, army)
    else:
        messages.success(
            request,
            gettext("Added {part} to {unit}.").format(part=entry.name, unit=unit.name),
        )
    return editor_redirect(army, unit)
