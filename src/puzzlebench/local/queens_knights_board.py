# mypy: disable-error-code="assignment,index,arg-type,no-untyped-def"
"""A queens-and-knights board as the compiled hill climbing keeps it: each piece's kind and
square, and per piece the number of pieces it conflicts with, so a candidate move is scored
in O(n) and applied in O(n); the random start placements; the neighbourhoods' candidate moves;
the objective (see ``local.hill_climbing``)."""

from __future__ import annotations

import numba
import numpy as np

from puzzlebench.local.compiled_random import below

DR = np.array([-1, -1, -1, 0, 0, 1, 1, 1], np.int64)


DC = np.array([-1, 0, 1, -1, 1, -1, 0, 1], np.int64)


@numba.njit(cache=True, inline="always")
def clash(qa: bool, ra: int, ca: int, qb: bool, rb: int, cb: int) -> int:
    """1 when two pieces conflict (either attacks the other, or one square)."""
    dr, dc = abs(ra - rb), abs(ca - cb)
    if dr == 0 and dc == 0:
        return 1
    if (qa or qb) and (dr == 0 or dc == 0 or dr == dc):
        return 1
    if ((not qa) or (not qb)) and ((dr == 1 and dc == 2) or (dr == 2 and dc == 1)):
        return 1
    return 0


@numba.njit(cache=True)
def recount(queen: np.ndarray, pr: np.ndarray, pc: np.ndarray, cnt: np.ndarray) -> int:
    n = queen.shape[0]
    cnt[:] = 0
    for i in range(n):
        for j in range(i + 1, n):
            if clash(queen[i], pr[i], pc[i], queen[j], pr[j], pc[j]):
                cnt[i] += 1
                cnt[j] += 1
    h = 0
    for i in range(n):
        if cnt[i] > 0:
            h += 1
    return h


@numba.njit(cache=True)
def score_move(queen, pr, pc, cnt, p, r, c) -> int:
    """Pieces in conflict after piece p moves to (r, c): O(n)."""
    n = queen.shape[0]
    h = 0
    hp = 0
    for j in range(n):
        if j == p:
            continue
        old = clash(queen[p], pr[p], pc[p], queen[j], pr[j], pc[j])
        new = clash(queen[p], r, c, queen[j], pr[j], pc[j])
        if cnt[j] - old + new > 0:
            h += 1
        hp += new
    if hp > 0:
        h += 1
    return h


@numba.njit(cache=True)
def apply_move(queen, pr, pc, cnt, occ, n, p, r, c) -> None:
    total = 0
    for j in range(queen.shape[0]):
        if j == p:
            continue
        old = clash(queen[p], pr[p], pc[p], queen[j], pr[j], pc[j])
        new = clash(queen[p], r, c, queen[j], pr[j], pc[j])
        cnt[j] += new - old
        total += new
    cnt[p] = total
    occ[pr[p] * n + pc[p]] = -1
    pr[p], pc[p] = r, c
    occ[r * n + c] = p


@numba.njit(cache=True)
def random_placement(n, queens, state, queen, pr, pc, occ, one_per_row) -> None:
    if one_per_row:  # for row-preserving neighbourhoods: a random permutation of columns
        cols = np.arange(n)
        for i in range(n):
            j = i + below(state, n - i)
            cols[i], cols[j] = cols[j], cols[i]
        occ[:] = -1
        for i in range(n):
            queen[i] = i < queens
            pr[i], pc[i] = i, cols[i]
            occ[i * n + cols[i]] = i
        return
    squares = np.arange(n * n)
    for i in range(n):  # partial Fisher-Yates: n distinct squares
        j = i + below(state, n * n - i)
        squares[i], squares[j] = squares[j], squares[i]
    occ[:] = -1
    for i in range(n):
        queen[i] = i < queens
        pr[i], pc[i] = squares[i] // n, squares[i] % n
        occ[squares[i]] = i


@numba.njit(cache=True)
def candidate(n, hood, p, k, pr, pc) -> tuple:
    """The k-th candidate square of piece p under the neighbourhood (-1 if none)."""
    if hood == 0:  # any square
        return k // n, k % n
    if hood == 2:  # its row
        return pr[p], k
    # one step
    r, c = pr[p] + DR[k], pc[p] + DC[k]
    if r < 0 or r >= n or c < 0 or c >= n:
        return -1, -1
    return r, c


@numba.njit(cache=True)
def objective(cnt: np.ndarray, h: int, pairs: bool) -> int:
    """The traced objective: attacking pairs (nqueens) or pieces in conflict (queens-knights)."""
    if not pairs:
        return h
    total = 0
    for i in range(cnt.shape[0]):
        total += cnt[i]
    return total // 2
