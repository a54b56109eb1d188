"""The acquisition and manpower roll in the engine: dice from a seed, rerolls, totals."""

from __future__ import annotations

import random

import pytest

from points import goms
from points.goms import AcquisitionRoll


def test_the_dice_are_re_derived_from_the_seed_then_one_more_per_reroll():
    rows = [("infantry", 2), ("heavy", 1)]
    # Re-derive by hand as the page tells players to: one randint(1, 6) per die in list
    # order, then one per reroll in the order spent (here twice on die 3, once on die 1).
    r = random.Random(20261122)
    first = [r.randint(1, 6) for _ in range(3)]
    rerolls = [r.randint(1, 6) for _ in range(3)]

    dice = goms.acquisition_dice(rows, 20261122, picks=[2, 2, 0])

    assert [(d.unit, d.copy, d.row) for d in dice] == [
        (0, 0, "infantry"),
        (0, 1, "infantry"),
        (1, 0, "heavy"),
    ]
    assert [d.die for d in dice] == [rerolls[2], first[1], rerolls[1]]
    assert dice[2].earlier == (first[2], rerolls[0])
    assert dice[0].earlier == (first[0],) and not dice[1].rerolled
    assert dice[2].result == goms.ACQUISITION["heavy"][rerolls[1] - 1]


def test_no_rerolls_is_the_plain_roll_and_a_missing_die_is_refused():
    rows = [("specialists", 1)]
    assert goms.acquisition_dice(rows, 5) == goms.acquisition_dice(rows, 5, picks=())
    with pytest.raises(ValueError, match="no die 2"):
        goms.acquisition_dice(rows, 5, picks=[1])


def die(row: str, score: int) -> AcquisitionRoll:
    return AcquisitionRoll(0, 0, score, goms.ACQUISITION[row][score - 1], row)


def test_totals_add_up_what_the_table_says():
    # From the seed's table: infantry 1 = lose 4 men and an LMG, infantry 3 = lose 3 men;
    # specialists 2 = lose 1 team; heavy 2 = doesn't show; medium 3 = arrives on a 5+;
    # light 2 = arrives on a 5+ ... light 4 starts on table; soft skin 2 = arrives on a 4+.
    dice = [
        die("infantry", 1),
        die("infantry", 3),
        die("infantry", 6),
        die("specialists", 2),
        die("heavy", 2),
        die("medium", 3),
        die("light", 4),
        die("soft-skin", 2),
    ]
    totals = goms.acquisition_totals(dice)
    assert (totals.men, totals.lmgs, totals.teams) == (7, 1, 1)
    assert totals.missing == 1
    assert totals.late == (4, 5)


# The seed's "Acquisition and Manpower tables", row by row, die 1 to 6.
SEED_TABLE = {
    "infantry": ("Lose 4 men and an LMG", "Lose 3 men and an LMG", "Lose 3 men", "Lose 2 men",
                 "Lose 1 man", "Full strength"),
    "soft-skin": ("Doesn't show", "Arrives on a 4+") + ("Starts on table",) * 4,
    "light": ("Doesn't show", "Arrives on a 5+", "Arrives on a 4+") + ("Starts on table",) * 3,
    "medium": ("Doesn't show", "Arrives on a 6+", "Arrives on a 5+", "Arrives on a 4+",
               "Starts on table", "Starts on table"),
    "heavy": ("Doesn't show", "Doesn't show", "Arrives on a 6+", "Arrives on a 5+",
              "Arrives on a 4+", "Starts on table"),
    "specialists": ("Lose 2 teams", "Lose 1 team", "Lose 1 team") + ("Full strength",) * 3,
}  # fmt: skip


def test_the_results_read_as_the_seeds_table():
    # The engine keeps the table as numbers (men, LMGs, teams lost; the score a late
    # vehicle needs) and writes the words from them: they must come out as the seed's.
    assert goms.ACQUISITION == SEED_TABLE
