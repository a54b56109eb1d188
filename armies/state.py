"""What the builder, the share page and the roster draw from: an army's stored state,
each part read when first asked for (ArmyState), and the builder's rows and context."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property, partial

from django.db.models import Q

from armies import latest_roll, profiles
from armies.models import (
    TRASH_DAYS,
    Army,
    LibraryEntry,
    StoredPrices,
    StoredUnitPrice,
    Unit,
    library_for,
)
from points.armyfile import MAX_UNITS
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
    first: bool = False
    last: bool = False
    selected: bool = False

    @property
    def group(self) -> str:
        """The unit's type (GEM) or kind (other systems), as the list groups it."""
        return profiles.group_label(self.unit.army.system, self.unit.profile)


def rows_for(
    army: Army,
    priced: StoredPrices,
    selected_pk: int | None,
    order: list[int],
) -> list[Row]:
    """The rows of `priced`'s units; `order` is every live unit's id in list order."""
    url = army.get_absolute_url()
    first, last = (order[0], order[-1]) if order else (None, None)
    return [
        Row(
            pu.stored,
            pu,
            errors,
            warnings,
            url=f"{url}units/{pu.unit.pk}/",
            first=pu.unit.pk == first,
            last=pu.unit.pk == last,
            selected=pu.unit.pk == selected_pk,
        )
        for pu, (errors, warnings) in zip(priced.units, priced.issues_by_unit, strict=True)
    ]


class ArmyState:
    """An army as the builder shows it, each part read when first asked for: the summary
    reads only the army row; the unit rows (cached per army version in the template)
    read the units."""

    def __init__(self, army: Army, selected: Unit | None = None, breakdowns: bool = False):
        self.army, self.selected, self.breakdowns = army, selected, breakdowns

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

    @cached_property
    def listed(self) -> list[tuple[int, int]]:
        """Every live unit's (id, revision) in list order: what its drawn row or card is
        cached under, read without the units themselves."""
        return list(self.army.units.values_list("pk", "revision"))

    @cached_property
    def order(self) -> list[int]:
        return [pk for pk, _ in self.listed]

    def units_of(self, pks: list[int]) -> list[Unit]:
        """Just these units, in list order (the ones no cache had drawn), in one query. A
        unit moved to the trash since `listed` was read is not among them."""
        wanted = set(pks)
        if len(wanted) == len(self.listed):
            return [u for u in self.units if u.pk in wanted]
        return list(self._unit_query().filter(pk__in=wanted))

    def rows_of(self, pks: list[int]) -> list[Row]:
        units = self.units_of(pks)
        return rows_for(
            self.army, self.army.priced(units), self.selected and self.selected.pk, self.order
        )

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
    def about_units(self) -> dict[int, str]:
        """For each unit an army-wide issue names, a short digest of those issues: with
        its revision, what its drawn row or card depends on."""
        found = about_units(self.army.issues)
        return {pk: hashlib.sha256(repr(v).encode()).hexdigest()[:16] for pk, v in found.items()}

    @cached_property
    def selected_row(self) -> Row | None:
        if self.selected is None:
            return None
        return one_row(self.army, self.selected, self.selected.pk)

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
            mine += [Issue(e["code"], e["message"], unit.pk) for e in unit.issues.get("errors", [])]
            found += [(unit, e) for e in mine]
        return found

    @cached_property
    def army_warnings(self) -> list[Issue]:
        return [w for w in self.summary.army_issues[1] if w.unit is None]

    @cached_property
    def record(self):
        """The army's latest acquisition roll (G.O.M.S.), without units: one query."""
        return latest_roll.latest_record(self.army)

    @property
    def roll_key(self) -> tuple | None:
        """What a cached part showing the roll depends on besides the army's version."""
        return latest_roll.record_key(self.record)

    @cached_property
    def acquisition(self):
        """The latest roll as pages show it; units only when there is one."""
        if self.record is None:
            return None
        return latest_roll.describe(self.record, self.priced)

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


def about_units(issues: dict | None) -> dict[int, list]:
    """The army-wide issues (a stored army's `issues`) that name a unit, by unit id: a
    second commander marks the first."""
    found: dict[int, list] = {}
    for kind in ("errors", "warnings"):
        for issue in (issues or {}).get(kind, []):
            if issue.get("unit") is not None:
                found.setdefault(issue["unit"], []).append((kind, issue))
    return found


def one_row(army: Army, unit: Unit, selected_pk: int | None) -> Row:
    """One unit's row, with the army's issues about it, without reading the others."""
    return rows_for(army, army.priced([unit]), selected_pk, unit_order(army))[0]


def unit_order(army: Army) -> list[int]:
    """The live units' ids in list order: known after a change (services.restate read
    them), else one query for the ids alone."""
    order = getattr(army, "unit_order", None)
    return list(army.units.values_list("pk", flat=True)) if order is None else order


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
        # Which row is highlighted, known without reading the units (a cache key).
        "selected_id": selected.pk if selected else None,
        **extra,
    }
