"""Writes that span an army and its units."""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction

import points
from armies.models import Army, Unit


@transaction.atomic
def create_army_from_file(owner, army: points.model.Army) -> Army:
    """Store a loaded muster-army/1 army as a new army of `owner`, units in file order."""
    doc = points.dump(army)
    limit = doc.get("points_limit")
    stored = Army.objects.create(
        owner=owner,
        name=doc["name"],
        system=doc["system"],
        points_limit=None if limit is None else Decimal(str(limit)),
        options=doc.get("options") or {},
    )
    Unit.objects.bulk_create(
        Unit(
            army=stored,
            name=u["name"],
            quantity=u.get("quantity", 1),
            profile=u["profile"],
            position=i,
        )
        for i, u in enumerate(doc["units"], start=1)
    )
    return stored
