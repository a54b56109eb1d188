"""The built-in rules catalog: what each rule set's traits, tables and sample armies are.

Costs are not stored here: they live once, in the pricing engine (`points/`), and the
rules pages read them from there when they render.
"""

from __future__ import annotations

from django.db import models

import points
from points.fields import fmt


class System(models.TextChoices):
    GEM = "gem", "GEM"
    VSGMR = "vsgmr", "VSGMR"
    GOMS = "goms", "G.O.M.S."
    D10 = "d10", "d10 modern skirmish"
    GEMINI = "gemini", "Gemini vehicles"


# Gemini has no armies of its own: its characteristics sit on GEM vehicles.
ARMY_SYSTEMS = [(value, label) for value, label in System.choices if value != System.GEMINI]


class RuleEntryQuerySet(models.QuerySet["RuleEntry"]):
    def for_system(self, system: str) -> RuleEntryQuerySet:
        return self.filter(system=system)

    def of_kind(self, kind: str) -> RuleEntryQuerySet:
        return self.filter(kind=kind)


class RuleEntry(models.Model):
    """One catalog item: a trait, a base size, a weapon, a table...

    `kind` is a slug such as trait, super-power, scenario, base-size, formation,
    fire-rate, unit-kind, vehicle-class, morale-grade, game-size, weapon,
    weapon-trait, armour-level, table or interpretation. `data` holds facts that
    are not prices, e.g. a weapon's range and damage; numbers the engine uses stay in
    points/ and pages read them from there.
    """

    system = models.CharField(max_length=10, choices=System.choices)
    kind = models.SlugField(max_length=40)
    slug = models.SlugField(max_length=60)
    name = models.CharField(max_length=100)
    summary = models.TextField(blank=True, help_text="In Muster's own words, never the seed's.")
    data = models.JSONField(default=dict, blank=True)
    position = models.PositiveIntegerField(default=0)

    objects = RuleEntryQuerySet.as_manager()

    class Meta:
        ordering = ("system", "kind", "position")
        constraints = [
            models.UniqueConstraint(
                fields=("system", "kind", "slug"), name="rules_entry_unique_per_system_kind"
            )
        ]
        verbose_name = "rule entry"
        verbose_name_plural = "rule entries"

    def __str__(self) -> str:
        return f"{self.get_system_display()} {self.kind}: {self.name}"


class SampleArmyQuerySet(models.QuerySet["SampleArmy"]):
    def for_system(self, system: str) -> SampleArmyQuerySet:
        return self.filter(system=system)


class SampleArmy(models.Model):
    """A ready-made army: `army` is a complete muster-army/1 document (SPEC 4)."""

    system = models.CharField(max_length=10, choices=ARMY_SYSTEMS)
    slug = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=200)
    blurb = models.TextField(blank=True)
    army = models.JSONField()
    position = models.PositiveIntegerField(default=0)
    # Priced when written (rules.services.save_sample; SPEC 7), read by the rules pages:
    # exact decimal text, "" when the document no longer loads, and its figure count.
    total = models.CharField(max_length=60, blank=True, editable=False)
    figures = models.PositiveIntegerField(null=True, editable=False)

    objects = SampleArmyQuerySet.as_manager()

    class Meta:
        ordering = ("system", "position")
        verbose_name = "sample army"
        verbose_name_plural = "sample armies"

    def __str__(self) -> str:
        return f"{self.name} ({self.get_system_display()})"


def price_sample(document: object) -> tuple[str, int | None]:
    """A sample army's total as exact text and its figure count; ("", None) when the
    document does not load."""
    try:
        army = points.load(document)
    except points.ArmyFileError:
        return "", None
    total = points.price_army(army).total
    return fmt(total), sum(unit.quantity for unit in army.units)
