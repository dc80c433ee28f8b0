"""Completing one edge-queen constellation: a bit-parallel depth-first search (numba).

The four edge queens (``puzzlebench_baselines.constellations``) fix rows 0 and n-1, columns 0
and n-1, and — away from the corners — two more rows. The search fills the other rows from
row n-2 upward, one queen per row, with the usual masks of used columns and of the two
diagonal directions (shifted by the distance to the next free row, so the pre-occupied rows
are stepped over); what the edge queens attack is a fixed mask per row. Filling from the
bottom starts beside the representative's bottom queen rather than its top one, which lies
nearest a corner and cuts least: the tree is about 1.6 times smaller at n = 15.

Two kernels share that layout. ``_count_fast`` is the hot one: before descending it checks
that the two rows after the next still have a free square each (a cheap look-ahead: the
first row of it prunes about 15% of the nodes, the second 10% more) and, when one has a
single square, drops the next row's candidates that attack it (11% fewer nodes again; all
branch-free). It places queens down to four free rows left: those four rows, with four
columns left, are counted by two tables without a search or a branch
(``puzzlebench_baselines.constellation_end``; n = 16: 22% fewer queens placed and 14-17%
less CPU time than searching them with the last two in closed form). Its stack and row
layout are interleaved in one array (n = 16: 20% less time than four arrays and a one-row
look-ahead). A level is left as soon as its last candidate is taken (its child returns
straight to the nearest level with candidates left) and the current level's masks are
carried in variables: 6% less CPU time again at n = 16 and 17.
``_count_boards`` keeps every row's queen so that a completion can be compared with its half-
and quarter-turn images; it serves the few representatives a rotation keeps and the tiny
boards (fewer than five free rows). Both read the clock every ~2^20 queens and stop past the
deadline.
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlebench.solvers.compiled_clock import now
from puzzlebench_baselines.constellation_end import (
    DIAG4,
    MASKS4,
    compress4,
    popcount,
    trailing_zeros,
)

#: Kernels read the clock after every ~2^20 queens placed (a few milliseconds).
CLOCK_EVERY = 1 << 20


#: Rows of the kernels' scratch array (7 × n, reused from one sub-problem to the next, so a
#: batch allocates nothing per sub-problem): the layout of the free rows, then the stack.
ROWS, SHIFT, FREE, COLS, LD, RD, AVAIL = range(7)


@numba.njit(cache=True, nogil=True, inline="always")
def _hits(y: int, qy: int, qx: int, n: int) -> int:
    """The squares of row ``y`` on the diagonals of a queen at (qy, qx)."""
    d = y - qy
    out = 0
    if 0 <= qx + d < n:
        out |= 1 << (qx + d)
    if 0 <= qx - d < n:
        out |= 1 << (qx - d)
    return out


@numba.njit(cache=True, nogil=True)
def _layout(n: int, top: int, bottom: int, left: int, right: int, work: np.ndarray) -> int:
    """Fill ``work[ROWS]``, ``work[SHIFT]`` (rows from the previous free row) and
    ``work[FREE]`` (squares the edge queens leave free) for each free row, bottom first;
    return how many rows are free."""
    last = n - 1
    full = (1 << n) - 1
    used = (1 << top) | (1 << bottom) | 1 | (1 << last)
    depth = 0
    prev = last
    for y in range(last - 1, 0, -1):
        if y in (left, right):
            continue
        hit = (_hits(y, 0, top, n) | _hits(y, last, bottom, n) | _hits(y, left, 0, n)
               | _hits(y, right, last, n))
        work[ROWS, depth] = y
        work[SHIFT, depth] = prev - y
        work[FREE, depth] = full & ~(used | hit)
        prev = y
        depth += 1
    return depth


@numba.njit(cache=True, nogil=True)
def _count_fast(n: int, top: int, bottom: int, left: int, right: int, deadline: float,
                work: np.ndarray, fast: np.ndarray) -> tuple[int, int]:
    """(completions, queens placed) for at least five free rows; completions -1 past the
    deadline. ``fast`` (8 × (n + 2)) holds the layout and the stack interleaved, four words
    a row, so one index reaches a row's words (about 12% faster than four arrays); a layout
    row's third word is the level its subtree returns to. Queens are placed down to four
    rows left; those four are counted by table (``constellation_end``)."""
    depth = _layout(n, top, bottom, left, right, work)
    half = 4 * (n + 2)
    lay = fast[:half]  # per free row: squares free of the edge queens, shift to it, return
    st = fast[half:]  # per level: columns, the two diagonals, candidates left
    for i in range(depth):
        lay[4 * i] = work[FREE, i]
        lay[4 * i + 1] = work[SHIFT, i]
    f_last = work[FREE, depth - 1]
    inner = ((1 << n) - 1) & ~((1 << top) | (1 << bottom) | 1 | (1 << (n - 1)))
    # DIAG4's block for the distances between the last four rows (1-3 each)
    pattern = ((work[SHIFT, depth - 3] - 1) * 9 + (work[SHIFT, depth - 2] - 1) * 3
               + work[SHIFT, depth - 1] - 1) * 512
    st[0] = 0
    st[1] = 0
    st[2] = 0
    st[3] = lay[0]
    lay[2] = -4  # where level 0 returns to: nowhere, the search ends
    p = 0  # the current level's offset in ``st`` (4 × level): no multiply per node
    p_end = 4 * (depth - 5)  # the level that leaves four rows: counted by table
    found = 0
    nodes = 0
    check = CLOCK_EVERY
    # A level is left as soon as its last candidate is taken: its child's subtree returns
    # straight to the level ``lay[p + 2]`` names (the nearest one below with candidates
    # left), so no step of the loop pops an empty level. The current level's candidates and
    # masks are carried in variables (registers); ``st`` keeps them for the return.
    a = lay[0]
    if a == 0:
        return 0, 0
    c0 = 0
    ld0 = 0
    rd0 = 0
    while True:
        bit = a & -a
        rest_a = a ^ bit
        st[p + 3] = rest_a
        nodes += 1
        c = c0 | bit
        g = lay[p + 5]
        ld = (ld0 | bit) << g  # unmasked: bits past n are never read (``free`` masks)
        rd = (rd0 | bit) >> g
        if p == p_end:
            # Four rows left and four columns: the ways their free squares allow and the
            # ways that keep the four queens apart, intersected (no search, no branch).
            left4 = inner & ~c
            g2 = lay[p + 9]
            g3 = g2 + lay[p + 13]
            g4 = g3 + lay[p + 17]
            x1 = left4 & -left4
            x4 = left4 ^ x1
            x2 = x4 & -x4
            x4 ^= x2
            x3 = x4 & -x4
            x4 ^= x3
            index = (compress4(lay[p + 4] & ~(c | ld | rd), left4, x1, x2, x3, x4)
                     | compress4(lay[p + 8] & ~(c | (ld << g2) | (rd >> g2)), left4, x1, x2, x3,
                                 x4) << 4
                     | compress4(lay[p + 12] & ~(c | (ld << g3) | (rd >> g3)), left4, x1, x2, x3,
                                 x4) << 8
                     | compress4(f_last & ~(c | (ld << g4) | (rd >> g4)), left4, x1, x2, x3,
                                 x4) << 12)
            t1 = trailing_zeros(x1)
            t2 = trailing_zeros(x2)
            t3 = trailing_zeros(x3)
            gaps = (min(t2 - t1, 7) | min(t3 - t2, 7) << 3 | min(trailing_zeros(x4) - t3, 7) << 6)
            found += popcount(np.int64(MASKS4[index] & DIAG4[pattern + gaps]))
            a = rest_a
            if rest_a == 0:
                p = lay[p + 2]
                if p < 0:
                    break
                a = st[p + 3]
                c0 = st[p]
                ld0 = st[p + 1]
                rd0 = st[p + 2]
            if nodes >= check:  # here, not per node: about 10% faster
                check = nodes + CLOCK_EVERY
                if now() >= deadline:
                    return -1, nodes
            continue
        nxt = lay[p + 4] & ~(c | ld | rd)
        g2 = lay[p + 9]
        after = lay[p + 8] & ~(c | (ld << g2) | (rd >> g2))
        g3 = g2 + lay[p + 13]
        after2 = lay[p + 12] & ~(c | (ld << g3) | (rd >> g3))
        # Branch-free look-ahead over the two rows after the next: one without a square left
        # drops every candidate of the next row; one with a single square left drops the
        # candidates that attack it.
        nxt &= -np.int64((after != 0) & (after2 != 0))
        nxt &= ~((after | (after << g2) | (after >> g2)) & -np.int64(after & (after - 1) == 0))
        nxt &= ~((after2 | (after2 << g3) | (after2 >> g3))
                 & -np.int64(after2 & (after2 - 1) == 0))
        if nxt == 0:
            a = rest_a
            if rest_a == 0:
                p = lay[p + 2]
                if p < 0:
                    break
                a = st[p + 3]
                c0 = st[p]
                ld0 = st[p + 1]
                rd0 = st[p + 2]
            continue
        st[p + 4] = c
        st[p + 5] = ld
        st[p + 6] = rd
        st[p + 7] = nxt
        lay[p + 6] = p if rest_a != 0 else lay[p + 2]
        p += 4
        a = nxt
        c0 = c
        ld0 = ld
        rd0 = rd
    return found, nodes


@numba.njit(cache=True, nogil=True)
def _kept_by(pos: np.ndarray, n: int, quarter: bool) -> bool:
    """Whether the board ``pos`` (row → column) is its own half-turn (``quarter``: its own
    quarter-turn) image."""
    last = n - 1
    for y in range(n):
        if quarter:
            if pos[pos[y]] != last - y:
                return False
        elif pos[last - y] != last - pos[y]:
            return False
    return True


@numba.njit(cache=True, nogil=True)
def _count_boards(n: int, top: int, bottom: int, left: int, right: int, rotation: int,
                  deadline: float, work: np.ndarray) -> tuple[int, int, int, int]:
    """(completions, those kept by a half turn, by a quarter turn, queens placed) by a plain
    search that keeps every row's column; completions -1 past the deadline."""
    depth = _layout(n, top, bottom, left, right, work)
    rows = work[ROWS]
    shift = work[SHIFT]
    free = work[FREE]
    last = n - 1
    full = (1 << n) - 1
    pos = np.zeros(n, np.int64)
    pos[0], pos[last], pos[left], pos[right] = top, bottom, 0, last
    half = 0
    quarter = 0
    if depth == 0:  # the four edge queens are the whole board
        if rotation:
            half = int(_kept_by(pos, n, False))
            quarter = int(rotation == 90 and _kept_by(pos, n, True))
        return 1, half, quarter, 0
    cols_s = work[COLS]
    ld_s = work[LD]
    rd_s = work[RD]
    avail = work[AVAIL]
    cols_s[0] = 0
    ld_s[0] = 0
    rd_s[0] = 0
    avail[0] = free[0]
    k = 0
    found = 0
    nodes = 0
    while k >= 0:
        a = avail[k]
        if a == 0:
            k -= 1
            continue
        bit = a & -a
        avail[k] = a ^ bit
        nodes += 1
        if nodes % CLOCK_EVERY == 0 and now() >= deadline:
            return -1, 0, 0, nodes
        col = 0
        while (1 << col) != bit:
            col += 1
        pos[rows[k]] = col
        if k == depth - 1:
            found += 1
            if rotation and _kept_by(pos, n, False):
                half += 1
                if rotation == 90 and _kept_by(pos, n, True):
                    quarter += 1
            continue
        g = shift[k + 1]
        k += 1
        cols_s[k] = cols_s[k - 1] | bit
        ld_s[k] = ((ld_s[k - 1] | bit) << g) & full
        rd_s[k] = (rd_s[k - 1] | bit) >> g
        avail[k] = free[k] & ~(cols_s[k] | ld_s[k] | rd_s[k])
    return found, half, quarter, nodes


@numba.njit(cache=True, nogil=True)
def count_completions(n: int, top: int, bottom: int, left: int, right: int, rotation: int,
                      deadline: float, work: np.ndarray,
                      fast: np.ndarray) -> tuple[int, int, int, int]:
    """(completions, kept by a half turn, kept by a quarter turn, queens placed) of the edge
    queens given, n ≤ 32, in the scratch space ``work`` (7 × n) and ``fast`` (8 × (n + 2));
    ``rotation`` (0, 180, 90) is the smallest rotation that keeps them (only then are
    completions compared with their images). Completions are -1 when
    ``time.perf_counter()`` passed ``deadline`` first."""
    free_rows = n - 2 - (1 <= left <= n - 2) - (1 <= right <= n - 2)
    if rotation or free_rows < 5:
        return _count_boards(n, top, bottom, left, right, rotation, deadline, work)
    found, nodes = _count_fast(n, top, bottom, left, right, deadline, work, fast)
    return found, 0, 0, nodes


@numba.njit(cache=True, nogil=True)
def count_batch(n: int, table: np.ndarray, deadline: float) -> np.ndarray:
    """``count_completions`` for each row (top, bottom, left, right, rotation) of ``table``,
    one row of (completions, half, quarter, nodes) each; the rows not reached before the
    deadline (and the one it interrupted) have completions -1. The clock is also read between
    sub-problems (every ~2^16 queens), so that many small ones cannot run past it either."""
    out = np.full((table.shape[0], 4), -1, np.int64)
    work = np.zeros((7, n), np.int64)
    fast = np.zeros(8 * (n + 2), np.int64)
    since = 0
    for i in range(table.shape[0]):
        t = table[i]
        found, half, quarter, nodes = count_completions(n, t[0], t[1], t[2], t[3], t[4],
                                                        deadline, work, fast)
        out[i, 0], out[i, 1], out[i, 2], out[i, 3] = found, half, quarter, nodes
        if found < 0:
            break
        since += nodes
        if since >= CLOCK_EVERY >> 4:
            since = 0
            if now() >= deadline:
                break
    return out
