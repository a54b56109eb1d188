"""Backup and restore (README, "Backup and restore"): dumpdata, then loaddata into a fresh
database, gives back every army with the same price, breakdown, share link and owner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.db import IntegrityError, connection

import points
from armies import services
from armies.models import Army, LibraryEntry, Unit
from armies.services import create_army_from_file
from rules.models import RuleEntry, SampleArmy
from table.models import AcquisitionRecord
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.processes import manage

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

# What the README tells an operator to dump: accounts and the language each chose, the
# catalog, the armies and the table's games and rolls.
# Content types and permissions are left out: migrate makes them in the new database.
BACKUP = ["auth.user", "accounts.preferences", "rules", "armies", "table"]


def _stored_prices(a: Army) -> list:
    units = [[u.name, u.each, u.cost, u.lines, u.issues] for u in a.units.all()]
    return [a.total, a.legal, a.issues, a.summary, a.rules_version, units]


def _everything() -> dict:
    """All that a restore must give back, keyed by what survives it (names, not user ids)."""
    armies = {
        (a.owner.username, a.pk): {
            "file": a.to_file(),
            "priced": _stored_prices(a),
            "share_token": a.share_token,
            "forked_from": (a.forked_from_id, a.forked_from_token),
            "version": a.version,
            "notes": a.notes,
            "preset": a.preset,
        }
        for a in Army._base_manager.select_related("owner").order_by("pk")
    }
    library = sorted(
        (e.owner.username, e.kind, e.system, e.name, json.dumps(e.data, sort_keys=True))
        for e in LibraryEntry._base_manager.select_related("owner")
    )
    # JSON backups keep times to the millisecond: the trash's purge dates survive.
    trash = sorted(
        (u.army_id, u.name, f"{u.deleted_at:%Y-%m-%d %H:%M:%S}")
        for u in Unit._base_manager.filter(deleted_at__isnull=False)
    ) + sorted(
        (a.pk, a.name, f"{a.deleted_at:%Y-%m-%d %H:%M:%S}")
        for a in Army._base_manager.exclude(deleted_at=None)
    )
    rolls = list(
        AcquisitionRecord.objects.order_by("pk").values("army_id", "seed", "units", "picks")
    )
    catalog = list(RuleEntry.objects.order_by("pk").values())
    samples = list(SampleArmy.objects.order_by("pk").values())
    return {
        "armies": armies,
        "library": library,
        "catalog": catalog,
        "samples": samples,
        "trash": trash,
        "rolls": rolls,
    }


def _players_with_armies() -> None:
    first, second = UserFactory(username="thane"), UserFactory(username="warboss")
    for sample in SampleArmy.objects.order_by("pk"):
        create_army_from_file(first, points.load(sample.army))
    shared = Army.objects.filter(owner=first).first()
    services.share_army(shared)
    fork = create_army_from_file(second, points.load(shared.to_file()))
    fork.forked_from, fork.forked_from_token = shared, shared.share_token
    fork.notes = "Borrowed from thane\nwith thanks"
    fork.save()
    LibraryEntry.objects.create(
        owner=second, kind="trait", system="vsgmr", name="Waaagh", data={"cost": 1.5}
    )
    # What waits in the trash must survive a restore too, and so must a recorded roll.
    services.trash_army(first, Army.objects.filter(owner=first).last().pk)
    services.trash_unit(shared, shared.units.first().pk, None)
    goms_army = Army.objects.filter(owner=first, system="goms").first()
    AcquisitionRecord.objects.create(
        army=goms_army, seed=12345, units=[["Rifles", "infantry", 1]], picks=[]
    )


def test_dump_flush_and_load_gives_back_every_army_with_identical_prices(tmp_path):
    _players_with_armies()
    # An edited catalog entry must come back edited, not as the data migration wrote it.
    RuleEntry.objects.filter(pk=RuleEntry.objects.order_by("pk").first().pk).update(
        summary="Edited in the admin"
    )
    before = _everything()
    assert len(before["armies"]) >= 10 and before["catalog"]
    backup = tmp_path / "muster-backup.json"

    call_command(
        "dumpdata",
        *BACKUP,
        natural_foreign=True,
        natural_primary=True,
        use_base_manager=True,  # --all: include what is in the trash
        output=str(backup),
    )
    # The test runs in a transaction: PostgreSQL will not TRUNCATE tables whose deferred
    # foreign key checks are still pending in it, so run those checks now.
    connection.check_constraints()
    call_command("flush", interactive=False, verbosity=0)
    assert not Army.objects.exists() and not RuleEntry.objects.exists()
    call_command("loaddata", str(backup), verbosity=0)

    assert _everything() == before
    assert before["trash"] and before["rolls"]
    # Passwords travel with the accounts.
    assert authenticate(username="thane", password=DEFAULT_PASSWORD) is not None


def test_loading_a_backup_over_a_freshly_migrated_catalog_without_flush_can_collide(tmp_path):
    """Why the README flushes first: the catalog rows a fresh migrate makes are not
    guaranteed to have the backup's ids, and a clash on (system, kind, slug) fails."""
    entry = RuleEntry.objects.order_by("pk").first()
    backup = tmp_path / "catalog.json"
    call_command("dumpdata", "rules.ruleentry", output=str(backup), pks=str(entry.pk))
    # The same entry, recreated under a new id (as an admin delete-and-add would).
    RuleEntry.objects.filter(pk=entry.pk).delete()
    entry.pk = None
    entry.save()

    with pytest.raises(IntegrityError):
        call_command("loaddata", str(backup), verbosity=0)


def _manage(*args: str, database: Path) -> str:
    result = manage(*args, timeout=300, DATABASE_URL=f"sqlite:///{database}")
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


PRICES = (
    "import json\n"
    "from armies.models import Army\n"
    "print(json.dumps([[a.owner.username, a.pk, a.total, a.issues, a.summary,"
    " [[u.each, u.cost, u.lines, u.issues] for u in a.units.all()]]"
    " for a in Army.all_objects.order_by('pk')], sort_keys=True))"
)
SEED = (
    "import points\n"
    "from django.contrib.auth.models import User\n"
    "from armies.services import create_army_from_file\n"
    "from rules.models import SampleArmy\n"
    "owner = User.objects.create_user('thane', password='runes and ale forever')\n"
    "for s in SampleArmy.objects.all(): create_army_from_file(owner, points.load(s.army))\n"
    "from armies import services\n"
    "services.trash_army(owner, owner.armies.first().pk)\n"
)


@pytest.mark.slow
def test_the_readme_commands_restore_a_backup_into_a_new_database(tmp_path):
    """The exact commands of the README, run against two real SQLite files."""
    old, new = tmp_path / "old.sqlite3", tmp_path / "new.sqlite3"
    backup = tmp_path / "muster-backup.json"
    _manage("migrate", "--no-input", "-v", "0", database=old)
    _manage("shell", "-c", SEED, database=old)
    before = _manage("shell", "-c", PRICES, database=old).strip().splitlines()[-1]

    _manage("dumpdata", *BACKUP, "--all", "--natural-foreign", "--natural-primary",
            "--output", str(backup), database=old)  # fmt: skip
    _manage("migrate", "--no-input", "-v", "0", database=new)
    _manage("flush", "--no-input", database=new)
    _manage("loaddata", str(backup), database=new)

    after = _manage("shell", "-c", PRICES, database=new).strip().splitlines()[-1]
    assert json.loads(after) == json.loads(before)
    assert len(json.loads(after)) >= 10
