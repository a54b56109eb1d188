"""The per-process memo of each army's units by version (armies/models.py)."""

from __future__ import annotations

from armies.fragments import Memo
from armies.models import StoredUnit
from tests.armies.conftest import make_army


def units(*pks: int) -> tuple[StoredUnit, ...]:
    return tuple(StoredUnit(pk, f"Unit {pk}", 1, "{}") for pk in pks)


def test_the_least_recently_used_army_is_forgotten_first_once_too_many_units_are_kept():
    memo = Memo(max_size=2)  # units, as remembered_units counts them
    first, second, third = units(1), units(2), units(3)
    memo.get_or_draw((1, "created", 1), lambda: first)
    memo.get_or_draw((2, "created", 1), lambda: second)
    assert memo.get_or_draw((1, "created", 1), units) == first  # now the most recently used
    memo.get_or_draw((3, "created", 1), lambda: third)
    assert memo.get_or_draw((1, "created", 1), units) == first
    assert memo.get_or_draw((3, "created", 1), units) == third
    assert memo.get_or_draw((2, "created", 1), units) == ()  # forgotten: read again


def test_a_kept_list_does_not_change_when_the_caller_changes_its_own(player):
    army = make_army(player, "vsgmr", [{"kind": "guy", "flavor": "troop"}] * 2)
    found = army.stored_units()
    found.pop()
    assert len(army.stored_units()) == 2
