"""Counting n-queens solutions with all eight symmetries of the square (bitboards, numba).

Each orbit of solutions under rotation and reflection is represented by its lexicographic
minimum (rows read top to bottom, ``cols[row]``), so the enumeration only has to reach the
candidates that can be such a minimum; every canonical one found adds its orbit size to the
total and one to the unique count. This is the scheme of Takahashi's well-known counter,
derived here from the definition of the minimum rather than copied:

* The minimum's first-row column ``m`` is the smallest distance from a corner, along its
  edge, of any of the four edge queens (every symmetry maps edge queens to edge queens).
* ``m = 0`` (a corner queen): a solution has at most one corner queen, so the only
  symmetries that keep it in the top-left corner are the identity and the transpose; the
  minimum is the one whose column-1 queen lies below row 1's queen, so column 1 is barred
  above that row. No solution is fixed by any symmetry here: every orbit has eight members.
* ``m ≥ 1``: the side queens must lie in rows ``m .. n-1-m`` and the bottom queen in columns
  ``m .. n-1-m``; at row ``n-1-m`` at least one side column must already be used, and if only
  one is, this row's queen goes on the other. Candidates that pass are checked against all
  seven images at the leaf; a solution fixed by a 90° rotation has an orbit of 2, one fixed by
  180° an orbit of 4 (reflections never fix a solution for n > 1).

The search is split into tasks by the first two rows (and row 2's column) and run on every
core by threads (the kernel releases the GIL), so uneven tasks balance themselves. ``nodes`` counts the queens
placed by the reduced search, which is several times smaller than the mirror-only tree.
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlebench.solvers.compiled_clock import now
from puzzlebench_baselines.bitboard_tasks import run_tasks

_DEBRUIJN = np.array([0, 1, 2, 53, 3, 7, 54, 27, 4, 38, 41, 8, 34, 55, 48, 28, 62, 5, 39, 46,
                      44, 42, 22, 9, 24, 35, 59, 56, 49, 18, 29, 11, 63, 52, 6, 26, 37, 40,
                      33, 47, 61, 45, 43, 21, 23, 58, 17, 10, 51, 25, 36, 32, 60, 20, 57, 16,
                      50, 31, 19, 15, 30, 14, 13, 12], np.int64)


#: Kernels read the clock when ``nodes & CLOCK_MASK == 0`` (every ~10^6 nodes, ~5 ms).
CLOCK_MASK = (1 << 20) - 1


@numba.njit(cache=True, inline="always")
def bit_index(bit: int) -> int:
    """Index of a single set bit (de Bruijn multiplication)."""
    return _DEBRUIJN[((np.uint64(bit) * np.uint64(0x022FDD63CC95386D)) >> np.uint64(58))]


@numba.njit(cache=True)
def orbit_if_canonical(pos: np.ndarray, inv: np.ndarray, n: int) -> int:
    """Orbit size (2, 4 or 8) when ``pos`` is the lexicographic minimum of its images, else 0."""
    for r in range(n):
        inv[pos[r]] = r
    last = n - 1
    same90 = True
    same180 = True
    for t in range(1, 8):
        equal = True
        for r in range(n):
            if t == 1:  # mirror left-right
                v = last - pos[r]
            elif t == 2:  # flip top-bottom
                v = pos[last - r]
            elif t == 3:  # rotate 180
                v = last - pos[last - r]
            elif t == 4:  # transpose
                v = inv[r]
            elif t == 5:  # rotate 90
                v = last - inv[r]
            elif t == 6:  # rotate 270
                v = inv[last - r]
            else:  # anti-transpose
                v = last - inv[last - r]
            if v != pos[r]:
                if v < pos[r]:
                    return 0
                equal = False
                break
        if t == 3:
            same180 = equal
        elif t == 5:
            same90 = equal
    if same90:
        return 2
    if same180:
        return 4
    return 8


@numba.njit(cache=True, inline="always")
def _side_rule(avail: int, cols: int, side: int) -> int:
    """Row n-1-m: no side column used yet is a dead end; one used forces the other."""
    used = cols & side
    if used == 0:
        return 0
    if used != side:
        return avail & side
    return avail


@numba.njit(cache=True, nogil=True)
def count_task(n: int, c0: int, c1: int, row2: int, deadline: float) -> tuple[int, int, int]:
    """(solutions, unique solutions, nodes) among canonical boards with row 0 at column
    ``c0``, row 1 at column ``c1`` (``c0 = 0``: the corner case) and row 2 within the column
    mask ``row2``; nodes of rows 2 and below (rows 0 and 1 are counted once per pair by
    ``count_symmetric``). The clock is read every 2^20 nodes: past ``deadline`` the task
    stops and returns a total of -1 (its count is incomplete)."""
    full = (1 << n) - 1
    last = n - 1
    side = 1 | (1 << last)
    excl = np.zeros(n, np.int64)
    if c0 == 0:
        bound2 = -1
        for r in range(2, c1):
            excl[r] = 2  # column 1 only below row 1's queen
    else:
        bound2 = last - c0
        for r in range(n):
            if r < c0 or r > bound2:
                excl[r] = side
        lastmask = 0
        for k in range(c0):
            lastmask |= (1 << k) | (1 << (last - k))
        excl[last] |= lastmask
    b0 = 1 << c0
    b1 = 1 << c1
    cols_s = np.zeros(n, np.int64)
    ld_s = np.zeros(n, np.int64)
    rd_s = np.zeros(n, np.int64)
    avail = np.zeros(n, np.int64)
    bits = np.zeros(n, np.int64)
    pos = np.zeros(n, np.int64)
    inv = np.zeros(n, np.int64)
    bits[0] = b0
    bits[1] = b1
    cols = b0 | b1
    ld = (((b0 << 1) | b1) << 1) & full
    rd = ((b0 >> 1) | b1) >> 1
    nodes = 0
    total = 0
    unique = 0
    row = 2
    cols_s[row] = cols
    ld_s[row] = ld
    rd_s[row] = rd
    a = full & ~(cols | ld | rd | excl[row]) & row2
    if row == bound2:
        a = _side_rule(a, cols, side)
    avail[row] = a
    while row >= 2:
        a = avail[row]
        if a == 0:
            row -= 1
            continue
        bit = a & -a
        avail[row] = a ^ bit
        bits[row] = bit
        nodes += 1
        if (nodes & CLOCK_MASK) == 0 and now() >= deadline:
            return -1, 0, nodes
        c = cols_s[row] | bit
        lnext = ((ld_s[row] | bit) << 1) & full
        rnext = (rd_s[row] | bit) >> 1
        nxt = full & ~(c | lnext | rnext | excl[row + 1])
        if row + 1 == bound2:
            nxt = _side_rule(nxt, c, side)
        if row + 1 == last:
            if nxt != 0:  # the last row has one free column at most
                nodes += 1
                if c0 == 0:
                    total += 8
                    unique += 1
                else:
                    bits[last] = nxt
                    for r in range(n):
                        pos[r] = bit_index(bits[r])
                    orbit = orbit_if_canonical(pos, inv, n)
                    if orbit:
                        total += orbit
                        unique += 1
            continue
        row += 1
        cols_s[row] = c
        ld_s[row] = lnext
        rd_s[row] = rnext
        avail[row] = nxt
    return total, unique, nodes


def first_rows(n: int) -> list[tuple[int, int]]:
    """(row-0 column, row-1 column) of every canonical candidate: the corner case (row 1 not
    in column n-1, whose column-1 queen could not lie lower) and each m with 2m < n-1 (row 1
    off the side columns when 1 < m)."""
    pairs = [(0, c1) for c1 in range(2, n - 1)]
    m = 1
    while 2 * m < n - 1:
        pairs.extend((m, c1) for c1 in range(n)
                     if abs(c1 - m) > 1 and not (m > 1 and c1 in (0, n - 1)))
        m += 1
    return pairs


def tasks(n: int) -> list[tuple[int, int, int]]:
    """(row-0 column, row-1 column, row-2 mask) for every task, split by row 2's column when
    n ≥ 12 so that a time budget is checked often (a task at n = 17 takes milliseconds) and both
    cores stay busy to the end."""
    if n < 12:
        return [(c0, c1, (1 << n) - 1) for c0, c1 in first_rows(n)]
    return [(c0, c1, 1 << c2) for c0, c1 in first_rows(n) for c2 in range(n)
            if c2 not in (c0, c1, c0 - 2, c0 + 2) and abs(c2 - c1) != 1]


def count_symmetric(
    n: int, workers: int | None = None, deadline: float = float("inf")
) -> tuple[int, int, int] | None:
    """(solutions, unique solutions, nodes) for nqueens n ≤ 32 on ``workers`` threads, or None
    when the ``time.perf_counter()`` deadline came first."""
    if n == 1:
        return 1, 1, 1
    if n < 4:
        return 0, 0, 0
    results = run_tasks(lambda t: count_task(n, *t, deadline), tasks(n), deadline, workers)
    if results is None or any(int(r[0]) < 0 for r in results):
        return None
    return (sum(int(r[0]) for r in results), sum(int(r[1]) for r in results),
            2 * len(first_rows(n)) + sum(int(r[2]) for r in results))
