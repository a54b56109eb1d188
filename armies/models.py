"""Armies and their units. A unit owns its stat line (the engine's profile dict), so
copying from the library or a sample never links the army to something that changes."""

from __future__ import annotations

import hashlib
import json
import secrets
from datetime import timedelta
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from operator import attrgetter

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Cast
from django.utils import timezone

import points
from armies import fragments
from config.prepared import Prepared, update_one
from config.urlcache import reverse
from points import goms
from points.armyfile import FORMAT, MAX_POINTS_LIMIT, MAX_QUANTITY
from points.fields import MAX_NAME
from points.numbers import to_number

SHARE_TOKEN_BYTES = 24  # 192 bits
SYSTEM_CHOICES = [(key, system.label) for key, system in points.SYSTEMS.items()]
# Units kept per process, across armies (remembered_units): ~100 armies of 200 units.
MAX_REMEMBERED_UNITS = 20_000
# Deleted armies and units wait this long in the owner's trash before purge_trash removes them.
TRASH_DAYS = 30


class TrashQuerySet(models.QuerySet):
    def in_trash(self):
        return self.filter(deleted_at__isnull=False)

    def expired(self, now=None):
        """In the trash for longer than TRASH_DAYS: what purge_trash removes."""
        return self.filter(deleted_at__lt=(now or timezone.now()) - timedelta(days=TRASH_DAYS))


STORED_FIELDS = ("pk", "name", "quantity", Cast("profile", models.TextField()))


class UnitQuerySet(TrashQuerySet):
    def stored(self) -> list[StoredUnit]:
        """These units, in list order, read as plain records: what the pages draw and the
        engine prices, several times faster to read than model instances."""
        return [StoredUnit(*row) for row in self.values_list(*STORED_FIELDS)]

    def stored_by_army(self) -> dict[int, list[StoredUnit]]:
        """The same, for several armies in one query, by army id."""
        found: dict[int, list[StoredUnit]] = {}
        for army_id, *row in self.values_list("army_id", *STORED_FIELDS):
            found.setdefault(army_id, []).append(StoredUnit(*row))
        return found


class LiveManager(models.Manager):
    """The default manager hides what is in the trash, so every page, share link, related
    lookup (army.units) and prefetch sees only live rows; `all_objects` sees both."""

    def get_queryset(self):
        return super().get_queryset().filter(deleted_at__isnull=True)


class Trashable(models.Model):
    deleted_at = models.DateTimeField(null=True, blank=True, db_index=True, editable=False)

    class Meta:
        abstract = True

    def trash(self) -> None:
        self.deleted_at = timezone.now()
        self.save(update_fields=["deleted_at"])

    def restore(self) -> None:
        self.deleted_at = None
        self.save(update_fields=["deleted_at"])

    @property
    def purge_on(self):
        return self.deleted_at + timedelta(days=TRASH_DAYS) if self.deleted_at else None


class ArmyQuerySet(TrashQuerySet):
    def for_owner(self, user) -> ArmyQuerySet:
        return self.filter(owner=user)


class Army(Trashable):
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
    forked_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="forks"
    )
    # The share token this army was forked through: it links back only while that lives.
    forked_from_token = models.CharField(max_length=64, blank=True, editable=False)
    # Bumped on every change, so an edit made from a stale page can be refused.
    version = models.PositiveIntegerField(default=1)
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

    def share(self) -> str:
        """Turn sharing on with a fresh token (regenerating revokes the old link)."""
        self.share_token = secrets.token_urlsafe(SHARE_TOKEN_BYTES)
        self.save(update_fields=["share_token", "updated"])
        return self.share_token

    def unshare(self) -> None:
        self.share_token = None
        self.save(update_fields=["share_token", "updated"])

    def bump_version(self, seen: int | None = None) -> bool:
        """Move the army to its next version. A save claims it from the `seen` version its
        page posted (one UPDATE ... WHERE, so of two tabs exactly one wins); list changes
        move on from whatever is stored. A queryset update skips auto_now, so `updated`
        is set here too: the army list sorts by it."""
        now = timezone.now()
        expected = {} if seen is None else {"version": seen}
        if not update_one(
            Army, self.pk, {"updated": now}, increment=("version",), expected=expected
        ):
            return False
        self.version = (self.version if seen is None else seen) + 1
        self.updated = now
        return True

    def get_share_url(self) -> str | None:
        return reverse("shared", args=[self.share_token]) if self.share_token else None

    def forked_from_url(self) -> str | None:
        """The share link this army was forked through, while its owner has not revoked it:
        regenerating or turning off a link takes it off every earlier fork too."""
        source = self.forked_from
        if source is None or source.deleted_at or not self.forked_from_token:
            return None
        return source.get_share_url() if source.share_token == self.forked_from_token else None

    @property
    def system_label(self) -> str:
        return points.SYSTEMS[self.system].label

    def to_file(self) -> dict:
        """This army as a muster-army/1 document (what export writes and the engine reads)."""
        return {**self._head(), "units": [u.to_file() for u in self.units.all()]}

    def _head(self) -> dict:
        doc: dict = {"format": FORMAT, "name": self.name, "system": self.system}
        if self.points_limit is not None:
            doc["points_limit"] = to_number(Fraction(self.points_limit))
        doc["options"] = self.options or {}
        return doc

    def stored_units(self) -> list[StoredUnit]:
        """The live units in list order, as plain records (UnitQuerySet.stored); read
        once per army version in each process (remembered_units)."""
        return list(
            remembered_units.get_or_draw(
                fragments.version_key(self),
                lambda: tuple(StoredUnit(*row) for row in _STORED_UNITS(self.pk)),
            )
        )

    def remember_units(self, units: list[StoredUnit]) -> None:
        """`units` are this army's live units at its current version: a save that has
        just claimed the version knows them without reading them back."""
        remembered_units.get_or_draw(fragments.version_key(self), lambda: tuple(units))

    def price(self, units: list[StoredUnit] | None = None) -> points.PricedArmy:
        """Price the army as stored. Stored units were validated on save, so this loads."""
        units = self.stored_units() if units is None else units
        head = json.dumps(self._head(), sort_keys=True)
        return _priced(head, tuple(map(_PRICED_BY, units)))


class Unit(Trashable):
    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="units")
    name = models.CharField(max_length=MAX_NAME)
    quantity = models.PositiveIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(MAX_QUANTITY)]
    )
    position = models.PositiveIntegerField(default=0)
    profile = models.JSONField(default=dict)

    objects = LiveManager.from_queryset(UnitQuerySet)()
    all_objects = UnitQuerySet.as_manager()

    class Meta:
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.name

    def to_file(self) -> dict:
        return {"name": self.name, "quantity": self.quantity, "profile": self.profile}


# What pricing reads of a stored unit, as the engine's load_stored takes it.
_PRICED_BY = attrgetter("name", "quantity", "profile_text")


@lru_cache(maxsize=64)
def _priced(head: str, units: tuple[tuple[str, int, str], ...]) -> points.PricedArmy:
    """An army priced by everything pricing reads, kept for the next ask: a unit save
    prices the army before and after, and what it starts from is what the save before it
    ended with. A priced army is immutable, so sharing one between requests is safe."""
    return points.price_army(points.load_stored(json.loads(head), units))


# Each army's live units by its version (fragments.version_key), kept per process for the
# next request. Sound for the reason the remembered parts are (armies/fragments.py): every
# change to an army's units moves its version on, in the same transaction, so the units
# read for version N are right for as long as N is current, and never asked for once it
# is not. A save in a 200-unit army then reads none of the other 199. Bounded in units;
# off under DEBUG like the remembered parts, so a change made in the shell shows there.
remembered_units = fragments.Memo(max_size=MAX_REMEMBERED_UNITS)


class StoredUnit:
    """A live unit as read for drawing and pricing (Army.stored_units): its id, name,
    quantity and stat line, the last kept as the stored JSON text until asked for."""

    __slots__ = ("_profile", "name", "pk", "profile_text", "quantity")

    def __init__(self, pk: int, name: str, quantity: int, profile_text: str):
        self.pk, self.name, self.quantity, self.profile_text = pk, name, quantity, profile_text
        self._profile: dict | None = None

    @property
    def profile(self) -> dict:
        if self._profile is None:
            self._profile = json.loads(self.profile_text)
        return self._profile

    def __repr__(self) -> str:
        return f"StoredUnit({self.pk}, {self.name!r})"


class LibraryEntryQuerySet(models.QuerySet):
    def for_owner(self, user) -> LibraryEntryQuerySet:
        return self.filter(owner=user)


class LibraryEntry(models.Model):
    """A player's homebrew: a figure (any system), a GEM missile weapon or a VSGMR trait.

    Adding one to an army copies it, so editing the library never changes an army.
    """

    class Kind(models.TextChoices):
        FIGURE = "figure", "Figure"
        WEAPON = "weapon", "GEM missile weapon"
        TRAIT = "trait", "VSGMR trait"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="library"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    system = models.CharField(max_length=10, choices=SYSTEM_CHOICES)
    name = models.CharField(max_length=MAX_NAME)
    # figure: its profile; weapon: one `missile` entry; trait: {"cost", "text"}.
    data = models.JSONField(default=dict)
    updated = models.DateTimeField(auto_now=True)

    objects = LibraryEntryQuerySet.as_manager()

    class Meta:
        ordering = ["kind", "system", "name", "pk"]
        verbose_name_plural = "library entries"

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.name}"


class AcquisitionRecord(models.Model):
    """A G.O.M.S. army's pre-game acquisition and manpower roll, kept so anyone can check it.

    The dice are re-derived from `seed` and `picks` (points.goms.acquisition_dice), never
    stored: the record is what was rolled for (`units`, a snapshot), the seed, and which
    dice the player spent rerolls on, in order. While rerolls may still be spent the seed
    stays hidden behind its SHA-256, so nobody can foresee a reroll; finishing reveals it.
    """

    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="acquisitions")
    seed = models.BigIntegerField()
    # [[unit name, table row, quantity], ...] in list order when rolled.
    units = models.JSONField()
    rerolls = models.PositiveIntegerField(default=0)  # bought before rolling
    picks = models.JSONField(default=list)  # die indexes rerolled, in order
    finished = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]
        get_latest_by = ["created", "pk"]

    def __str__(self) -> str:
        return f"Acquisition roll for {self.army}"

    @property
    def rows(self) -> list[tuple[str, int]]:
        return [(row, quantity) for _, row, quantity in self.units]

    @property
    def rerolls_left(self) -> int:
        return self.rerolls - len(self.picks)

    @property
    def commitment(self) -> str:
        return hashlib.sha256(str(self.seed).encode()).hexdigest()

    def dice(self):
        return goms.acquisition_dice(self.rows, self.seed, self.picks)


# --- What every page and save asks for, compiled once (config/prepared.py) -------------

_OWNED_ARMY = Prepared(lambda owner, pk: Army.objects.filter(owner_id=owner, pk=pk), int, int)
_SHARED_ARMY = Prepared(
    lambda token: Army.objects.filter(share_token=token).annotate(
        owner_name=models.F("owner__username")
    ),
    str,
)
_STORED_UNITS = Prepared(
    lambda army: Unit.objects.filter(army_id=army).values_list(*STORED_FIELDS), int
)
_LIBRARY = Prepared(
    lambda owner, system: LibraryEntry.objects.filter(owner_id=owner, system=system), int, str
)


def owned_army(owner_id: int, pk: int) -> Army | None:
    """The live army `pk` if `owner_id` owns it: Army.objects.for_owner(...).get(pk=pk)."""
    return _OWNED_ARMY.first(owner_id, pk)


def shared_army(token: str) -> Army | None:
    """The live army shared under `token`, with its owner's name as `owner_name`."""
    return _SHARED_ARMY.first(token)


def library_for(owner_id: int, system: str) -> list[LibraryEntry]:
    """An owner's homebrew for one system, in library order."""
    return _LIBRARY(owner_id, system)
