# mypy: disable-error-code="assignment,index,arg-type"
"""IDA* over compact-ranked pattern databases (``idastar-pdb`` with ``partition="7-8"``, and
its 6-6-6-6 search of the 24-puzzle).

The same depth-first iterations as ``idastar_pdb_kernel`` (never the inverse of the move
before, the wall clock read every 2^16 nodes), but the estimate of a pattern is read by the
compact rank of its tiles' cells, recomputed for the pattern a move touches and, with the
reflection, for the reflected state's pattern the mirrored move touches. The dual estimate,
when asked for, is read only at a node that the other two let through (it can only cut more)
and whose blank is on its goal cell (``compact_lookup``: elsewhere the dual is no state of the
puzzle at the same distance).

**Nodes.** Two counts: generated (every child made, before its estimate is read — the framework's
``nodes_generated`` and the node cap) and expanded (the root of each iteration and every child
within the bound, whose children are then generated; the goal is not expanded) — the count Korf
& Felner (2002) publish for the 24-puzzle.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from puzzlebench.search.pattern_databases.compact_lookup import dual_h, pattern_h, sum_h
from puzzlebench.search.sliding.sliding_symmetry import DC, DR
from puzzlebench.solvers.compiled_clock import now


@numba.njit(cache=True)
def _move(t: int, to: int, pos: np.ndarray, rpos: np.ndarray, hv: np.ndarray, rhv: np.ndarray,
          h: int, hr: int, tables: Any, pattern_tiles: np.ndarray, pattern_start: np.ndarray,
          pattern_size: np.ndarray, pattern_of: np.ndarray, reflect: np.ndarray,
          cells: int, popcount: np.ndarray) -> tuple[int, int]:
    """Tile t now stands on ``to``: the regular and reflected sums, updated."""
    pos[t] = to
    p = pattern_of[t]
    new = pattern_h(pos, p, tables, pattern_tiles, pattern_start, pattern_size, cells, popcount)
    h += new - hv[p]
    hv[p] = new
    if reflect[0] >= 0:
        rt = reflect[t]
        rpos[rt] = reflect[to]
        rp = pattern_of[rt]
        new = pattern_h(rpos, rp, tables, pattern_tiles, pattern_start, pattern_size, cells, popcount)
        hr += new - rhv[rp]
        rhv[rp] = new
    return h, hr


@numba.njit(cache=True)
def idastar_compact_kernel(start: np.ndarray, rows: int, cols: int, tables: Any, pattern_tiles: np.ndarray,
                           pattern_start: np.ndarray, pattern_size: np.ndarray, pattern_of: np.ndarray,
                           reflect: np.ndarray, popcount: np.ndarray, dual: bool, max_nodes: int,
                           deadline: float) -> tuple[int, np.ndarray, int, int, int, int, int]:
    """(status 1 solved / −1 budget, blank moves 0U 1D 2L 3R, nodes generated, iterations, h0,
    nodes the dual estimate cut off, nodes expanded)."""
    cells = rows * cols
    tiles = start.copy()
    n = pattern_size.shape[0]
    pos = np.zeros(cells, np.int64)
    rpos = np.zeros(cells, np.int64)
    dpos = np.zeros(cells, np.int64)
    hv = np.zeros(n, np.int64)
    rhv = np.zeros(n, np.int64)
    # the start's cells and sums, as in compact_batch_kernel: written out (search/sliding/__init__.py)
    blank = 0
    for q in range(cells):
        t = tiles[q]
        if t < 0:
            blank = q
        else:
            pos[t] = q
            if reflect[0] >= 0:
                rpos[reflect[t]] = reflect[q]
    h = sum_h(pos, hv, tables, pattern_tiles, pattern_start, pattern_size, cells, popcount)
    hr = 0
    if reflect[0] >= 0:
        hr = sum_h(rpos, rhv, tables, pattern_tiles, pattern_start, pattern_size, cells, popcount)
    h0 = max(h, hr)
    if dual and blank == 0:
        h0 = max(h0, dual_h(tiles, dpos, tables, pattern_tiles, pattern_start, pattern_size, popcount))
    if h == 0:
        return 1, np.zeros(0, np.int64), 0, 0, h0, 0, 0
    inverse = (1, 0, 3, 2)
    max_depth = 255
    path = np.zeros(max_depth + 1, np.int64)
    next_mv = np.zeros(max_depth + 1, np.int64)
    nodes = 0
    expanded = 0
    dual_cuts = 0
    iterations = 0
    bound = h0
    # The IDA* loop, written out in each kernel on purpose: why, in search/sliding/__init__.py
    while True:
        iterations += 1
        expanded += 1  # the root
        next_bound = 1 << 30
        depth = 0
        next_mv[0] = 0
        while True:
            if next_mv[depth] == 4:
                if depth == 0:
                    break
                depth -= 1  # back up: the tile returns to where the blank now is
                mv = path[depth]
                src = blank - (DR[mv] * cols + DC[mv])
                t = tiles[src]
                tiles[blank] = t
                tiles[src] = -1
                h, hr = _move(t, blank, pos, rpos, hv, rhv, h, hr, tables, pattern_tiles, pattern_start,
                              pattern_size, pattern_of, reflect, cells, popcount)
                blank = src
                continue
            mv = next_mv[depth]
            next_mv[depth] += 1
            if depth > 0 and mv == inverse[path[depth - 1]]:
                continue
            nr, nc = blank // cols + DR[mv], blank % cols + DC[mv]
            if nr < 0 or nr >= rows or nc < 0 or nc >= cols:
                continue
            src = nr * cols + nc
            nodes += 1
            if (nodes & 65535) == 0 and now() >= deadline:
                return -1, np.zeros(0, np.int64), nodes, iterations, h0, dual_cuts, expanded
            if max_nodes >= 0 and nodes >= max_nodes:
                return -1, np.zeros(0, np.int64), nodes, iterations, h0, dual_cuts, expanded
            t = tiles[src]
            tiles[blank] = t
            tiles[src] = -1
            h, hr = _move(t, blank, pos, rpos, hv, rhv, h, hr, tables, pattern_tiles, pattern_start,
                          pattern_size, pattern_of, reflect, cells, popcount)
            f = depth + 1 + max(h, hr)
            if dual and src == 0 and f <= bound and h > 0:
                fd = depth + 1 + dual_h(tiles, dpos, tables, pattern_tiles, pattern_start, pattern_size,
                                        popcount)
                if fd > bound:
                    dual_cuts += 1
                    f = fd
            path[depth] = mv
            if f > bound or depth + 1 >= max_depth:
                if f < next_bound:
                    next_bound = f
                tiles[src] = t
                tiles[blank] = -1
                h, hr = _move(t, src, pos, rpos, hv, rhv, h, hr, tables, pattern_tiles, pattern_start,
                              pattern_size, pattern_of, reflect, cells, popcount)
                continue
            blank = src
            depth += 1
            if h == 0:
                return 1, path[:depth].copy(), nodes, iterations, h0, dual_cuts, expanded
            expanded += 1
            next_mv[depth] = 0
        bound = next_bound
        if now() >= deadline or (max_nodes >= 0 and nodes >= max_nodes):
            return -1, np.zeros(0, np.int64), nodes, iterations, h0, dual_cuts, expanded
