"""An army as its pages show it, each part read from stored rows when a template first
asks for it: the summary from the army row alone, the unit list from each unit's stored
drawing (armies/drawing.py) in one query."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, partial

from django.db.models import Q

from armies import profiles
from armies.freshness import is_current
from armies.models import (
    Army,
    LibraryEntry,
    StoredPrices,
    StoredUnitPrice,
    Unit,
    library_for,
)
from points.messages import text_from_data
from points.model import Issue
from rules.models import SampleArmy


@dataclass
class Row:
    """A unit as the builder shows it: stored values, its price and what is wrong with it."""

    unit: Unit
    priced: StoredUnitPrice
    errors: tuple[Issue, ...]
    warnings: tuple[Issue, ...]
    url: str = ""  # the unit's own URLs start here: …/units/<pk>/
    army_url: str = ""  # the builder's: opening the unit is ?unit=<pk> there
    # The unit open in the editor: its row is drawn for the page, highlighted and with its
    # actions (move, duplicate, delete) in place; every other row is its stored drawing.
    selected: bool = False

    @property
    def group(self) -> str:
        """The unit's type (GEM) or kind (other systems), as the list groups it."""
        return profiles.group_label(self.unit.army.system, self.unit.profile)


def rows(
    army: Army, priced: StoredPrices, selected_pk: int | None = None, url: str = ""
) -> list[Row]:
    """The rows of `priced`'s units (`url`: the army's builder). Nothing in a row depends
    on its place in the list (first and last are told by CSS), so a row drawn once stays
    right when others move."""
    url = url or army.get_absolute_url()
    return [
        Row(
            pu.stored,
            pu,
            errors,
            warnings,
            url=f"{url}units/{pu.unit.pk}/",
            army_url=url,
            selected=pu.unit.pk == selected_pk,
        )
        for pu, (errors, warnings) in zip(priced.units, priced.issues_by_unit, strict=True)
    ]


class ArmyState:
    """An army as the builder shows it, each part read when first asked for: the summary
    reads only the army row; the unit list reads each unit's stored drawing."""

    def __init__(self, army: Army, selected: Unit | None = None, breakdowns: bool = False):
        self.army, self.selected, self.breakdowns = army, selected, breakdowns
        self._drawn: dict[str, list[tuple[int, str]]] = {}

    def lazy(self, *names: str) -> dict[str, partial]:
        """Context entries for templates, which call them when they first need them."""
        return {name: partial(getattr, self, name) for name in names}

    @cached_property
    def units(self) -> list[Unit]:
        return list(self._unit_query())

    def _unit_query(self):
        units = self.army.units.all()
        # The breakdown is read only where every row shows it (the share page).
        return units if self.breakdowns else units.defer("lines", "exact")

    def drawn(self, field: str) -> list[tuple[int, str]]:
        """Every live unit's id and stored drawing `field` (row_html, shared_html or
        roster_html: armies/drawing.py), in list order, in one query; "" where none is
        stored or another release of the code drew it."""
        if field not in self._drawn:
            found = self.army.units.values_list("pk", field, "drawn_for")
            self._drawn[field] = [
                (pk, html if is_current(drawn_for) else "") for pk, html, drawn_for in found
            ]
        return self._drawn[field]

    @cached_property
    def issues_listed(self) -> tuple[tuple[Issue, ...], tuple[Issue, ...]]:
        """The army's errors and warnings in the order StoredPrices gives them (the army's
        own, then each unit's in list order), reading only the units that have some."""
        mine = self.army.units.filter(
            Q(issues__has_key="errors") | Q(issues__has_key="warnings")
        ).only("pk", "name", "quantity", "issues", "position")
        priced = self.army.priced(list(mine))
        return priced.errors, priced.warnings

    @cached_property
    def summary(self) -> StoredPrices:
        return self.army.priced()

    @cached_property
    def priced(self) -> StoredPrices:
        return self.army.priced(self.units)

    @cached_property
    def selected_row(self) -> Row | None:
        """The row of the unit open in the editor, with the army's issues about it."""
        if self.selected is None:
            return None
        return rows(self.army, self.army.priced([self.selected]), self.selected.pk)[0]

    @cached_property
    def remaining(self):
        limit = self.summary.army.points_limit
        return None if limit is None else limit - self.summary.total

    @cached_property
    def army_errors(self) -> list[Issue]:
        return [e for e in self.summary.army_issues[0] if e.unit is None]

    @cached_property
    def unit_errors(self) -> list[tuple[Unit, Issue]]:
        """Every error about a unit, with the unit it links to: one query for the units
        that have any, and none at all for a legal army."""
        if self.summary.legal:
            return []
        about = {e.unit for e in self.summary.army_issues[0] if e.unit is not None}
        units = self.army.units.filter(Q(issues__has_key="errors") | Q(pk__in=about)).only(
            "pk", "name", "issues", "position"
        )
        found = []
        for unit in units:
            mine = [e for e in self.summary.army_issues[0] if e.unit == unit.pk]
            mine += [
                Issue(e["code"], text_from_data(e["message"]), unit.pk)
                for e in unit.issues.get("errors", [])
            ]
            found += [(unit, e) for e in mine]
        return found

    @cached_property
    def army_warnings(self) -> list[Issue]:
        return [w for w in self.summary.army_issues[1] if w.unit is None]

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
    def samples(self) -> list[SampleArmy]:
        """The sample armies of this army's system, offered while it has no units."""
        return list(SampleArmy.objects.for_system(self.army.system).order_by("position", "name"))

    @cached_property
    def extras(self) -> list[tuple[str, object]]:
        return [
            (key.replace("_", " ").capitalize(), value)
            for key, value in self.summary.extras.items()
            if not isinstance(value, dict | list)
        ]
