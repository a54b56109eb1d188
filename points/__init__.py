"""Muster's pricing engine: pure Python, exact arithmetic, no Django.

Load an army file, price it, and explain every number::

    army = points.loads(text)
    priced = points.price_army(army)
    priced.to_json()
"""

from __future__ import annotations

from points.armyfile import dump, dumps, load, load_unit, loads
from points.errors import ArmyFileError
from points.systems import SYSTEMS, Entry, UnitResult, check_army, price_army, price_unit

__all__ = [
    "SYSTEMS",
    "ArmyFileError",
    "Entry",
    "UnitResult",
    "check_army",
    "dump",
    "dumps",
    "load",
    "load_unit",
    "loads",
    "price_army",
    "price_unit",
]
