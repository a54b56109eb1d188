"""How fast the engine prices units: random GEM profiles and VSGMR figures.

Run: .venv/bin/python benchmarks/price_bench.py
Target: at least 50,000 GEM profiles priced per second on one core.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from points import gem, vsgmr

COUNT = 10_000
GEM_TARGET = 50_000
SEED = 1993  # GEM's year: the same profiles every run


def _stat(rng: random.Random, low: int, high: int) -> int | float | str:
    """A stat in [low, high] as a player might type it: a number, a decimal or dice."""
    roll = rng.random()
    if roll < 0.6:
        return rng.randint(low, high)
    if roll < 0.8:
        return rng.randint(low * 2, high * 2) / 2
    sides = rng.choice((2, 3, 4, 6))  # one die plus a bonus that keeps the range
    bonus = rng.randint(low, max(low, high - sides))
    return f"d{sides}+{bonus}"


def _missile(rng: random.Random) -> dict[str, object]:
    weapon: dict[str, object] = {"off": _stat(rng, 1, 10), "range": _stat(rng, 6, 48)}
    if rng.random() < 0.5:
        weapon["att"] = _stat(rng, 1, 4)
    if rng.random() < 0.3:
        weapon["radius"] = _stat(rng, 1, 3)
    weapon["fire"] = rng.choice(gem.FIRES)
    weapon["heavy"] = rng.random() < 0.3
    return weapon


def gem_profile(rng: random.Random) -> dict[str, object]:
    kind = rng.choice(gem.TYPES)
    data: dict[str, object] = {
        "type": kind,
        "base": rng.choice(gem.BASES),
        "def": _stat(rng, 1, 10),
        "hit": _stat(rng, 1, 6),
        "mor": rng.randint(-20, 20),
        "mag": _stat(rng, 1, 10),
        "mov": _stat(rng, 0, 12),
        "missile": [_missile(rng) for _ in range(rng.randint(0, 3))],
    }
    if kind == "vehicle":
        data["max_speed"] = rng.choice(("2d6+8", "2d6+12", 12, 24, 6))
        data["capacity"] = rng.randint(0, 12)
    else:
        data |= {"off": _stat(rng, 1, 10), "att": _stat(rng, 1, 4), "siz": rng.randint(1, 30)}
        data["melee"] = [{"off": _stat(rng, 1, 10)} for _ in range(rng.randint(0, 2))]
    return data


def vsgmr_figure(rng: random.Random) -> dict[str, object]:
    kind = rng.choice(vsgmr.KINDS)
    data: dict[str, object] = {"kind": kind}
    if kind == "guy":
        data["flavor"] = rng.choice(vsgmr.FLAVORS)
        data["armor"] = rng.choice(vsgmr.ARMORS)
        data["commander"] = rng.random() < 0.1
    else:
        data["armor"] = rng.choice(("light", "heavy"))
    data["distance_attack"] = rng.random() < 0.5
    data["automatic_fire"] = rng.random() < 0.2
    data["traits"] = rng.sample(sorted(vsgmr.TRAITS), rng.randint(0, 3))
    powers = rng.sample(sorted(vsgmr.SUPER_POWERS), rng.randint(0, 2))
    data["super_powers"] = {power: rng.choice(vsgmr.TIERS) for power in powers}
    return data


def per_second(work: Callable[[], object], count: int) -> float:
    """Units per CPU-second of this process, best of five.

    CPU time rather than wall time: on a shared machine other processes take
    turns on the core, and that is not the engine's cost.
    """
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return count / best


def main() -> int:
    rng = random.Random(SEED)
    gems = [gem.parse_profile(gem_profile(rng), "profile") for _ in range(COUNT)]
    figures = [vsgmr.parse_profile(vsgmr_figure(rng), "profile") for _ in range(COUNT)]
    vehicles = sum(p.is_vehicle for p in gems)

    gem_rate = per_second(lambda: [gem.price(p) for p in gems], COUNT)
    gem_explained = per_second(lambda: [gem.price(p).lines for p in gems], COUNT)
    vsgmr_rate = per_second(lambda: [vsgmr.price(p) for p in figures], COUNT)

    print(
        f"GEM profiles:   {gem_rate:>10,.0f} priced per second ({vehicles:,} of {COUNT:,} vehicles)"
    )
    print(f"  with breakdown {gem_explained:>9,.0f} per second (every line built and read)")
    print(f"VSGMR figures:  {vsgmr_rate:>10,.0f} priced per second, breakdown included")
    verdict = "meets" if gem_rate >= GEM_TARGET else "MISSES"
    print(f"GEM target {GEM_TARGET:,}/s: {verdict}")
    return 0 if gem_rate >= GEM_TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
