# mypy: disable-error-code="no-untyped-def"
"""Minton et al.'s greedy start for min-conflicts (1992): rows in order, each queen on the
column with the fewest conflicts with the queens already placed, ties broken at random.

Scoring every column of every row would cost n² — 10^12 squares at n = 10^6 — so the kernel
finds the same choice cheaply. A square with no conflict lies in a column with no queen yet,
so it first draws random free columns (a swap-removed list) until one has both diagonals
empty: a uniform draw among the conflict-free squares. After as many draws as there are free
columns without one, it scans the free columns; only when none is conflict-free does it score
every column (every free one when the placement must be a permutation) and pick uniformly
among the least-conflicted. Each route picks uniformly among the minima, so the start is
exactly Minton's; each square scored is one evaluation (``contract.EFFORT_UNIT``).

Compiled with numba; memory is O(n). Random draws come from a splitmix64 state seeded by the
run's generator.
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlebench.local.compiled_random import below, new_state
from puzzlebench.solvers.queens_keys_jit import diagonal_keys_jit, diagonal_lines_jit


def greedy_placement(n: int, torus: bool, rng: np.random.Generator, fixed_rows: np.ndarray,
                     fixed_cols: np.ndarray, permutation: bool) -> tuple[np.ndarray, int]:
    """The greedy start's columns (pre-placed queens on their squares) and the squares it
    scored; ``permutation`` keeps the columns distinct (the swap neighbourhood)."""
    return _greedy(n, torus, np.asarray(fixed_rows, np.int64), np.asarray(fixed_cols, np.int64),
                   permutation, new_state(rng))


@numba.njit(cache=True)
def _place(r, c, n, torus, cols, col, d1, d2, free, pos, nfree):
    """Put row r's queen on column c; returns the free columns left."""
    cols[r] = c
    if col[c] == 0:  # swap-remove c from the free list
        last = free[nfree - 1]
        free[pos[c]] = last
        pos[last] = pos[c]
        pos[c] = -1
        nfree -= 1
    col[c] += 1
    a, d = diagonal_keys_jit(r, c, n, torus)
    d1[a] += 1
    d2[d] += 1
    return nfree


@numba.njit(cache=True)
def _least(r, n, torus, col, d1, d2, free, nfree, only_free, state):
    """A uniform choice among the least-conflicted columns of row r (every column, or the free
    ones); returns it and the squares scored."""
    m = nfree if only_free else n
    best, ties = 1 << 62, 0
    for i in range(m):
        c = free[i] if only_free else i
        a, d = diagonal_keys_jit(r, c, n, torus)
        s = col[c] + d1[a] + d2[d]
        if s < best:
            best, ties = s, 1
        elif s == best:
            ties += 1
    k = below(state, ties)
    for i in range(m):
        c = free[i] if only_free else i
        a, d = diagonal_keys_jit(r, c, n, torus)
        if col[c] + d1[a] + d2[d] == best:
            if k == 0:
                return c, m
            k -= 1
    return -1, m  # pragma: no cover - unreachable: ties ≥ 1


@numba.njit(cache=True)
def _greedy(n, torus, fixed_rows, fixed_cols, permutation, state):
    lines = diagonal_lines_jit(n, torus)
    cols = np.full(n, -1, np.int64)
    col = np.zeros(n, np.int64)
    d1 = np.zeros(lines, np.int64)
    d2 = np.zeros(lines, np.int64)
    free = np.arange(n)
    pos = np.arange(n)
    nfree = n
    placed = np.zeros(n, np.bool_)
    for i in range(fixed_rows.size):
        nfree = _place(fixed_rows[i], fixed_cols[i], n, torus, cols, col, d1, d2, free, pos,
                       nfree)
        placed[fixed_rows[i]] = True
    scored = 0
    for r in range(n):
        if placed[r]:
            continue
        chosen = -1
        for _ in range(nfree):  # random free columns until one is conflict-free
            c = free[below(state, nfree)]
            scored += 1
            a, d = diagonal_keys_jit(r, c, n, torus)
            if d1[a] == 0 and d2[d] == 0:
                chosen = c
                break
        if chosen < 0 and nfree > 0:  # the free columns in full: the conflict-free ones
            zeros = 0
            for i in range(nfree):
                a, d = diagonal_keys_jit(r, free[i], n, torus)
                if d1[a] == 0 and d2[d] == 0:
                    zeros += 1
            scored += nfree
            if zeros > 0:
                k = below(state, zeros)
                for i in range(nfree):
                    a, d = diagonal_keys_jit(r, free[i], n, torus)
                    if d1[a] == 0 and d2[d] == 0:
                        if k == 0:
                            chosen = free[i]
                            break
                        k -= 1
        if chosen < 0:  # no conflict-free square: the least-conflicted
            chosen, m = _least(r, n, torus, col, d1, d2, free, nfree,
                               permutation and nfree > 0, state)
            scored += m
        nfree = _place(r, chosen, n, torus, cols, col, d1, d2, free, pos, nfree)
    return cols, scored
