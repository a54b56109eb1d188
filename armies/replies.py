"""Answers several builder pages give alike: back to the builder with a message, the
army version a form posted, adding a unit, an edit refused because its page was stale.
Plain functions of the request, so every page module can use them without importing
another page module."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django_htmx.http import HttpResponseClientRedirect

from accounts.http import HtmxHttpRequest
from armies import drawing, services
from armies.forms import UnitForm
from armies.models import Army, Unit
from armies.services import ArmyFull, StaleVersion, UnitSpec
from points.armyfile import MAX_UNITS
from points.fields import MAX_NAME
from points.numbers import ascii_int


def posted_version(request: HtmxHttpRequest) -> int:
    """The version (of an army, or a library entry) the posting page was drawn from; a
    post without one is stale."""
    version = ascii_int(request.POST.get("version"), 9)
    return -1 if version is None else version


def say_if_renamed(request: HtmxHttpRequest, army: Army, wanted: str) -> None:
    """Tell the player when a copied army (an import, a sample) is not named as its file
    said: the owner already has an army of that name, so a number was added (distinct_name),
    and a name too long for the number too was shortened to make room."""
    if army.name == wanted:
        return
    message = gettext(
        "You already have an army named “{wanted}”, so this one is named “{name}”."
    ).format(wanted=wanted, name=army.name)
    number = services.COPY_NUMBER.search(army.name)
    cut = len(services.COPY_NUMBER.sub("", wanted)) - number.start() if number else 0
    if cut > 0:
        message += " " + ngettext(
            "Its name lost its last character to make room for the number: a name "
            "holds at most {most}. Rename it in the army's settings if you like.",
            "Its name lost its last {cut} characters to make room for the number: a name "
            "holds at most {most}. Rename it in the army's settings if you like.",
            cut,
        ).format(cut=cut, most=MAX_NAME)
    messages.info(request, message)


def too_many_armies(request: HtmxHttpRequest) -> HttpResponse:
    """Back to the army list, saying why no army was made, imported or restored."""
    messages.error(request, str(services.TooManyArmies()))
    return redirect("armies:list")


def add_unit(request: HtmxHttpRequest, army: Army, spec: UnitSpec, done: str = "") -> HttpResponse:
    """Add a unit at the end of the list and open it in the editor."""
    try:
        unit = services.add_units(army, [spec], posted_version(request))[0]
    except ArmyFull:
        return army_full(request, army)
    except StaleVersion:
        return list_conflict(request, army)
    if done:
        messages.success(request, done)
    return editor_redirect(army, unit)


def army_full(request: HtmxHttpRequest, army: Army) -> HttpResponse:
    messages.error(
        request,
        gettext(
            "An army can have at most {most} units: delete one (or raise a unit's quantity) "
            "before adding another."
        ).format(most=MAX_UNITS),
    )
    return to_builder(request, army)


def list_conflict(request: HtmxHttpRequest, army: Army) -> HttpResponse:
    messages.error(
        request,
        gettext(
            "Not done: this army was changed in another tab or device. This is the army as it "
            "is now; try again."
        ),
    )
    response = to_builder(request, army)
    if request.htmx:
        response.status_code = 409
    return response


def to_builder(request: HtmxHttpRequest, army: Army) -> HttpResponse:
    """Back to the builder page, to show a message just added. An htmx request's reply is
    not shown as a page, so the browser is sent there (HX-Redirect)."""
    if request.htmx:
        return HttpResponseClientRedirect(army.get_absolute_url())
    return redirect(army)


def editor_redirect(army: Army, unit: Unit | None) -> HttpResponse:
    """Back to the builder, with `unit` open in the editor."""
    return redirect(army.get_absolute_url() + (f"?unit={unit.pk}#editor" if unit else ""))


# --- Edits from a stale page --------------------------------------------------------
# Every editing form posts the army version its page was drawn from (builder.js keeps it
# current between htmx saves). services.changing() refuses a write whose version is no
# longer the army's, so of two tabs saving from the same version exactly one wins, on
# SQLite and PostgreSQL alike; the other is shown the current values and its own.


def typed_values(form) -> list[tuple[str, str]]:
    """What the player typed that differs from the stored values, as (label, value).

    `form` is bound to what was posted with the values stored now as its initial ones.
    """
    typed = []
    for name in form.changed_data:
        field = form[name]
        if isinstance(field.field, forms.BooleanField):
            value = gettext("ticked") if field.data else gettext("not ticked")
        else:
            value = ", ".join(form.data.getlist(name)) or gettext("(empty)")
        # A row's fields share labels ("OFF"): its aria-label says which row.
        typed.append((field.field.widget.attrs.get("aria-label") or str(field.label), value))
    return typed


def unit_conflict(request: HtmxHttpRequest, army: Army, unit: Unit, form) -> HttpResponse:
    army.refresh_from_db()
    current = army.units.filter(pk=unit.pk).first()
    if current is None:
        messages.error(
            request,
            gettext(
                "Not saved: {name} was deleted in another tab or device. Restore it from the "
                "trash to keep editing it."
            ).format(name=unit.name),
        )
        response = to_builder(request, army)
        if request.htmx:
            response.status_code = 409  # refused: the save did not happen
        return response
    fresh = UnitForm(army.system, unit=current)
    context = drawing.builder_context(
        army,
        selected=current,
        editor=fresh,
        # Against the values stored now, which may have moved on since `form` was built.
        conflict=typed_values(UnitForm(army.system, form.data, unit=current)),
    )
    template = "armies/builder.html#unit-conflict" if request.htmx else "armies/builder.html"
    return render(request, template, context, status=409)
