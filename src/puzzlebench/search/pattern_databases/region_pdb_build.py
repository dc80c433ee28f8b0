# mypy: disable-error-code="assignment,index,arg-type,return-value"
"""Compact-ranked pattern databases of up to 8 tiles, built by a breadth-first search over
pattern placements and the blank's *region*.

Why: the 0-1 search of ``pattern_database`` keeps one byte per (placement, blank cell) state —
4.15 G states for an 8-tile pattern on 4×4 — and a sparse ``16^k`` table (4.3 G entries for 8
tiles). Neither fits. Here the blank is abstracted to the connected region of non-pattern cells
it is in (the free moves of the 0-1 search cannot leave that region, and every cell of it is
reached at no cost), named by the region's lowest cell. A move slides a pattern tile that
borders the region into a cell of it; the blank's new region is the one holding the cell the
tile left. Every move costs 1, so the search is a plain breadth-first search; its distances are
those of the 0-1 search, and the minimum over the regions of a placement is the compressed
table's entry (checked against ``pattern_database`` in the tests).

Memory (8 tiles on 4×4): the table, one byte per placement by compact rank (518.9 M entries,
495 MiB — the file on disk), the seen marks, a bit per free cell of a placement (a ``uint8``
when at most 8 cells are free: 495 MiB; else a ``uint16``), and two layer queues of 5 bytes
per state (the packed placement, ``uint32``, and the region's cell, ``uint8``), touched only
as far as the largest layer. Each layer is expanded on every core.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from puzzlebench.search.pattern_databases.pattern_database import popcounts

#: Largest pattern this module builds on boards of up to 16 cells (a packed placement of 4 bits
#: per tile fills a uint32) and on boards of up to 32 (5 bits per tile: 6 tiles in 30 bits).
MAX_COMPACT_PATTERN = 8
MAX_COMPACT_PATTERN_5BIT = 6
MAX_CELLS = 32
UNSEEN = 255


def cell_bits(cells: int) -> int:
    """Bits per tile of a packed placement: 4 on boards of up to 16 cells, else 5."""
    return 4 if cells <= 16 else 5


def max_pattern(cells: int) -> int:
    """The largest pattern this module builds on a board of ``cells`` cells."""
    return MAX_COMPACT_PATTERN if cells <= 16 else MAX_COMPACT_PATTERN_5BIT


@numba.njit(cache=True)
def _neighbours(rows: int, cols: int) -> np.ndarray:
    nb = np.zeros(rows * cols, np.int64)
    for c in range(rows * cols):
        r, q = c // cols, c % cols
        if r > 0:
            nb[c] |= 1 << (c - cols)
        if r < rows - 1:
            nb[c] |= 1 << (c + cols)
        if q > 0:
            nb[c] |= 1 << (c - 1)
        if q < cols - 1:
            nb[c] |= 1 << (c + 1)
    return nb


@numba.njit(cache=True)
def _masks(rows: int, cols: int) -> tuple[np.int64, np.int64, np.int64]:
    """(every cell, cells not in the first column, cells not in the last column)."""
    full = (np.int64(1) << (rows * cols)) - 1
    not_first = np.int64(0)
    not_last = np.int64(0)
    for c in range(rows * cols):
        if c % cols:
            not_first |= np.int64(1) << c
        if c % cols != cols - 1:
            not_last |= np.int64(1) << c
    return full, not_first, not_last


@numba.njit(cache=True)
def region(cell: int, free: np.int64, cols: int, not_first: np.int64, not_last: np.int64) -> np.int64:
    """The cells of ``free`` connected to ``cell`` (itself free), as a bit mask: grown a step
    in all four directions at once until it stops."""
    reg = np.int64(1) << cell
    while True:
        grown = (reg | (reg << cols) | (reg >> cols) | ((reg << 1) & not_first)
                 | ((reg >> 1) & not_last)) & free
        if grown == reg:
            return reg
        reg = grown


@numba.njit(cache=True)
def pop32(x: np.int64, popcount: np.ndarray) -> int:
    """The set bits of a mask of at most 32 bits (two reads of the 16-bit table)."""
    return int(popcount[x & 0xFFFF]) + int(popcount[(x >> 16) & 0xFFFF])


@numba.njit(cache=True)
def lowest(mask: np.int64, popcount: np.ndarray) -> int:
    """The lowest set bit's index of a non-zero mask of at most 32 bits."""
    return pop32((mask & -mask) - 1, popcount)


@numba.njit(cache=True)
def packed_rank(state: np.int64, k: int, cells: int, bits: int, popcount: np.ndarray) -> np.int64:
    """Compact rank of k distinct cells packed ``bits`` bits each (a k-permutation of ``cells``)."""
    used = np.int64(0)
    r = np.int64(0)
    mask = (np.int64(1) << bits) - 1
    for i in range(k):
        p = (state >> np.int64(bits * i)) & mask
        r = r * (cells - i) + p - pop32(used & ((np.int64(1) << p) - 1), popcount)
        used |= np.int64(1) << p
    return r


#: States whose successors are gathered before any seen mark is read (see ``expand_layer``).
CHUNK = 1024


@numba.njit(cache=True)
def _successors(s: np.int64, b0: int, k: int, cells: int, cols: int, bits: int, nb: np.ndarray,
                full: np.int64, not_first: np.int64, not_last: np.int64, popcount: np.ndarray,
                out_t: np.ndarray, out_r: np.ndarray, out_b: np.ndarray, out_bit: np.ndarray, m: int) -> int:
    """Append the successors of state (s, region of cell b0) — packed placement (``bits`` per
    tile), compact rank, region's lowest cell, its seen bit — at position m; returns the new end."""
    mask = (np.int64(1) << bits) - 1
    occ = np.int64(0)
    for j in range(k):
        occ |= np.int64(1) << ((s >> np.int64(bits * j)) & mask)
    free = full & ~occ
    reg = region(b0, free, cols, not_first, not_last)
    for j in range(k):
        p = (s >> np.int64(bits * j)) & mask
        targets = nb[p] & reg
        while targets:
            q = lowest(targets, popcount)
            targets &= targets - 1
            t = (s & ~(mask << np.int64(bits * j))) | (np.int64(q) << np.int64(bits * j))
            nfree = (free & ~(np.int64(1) << q)) | (np.int64(1) << p)
            b = lowest(region(int(p), nfree, cols, not_first, not_last), popcount)
            out_t[m] = t
            out_r[m] = packed_rank(t, k, cells, bits, popcount)
            out_b[m] = b
            out_bit[m] = np.int64(1) << pop32(nfree & ((np.int64(1) << b) - 1), popcount)
            m += 1
    return m


@numba.njit(cache=True, parallel=True)
def expand_layer(cur_p: np.ndarray, cur_b: np.ndarray, n_in: np.ndarray, nxt_p: np.ndarray,
                 nxt_b: np.ndarray, n_out: np.ndarray, seen: np.ndarray, table: np.ndarray, d: int,
                 k: int, rows: int, cols: int, popcount: np.ndarray) -> np.int64:
    """Expand one breadth-first layer, held in the rows of ``cur_p``/``cur_b`` (row t's first
    ``n_in[t]`` entries), into ``nxt_p``/``nxt_b`` (``n_out[t]`` per row; −1: row t overflowed):
    the states first met now, at depth d + 1, whose placements' first entries are set in
    ``table``. One thread per row of the output. Returns the states expanded.

    The seen marks are read at random, one cache miss each: the successors of ``CHUNK`` states
    are gathered first, their marks touched in a loop of independent reads (many misses in
    flight at once), then checked while still in cache. The marks are read and written without
    atomics: a lost mark only lets a state be queued twice (expanded twice, with the same
    successors). A placement's first region writes its entry, and no later write can clear
    every mark of it, so every entry is its depth."""
    threads = nxt_p.shape[0]
    cap = nxt_p.shape[1]
    cells = rows * cols
    bits = 4 if cells <= 16 else 5
    nb = _neighbours(rows, cols)
    full, not_first, not_last = _masks(rows, cols)
    total = np.int64(0)
    for t in range(n_in.shape[0]):
        total += n_in[t]
    expanded = np.int64(0)
    touched = np.zeros(threads, np.int64)
    for th in numba.prange(threads):
        lo = total * th // threads
        hi = total * (th + 1) // threads
        size = CHUNK * 4 * k
        out_t = np.empty(size, np.int64)
        out_r = np.empty(size, np.int64)
        out_b = np.empty(size, np.int64)
        out_bit = np.empty(size, np.int64)
        n = 0
        g = lo
        while g < hi and n >= 0:
            m = 0
            stop = min(hi, g + CHUNK)
            base = np.int64(0)
            for row in range(n_in.shape[0]):  # the chunk's states, wherever their rows are
                first = max(g, base)
                last = min(stop, base + n_in[row])
                for x in range(first, last):
                    m = _successors(np.int64(cur_p[row, x - base]), int(cur_b[row, x - base]), k,
                                    cells, cols, bits, nb, full, not_first, not_last, popcount,
                                    out_t, out_r, out_b, out_bit, m)
                base += n_in[row]
            g = stop
            acc = 0
            for x in range(m):  # independent reads: the misses overlap
                acc += seen[out_r[x]]
            touched[th] += acc
            for x in range(m):
                r = out_r[x]
                bit = out_bit[x]
                mark = seen[r]
                if mark & bit:
                    continue
                if mark == 0:  # the placement's first region: its distance
                    table[r] = d + 1
                seen[r] = mark | bit
                if n < 0 or n >= cap:
                    n = -1
                    continue
                nxt_p[th, n] = np.uint32(out_t[x])
                nxt_b[th, n] = out_b[x]
                n += 1
        n_out[th] = n
        expanded += max(hi - lo, 0)
    return expanded if touched.sum() >= 0 else -expanded


@numba.njit(cache=True)
def goal_states(goal_cells: np.ndarray, rows: int, cols: int, seen: np.ndarray, table: np.ndarray,
                cur_p: np.ndarray, cur_b: np.ndarray, popcount: np.ndarray, blank_goal: int) -> int:
    """The first layer: the goal placement with the blank in the region of the free cells that
    holds ``blank_goal`` (−1: in each region) (into row 0 of ``cur_p``/``cur_b``); returns how
    many."""
    k = goal_cells.shape[0]
    bits = 4 if rows * cols <= 16 else 5
    full, not_first, not_last = _masks(rows, cols)
    goal = np.int64(0)
    occupied = np.int64(0)
    for j in range(k):
        goal |= np.int64(goal_cells[j]) << np.int64(bits * j)
        occupied |= np.int64(1) << goal_cells[j]
    free = full & ~occupied
    r0 = packed_rank(goal, k, rows * cols, bits, popcount)
    table[r0] = 0
    n = 0
    left = free
    while left:
        c = lowest(left, popcount)
        reg = region(c, free, cols, not_first, not_last)
        left &= ~reg
        if blank_goal >= 0 and not (reg >> blank_goal) & 1:
            continue
        seen[r0] |= np.int64(1) << pop32(free & ((np.int64(1) << c) - 1), popcount)
        cur_p[0, n] = np.uint32(goal)
        cur_b[0, n] = c
        n += 1
    return n


def build_compact_table(goal_cells: tuple[int, ...], rows: int, cols: int,
                        threads: int | None = None, blank_goal: int = -1) -> tuple[np.ndarray, int]:
    """(the compact-ranked one-byte table, abstract states expanded) of a pattern of 1..8 tiles
    on a board of at most 16 cells, or of 1..6 tiles on one of at most 32 (5 bits a tile: the
    24-puzzle's 6-tile patterns, 127.5 M entries each), on ``threads`` threads (default:
    numba's, one per core).
    The goal: the tiles home, the blank in the region of ``blank_goal`` (−1: in any region; a
    weaker table when the goal placement splits the free cells, as tiles 1-7 of the 15-puzzle
    do: cell 0 and the bottom two rows).

    The arrays are made here by numpy, which asks Linux for huge pages on large ones: the seen
    marks and the table are read at random, and huge pages spare most of the TLB misses."""
    k = len(goal_cells)
    n = rows * cols
    if n > MAX_CELLS:
        raise ValueError(f"a compact pattern database is built on boards of at most {MAX_CELLS} cells")
    if not 1 <= k <= max_pattern(n):
        raise ValueError(f"a compact pattern on {n} cells holds 1..{max_pattern(n)} tiles, got {k}")
    if len(set(goal_cells)) != k or not all(0 <= c < n for c in goal_cells):
        raise ValueError(f"pattern cells {goal_cells} do not fit a {rows}x{cols} board")
    if k >= n:
        raise ValueError("a pattern must leave a cell for the blank")
    if blank_goal >= 0 and (blank_goal in goal_cells or blank_goal >= n):
        raise ValueError(f"the blank's goal cell {blank_goal} must be a free cell of the board")
    threads = threads or numba.get_num_threads()
    total = math.perm(rows * cols, k)
    # A layer row holds at most one thread's share of new states; a layer of the 8-tile pattern
    # peaks far below its 518.9 M placements. Only the pages written are ever resident.
    capacity = max(total // threads + 1, 64)
    popcount = popcounts()
    table = np.full(total, UNSEEN, np.uint8)
    free = rows * cols - k  # a seen bit per free cell
    seen = np.zeros(total, np.uint8 if free <= 8 else np.uint16 if free <= 16 else np.uint32)
    cur_p = np.empty((threads, capacity), np.uint32)
    cur_b = np.empty((threads, capacity), np.uint8)
    nxt_p = np.empty((threads, capacity), np.uint32)
    nxt_b = np.empty((threads, capacity), np.uint8)
    n_in = np.zeros(threads, np.int64)
    n_out = np.zeros(threads, np.int64)
    n_in[0] = goal_states(np.asarray(goal_cells, np.int64), rows, cols, seen, table, cur_p, cur_b, popcount,
                          blank_goal)
    expanded = 0
    d = 0
    while n_in.sum() > 0:
        expanded += int(expand_layer(cur_p, cur_b, n_in, nxt_p, nxt_b, n_out, seen, table, d, k, rows,
                                     cols, popcount))
        if (n_out < 0).any():
            raise MemoryError(f"a breadth-first layer outgrew {capacity:,} states per thread")
        cur_p, nxt_p = nxt_p, cur_p
        cur_b, nxt_b = nxt_b, cur_b
        n_in, n_out = n_out, n_in
        d += 1
    del seen, cur_p, cur_b, nxt_p, nxt_b
    return table, expanded


def compact_rank(cells_of_tiles: tuple[int, ...], cells: int) -> int:
    """The compact rank of a placement (the cell of each pattern tile, in pattern order)."""
    used: set[int] = set()
    r = 0
    for i, c in enumerate(cells_of_tiles):
        r = r * (cells - i) + c - sum(1 for u in used if u < c)
        used.add(c)
    return r
