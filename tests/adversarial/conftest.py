"""One player's whole world (an army per system, shared, and library entries of every
kind) and a second player who should never reach any of it."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.db import transaction

from armies import services
from armies.models import Army, LibraryEntry, Tag, Unit
from tests.factories import UserFactory

SYSTEMS = ("gem", "vsgmr", "goms", "d10")


def profiles(text: str) -> dict[str, dict]:
    """A valid profile per system, with the player's own words wherever a profile has any."""
    short = text[:50]  # trait and d10 weapon names are limited to 60 and 100 characters
    return {
        "gem": {
            "type": "skirmisher",
            "base": "25mm",
            "off": 4,
            "def": 4,
            "melee": [{"name": f"{text} axe", "off": 3}],
            "missile": [{"name": f"{text} bow", "off": 4, "range": 24}],
        },
        "vsgmr": {
            "kind": "guy",
            "flavor": "hero",
            "traits": ["tough", {"name": f"{short} rune", "cost": 1, "text": f"{text} glows"}],
        },
        "goms": {"kind": "rifle-section"},
        "d10": {"leader": True, "weapons": [f"{short} laser"]},
    }


@dataclass
class World:
    owner: User
    intruder: User
    armies: dict[str, Army]
    units: dict[str, Unit]
    figures: dict[str, LibraryEntry]
    weapon: LibraryEntry
    trait: LibraryEntry
    intruder_army: Army
    intruder_unit: Unit
    trashed_army: Army  # deleted, restorable from the trash
    trashed_unit: Unit  # deleted from the live gem army

    @property
    def army(self) -> Army:
        return self.armies["gem"]

    @property
    def unit(self) -> Unit:
        return self.units["gem"]


def build_world(text: str = "Plain") -> World:
    owner = UserFactory()
    intruder = UserFactory()
    kit = profiles(text)
    armies, units, figures = {}, {}, {}
    for system in SYSTEMS:
        army = services.create_army(
            owner,
            name=f"{text} {system} army",
            system=system,
            points_limit=100,
            notes=f"{text} notes\nsecond line {text}",
            # G.O.M.S. rerolls bought, so the acquisition roll has rerolls to spend.
            options={"rerolls": 2} if system == "goms" else {},
        )
        services.share_army(army)
        services.add_units(
            army, [services.UnitSpec(f"{text} unit {i}", 2, kit[system]) for i in (1, 2)]
        )
        armies[system] = army
        units[system] = army.units.first()
        figures[system] = LibraryEntry.objects.create(
            owner=owner, kind="figure", system=system, name=f"{text} figure", data=kit[system]
        )
    weapon = LibraryEntry.objects.create(
        owner=owner,
        kind="weapon",
        system="gem",
        name=f"{text} crossbow",
        data={"off": 4, "range": 18},
    )
    trait = LibraryEntry.objects.create(
        owner=owner,
        kind="trait",
        system="vsgmr",
        name=f"{text[:50]} curse",
        data={"cost": 1, "text": f"{text} hexes"},
    )
    intruder_army = services.create_army(intruder, name="Mine", system="gem")
    (intruder_unit,) = services.add_units(intruder_army, [services.UnitSpec("Mine", 1, kit["gem"])])
    trashed_army = services.create_army(owner, name=f"{text} trashed army", system="gem")
    services.trash_army(trashed_army.owner, trashed_army.pk)
    (trashed_unit,) = services.add_units(
        armies["gem"], [services.UnitSpec(f"{text} trashed unit", 1, kit["gem"])]
    )
    services.trash_unit(armies["gem"], trashed_unit.pk, None)
    # As the owner's pages have shown them: every unit's parts drawn and stored (a change
    # leaves them blank for the first page that shows them, which stores them).
    for army in armies.values():
        services.redraw_army(army)
    return World(
        owner,
        intruder,
        armies,
        units,
        figures,
        weapon,
        trait,
        intruder_army,
        intruder_unit,
        trashed_army,
        trashed_unit,
    )


@pytest.fixture(scope="module")
def module_world(django_db_setup, django_db_blocker):
    """One world per test module, built once: each test runs inside a savepoint of the
    transaction that holds it, so what a test writes is rolled back before the next."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


@pytest.fixture
def world(module_world, db) -> World:
    return module_world


def snapshot(user: User) -> tuple[list, ...]:
    """Everything a player owns, row by row (deleted-but-restorable rows included): the
    tags on their armies, and their armies' table-mode games and acquisition rolls."""
    from table.models import AcquisitionRecord, Game

    return (
        list(Army._base_manager.filter(owner=user).order_by("pk").values()),
        list(Unit._base_manager.filter(army__owner=user).order_by("pk").values()),
        list(LibraryEntry._base_manager.filter(owner=user).order_by("pk").values()),
        list(Tag.objects.filter(owner=user).order_by("pk").values()),
        list(Army.tags.through.objects.filter(army__owner=user).order_by("pk").values()),
        list(Game.objects.filter(army__owner=user).order_by("pk").values()),
        list(AcquisitionRecord.objects.filter(army__owner=user).order_by("pk").values()),
    )
