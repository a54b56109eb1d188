"""Small steps many tests take: what a page posts, changing units as the editor does,
and checking stored prices against the engine."""

from __future__ import annotations

from fractions import Fraction

import points
from armies import services
from armies.models import Army


def as_page(army, data: dict | None = None) -> dict:
    """What a builder form posts: `data` with the army version its page was drawn at (now)."""
    return {"version": Army.all_objects.get(pk=army.pk).version, **(data or {})}


def assert_stored_prices_match_the_engine(army) -> None:
    """What pages read (stored on write) is what the engine says of the army as stored."""
    army = Army.all_objects.get(pk=army.pk)
    fresh = points.price_army(points.load(army.to_file()))
    assert Fraction(army.total) == fresh.total
    assert army.legal == fresh.legal
    units = list(army.units.all())
    assert [Fraction(u.cost) for u in units] == [pu.cost for pu in fresh.units]
    stored = army.priced(units)
    for kind in ("errors", "warnings"):
        assert sorted((i.code, i.message) for i in getattr(stored, kind)) == sorted(
            (i.code, i.message) for i in getattr(fresh, kind)
        )


def rename_units(army, names: dict[str, str] | None = None, **changes) -> None:
    """Change units through the one write path, as the editor would: `names` maps old
    names to new ones (every unit when None); `changes` sets e.g. quantity on them."""
    army = Army.all_objects.get(pk=army.pk)
    for unit in army.units.all():
        if names is not None and unit.name not in names:
            continue
        name = names[unit.name] if names is not None else changes.pop("name", unit.name)
        quantity = changes.get("quantity", unit.quantity)
        spec = services.UnitSpec(name, quantity, unit.profile)
        services.save_unit(army, unit.pk, spec, None)
