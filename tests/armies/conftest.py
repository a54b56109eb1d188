from __future__ import annotations

import json
from pathlib import Path

from armies.models import Army, Unit

DATA = Path(__file__).resolve().parents[1] / "data"


def sample_file(name: str) -> dict:
    return json.loads((DATA / "vsgmr" / f"{name}.json").read_text())


def make_army(owner, system: str, profiles: list[dict], *, points_limit=None, name="Test army"):
    army = Army.objects.create(owner=owner, name=name, system=system, points_limit=points_limit)
    Unit.objects.bulk_create(
        Unit(army=army, name=f"Unit {i}", quantity=1, profile=p, position=i)
        for i, p in enumerate(profiles, start=1)
    )
    return army
