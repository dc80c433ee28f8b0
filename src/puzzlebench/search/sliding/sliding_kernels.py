# mypy: disable-error-code="assignment,index,arg-type"
"""Compiled (numba) sliding-puzzle kernels for boards of up to 16 cells (8- and 15-puzzle).

A state is packed into one int64, 4 bits per cell. Heuristics are evaluated from the tile
array: kind 0 misplaced, 1 rowcol (seed 001), 2 Manhattan, 3 Manhattan + linear conflict.
``best_first_kernel`` is A* / greedy best-first with a binary heap ordered by (f, h, insertion)
and a closed set; the wall clock is read through ``objmode`` every few thousand expansions.
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlebench.solvers.compiled_clock import now

KINDS: dict[str, int] = {"misplaced": 0, "rowcol": 1, "manhattan": 2, "linear-conflict": 3}
MAX_CELLS = 16


@numba.njit(cache=True)
def goal_tables(goal: np.ndarray, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """Goal row and goal column of every tile."""
    goal_row = np.zeros(goal.shape[0], np.int64)
    goal_col = np.zeros(goal.shape[0], np.int64)
    for p in range(goal.shape[0]):
        goal_row[goal[p]] = p // cols
        goal_col[goal[p]] = p % cols
    return goal_row, goal_col


@numba.njit(cache=True)
def pack(tiles: np.ndarray) -> int:
    code = 0
    for i in range(tiles.shape[0]):
        code |= np.int64(tiles[i]) << np.int64(4 * i)
    return code


@numba.njit(cache=True)
def unpack(code: int, cells: int, out: np.ndarray) -> None:
    for i in range(cells):
        out[i] = (code >> np.int64(4 * i)) & 15


@numba.njit(cache=True)
def line_extra(goals: np.ndarray, k: int) -> int:
    """2 × (k − LIS): the fewest tiles that must leave the line so that the rest are in goal
    order (the longest increasing subsequence stays). Admissible on lines of any length,
    unlike removing the most-conflicted tile greedily, which can remove more than needed."""
    if k < 2:
        return 0
    best = np.ones(k, np.int64)
    longest = 1
    for i in range(1, k):
        for j in range(i):
            if goals[j] < goals[i] and best[j] + 1 > best[i]:
                best[i] = best[j] + 1
        if best[i] > longest:
            longest = best[i]
    return 2 * (k - longest)


@numba.njit(cache=True)
def row_conflict(tiles: np.ndarray, r: int, cols: int, goal_row: np.ndarray,
                 goal_col: np.ndarray, buf: np.ndarray) -> int:
    k = 0
    for c in range(cols):
        x = tiles[r * cols + c]
        if x != 0 and goal_row[x] == r:
            buf[k] = goal_col[x]
            k += 1
    return line_extra(buf, k)


@numba.njit(cache=True)
def col_conflict(tiles: np.ndarray, c: int, rows: int, cols: int, goal_row: np.ndarray,
                 goal_col: np.ndarray, buf: np.ndarray) -> int:
    k = 0
    for r in range(rows):
        x = tiles[r * cols + c]
        if x != 0 and goal_col[x] == c:
            buf[k] = goal_row[x]
            k += 1
    return line_extra(buf, k)


@numba.njit(cache=True)
def heuristic(tiles: np.ndarray, rows: int, cols: int, goal_row: np.ndarray,
              goal_col: np.ndarray, kind: int, buf: np.ndarray) -> int:
    h = 0
    for p in range(rows * cols):
        x = tiles[p]
        if x == 0:
            continue
        r, c = p // cols, p % cols
        if kind == 0:
            h += (r != goal_row[x]) or (c != goal_col[x])
        elif kind == 1:
            h += (r != goal_row[x]) + (c != goal_col[x])
        else:
            h += abs(r - goal_row[x]) + abs(c - goal_col[x])
    if kind == 3:
        for r in range(rows):
            h += row_conflict(tiles, r, cols, goal_row, goal_col, buf)
        for c in range(cols):
            h += col_conflict(tiles, c, rows, cols, goal_row, goal_col, buf)
    return h


@numba.njit(cache=True)
def _less(f: np.ndarray, h: np.ndarray, t: np.ndarray, i: int, j: int) -> bool:
    if f[i] != f[j]:
        return f[i] < f[j]
    if h[i] != h[j]:
        return h[i] < h[j]
    return t[i] < t[j]


@numba.njit(cache=True, inline="always")
def _heap_swap(hf, hh, ht, hc, hg, i, j):
    hf[i], hf[j] = hf[j], hf[i]
    hh[i], hh[j] = hh[j], hh[i]
    ht[i], ht[j] = ht[j], ht[i]
    hc[i], hc[j] = hc[j], hc[i]
    hg[i], hg[j] = hg[j], hg[i]


@numba.njit(cache=True, inline="always")
def _sift_down(hf, hh, ht, hc, hg, size):
    """Restore the heap order from the root down (after the last entry replaced the root)."""
    i = 0
    while True:
        left = 2 * i + 1
        if left >= size:
            break
        m = left
        if left + 1 < size and _less(hf, hh, ht, left + 1, left):
            m = left + 1
        if _less(hf, hh, ht, m, i):
            _heap_swap(hf, hh, ht, hc, hg, i, m)
            i = m
        else:
            break


@numba.njit(cache=True, inline="always")
def _sift_up(hf, hh, ht, hc, hg, j):
    """Restore the heap order from entry j up (after it was appended)."""
    while j > 0:
        up = (j - 1) // 2
        if _less(hf, hh, ht, j, up):
            _heap_swap(hf, hh, ht, hc, hg, j, up)
            j = up
        else:
            break


@numba.njit(cache=True, inline="always")
def _grown(a, size, cap):
    """A copy of a's first ``size`` entries in an array of ``cap``."""
    out = np.zeros(cap, np.int64)
    out[:size] = a[:size]
    return out


@numba.njit(cache=True, inline="always")
def _blank_of(tiles, cells):
    blank = 0
    for p in range(cells):
        if tiles[p] == 0:
            blank = p
    return blank


@numba.njit(cache=True)
def _moves_from(path, cells, cols):
    """The blank moves (0 U, 1 D, 2 L, 3 R) along a path of packed states, goal first."""
    n = len(path) - 1
    moves = np.zeros(n, np.int64)
    tiles = np.zeros(cells, np.int64)
    for k in range(n):
        unpack(path[n - k], cells, tiles)
        pa = _blank_of(tiles, cells)
        unpack(path[n - k - 1], cells, tiles)
        delta = _blank_of(tiles, cells) - pa
        if delta == -cols:
            moves[k] = 0
        elif delta == cols:
            moves[k] = 1
        elif delta == -1:
            moves[k] = 2
        else:
            moves[k] = 3
    return moves


@numba.njit(cache=True)
def best_first_kernel(start: np.ndarray, goal: np.ndarray, rows: int, cols: int,
                      kind: int, astar: bool, max_nodes: int,
                      deadline: float) -> tuple[int, np.ndarray, int, int, int]:
    """Returns (status, moves, expanded, generated, max_frontier); status 1 solved,
    0 exhausted (no solution), -1 budget. ``moves`` codes: 0 U, 1 D, 2 L, 3 R."""
    cells = rows * cols
    goal_row, goal_col = goal_tables(goal, cols)
    goal_code = pack(goal)
    buf = np.zeros(max(rows, cols), np.int64)
    tiles = np.zeros(cells, np.int64)
    cap = 1024
    hf = np.zeros(cap, np.int64)
    hh = np.zeros(cap, np.int64)
    ht = np.zeros(cap, np.int64)
    hc = np.zeros(cap, np.int64)
    hg = np.zeros(cap, np.int64)
    size = 0
    tie = 0
    best_g = dict()
    parent = dict()
    closed = dict()
    start_code = pack(start)
    for p in range(cells):
        tiles[p] = start[p]
    h0 = heuristic(tiles, rows, cols, goal_row, goal_col, kind, buf)
    hf[0] = h0
    hh[0] = h0
    ht[0] = 0
    hc[0] = start_code
    hg[0] = 0
    size = 1
    tie = 1
    best_g[start_code] = 0
    parent[start_code] = np.int64(-1)
    expanded = 0
    generated = 0
    largest = 1
    dr = (-1, 1, 0, 0)
    dc = (0, 0, -1, 1)
    found = np.int64(-1)
    status = 0
    while size > 0:
        # pop the root
        code, g = hc[0], hg[0]
        size -= 1
        if size > 0:
            hf[0], hh[0], ht[0], hc[0], hg[0] = hf[size], hh[size], ht[size], hc[size], hg[size]
            _sift_down(hf, hh, ht, hc, hg, size)
        if code in closed or g > best_g[code]:
            continue
        if code == goal_code:
            found = code
            status = 1
            break
        if max_nodes >= 0 and generated >= max_nodes:  # the cap counts generated nodes, as
            status = -1                                # every search's does (contract.Budget)
            break
        if expanded % 4096 == 0 and now() >= deadline:
            status = -1
            break
        closed[code] = True
        expanded += 1
        unpack(code, cells, tiles)
        blank = _blank_of(tiles, cells)
        br, bc = blank // cols, blank % cols
        for mv in range(4):
            nr, nc = br + dr[mv], bc + dc[mv]
            if nr < 0 or nr >= rows or nc < 0 or nc >= cols:
                continue
            src = nr * cols + nc
            tiles[blank] = tiles[src]
            tiles[src] = 0
            child = pack(tiles)
            generated += 1
            cg = g + 1
            known = best_g.get(child, -1)
            skip = known >= 0 and ((not astar) or cg >= known)
            if not skip:
                ch = heuristic(tiles, rows, cols, goal_row, goal_col, kind, buf)
                closed.pop(child, False)
                best_g[child] = cg
                parent[child] = code
                if size == cap:
                    cap *= 2
                    hf, hh, ht = _grown(hf, size, cap), _grown(hh, size, cap), _grown(ht, size, cap)
                    hc, hg = _grown(hc, size, cap), _grown(hg, size, cap)
                j = size
                hf[j] = cg + ch if astar else ch
                hh[j] = ch
                ht[j] = tie
                hc[j] = child
                hg[j] = cg
                tie += 1
                size += 1
                _sift_up(hf, hh, ht, hc, hg, j)
            tiles[src] = tiles[blank]
            tiles[blank] = 0
        if size > largest:
            largest = size
    if status != 1:
        return status, np.zeros(0, np.int64), expanded, generated, largest
    # rebuild the path from parent codes: the blank's square in each pair gives the move
    path = []
    code = found
    while parent[code] != -1:
        path.append(code)
        code = parent[code]
    path.append(code)
    return status, _moves_from(path, cells, cols), expanded, generated, largest
