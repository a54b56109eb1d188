"""The GEM melee walked in double precision (SPEC 3.8), for melees whose exact fraction does
not fit the time bar: the same walk over every state (HIT left to A, HIT left to B) as the
exact one in points/fights.py, never sampled, with a bound on its error.

The walk goes forwards over the states, A's HIT left from the top. A state's round moves
the fight on with chance `ends` (someone is hit) and otherwise repeats, so each state is
left once, its mass divided by `ends`. Within one value of A's HIT left, the states B's
hits alone lead to are reached in order, one after another; every state A's hits on B
lead to is reached by one matrix product a value of A's HIT left, because A's hit table
is the same along it.

All the arithmetic is on chances, which are never negative, so each rounding error is a
relative one and they add up along a path of the walk; `error_bound` says how far.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from math import log1p

# One BLAS thread: an app server answers several requests at once on few cores, and the
# walk's products are small; OpenBLAS's own threads made a loaded 2-core machine 20 times
# slower (0.92 s against 0.04 s for a row's products). Set before numpy is first imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

UNIT_ROUNDOFF = 2.0**-53
MAX_ERROR = 1e-9  # SPEC 3.8: a chance given in double precision is within this of the truth


@dataclass(frozen=True, slots=True)
class Fighter:
    """One side as the walk needs it."""

    attackers: Sequence[int]  # models attacking with `left` HIT left, for left in 0..HIT
    steady: Sequence[tuple[float, float, int]]  # (hit, miss, attacks a model), every round
    first: Sequence[tuple[float, float, int]]  # the same in the first round
    frontage: int  # models attacking at full strength

    @property
    def hit(self) -> int:
        return len(self.attackers) - 1


@dataclass(frozen=True, slots=True)
class Walked:
    """The walk's answers. `a_left[x]`: the chance A ends the fight with x HIT left (a
    fight neither side can go on with ends where it stands, a draw)."""

    a_wins: float
    b_wins: float
    draw: float
    a_left: tuple[float, ...]
    b_left: tuple[float, ...]
    rounds: tuple[tuple[float, float, float, float], ...]  # a wins, b wins, draw, going
    error: float  # every chance above is within this of the exact one


def hit_table(rolls: Sequence[tuple[float, float, int]], most: int, cap: int) -> np.ndarray:
    """rows[m][i]: the chance m attacking models score exactly i hits, m in 0..most, hits
    past `cap` lumped on cap."""
    model = np.ones(1)
    for hit, miss, att in rolls:
        for _ in range(att):
            model = _capped(np.convolve(model, (miss, hit)), cap)
    rows = np.zeros((most + 1, cap + 1))
    rows[0, 0] = 1.0
    row = np.ones(1)
    for m in range(1, most + 1):
        row = _capped(np.convolve(row, model), cap)
        rows[m, : len(row)] = row
    return rows


def _capped(dist: np.ndarray, cap: int) -> np.ndarray:
    if len(dist) <= cap + 1:
        return dist
    out = dist[: cap + 1].copy()
    out[cap] += dist[cap + 1 :].sum()
    return out


def _tails(rows: np.ndarray) -> np.ndarray:
    """tails[m][k]: the chance m models score k hits or more."""
    return np.cumsum(rows[:, ::-1], axis=1)[:, ::-1]


def _misses_all(rolls: Sequence[tuple[float, float, int]]) -> tuple[float, bool]:
    """The log of the chance one model misses with every attack, summed as logs so that 1
    minus a product of such chances keeps its precision (see _ends); and whether a model
    cannot miss at all (a chance of 1)."""
    log = sum(att * log1p(-hit) for hit, _, att in rolls if hit < 1)
    return log, any(hit >= 1 and att > 0 for hit, _, att in rolls)


def _ends(a: Fighter, b: Fighter) -> np.ndarray:
    """ends[s][t]: 1 - (chance s models of A miss all) * (chance t of B do), the chance a
    round with s attackers of A and t of B moves the fight on."""
    (log_a, sure_a), (log_b, sure_b) = _misses_all(a.steady), _misses_all(b.steady)
    s = np.arange(a.frontage + 1)[:, None]
    t = np.arange(b.frontage + 1)[None, :]
    ends = -np.expm1(s * log_a + t * log_b)
    certain = ((s > 0) & sure_a) | ((t > 0) & sure_b)
    return np.where(certain, 1.0, ends)


def stalls(a: Fighter, b: Fighter) -> bool:
    """Neither side can hit the other from the start: the fight never moves."""
    return _ends(a, b)[a.frontage, b.frontage] == 0


def melee(a: Fighter, b: Fighter, rounds: int, round_work: int) -> Walked:
    ha, hb = a.hit, b.hit
    # Hit tables: A's hits land on B (capped at B's HIT), B's on A.
    rows_a = hit_table(a.steady, a.frontage, hb)
    rows_b = hit_table(b.steady, b.frontage, ha)
    tails_a, tails_b = _tails(rows_a), _tails(rows_b)
    att_a, att_b = np.asarray(a.attackers), np.asarray(b.attackers)
    ends_by = _ends(a, b)

    # The first round (a charge may change it) from the start, then the walk.
    first_a = (rows_a if a.first == a.steady else hit_table(a.first, a.frontage, hb))[-1]
    first_b = (rows_b if b.first == b.steady else hit_table(b.first, b.frontage, ha))[-1]
    start = np.zeros((ha + 1, hb + 1))
    start[::-1, ::-1] = np.outer(first_b, first_a)  # start[ha - j][hb - i]

    mass = start.copy()
    stalled = np.zeros((ha + 1, hb + 1))
    by_y = rows_b[att_b[1:]]  # B's hit table for each y in 1..hb (rows: y - 1)
    by_y_tail = tails_b[att_b[1:]]
    # Every count of attackers A has, its moves at once (see _moves).
    counts = sorted(set(att_a[1:].tolist()))
    ends_by_s = ends_by[counts][:, att_b[1:]]
    stalls = ends_by_s <= 0
    ends_by_s[stalls] = np.inf  # a stalled state leaves nothing
    kernels, alongs = _moves(rows_a[counts], tails_a[counts], by_y[:, 0] / ends_by_s)
    place = {count: i for i, count in enumerate(counts)}
    for x in range(ha, 0, -1):
        i = place[int(att_a[x])]
        ends, row = ends_by_s[i], mass[x]
        if stalls[i].any():
            stalled[x, 1:][stalls[i]] = row[1:][stalls[i]]
            row[1:][stalls[i]] = 0.0
        # B scoring nothing while A scores: along the row, at once through its inverse.
        row[:] = alongs[i] @ row
        # B scoring: its hits on A from each y, then A's from the same y, by one product.
        leave = row[1:] / ends
        on_a = by_y[:, 1 : x + 1] * leave[:, None]
        on_a[:, -1] = by_y_tail[:, x] * leave
        mass[x - 1 :: -1] += (kernels[i, 1:].T @ on_a).T
        row[1:] = 0.0
    a_end, b_end = mass[1:, 0], mass[0, 1:]
    a_left = np.concatenate(([b_end.sum() + mass[0, 0]], a_end + stalled[1:, 1:].sum(axis=1)))
    b_left = np.concatenate(([a_end.sum() + mass[0, 0]], b_end + stalled[1:, 1:].sum(axis=0)))
    draw = float(mass[0, 0] + stalled.sum())
    walked_rounds = (
        _rounds(start, rows_a, rows_b, tails_a, tails_b, att_a, att_b, rounds, round_work)
        if rounds
        else ()
    )
    return Walked(
        float(a_end.sum()),
        float(b_end.sum()),
        draw,
        tuple(float(p) for p in a_left),
        tuple(float(p) for p in b_left),
        walked_rounds,
        error_bound(a, b),
    )


def _move_matrices(rows: np.ndarray, tails: np.ndarray) -> np.ndarray:
    """kernel[k][y][y']: the chance the hits of rows[k] take B from y HIT left to y' (every
    hit past y ends at 0)."""
    n = rows.shape[1]
    ys = np.arange(n)
    gap = ys[:, None] - ys[None, :]
    padded = np.zeros((len(rows), 2 * n))
    padded[:, :n] = rows
    kernels = padded[:, np.where(gap >= 0, gap, 2 * n - 1)]
    kernels[:, 1:, 0] = tails[:, 1:]
    return kernels


def _moves(rows: np.ndarray, tails: np.ndarray, stay: np.ndarray) -> tuple[np.ndarray, ...]:
    """For each count of A's attackers k: its moves over B's HIT left (_move_matrices), and
    where a row's mass ends up while B scores nothing (`stay[k][y - 1]`: B scoring nothing
    from y, over `ends`): m = row + L m, L[y][y'] = kernel[y'][y] stay[y' - 1] for y < y'.
    L is strictly upper triangular, so I - L is unit upper triangular: its inverse needs
    no pivoting and, every entry of L being a chance, adds no cancellation."""
    kernels = _move_matrices(rows, tails)
    within = kernels.transpose(0, 2, 1).copy()
    n = within.shape[1]
    within[:, np.arange(n), np.arange(n)] = 0.0
    within[:, :, 1:] *= stay[:, None, :]
    within[:, :, 0] = 0.0
    return kernels, np.linalg.inv(np.eye(n) - within)


def _rounds(
    start: np.ndarray,
    rows_a: np.ndarray,
    rows_b: np.ndarray,
    tails_a: np.ndarray,
    tails_b: np.ndarray,
    att_a: np.ndarray,
    att_b: np.ndarray,
    most: int,
    round_work: int,
) -> tuple[tuple[float, float, float, float], ...]:
    """Round by round, forwards, as the exact table: the first round from the start, then
    each round from the states still fighting, for as long as the work allows; the last
    round shown needs only each state's chance of taking all the other side's HIT."""
    out = [_ending(start)]
    states = start.copy()
    states[0, :] = 0.0
    states[:, 0] = 0.0
    hb = states.shape[1] - 1
    work = 0
    kernels = _move_matrices(rows_a, tails_a)
    for _ in range(2, most + 1):
        if not states.any():
            break
        xs = np.nonzero(states.any(axis=1))[0]
        work += sum(int(x) + 1 for x in xs) * (hb + 1) * hb
        if work > round_work or len(out) == most - 1:
            out.append(_last(states, tails_a, tails_b, att_a, att_b))
            break
        nxt = np.zeros_like(states)
        for x in xs:
            s = int(att_a[x])
            on_a = rows_b[att_b[1:], : x + 1].copy()
            on_a[:, -1] = tails_b[att_b[1:], x]
            kernel = kernels[s, 1:]
            moved = kernel.T @ (states[x, 1:, None] * on_a)
            nxt[x::-1] += moved.T
        out.append(_ending(nxt))
        nxt[0, :] = 0.0
        nxt[:, 0] = 0.0
        states = nxt
    return tuple(out)


def _ending(after: np.ndarray) -> tuple[float, float, float, float]:
    """One round's outcomes from the states it left: A won, B won, both gone, going on."""
    a_w, b_w, draw = after[1:, 0].sum(), after[0, 1:].sum(), after[0, 0]
    return float(a_w), float(b_w), float(draw), float(after[1:, 1:].sum())


def _last(
    states: np.ndarray,
    tails_a: np.ndarray,
    tails_b: np.ndarray,
    att_a: np.ndarray,
    att_b: np.ndarray,
) -> tuple[float, float, float, float]:
    """A round's outcomes from each state's chance of taking all the other side's HIT,
    which the two sides' rolls decide independently."""
    ha, hb = states.shape[0] - 1, states.shape[1] - 1
    x = np.arange(ha + 1)[:, None]
    y = np.arange(hb + 1)[None, :]
    kill_b = tails_a[att_a[x], y]
    kill_a = tails_b[att_b[y], x]
    a_w = (states * kill_b * (1 - kill_a)).sum()
    b_w = (states * kill_a * (1 - kill_b)).sum()
    draw = (states * kill_a * kill_b).sum()
    going = (states * (1 - kill_a) * (1 - kill_b)).sum()
    return float(a_w), float(b_w), float(draw), float(going)


def error_bound(a: Fighter, b: Fighter) -> float:
    """How far any chance of the walk can be from the exact one. Every number the walk adds
    or multiplies is a chance (never negative), so each rounding adds at most one unit
    roundoff to the relative error of what it makes, and a path of the walk adds up those
    of its steps: a hit table entry is at most `_table_depth` operations deep; `ends`, 1
    minus a product, is worked out from logs (a few roundings, and a factor of at most 20
    for the smallest `ends` a hit chance of 1/20 allows); a state's mass is a sum of at
    most ha + 4 hb + 8 numbers (a row's inverse, then its products); a path has at most
    ha + hb steps. The bound is the standard gamma(n) = n u / (1 - n u) of that depth n,
    on chances of at most 1."""
    ha, hb = a.hit, b.hit
    table = _table_depth(a.steady, a.frontage, hb) + _table_depth(b.steady, b.frontage, ha)
    table += _table_depth(a.first, a.frontage, hb) + _table_depth(b.first, b.frontage, ha)
    step = table + 20 * (2 * (ha + hb) + 8) + ha + 4 * hb + 8
    n = (ha + hb + 2) * step
    nu = n * UNIT_ROUNDOFF
    return nu / (1 - nu)


def _table_depth(rolls: Sequence[tuple[float, float, int]], most: int, cap: int) -> int:
    attacks = sum(att for _, _, att in rolls)
    return 2 * attacks + most * (min(attacks, cap) + 2) + cap + 2
