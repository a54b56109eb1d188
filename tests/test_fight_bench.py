"""The fight benchmark measures SPEC 6's grid: every body is a fight the API reads (a body
refused at the door would print a fast figure for work never done), and the grid reaches
its corners: 30 models a side of HIT 5 and ATT 5 with two melee weapons."""

from __future__ import annotations

import random

from benchmarks.fight_bench import SEED, grid
from points import fights


def test_every_grid_melee_is_a_fight_the_api_reads_up_to_the_largest():
    shapes = grid(random.Random(SEED))

    requests = [fights.read_request(body) for _, body in shapes]

    assert len(requests) == 5 * 5 * 5 * 3
    largest = max(
        requests, key=lambda r: (r.a.quantity, r.a.profile.hit.whole, len(r.a.profile.melee))
    )
    assert (largest.a.quantity, largest.b.quantity) == (30, 30)
    assert largest.a.profile.hit.whole == 5 and len(largest.a.profile.melee) == 2
    assert any(r.modifiers[0] and r.frontage[0] for r in requests)
