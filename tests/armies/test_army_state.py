"""A change re-states its army from its units' stored columns (services.unit_state), and
says what it touched so that only what it made stale is blanked (armies/freshness.py):
whatever players do, the army is stated as a full re-state states it, and every unit's
stored drawing is what drawing it afresh gives."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import given
from hypothesis import strategies as st

from armies import drawing, services
from armies.models import Army, Unit
from armies.state import ArmyState
from tests.factories import ArmyFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

# VSGMR: a troop guy, a hero, a hero commander (two of them: "2 commanders" names the
# second), a troop commander (only heroes may command), a hero whose Support roll is unset.
PROFILES = [
    {"kind": "guy", "flavor": "troop"},
    {"kind": "guy", "flavor": "hero"},
    {"kind": "guy", "flavor": "hero", "commander": True},
    {"kind": "guy", "flavor": "troop", "commander": True},
    {"kind": "guy", "flavor": "hero", "traits": ["support"]},
]

profile = st.integers(0, len(PROFILES) - 1)
pick = st.integers(0, 10)  # which unit, counted round the live (or trashed) ones
steps = st.lists(
    st.one_of(
        st.tuples(st.just("add"), profile),
        st.tuples(st.just("save"), pick, profile, st.integers(1, 3)),
        st.tuples(st.just("trash"), pick),
        st.tuples(st.just("restore"), pick),
        st.tuples(st.just("duplicate"), pick),
    ),
    max_size=8,
)


def plain(value):
    """As stored in a JSON column: tuples become lists."""
    return json.loads(json.dumps(value))


def assert_stated_as_a_full_restate_would(army: Army, shown: bool = False) -> None:
    """`shown`: pages have shown every part since the last change, so none is blank (a
    save leaves the parts it makes stale blank, for the first page that shows them)."""
    army.refresh_from_db()
    rows = services.unit_state(army.units.all())
    full = services.army_state(army.system, army.options, army.points_limit, rows)
    assert {field: getattr(army, field) for field in services.STATE_FIELDS} == plain(full)
    units = list(army.units.all())
    drawn = drawing.parts(army, units)
    for unit in units:
        for field in drawing.FIELDS:
            stored = getattr(unit, field)
            if not shown and not stored:
                continue
            assert stored == drawn[unit.pk][field], (unit.name, field)


def do(army: Army, step: tuple) -> None:
    kind, *args = step
    live = list(army.units.all())
    if kind == "add":
        spec = services.UnitSpec(f"Unit {army.version}", 1, PROFILES[args[0]])
        services.add_units(army, [spec])
    elif kind == "restore":
        trashed = list(Unit.all_objects.in_trash().filter(army=army).order_by("pk"))
        if trashed:
            services.restore_unit(army, trashed[args[0] % len(trashed)].pk)
    elif live:
        unit = live[args[0] % len(live)]
        if kind == "save":
            spec = services.UnitSpec(f"Saved {army.version}", args[2], PROFILES[args[1]])
            services.save_unit(army, unit.pk, spec, army.version)
        elif kind == "trash":
            services.trash_unit(army, unit.pk, army.version)
        else:
            services.duplicate_unit(army, unit.pk, army.version)


@given(first=st.lists(profile, max_size=4), steps=steps)
def test_any_sequence_of_changes_states_the_army_as_a_full_restate_does(first, steps):
    army = ArmyFactory(owner=UserFactory(), system="vsgmr", profiles=[PROFILES[i] for i in first])
    assert_stated_as_a_full_restate_would(army)
    for step in steps:
        do(army, step)
        assert_stated_as_a_full_restate_would(army)
    # The builder, the share page and the roster show every part as drawn afresh, and
    # store what was blank.
    state = ArmyState(army)
    shown = {field: "".join(drawing.parts_of(state, field)) for field in drawing.FIELDS}
    assert_stated_as_a_full_restate_would(army, shown=True)
    for field, html in shown.items():
        assert html == "".join(getattr(u, field) for u in army.units.all())


def test_a_save_from_a_tab_behind_another_is_refused_and_writes_nothing(player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[PROFILES[1]] * 2)
    first, second = army.units.all()
    behind = Army.objects.get(pk=army.pk)  # another tab, read before the save below
    services.save_unit(army, first.pk, services.UnitSpec("Saved", 1, PROFILES[1]), army.version)
    with pytest.raises(services.StaleVersion):
        services.save_unit(
            behind, second.pk, services.UnitSpec("Lost", 3, PROFILES[1]), behind.version
        )
    second.refresh_from_db()
    army.refresh_from_db()
    assert (second.name, second.quantity) == ("Unit 2", 1)
    assert army.total == str(2 + 2)  # a VSGMR hero is 2 points (SPEC 3.3), one each


@pytest.mark.parametrize("size", [1, 200])
def test_a_save_costs_the_same_queries_whatever_the_armys_size(player, size):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[PROFILES[1]] * size)
    unit = army.units.first()
    spec = services.UnitSpec("Veteran", 2, PROFILES[1])
    with CaptureQueriesContext(connection) as queries:
        services.save_unit(army, unit.pk, spec, army.version)
    # The army's units' state read; then a savepoint (the test's transaction holds the real
    # one), the army written if still at the version posted (which locks it), the unit
    # written, the savepoint released.
    assert len(queries) == 5, [q["sql"] for q in queries]
    # Of the other units, only what the army's checks read: not their stat lines, price
    # breakdowns or drawings.
    (read,) = [q["sql"] for q in queries if '"armies_unit"' in q["sql"] and "SELECT" in q["sql"]]
    for column in ("profile", "lines", "row_html", "shared_html", "roster_html"):
        assert f'"armies_unit"."{column}"' not in read
    army.refresh_from_db()
    # A VSGMR hero is 2 points (SPEC 3.3): the other heroes, then the veteran's 2 heroes.
    assert army.total == str((size - 1) * 2 + 2 * 2)
