# mypy: disable-error-code="assignment,index,arg-type"
"""IDA* over compact-ranked pattern databases with each node's children evaluated together:
the 24-puzzle's search (``idastar-pdb`` on boards of more than 16 cells).

Why a kernel of its own: on 5×5 the four 6-6-6-6 tables take 486 MiB, and a node's two reads
(its pattern and its reflected pattern) are cache misses — measured, ``compact_kernel`` there
made 2.5 M nodes/s, its time almost all waiting on memory (huge pages did not help). Here a node,
once expanded, ranks every child's pattern and reflected pattern first (the one tile a move
slides), then reads all the entries in one loop of independent reads — up to six misses in
flight at once instead of one after another — and keeps the children within the bound with
their entries, so that descending into one reads nothing and backing up restores the saved
sums instead of ranking again.

The search is the same as ``compact_kernel``'s: depth-first iterations bounded by f = g +
max(h, h of the reflected state), never the inverse of the move before, the children in the
order U D L R, the wall clock read every 2^16 nodes, the framework's node cap and deadline
passed in. **Nodes.** Generated: every child made and evaluated (the node cap counts these);
expanded: the root of each iteration and every child within the bound that is not the goal
(Korf & Felner's count). The counts of every iteration but the last do not depend on the
order of the moves; the last stops where the goal is met, which the order decides — so the
kernel also returns the nodes expanded before the last iteration. Since the children of a node
are all made before the first is entered, the last iteration may count up to two more generated
nodes per level of the answer's path than ``compact_kernel`` would; expanded nodes are the same.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from puzzlebench.search.pattern_databases.compact_lookup import pattern_rank, sum_h
from puzzlebench.search.sliding.sliding_symmetry import DC, DR
from puzzlebench.solvers.compiled_clock import now

MAX_DEPTH = 255


@numba.njit(cache=True)
def idastar_batch_kernel(start: np.ndarray, rows: int, cols: int, tables: Any, pattern_tiles: np.ndarray,
                         pattern_start: np.ndarray, pattern_size: np.ndarray, pattern_of: np.ndarray,
                         reflect: np.ndarray, popcount: np.ndarray, max_nodes: int,
                         deadline: float) -> tuple[int, np.ndarray, int, int, int, int, int]:
    """(status 1 solved / −1 budget, blank moves 0U 1D 2L 3R, nodes generated, iterations, h0,
    nodes expanded, nodes expanded before the last iteration)."""
    cells = rows * cols
    tiles = start.copy()
    n = pattern_size.shape[0]
    reflecting = reflect[0] >= 0
    pos = np.zeros(cells, np.int64)
    rpos = np.zeros(cells, np.int64)
    hv = np.zeros(n, np.int64)
    rhv = np.zeros(n, np.int64)
    # the start's cells and sums, as in compact_kernel: written out (search/sliding/__init__.py)
    blank = 0
    for q in range(cells):
        t = tiles[q]
        if t < 0:
            blank = q
        else:
            pos[t] = q
            if reflecting:
                rpos[reflect[t]] = reflect[q]
    h = sum_h(pos, hv, tables, pattern_tiles, pattern_start, pattern_size, cells, popcount)
    hr = 0
    if reflecting:
        hr = sum_h(rpos, rhv, tables, pattern_tiles, pattern_start, pattern_size, cells, popcount)
    h0 = max(h, hr)
    if h == 0:
        return 1, np.zeros(0, np.int64), 0, 0, h0, 0, 0
    inverse = (1, 0, 3, 2)
    path = np.zeros(MAX_DEPTH + 1, np.int64)
    # the children kept at each depth: move, new pattern entries, new sums
    kid_n = np.zeros(MAX_DEPTH + 1, np.int64)
    kid_next = np.zeros(MAX_DEPTH + 1, np.int64)
    kid_mv = np.zeros((MAX_DEPTH + 1, 4), np.int64)
    kid_v = np.zeros((MAX_DEPTH + 1, 4), np.int64)
    kid_rv = np.zeros((MAX_DEPTH + 1, 4), np.int64)
    kid_h = np.zeros((MAX_DEPTH + 1, 4), np.int64)
    kid_hr = np.zeros((MAX_DEPTH + 1, 4), np.int64)
    # what entering a child changed, to restore on the way back
    old_v = np.zeros(MAX_DEPTH + 1, np.int64)
    old_rv = np.zeros(MAX_DEPTH + 1, np.int64)
    old_h = np.zeros(MAX_DEPTH + 1, np.int64)
    old_hr = np.zeros(MAX_DEPTH + 1, np.int64)
    # one node's children before they are read
    c_mv = np.zeros(4, np.int64)
    c_p = np.zeros(4, np.int64)
    c_rp = np.zeros(4, np.int64)
    c_r = np.zeros(4, np.int64)
    c_rr = np.zeros(4, np.int64)
    c_v = np.zeros(4, np.int64)
    c_rv = np.zeros(4, np.int64)
    nodes = 0
    expanded = 0
    before_last = 0
    iterations = 0
    bound = h0
    # The IDA* loop, written out in each kernel on purpose: why, in search/sliding/__init__.py
    while True:
        iterations += 1
        before_last = expanded
        next_bound = 1 << 30
        depth = 0
        fresh = True  # the node at ``depth`` was just entered: make its children
        while True:
            if fresh:
                fresh = False
                expanded += 1
                m = 0
                for mv in range(4):
                    if depth > 0 and mv == inverse[path[depth - 1]]:
                        continue
                    nr, nc = blank // cols + DR[mv], blank % cols + DC[mv]
                    if nr < 0 or nr >= rows or nc < 0 or nc >= cols:
                        continue
                    src = nr * cols + nc
                    t = tiles[src]
                    p = pattern_of[t]
                    pos[t] = blank
                    c_r[m] = pattern_rank(pos, p, pattern_tiles, pattern_start, pattern_size, cells, popcount)
                    pos[t] = src
                    c_p[m] = p
                    if reflecting:
                        rt = reflect[t]
                        rp = pattern_of[rt]
                        rpos[rt] = reflect[blank]
                        c_rr[m] = pattern_rank(rpos, rp, pattern_tiles, pattern_start, pattern_size, cells,
                                               popcount)
                        rpos[rt] = reflect[src]
                        c_rp[m] = rp
                    c_mv[m] = mv
                    m += 1
                for i in range(m):  # independent reads: their cache misses overlap
                    c_v[i] = tables[c_p[i]][c_r[i]]
                    if reflecting:
                        c_rv[i] = tables[c_rp[i]][c_rr[i]]
                k = 0
                for i in range(m):
                    nodes += 1
                    if (nodes & 65535) == 0 and now() >= deadline:
                        return -1, np.zeros(0, np.int64), nodes, iterations, h0, expanded, before_last
                    if max_nodes >= 0 and nodes >= max_nodes:
                        return -1, np.zeros(0, np.int64), nodes, iterations, h0, expanded, before_last
                    nh = h - hv[c_p[i]] + c_v[i]
                    nhr = hr - rhv[c_rp[i]] + c_rv[i] if reflecting else 0
                    f = depth + 1 + max(nh, nhr)
                    if f > bound or depth + 1 >= MAX_DEPTH:
                        if f < next_bound:
                            next_bound = f
                        continue
                    kid_mv[depth, k] = c_mv[i]
                    kid_v[depth, k] = c_v[i]
                    kid_rv[depth, k] = c_rv[i]
                    kid_h[depth, k] = nh
                    kid_hr[depth, k] = nhr
                    k += 1
                kid_n[depth] = k
                kid_next[depth] = 0
            if kid_next[depth] == kid_n[depth]:
                if depth == 0:
                    break
                depth -= 1  # back up: the tile returns to where the blank now is
                mv = path[depth]
                src = blank - (DR[mv] * cols + DC[mv])
                t = tiles[src]
                tiles[blank] = t
                tiles[src] = -1
                pos[t] = blank
                hv[pattern_of[t]] = old_v[depth]
                if reflecting:
                    rt = reflect[t]
                    rpos[rt] = reflect[blank]
                    rhv[pattern_of[rt]] = old_rv[depth]
                h = old_h[depth]
                hr = old_hr[depth]
                blank = src
                continue
            i = kid_next[depth]
            kid_next[depth] += 1
            mv = kid_mv[depth, i]
            src = blank + DR[mv] * cols + DC[mv]
            t = tiles[src]
            p = pattern_of[t]
            old_v[depth] = hv[p]
            old_h[depth] = h
            old_hr[depth] = hr
            tiles[blank] = t
            tiles[src] = -1
            pos[t] = blank
            hv[p] = kid_v[depth, i]
            if reflecting:
                rt = reflect[t]
                rp = pattern_of[rt]
                old_rv[depth] = rhv[rp]
                rpos[rt] = reflect[blank]
                rhv[rp] = kid_rv[depth, i]
            h = kid_h[depth, i]
            hr = kid_hr[depth, i]
            path[depth] = mv
            blank = src
            depth += 1
            if h == 0:
                return 1, path[:depth].copy(), nodes, iterations, h0, expanded, before_last
            fresh = True
        bound = next_bound
        if now() >= deadline or (max_nodes >= 0 and nodes >= max_nodes):
            return -1, np.zeros(0, np.int64), nodes, iterations, h0, expanded, before_last
