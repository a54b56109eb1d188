"""The per-process memo of each army's units by version (armies/models.py)."""

from __future__ import annotations

from armies.models import StoredUnit, _UnitsByVersion
from tests.armies.conftest import make_army


def unit(pk: int) -> StoredUnit:
    return StoredUnit(pk, f"Unit {pk}", 1, "{}")


def test_the_least_recently_used_army_is_forgotten_first():
    memo = _UnitsByVersion(size=2)
    first, second, third = [unit(1)], [unit(2)], [unit(3)]
    memo.put((1, "created", 1), first)
    memo.put((2, "created", 1), second)
    assert memo.get((1, "created", 1)) == tuple(first)  # now the most recently used
    memo.put((3, "created", 1), third)
    assert memo.get((2, "created", 1)) is None
    assert memo.get((1, "created", 1)) == tuple(first)
    assert memo.get((3, "created", 1)) == tuple(third)


def test_a_kept_list_does_not_change_when_the_caller_changes_its_own(player):
    army = make_army(player, "vsgmr", [{"kind": "guy", "flavor": "troop"}] * 2)
    units = army.stored_units()
    units.pop()
    assert len(army.stored_units()) == 2
