"""The "Add unit" picker (issue 19, item 3): start a unit from something, not from nothing.

It lists what the army's system offers ready-made (the figures of its sample armies, the
rules' own unit kinds and worked examples, d10 troopers armed from the set's weapon
table), the owner's library figures and a blank unit, each with its stat line and what it
would cost. The cost is a preview worked out by the engine when the page is drawn; it is
never stored. Adding one goes through the one write path (services.add_units, via
replies.add_unit) with the army version the page was drawn at, like every other change.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from types import SimpleNamespace

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods

import points
from accounts.http import HtmxHttpRequest
from armies import unit_cards
from armies.access import army_for_owner
from armies.models import Army, LibraryEntry, library_for
from armies.replies import add_unit
from armies.services import UnitSpec
from points.armyfile import MAX_QUANTITY
from points.fields import MAX_NAME
from rules.models import SampleArmy
from rules.words import say_error

PER_PAGE = 12
MAX_QUERY = 100  # characters of a search: no figure's name is longer than MAX_NAME


@dataclass(frozen=True)
class Choice:
    """Something a unit can start from: `key` names it in the add form."""

    key: str
    name: str
    source: str  # shown as where it comes from: "Sample: Dwarves", "Rules", "My library"
    profile: dict
    quantity: int = 1
    note: str = ""

    def preview(self, system: str) -> Preview:
        return Preview(self, system)


class Preview:
    """A choice priced by the engine as it would be added, and its stat line as the
    share page shows one (a roster card's detail). Worked out when first drawn."""

    def __init__(self, choice: Choice, system: str):
        self.choice, self.system = choice, system

    @cached_property
    def _priced(self):
        c = self.choice
        try:
            unit = points.load_unit(c.name, c.quantity, c.profile, self.system)
        except points.ArmyFileError as exc:
            return None, say_error(exc).removeprefix("profile.")  # "def: must be between 1 and 10"
        return unit, points.price_unit(self.system, unit)

    @property
    def problem(self) -> str:
        unit, result = self._priced
        return result if unit is None else ""

    @property
    def each(self) -> Fraction | None:
        return None if self._priced[0] is None else self._priced[1].each

    @property
    def cost(self) -> Fraction | None:
        return None if self._priced[0] is None else self._priced[1].cost

    @property
    def errors(self):
        return () if self._priced[0] is None else self._priced[1].errors

    @property
    def detail(self) -> object | None:
        unit, _ = self._priced
        if unit is None:
            return None
        return unit_cards.detail(self.system, SimpleNamespace(unit=unit))


# ---------------------------------------------------------------- the built-in catalog


def _sample_choices(samples) -> list[Choice]:
    """Every figure of the system's sample armies, each once."""
    seen: set[tuple[str, str]] = set()
    choices = []
    for sample in samples:
        for i, unit in enumerate(sample.army.get("units", [])):
            profile = unit.get("profile") or {}
            mark = (unit.get("name", ""), json.dumps(profile, sort_keys=True))
            if mark in seen:
                continue
            seen.add(mark)
            quantity = unit.get("quantity", 1)
            choices.append(
                Choice(
                    f"sample:{sample.slug}:{i}",
                    unit.get("name", "Unit"),
                    gettext("Sample: {army}").format(army=sample.name),
                    profile,
                    quantity if isinstance(quantity, int) and 1 <= quantity <= MAX_QUANTITY else 1,
                )
            )
    return choices


def _library_choices(entries: list[LibraryEntry]) -> list[Choice]:
    return [
        Choice(f"library:{e.pk}", e.name, gettext("My library"), dict(e.data))
        for e in entries
        if e.kind == LibraryEntry.Kind.FIGURE
    ]


SOURCES = {
    "": gettext_lazy("Everything"),
    "rules": gettext_lazy("The rules"),
    "sample": gettext_lazy("Sample armies"),
    "library": gettext_lazy("My library"),
}


def blank(army: Army) -> Choice:
    """A new unit with the system's starting stat line: always offered, above the list."""
    return Choice(
        "blank", gettext("New unit"), gettext("Blank"), dict(army.system_pages.default_profile)
    )


def choices(army: Army) -> list[Choice]:
    """What the picker lists for `army` (blank() apart): two queries (samples, library)."""
    samples = SampleArmy.objects.for_system(army.system).only("slug", "name", "army")
    return [
        *(Choice(*start) for start in army.system_pages.starts()),
        *_sample_choices(samples),
        *_library_choices(library_for(army.owner_id, army.system)),
    ]


def _matching(found: list[Choice], query: str, source: str) -> list[Choice]:
    if source:
        found = [c for c in found if c.key.startswith(f"{source}:")]
    if query:
        words = query.casefold().split()
        found = [c for c in found if all(w in f"{c.name} {c.source}".casefold() for w in words)]
    return found


# ---------------------------------------------------------------- the view


@require_http_methods(["GET", "POST"])
@login_required
def pick(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    if request.method == "POST":
        return _add_choice(request, army)
    query = request.GET.get("q", "")[:MAX_QUERY].strip()
    source = request.GET.get("source", "")
    if source not in SOURCES:
        source = ""
    found = _matching(choices(army), query, source)
    page = Paginator(found, PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "army": army,
        "blank": blank(army).preview(army.system),
        "page": page,
        "previews": [c.preview(army.system) for c in page],
        "query": query,
        "source": source,
        "sources": SOURCES.items(),
        "count": len(found),
    }
    template = "armies/picker.html"
    if request.htmx:
        template += "#picker"
    return render(request, template, context)


def _add_choice(request: HtmxHttpRequest, army: Army) -> HttpResponse:
    key = request.POST.get("choice", "")
    if key == "blank":
        choice: Choice | None = blank(army)
    else:
        choice = next((c for c in choices(army) if c.key == key), None) if len(key) < 200 else None
    if choice is None:
        raise Http404("No such choice for this army")
    problem = choice.preview(army.system).problem
    if problem:  # a library figure saved under older rules, say: say so, add nothing
        messages.error(
            request, gettext("Could not add {name}: {why}").format(name=choice.name, why=problem)
        )
        return redirect("armies:unit-pick", army.pk)
    name = choice.name[:MAX_NAME]
    spec = UnitSpec(name, choice.quantity, dict(choice.profile))
    done = gettext("Added {name}: change it as you like.").format(name=name)
    return add_unit(request, army, spec, done=done)
