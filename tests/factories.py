"""factory-boy factories: the one way tests make accounts, armies, units and library entries.

Armies and units are made as the app makes them, through armies.services (the one write
path that prices each unit and stores the army's total), never by writing rows directly.
"""

from __future__ import annotations

import json

import factory
from django.contrib.auth.models import User

import points
from accounts.models import Preferences
from armies import services
from armies.models import Army, LibraryEntry, Unit
from tests.samples import DATA, VSGMR_SAMPLES

DEFAULT_PASSWORD = "correct horse battery staple"


def sample_file(name: str, system: str = "vsgmr") -> dict:
    """One of the 14 VSGMR sample armies (rules/samples/vsgmr/) by slug, or an army file
    under tests/data/<system>/ (the GEM worked examples)."""
    folder = VSGMR_SAMPLES if system == "vsgmr" else DATA / system
    return json.loads((folder / f"{name}.json").read_text())


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.PostGenerationMethodCall("set_password", DEFAULT_PASSWORD)

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class ArmyFactory(factory.django.DjangoModelFactory):
    """An army with one unit per profile in `profiles` ("Unit 1", "Unit 2"…, one model each),
    or the army `file` holds (a muster-army/1 document), made through the write path.
    An army of `profiles` is as its first pages leave it, every unit's parts drawn and
    stored (a change draws nothing: armies/freshness.py); `shown=False` leaves them blank,
    as the write path does. A `file`'s units are left blank, as an import leaves them.

        ArmyFactory(owner=player, system="gem", profiles=[{...}], points_limit=500)
        ArmyFactory(owner=player, file=sample_file("dwarves"))
    """

    class Meta:
        model = Army

    owner = factory.SubFactory(UserFactory)
    name = "Test army"
    system = "vsgmr"
    points_limit = None

    @classmethod
    def _create(cls, model_class, *, profiles=(), file=None, shown=True, **fields):
        if file is not None:
            owner = fields.pop("owner")
            return services.create_army_from_file(owner, points.load(file))
        army = services.create_army(**fields)
        specs = [services.UnitSpec(f"Unit {i}", 1, p) for i, p in enumerate(profiles, start=1)]
        if specs:
            services.add_units(army, specs)
            if shown:
                services.redraw_army(army)
        return army


class UnitFactory(factory.django.DjangoModelFactory):
    """A unit added to `army` (at the end of its list) through the write path."""

    class Meta:
        model = Unit

    army = factory.SubFactory(ArmyFactory)
    name = factory.Sequence(lambda n: f"Unit {n}")
    quantity = 1
    profile = factory.LazyFunction(dict)

    @classmethod
    def _create(cls, model_class, *, army, name, quantity, profile):
        (unit,) = services.add_units(army, [services.UnitSpec(name, quantity, profile)])
        return unit


class LibraryEntryFactory(factory.django.DjangoModelFactory):
    """A homebrew figure (by default), weapon or trait in `owner`'s library."""

    class Meta:
        model = LibraryEntry

    owner = factory.SubFactory(UserFactory)
    kind = "figure"
    system = "vsgmr"
    name = factory.Sequence(lambda n: f"Homebrew {n}")
    data = factory.LazyFunction(dict)


class PreferencesFactory(factory.django.DjangoModelFactory):
    """What a player chose for their account: `language` (one of settings.LANGUAGES)."""

    class Meta:
        model = Preferences

    user = factory.SubFactory(UserFactory)
    language = "de"
