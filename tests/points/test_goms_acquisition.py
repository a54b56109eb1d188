"""The acquisition and manpower roll in the engine: dice from a seed, rerolls, totals."""

from __future__ import annotations

import random
import re

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


@pytest.mark.parametrize("score", range(1, 7))
def test_loss_counts_agree_with_the_tables_words(score):
    i = score - 1
    infantry = goms.ACQUISITION["infantry"][i]
    men = re.search(r"Lose (\d) m[ae]n", infantry)
    assert goms.MEN_LOST[i] == (int(men.group(1)) if men else 0)
    assert goms.LMGS_LOST[i] == ("LMG" in infantry)
    teams = re.search(r"Lose (\d) team", goms.ACQUISITION["specialists"][i])
    assert goms.TEAMS_LOST[i] == (int(teams.group(1)) if teams else 0)
    for row, arrives in goms.ARRIVES_ON.items():
        words = goms.ACQUISITION[row][i]
        if arrives[i] is None:
            assert words == "Doesn't show"
        elif arrives[i] == 0:
            assert words == "Starts on table"
        else:
            assert words == f"Arrives on a {arrives[i]}+"
