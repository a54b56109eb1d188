"""Armies and their units. A unit owns its stat line (the engine's profile dict), so
copying from the library or a sample never links the army to something that changes.

Prices are stored when they change (SPEC 7): each unit row keeps its points each, cost,
breakdown, issues and rules version, and the army row its total, legality and army-wide
issues. armies/services.py is the one place that writes them; pages only read them."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from fractions import Fraction
from functools import cached_property

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode

import points
from points.armyfile import FORMAT, MAX_POINTS_LIMIT, MAX_QUANTITY
from points.fields import MAX_NAME
from points.messages import text_from_data
from points.model import (
    Issue,
    Line,
    exact_from_data,
    line_from_data,
)
from points.numbers import to_number
from rules.systems import SYSTEM_PAGES, SystemPages

SHARE_TOKEN_BYTES = 24  # 192 bits
SYSTEM_CHOICES = [(key, system.label) for key, system in points.SYSTEMS.items()]
# Deleted armies and units wait this long in the owner's trash before purge_trash removes them.
TRASH_DAYS = 30


class TrashQuerySet(models.QuerySet):
    def in_trash(self):
        return self.filter(deleted_at__isnull=False)

    def expired(self, now=None):
        """In the trash for longer than TRASH_DAYS: what purge_trash removes."""
        return self.filter(deleted_at__lt=(now or timezone.now()) - timedelta(days=TRASH_DAYS))


class UnitQuerySet(TrashQuerySet):
    def for_owner(self, user) -> UnitQuerySet:
        """Units of `user`'s live armies, each with its army read in the same query."""
        return self.filter(army__owner=user, army__deleted_at__isnull=True).select_related("army")


class LiveManager(models.Manager):
    """The default manager hides what is in the trash, so every page, share link, related
    lookup (army.units) and prefetch sees only live rows; `all_objects` sees both."""

    def get_queryset(self):
        return super().get_queryset().filter(deleted_at__isnull=True)


# A unit's drawn parts (armies/drawing.py): 5-10 kB a unit that pages read on their own
# (values_list), so units read as objects leave them out.
DRAWN_FIELDS = ("row_html", "shared_html", "roster_html")


class LiveUnitManager(LiveManager):
    def get_queryset(self):
        return super().get_queryset().defer(*DRAWN_FIELDS)


class Trashable(models.Model):
    deleted_at = models.DateTimeField(null=True, blank=True, db_index=True, editable=False)

    class Meta:
        abstract = True

    @property
    def purge_on(self):
        return self.deleted_at + timedelta(days=TRASH_DAYS) if self.deleted_at else None


class ArmyQuerySet(TrashQuerySet):
    def for_owner(self, user) -> ArmyQuerySet:
        return self.filter(owner=user)

    def in_list(self, archived: bool = False) -> ArmyQuerySet:
        """The main army list (archived armies hidden), or the archive alone."""
        return self.filter(archived_at__isnull=not archived)


# Per account and per army (SPEC 7, bounded work): stated on the army list, enforced there.
MAX_TAG = 40  # characters in a tag
MAX_TAGS = 100  # tags an account may have
MAX_TAGS_PER_ARMY = 10
# Homebrew figures, weapons and traits an account may keep (stated on the library page,
# enforced by services.add_library_entry): the builder and picker read all of one system's.
MAX_LIBRARY = 200


class Tag(models.Model):
    """A player's own label for sorting armies ("tournament", "painted"): private to them."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tags"
    )
    name = models.CharField(max_length=MAX_TAG)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="one_tag_name_per_owner")
        ]

    def __str__(self) -> str:
        return self.name


class Army(Trashable):
    class Origin(models.TextChoices):
        """How the army came to be: a copy's roll history starts at the copy."""

        NEW = "", "made here"
        IMPORT = "import", "imported from a file"
        FORK = "fork", "copied from a share link"
        SAMPLE = "sample", "copied from a sample army"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="armies"
    )
    name = models.CharField(max_length=MAX_NAME)
    system = models.CharField(max_length=10, choices=SYSTEM_CHOICES)
    points_limit = models.DecimalField(
        max_digits=9,
        decimal_places=1,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal(0)), MaxValueValidator(MAX_POINTS_LIMIT)],
        help_text="Leave empty for no limit.",
    )
    # A scenario (VSGMR) or game size (G.O.M.S.) the player picked; the limit follows it.
    preset = models.CharField(max_length=40, blank=True)
    notes = models.TextField(blank=True, max_length=10_000)
    # Army-level purchases in the file format's "options" shape (G.O.M.S. rerolls etc.).
    options = models.JSONField(default=dict, blank=True)
    # The read-only link /s/<token>/: random, never derived from the id; None = not shared.
    share_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    # The link's QR code (SVG) printed on the roster, drawn when the link is made, and the
    # address it encodes (the site as the owner reached it: another address draws its own).
    share_qr = models.TextField(blank=True, editable=False)
    share_qr_url = models.TextField(blank=True, editable=False)
    forked_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="forks"
    )
    # The share token this army was forked through: it links back only while that lives.
    forked_from_token = models.CharField(max_length=64, blank=True, editable=False)
    origin = models.CharField(max_length=10, choices=Origin.choices, blank=True, editable=False)
    # Bumped on every change, so an edit made from a stale page can be refused.
    version = models.PositiveIntegerField(default=1)
    # Stored when any unit or setting changes (armies/services.py), read by every page.
    # Exact decimal text: SQLite keeps only 15 digits of a decimal column.
    total = models.CharField(max_length=60, default="0", editable=False)
    legal = models.BooleanField(default=True, editable=False)
    # Army-wide errors and warnings: {"errors": [{"code", "message", "unit": pk|None}], ...}
    issues = models.JSONField(default=dict, blank=True, editable=False)
    # Army purchases (option lines) and the system's extras, exact (points.model.exact_data).
    summary = models.JSONField(default=dict, blank=True, editable=False)
    rules_version = models.CharField(max_length=30, blank=True, editable=False)
    # What a new rules version changed in this army, until its owner accepts it (SPEC 3.7):
    # {"from", "to", "total": [old, new], "legal": [old, new], "units": [...], "army": {...}}
    rules_notice = models.JSONField(null=True, blank=True, editable=False)
    # Hidden from the main army list while set; the archive lists it and can restore it.
    archived_at = models.DateTimeField(null=True, blank=True, db_index=True, editable=False)
    # Its row on the army list as last drawn, and a digest of everything that row shows
    # (armies/drawing.py, army_rows): a row whose digest differs is drawn again.
    list_html = models.TextField(blank=True, default="", editable=False)
    list_drawn = models.CharField(max_length=64, blank=True, default="", editable=False)
    tags = models.ManyToManyField(Tag, blank=True, related_name="armies")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = LiveManager.from_queryset(ArmyQuerySet)()
    all_objects = ArmyQuerySet.as_manager()

    class Meta:
        ordering = ["-updated"]
        verbose_name_plural = "armies"

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("armies:builder", args=[self.pk])

    def get_share_url(self) -> str | None:
        return reverse("sharing:shared", args=[self.share_token]) if self.share_token else None

    def forked_from_url(self) -> str | None:
        """The share link this army was forked through, while its owner has not revoked it:
        regenerating or turning off a link takes it off every earlier fork too."""
        source = self.forked_from
        if source is None or source.deleted_at or not self.forked_from_token:
            return None
        return source.get_share_url() if source.share_token == self.forked_from_token else None

    def file_name(self, extension: str) -> str:
        """The name a download of this army is saved under: the army's name with only
        letters, digits, - and _ (anything else becomes -), at most 60 of them, or
        "army" when none is left; then the extension: "Iron-Guard.json"."""
        stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in self.name)[:60]
        return f"{stem or 'army'}.{extension}"

    @property
    def game_system(self) -> points.systems.System:
        """What the army's system is and does (points.systems.System): its name, words
        and which rules apply, so pages ask it instead of naming systems."""
        return points.SYSTEMS[self.system]

    @property
    def system_pages(self) -> SystemPages:
        """What pages draw differently for the army's system (rules/systems/): the
        templates of its own parts and the odds page its roster links to."""
        return SYSTEM_PAGES[self.system]

    @property
    def system_label(self) -> str:
        return self.game_system.label

    def to_file(self) -> dict:
        """This army as a muster-army/1 document (what export writes and the engine reads)."""
        return {**self._head(), "units": [u.to_file() for u in self.units.all()]}

    def _head(self) -> dict:
        doc: dict = {"format": FORMAT, "name": self.name, "system": self.system}
        if self.rules_version:
            doc["rules_version"] = self.rules_version
        if self.points_limit is not None:
            doc["points_limit"] = to_number(Fraction(self.points_limit))
        doc["options"] = self.options or {}
        return doc

    def priced(self, units: list[Unit] | None = None) -> StoredPrices:
        """The army's stored prices; with `units` (live, in list order) also theirs."""
        return StoredPrices(self, units)


class Unit(Trashable):
    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="units")
    name = models.CharField(max_length=MAX_NAME)
    quantity = models.PositiveIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(MAX_QUANTITY)]
    )
    position = models.PositiveIntegerField(default=0)
    profile = models.JSONField(default=dict)
    # Stored when the unit changes (armies/services.py): exact decimal text, the breakdown
    # (points.model.line_data), its own errors and warnings, what army checks read of it.
    each = models.CharField(max_length=60, default="0", editable=False)
    exact = models.CharField(max_length=200, default="0", editable=False)
    cost = models.CharField(max_length=60, default="0", editable=False)
    lines = models.JSONField(default=list, blank=True, editable=False)
    issues = models.JSONField(default=dict, blank=True, editable=False)
    facts = models.JSONField(default=dict, blank=True, editable=False)
    rules_version = models.CharField(max_length=30, blank=True, editable=False)
    # Drawn by the first page that shows them after a change left them blank
    # (armies/freshness.py, armies/drawing.py), then read by pages as they are: its row in
    # the builder, its card on the share page, its card on the roster sheet.
    row_html = models.TextField(blank=True, editable=False)
    shared_html = models.TextField(blank=True, editable=False)
    roster_html = models.TextField(blank=True, editable=False)
    # The release (config/release.py) whose code drew them: parts drawn by another release
    # are drawn again by the first page that shows them, so a deploy needs no step.
    drawn_for = models.CharField(max_length=12, blank=True, editable=False)

    objects = LiveUnitManager.from_queryset(UnitQuerySet)()
    all_objects = UnitQuerySet.as_manager()

    class Meta:
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.name

    def to_file(self) -> dict:
        return {"name": self.name, "quantity": self.quantity, "profile": self.profile}

    @cached_property
    def priced(self) -> StoredUnitPrice:
        return StoredUnitPrice(self)


def stored_number(text: str) -> Fraction:
    """A stored points value: decimal text ("6.5"), read through Decimal, which is several
    times faster than Fraction's own parser; "n/d" as a fraction."""
    return Fraction(text) if "/" in text else Fraction(Decimal(text))


def _issues(found: list[dict], unit=None) -> tuple[Issue, ...]:
    return tuple(Issue(i["code"], text_from_data(i["message"]), i.get("unit", unit)) for i in found)


class _LoadedUnit:
    """A stored unit as the engine's Unit reads, its profile loaded when first asked for:
    the builder's rows and the roster's cards show stats, pricing never needs them."""

    __slots__ = ("_profile", "_stored", "name", "pk", "quantity")

    def __init__(self, unit: Unit):
        self._stored, self.pk, self.name, self.quantity = unit, unit.pk, unit.name, unit.quantity
        self._profile = None

    @property
    def profile(self):
        if self._profile is None:
            # Units read through army.units know their army: no query for its system.
            unit = self._stored
            loaded = points.load_unit(unit.name, unit.quantity, unit.profile, unit.army.system)
            self._profile = loaded.profile
        return self._profile


class StoredUnitPrice:
    """A unit's stored price in the shape of the engine's PricedUnit (unit, priced, cost),
    so templates and cards read stored numbers the way they read freshly priced ones."""

    def __init__(self, unit: Unit):
        self.stored = unit  # the Unit row itself
        self.unit = _LoadedUnit(unit)
        self.errors = _issues(unit.issues.get("errors", []), unit.pk)
        self.warnings = _issues(unit.issues.get("warnings", []), unit.pk)
        self.priced = _StoredPriced(unit)

    @cached_property
    def cost(self) -> Fraction:
        # Read only where a row or card is drawn: most come from the cache.
        return stored_number(self.stored.cost)


class _StoredPriced:
    """The engine's Priced read from a unit row: points each at once, the exact value and
    the breakdown only when asked for (the builder's rows show neither)."""

    def __init__(self, unit: Unit):
        self._unit = unit

    @cached_property
    def each(self) -> Fraction:
        return stored_number(self._unit.each)

    @cached_property
    def exact(self) -> Fraction:
        return Fraction(self._unit.exact)

    @cached_property
    def lines(self) -> tuple[Line, ...]:
        return tuple(line_from_data(line) for line in self._unit.lines)


class StoredPrices:
    """An army's stored total, legality and issues in the shape of the engine's PricedArmy.
    Issues name units by id (`unit` is a pk); `units`, when given, are the live units."""

    def __init__(self, army: Army, units: list[Unit] | None = None):
        self.army = _ArmyHead(army)
        self.total = stored_number(army.total)
        self.legal = army.legal
        self.rules_version = army.rules_version
        issues = army.issues or {}
        self.army_issues = (
            _issues(issues.get("errors", [])),
            _issues(issues.get("warnings", [])),
        )
        summary = army.summary or {}
        self.option_lines: tuple[Line, ...] = tuple(
            line_from_data(line) for line in summary.get("options", [])
        )
        self.extras: dict = exact_from_data(summary.get("extras", {}))  # type: ignore[assignment]
        self._units = units

    @cached_property
    def units(self) -> list[StoredUnitPrice]:
        assert self._units is not None, "price the army with its units to read them"
        # Built from the fields alone: the migration that draws units has no model methods.
        return [StoredUnitPrice(unit) for unit in self._units]

    @property
    def errors(self) -> tuple[Issue, ...]:
        return self.army_issues[0] + tuple(e for u in self.units for e in u.errors)

    @property
    def warnings(self) -> tuple[Issue, ...]:
        return self.army_issues[1] + tuple(w for u in self.units for w in u.warnings)

    @cached_property
    def issues_by_unit(self) -> tuple[tuple[tuple[Issue, ...], tuple[Issue, ...]], ...]:
        """Each unit's (errors, warnings), in list order: its own and the army's about it."""
        errors, warnings = self.army_issues
        return tuple(
            (
                tuple(e for e in errors if e.unit == u.unit.pk) + u.errors,
                tuple(w for w in warnings if w.unit == u.unit.pk) + u.warnings,
            )
            for u in self.units
        )


class _ArmyHead:
    """What pages read of the engine's Army: name, system, limit and loaded options."""

    def __init__(self, army: Army):
        self.name, self.system = army.name, army.system
        limit = army.points_limit
        self.points_limit = None if limit is None else Fraction(limit)
        self._options = army.options or {}

    @cached_property
    def options(self):
        return points.SYSTEMS[self.system].parse_options(self._options, "options")


class LibraryEntryQuerySet(models.QuerySet):
    def for_owner(self, user) -> LibraryEntryQuerySet:
        return self.filter(owner=user)


class LibraryEntry(models.Model):
    """A player's homebrew: a figure (any system), a GEM missile weapon, a VSGMR trait or
    a d10 weapon.

    Adding one to an army copies it, so editing the library never changes an army.
    """

    class Kind(models.TextChoices):
        FIGURE = "figure", "Figure"
        WEAPON = "weapon", "GEM missile weapon"
        TRAIT = "trait", "VSGMR trait"
        D10_WEAPON = "d10weapon", "d10 weapon"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="library"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    system = models.CharField(max_length=10, choices=SYSTEM_CHOICES)
    name = models.CharField(max_length=MAX_NAME)
    # figure: its profile; weapon: one `missile` entry; trait: {"cost", "text"}; d10
    # weapon: its weapon table line, {"range", "rof", "damage", "traits"} (a unit's
    # `weapons` list carries only its name).
    data = models.JSONField(default=dict)
    updated = models.DateTimeField(auto_now=True)
    # Moves on with each save: an edit page posts the one it was drawn at, so a second tab
    # editing the entry is refused instead of silently overwriting the first (services).
    version = models.PositiveIntegerField(default=1)

    objects = LibraryEntryQuerySet.as_manager()

    class Meta:
        ordering = ["kind", "system", "name", "pk"]
        verbose_name_plural = "library entries"

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.name}"


def fight_url(system: str, **side_a: object) -> str:
    """The fight calculator's address with side A filled in ("Odds against…"): `unit` (an
    id, which the calculator offers its owner alone), or `name`, `quantity` and `profile`."""
    values = {f"a_{key}": value for key, value in side_a.items() if value is not None}
    return f"{reverse('odds:fight', args=[system])}?{urlencode(values)}"


def shared_army(token: str) -> Army | None:
    """The live army shared under `token`, with its owner's name as `owner_name`."""
    return (
        Army.objects.filter(share_token=token)
        .annotate(owner_name=models.F("owner__username"))
        .first()
    )


def library_for(owner_id: int, system: str) -> list[LibraryEntry]:
    """An owner's homebrew for one system, in library order: at most MAX_LIBRARY entries,
    even for an account that filled its library before there was a limit."""
    return list(LibraryEntry.objects.filter(owner_id=owner_id, system=system)[:MAX_LIBRARY])
