"""Ready-made things a unit can start from or be given, as plain data beside the catalog:
each system's module in rules/systems/ names its own, the unit picker (armies/picker.py)
lists the figures and the editor offers the weapons in its lists."""

from __future__ import annotations

import json
from typing import NamedTuple

from points import d10, goms, vsgmr
from rules.catalog import SAMPLES

GEM = "gem"  # the sample armies whose missile weapons GEM's editor lists

# GEM's worked examples (SPEC 3.2): figures whose prices the rules themselves state.
GEM_EXAMPLES = (
    ("Swordsman", {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}),
    (
        "Archer",
        {
            "type": "skirmisher",
            "base": "25mm",
            "off": 3,
            "def": 3,
            "missile": [{"name": "Bow", "off": 4, "range": 24}],
        },
    ),
    (
        "Knight",
        {
            "type": "cavalry",
            "base": "40mm",
            "off": 6,
            "att": 2,
            "def": 7,
            "hit": 2,
            "mor": 5,
            "mov": 8,
        },
    ),
    (
        "Block of 18",
        {"type": "block", "base": "20mm", "off": 1, "att": 2, "def": 1, "hit": 2, "siz": 18},
    ),
    (
        "Tank",
        {
            "type": "vehicle",
            "base": "huge",
            "def": 9,
            "hit": 6,
            "mov": 12,
            "max_speed": "2d6+8",
            "capacity": 4,
            "missile": [
                {
                    "name": "Cannon",
                    "off": 9,
                    "range": 48,
                    "radius": 2,
                    "fire": "every-other-turn",
                    "heavy": True,
                },
                {"name": "MG", "off": 5, "att": 3, "range": 24},
            ],
        },
    ),
)


def _sample_missiles() -> list[dict]:
    """The missile weapons of the GEM sample armies' figures, as their files write them."""
    found = []
    for sample in SAMPLES:
        if sample.system == GEM:
            for unit in json.loads(sample.path.read_text(encoding="utf-8"))["units"]:
                found += unit["profile"].get("missile", [])
    return found


def _gem_weapons() -> tuple[dict, ...]:
    """Named GEM missile weapons of the rules' examples and the sample armies, each once."""
    seen: dict[str, dict] = {}
    for _, profile in GEM_EXAMPLES:
        for weapon in profile.get("missile", []):
            seen.setdefault(weapon["name"], weapon)
    for weapon in _sample_missiles():
        seen.setdefault(weapon["name"], weapon)
    return tuple(seen.values())


# Constant data read once from files in the code tree: the same in every worker.
GEM_WEAPONS = _gem_weapons()

D10_WEAPONS = tuple(
    (w.name, f"{w.name}: {w.range}″, RoF {w.rof}, damage {w.damage}") for w in d10.WEAPONS
)


# ---------------------------------------------------------------- the picker's "Rules" choices


class Start(NamedTuple):
    """A unit the rules themselves offer to start from: `key` names it in the add form."""

    key: str
    name: str
    source: str
    profile: dict


def gem_starts() -> list[Start]:
    return [
        Start(f"rules:{i}", name, "Rules example", profile)
        for i, (name, profile) in enumerate(GEM_EXAMPLES)
    ]


def vsgmr_starts() -> list[Start]:
    guys = [
        Start(f"rules:{f}", f.capitalize(), "Rules", {"kind": "guy", "flavor": f})
        for f in vsgmr.FLAVORS
    ]
    return guys + [
        Start(f"rules:{k}", k.capitalize(), "Rules", {"kind": k}) for k in vsgmr.KINDS if k != "guy"
    ]


def goms_starts() -> list[Start]:
    kinds = [
        Start(f"rules:{k}", goms.KIND_NAMES[k], "Rules", {"kind": k})
        for k in goms.KINDS
        if k != "vehicle"
    ]
    return kinds + [
        Start(
            f"rules:vehicle:{c}",
            f"{goms.KIND_NAMES['vehicle']} ({c.replace('-', ' ')})",
            "Rules",
            {"kind": "vehicle", "vehicle_class": c},
        )
        for c in goms.VEHICLE_CLASSES
    ]


def d10_starts() -> list[Start]:
    """A trooper with default stats carrying each weapon of the set's table."""
    return [
        Start(f"rules:{w.slug}", f"Trooper ({w.name})", "Weapon table", {"weapons": [w.name]})
        for w in d10.WEAPONS
    ]
