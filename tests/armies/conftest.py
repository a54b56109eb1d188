from __future__ import annotations

import json
from pathlib import Path

from armies import services

DATA = Path(__file__).resolve().parents[1] / "data"


def sample_file(name: str) -> dict:
    return json.loads((DATA / "vsgmr" / f"{name}.json").read_text())


def make_army(owner, system: str, profiles: list[dict], *, points_limit=None, name="Test army"):
    """An army made as the app makes one: through the write path that stores its prices."""
    army = services.create_army(owner, name=name, system=system, points_limit=points_limit)
    specs = [services.UnitSpec(f"Unit {i}", 1, p) for i, p in enumerate(profiles, start=1)]
    if specs:
        services.add_units(army, specs)
    return army


def as_page(army, data: dict | None = None) -> dict:
    """What a builder form posts: `data` with the army version its page was drawn at (now)."""
    from armies.models import Army

    return {"version": Army.all_objects.get(pk=army.pk).version, **(data or {})}


def assert_stored_prices_match_the_engine(army) -> None:
    """What pages read (stored on write) is what the engine says of the army as stored."""
    from fractions import Fraction

    import points
    from armies.models import Army

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
    from armies.models import Army

    army = Army.all_objects.get(pk=army.pk)
    for unit in army.units.all():
        if names is not None and unit.name not in names:
            continue
        name = names[unit.name] if names is not None else changes.pop("name", unit.name)
        quantity = changes.get("quantity", unit.quantity)
        spec = services.UnitSpec(name, quantity, unit.profile)
        services.save_unit(army, unit.pk, spec, None)
