# mypy: disable-error-code="assignment,index,arg-type,return-value,no-untyped-def"
"""IDA* over *blank-aware* pattern databases (``idastar-pdb --param blank_aware=true``).

Each pattern's value is read from the search's own distance array: the pattern tiles' cells
*and* the blank's cell, by compact rank (``pattern_database.rank``). Summed over disjoint
patterns this is consistent as well as admissible: a move changes the moved tile's pattern by
one abstract step and leaves every other pattern's value unchanged (a free blank step between
states of equal distance), so only one pattern — and, with reflection, one reflected pattern —
is re-ranked per move. The same arrays as the compressed kernel (``pdb_lookup.Lookup``) plus
each tile's cell (``pos``, by goal-cell label).
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlebench.search.pattern_databases.pattern_database import popcounts, rank
from puzzlebench.solvers.compiled_clock import now

_DR = (-1, 1, 0, 0)
_DC = (0, 0, -1, 1)


@numba.njit(cache=True)
def pattern_value(p: int, reflected: bool, pos: np.ndarray, blank: int, tables: np.ndarray,
                  offset: np.ndarray, reflect: np.ndarray, pcells: np.ndarray, pstart: np.ndarray,
                  psize: np.ndarray, cells: int, popcount: np.ndarray) -> int:
    """Pattern p's distance in the state (or in its reflection about the main diagonal)."""
    k = psize[p]
    s = np.int64(0)
    for j in range(k):
        u = pcells[pstart[p] + j]
        c = reflect[pos[reflect[u]]] if reflected else pos[u]
        s |= np.int64(c) << np.int64(4 * j)
    b = reflect[blank] if reflected else blank
    s |= np.int64(b) << np.int64(4 * k)
    return tables[offset[p] + rank(s, k + 1, cells, popcount)]


@numba.njit(cache=True)
def estimate(tiles: np.ndarray, tables: np.ndarray, offset: np.ndarray, reflect: np.ndarray,
             pcells: np.ndarray, pstart: np.ndarray, psize: np.ndarray, vals: np.ndarray,
             rvals: np.ndarray, pos: np.ndarray, popcount: np.ndarray) -> tuple[int, int, int]:
    """(h, h reflected, blank cell) of a relabelled state; fills the per-pattern values."""
    cells = tiles.shape[0]
    blank = 0
    for q in range(cells):
        if tiles[q] < 0:
            blank = q
        else:
            pos[tiles[q]] = q
    h = 0
    hr = 0
    for p in range(offset.shape[0]):
        vals[p] = pattern_value(p, False, pos, blank, tables, offset, reflect, pcells, pstart, psize,
                                cells, popcount)
        h += vals[p]
        if reflect[0] >= 0:
            rvals[p] = pattern_value(p, True, pos, blank, tables, offset, reflect, pcells, pstart,
                                     psize, cells, popcount)
            hr += rvals[p]
    return h, hr, blank


@numba.njit(cache=True)
def estimates(states: np.ndarray, tables: np.ndarray, offset: np.ndarray, reflect: np.ndarray,
              pcells: np.ndarray, pstart: np.ndarray, psize: np.ndarray) -> np.ndarray:
    """h of many relabelled states (rows of ``states``), as the search computes it."""
    n = offset.shape[0]
    vals = np.zeros(n, np.int64)
    rvals = np.zeros(n, np.int64)
    pos = np.zeros(states.shape[1], np.int64)
    popcount = popcounts()
    out = np.zeros(states.shape[0], np.int64)
    for i in range(states.shape[0]):
        h, hr, _ = estimate(states[i], tables, offset, reflect, pcells, pstart, psize, vals, rvals,
                            pos, popcount)
        out[i] = max(h, hr)
    return out


@numba.njit(cache=True)
def _slide(tiles, pos, frm, to, pattern_of, tables, offset, reflect, pcells, pstart, psize,
           vals, rvals, h, hr, popcount):
    """The tile on ``frm`` moves to the blank on ``to``; the blank is then on ``frm``."""
    t = tiles[frm]
    tiles[to] = t
    tiles[frm] = -1
    pos[t] = to
    cells = tiles.shape[0]
    p = pattern_of[t]
    new = pattern_value(p, False, pos, frm, tables, offset, reflect, pcells, pstart, psize, cells, popcount)
    h += new - vals[p]
    vals[p] = new
    if reflect[0] >= 0:
        rp = pattern_of[reflect[t]]
        new = pattern_value(rp, True, pos, frm, tables, offset, reflect, pcells, pstart, psize, cells,
                            popcount)
        hr += new - rvals[rp]
        rvals[rp] = new
    return h, hr


@numba.njit(cache=True)
def idastar_blank_kernel(start: np.ndarray, rows: int, cols: int, tables: np.ndarray, offset: np.ndarray,
                         pattern_of: np.ndarray, reflect: np.ndarray, pcells: np.ndarray,
                         pstart: np.ndarray, psize: np.ndarray, max_nodes: int, deadline: float):
    """(status 1 solved / −1 budget, blank moves 0U 1D 2L 3R, nodes generated, iterations, h0)."""
    tiles = start.copy()
    n = offset.shape[0]
    vals = np.zeros(n, np.int64)
    rvals = np.zeros(n, np.int64)
    pos = np.zeros(tiles.shape[0], np.int64)
    popcount = popcounts()
    h, hr, blank = estimate(tiles, tables, offset, reflect, pcells, pstart, psize, vals, rvals, pos,
                            popcount)
    h0 = max(h, hr)
    if h == 0:
        return 1, np.zeros(0, np.int64), 0, 0, h0
    inverse = (1, 0, 3, 2)
    max_depth = 255
    path = np.zeros(max_depth + 1, np.int64)
    next_mv = np.zeros(max_depth + 1, np.int64)
    nodes = 0
    iterations = 0
    bound = h0
    # The IDA* loop, written out in each kernel on purpose: why, in search/sliding/__init__.py
    while True:
        iterations += 1
        next_bound = 1 << 30
        depth = 0
        next_mv[0] = 0
        while True:
            if next_mv[depth] == 4:
                if depth == 0:
                    break
                depth -= 1
                mv = path[depth]
                src = blank - (_DR[mv] * cols + _DC[mv])
                h, hr = _slide(tiles, pos, src, blank, pattern_of, tables, offset, reflect, pcells,
                               pstart, psize, vals, rvals, h, hr, popcount)
                blank = src
                continue
            mv = next_mv[depth]
            next_mv[depth] += 1
            if depth > 0 and mv == inverse[path[depth - 1]]:
                continue
            nr, nc = blank // cols + _DR[mv], blank % cols + _DC[mv]
            if nr < 0 or nr >= rows or nc < 0 or nc >= cols:
                continue
            src = nr * cols + nc
            nodes += 1
            if (nodes & 65535) == 0 and now() >= deadline:
                return -1, np.zeros(0, np.int64), nodes, iterations, h0
            if max_nodes >= 0 and nodes >= max_nodes:
                return -1, np.zeros(0, np.int64), nodes, iterations, h0
            h, hr = _slide(tiles, pos, src, blank, pattern_of, tables, offset, reflect, pcells, pstart,
                           psize, vals, rvals, h, hr, popcount)
            f = depth + 1 + max(h, hr)
            path[depth] = mv
            if f > bound or depth + 1 >= max_depth:
                if f < next_bound:
                    next_bound = f
                h, hr = _slide(tiles, pos, blank, src, pattern_of, tables, offset, reflect, pcells,
                               pstart, psize, vals, rvals, h, hr, popcount)
                continue
            blank = src
            depth += 1
            if h == 0:
                return 1, path[:depth].copy(), nodes, iterations, h0
            next_mv[depth] = 0
        bound = next_bound
        if now() >= deadline or (max_nodes >= 0 and nodes >= max_nodes):
            return -1, np.zeros(0, np.int64), nodes, iterations, h0
