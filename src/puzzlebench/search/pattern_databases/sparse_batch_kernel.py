# mypy: disable-error-code="assignment,index,arg-type"
"""IDA* over sparse-indexed pattern databases with each node's children evaluated together: the
24-puzzle's search (``idastar-pdb`` on boards of more than 16 cells).

``compact_batch_kernel``'s search, move for move, with one change: the tables are the compact
ones spread to sparse indices and laid end to end in one array (``sparse_tables``), so a child's
entry is found by adding ``(new cell − old cell) · weight`` of the tile a move slides to its
pattern's index (and the mirrored tile's to the reflected pattern's), where that kernel ranked
the pattern afresh and picked its table from a tuple. Both indices of each pattern (its part's
start included) are kept with the state and restored on the way back.

The search: depth-first iterations bounded by f = g + max(h, h of the reflected state), never
the inverse of the move before, the children in the order U D L R, a node's children's entries
read in one loop of independent reads, the children within the bound kept with their entries,
the wall clock read every 2^16 nodes, the framework's node cap and deadline passed in. The
tables hold the same values as the compact ones, so the nodes generated and expanded are those
of ``compact_batch_kernel``, node for node (the tests compare them). **Nodes.** Generated: every
child made and evaluated (the node cap counts these); expanded: the root of each iteration and
every child within the bound that is not the goal (Korf & Felner's count); the kernel also
returns the nodes expanded before the last iteration, which the order of the moves cannot change.
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlebench.search.sliding.sliding_symmetry import DC, DR
from puzzlebench.solvers.compiled_clock import now

MAX_DEPTH = 255


@numba.njit(cache=True)
def _indices(tiles: np.ndarray, idx: np.ndarray, ridx: np.ndarray, hv: np.ndarray, rhv: np.ndarray,
             table: np.ndarray, base: np.ndarray, pattern_of: np.ndarray, weight: np.ndarray,
             reflect: np.ndarray) -> tuple[int, int, int]:
    """Each pattern's index into ``table`` (its part's start ``base`` plus its sparse index) and
    entry for ``tiles`` (and the reflected state's): (blank cell, h, reflected h)."""
    idx[:] = 0
    ridx[:] = 0
    blank = 0
    for q in range(tiles.shape[0]):
        t = tiles[q]
        if t < 0:
            blank = q
            continue
        idx[pattern_of[t]] += q * weight[t]
        if reflect[0] >= 0:
            rt = reflect[t]
            ridx[pattern_of[rt]] += reflect[q] * weight[rt]
    h = 0
    hr = 0
    for p in range(idx.shape[0]):
        idx[p] += base[p]
        ridx[p] += base[p]
        hv[p] = table[idx[p]]
        h += hv[p]
        if reflect[0] >= 0:
            rhv[p] = table[ridx[p]]
            hr += rhv[p]
    return blank, h, hr


@numba.njit(cache=True)
def idastar_sparse_kernel(start: np.ndarray, rows: int, cols: int, table: np.ndarray, base: np.ndarray,
                          pattern_of: np.ndarray, weight: np.ndarray, reflect: np.ndarray, max_nodes: int,
                          deadline: float) -> tuple[int, np.ndarray, int, int, int, int, int]:
    """(status 1 solved / −1 budget, blank moves 0U 1D 2L 3R, nodes generated, iterations, h0,
    nodes expanded, nodes expanded before the last iteration)."""
    tiles = start.copy()
    n = base.shape[0]
    reflecting = reflect[0] >= 0
    idx = np.zeros(n, np.int64)
    ridx = np.zeros(n, np.int64)
    hv = np.zeros(n, np.int64)
    rhv = np.zeros(n, np.int64)
    blank, h, hr = _indices(tiles, idx, ridx, hv, rhv, table, base, pattern_of, weight, reflect)
    h0 = max(h, hr)
    if h == 0:
        return 1, np.zeros(0, np.int64), 0, 0, h0, 0, 0
    inverse = (1, 0, 3, 2)
    path = np.zeros(MAX_DEPTH + 1, np.int64)
    kid_n = np.zeros(MAX_DEPTH + 1, np.int64)
    kid_next = np.zeros(MAX_DEPTH + 1, np.int64)
    kid_mv = np.zeros((MAX_DEPTH + 1, 4), np.int64)
    kid_v = np.zeros((MAX_DEPTH + 1, 4), np.int64)
    kid_rv = np.zeros((MAX_DEPTH + 1, 4), np.int64)
    kid_h = np.zeros((MAX_DEPTH + 1, 4), np.int64)
    kid_hr = np.zeros((MAX_DEPTH + 1, 4), np.int64)
    old_v = np.zeros(MAX_DEPTH + 1, np.int64)
    old_rv = np.zeros(MAX_DEPTH + 1, np.int64)
    old_h = np.zeros(MAX_DEPTH + 1, np.int64)
    old_hr = np.zeros(MAX_DEPTH + 1, np.int64)
    c_mv = np.zeros(4, np.int64)
    c_p = np.zeros(4, np.int64)
    c_i = np.zeros(4, np.int64)
    c_rp = np.zeros(4, np.int64)
    c_ri = np.zeros(4, np.int64)
    c_v = np.zeros(4, np.int64)
    c_rv = np.zeros(4, np.int64)
    nodes = 0
    expanded = 0
    before_last = 0
    iterations = 0
    # The IDA* loop, written out in each kernel on purpose: why, in search/sliding/__init__.py
    # (this one moves a pattern index by one multiply-add where the compact kernel re-ranks)
    bound = h0
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
                    c_p[m] = p
                    c_i[m] = idx[p] + (blank - src) * weight[t]
                    if reflecting:
                        rt = reflect[t]
                        rp = pattern_of[rt]
                        c_rp[m] = rp
                        c_ri[m] = ridx[rp] + (reflect[blank] - reflect[src]) * weight[rt]
                    c_mv[m] = mv
                    m += 1
                for i in range(m):  # independent reads: their cache misses overlap
                    c_v[i] = table[c_i[i]]
                    if reflecting:
                        c_rv[i] = table[c_ri[i]]
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
                depth -= 1  # back up: the tile returns from the parent's blank to where the blank now is
                mv = path[depth]
                src = blank - (DR[mv] * cols + DC[mv])
                t = tiles[src]
                tiles[blank] = t
                tiles[src] = -1
                p = pattern_of[t]
                idx[p] += (blank - src) * weight[t]
                hv[p] = old_v[depth]
                if reflecting:
                    rt = reflect[t]
                    rp = pattern_of[rt]
                    ridx[rp] += (reflect[blank] - reflect[src]) * weight[rt]
                    rhv[rp] = old_rv[depth]
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
            idx[p] += (blank - src) * weight[t]
            hv[p] = kid_v[depth, i]
            if reflecting:
                rt = reflect[t]
                rp = pattern_of[rt]
                old_rv[depth] = rhv[rp]
                ridx[rp] += (reflect[blank] - reflect[src]) * weight[rt]
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
