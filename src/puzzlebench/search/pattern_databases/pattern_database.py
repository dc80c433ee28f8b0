# mypy: disable-error-code="assignment,index,arg-type,return-value"
"""Additive pattern databases for sliding-tile boards of up to 16 cells, built by a compiled
breadth-first search.

A pattern is a set of *goal cells*; its tiles are the tiles whose goal is one of those cells
(puzzlebench relabels every tile by its goal cell before searching, see ``idastar_pdb``). The
database holds, for every placement of the pattern's tiles, the fewest moves **of pattern
tiles** that bring them to their goal cells and the blank to its own (the blank starting on
any cell: the entry is the minimum over it), the other tiles being indistinguishable.
Counting only the pattern's own moves is what makes the databases of disjoint patterns
*additive* (Korf & Felner 2002; Felner, Korf & Hanan 2004): their sum never exceeds
the true distance.

The search runs over abstract states — the pattern tiles' cells plus the blank's — ranked
compactly (``cells!/(cells−k−1)!`` states, 57.7 M for a 6-tile pattern on 4×4). It is a
breadth-first search by layers in which a blank move onto a non-pattern cell costs 0 and
swapping the blank with a pattern tile costs 1 (a 0-1 BFS): each layer is closed under the
free moves before the next begins. The result is stored *sparsely*, one byte per entry,
indexed by ``Σ cell_j · cells^(k−1−j)`` so that the solver updates an index in O(1) when a
tile moves (16^6 = 16.8 MB for a 6-tile pattern on 4×4): the minimum over the blank's cell.

That minimum makes the sum admissible but **not consistent** (a move that walls the blank in
can raise it by more than one). The search's own distance array — every state *with* its blank
cell, by compact rank — is kept too (the *blank-aware* table, 57.7 MB for 6 tiles): summed over
disjoint patterns it is admissible and consistent, because a move changes one pattern's state by
a cost-1 step and every other pattern's by a free blank step, which leaves its distance equal.
"""

from __future__ import annotations

import numba
import numpy as np

#: Largest pattern this module builds (the abstract search of 7 tiles + blank on 4×4 would
#: need 519 M states; 6 tiles need 57.7 M). Patterns of up to 8: ``region_pdb_build``.
MAX_PATTERN = 6
UNSEEN = 255


@numba.njit(cache=True)
def popcounts() -> np.ndarray:
    table = np.zeros(1 << 16, np.uint8)
    for v in range(1, 1 << 16):
        table[v] = table[v >> 1] + (v & 1)
    return table


@numba.njit(cache=True)
def rank(state: np.int64, m: int, cells: int, popcount: np.ndarray) -> np.int64:
    """Compact rank of m distinct cells packed 4 bits each (a k-permutation of ``cells``)."""
    used = 0
    rank = np.int64(0)
    for i in range(m):
        p = (state >> np.int64(4 * i)) & 15
        digit = p - popcount[used & ((1 << p) - 1)]
        rank = rank * (cells - i) + digit
        used |= 1 << p
    return rank


@numba.njit(cache=True)
def _sparse_index(state: np.int64, k: int, cells: int) -> np.int64:
    idx = np.int64(0)
    for j in range(k):
        idx = idx * cells + ((state >> np.int64(4 * j)) & 15)
    return idx


@numba.njit(cache=True)
def build_kernel(goal_cells: np.ndarray, rows: int, cols: int,
                 blank_goal: int = -1) -> tuple[np.ndarray, int, np.ndarray]:
    """The sparse table of a pattern (tiles whose goals are ``goal_cells``, in that order),
    the number of abstract states the search reached, and the blank-aware table: the distance
    of every (pattern cells, blank cell) state by compact rank (``rank``).

    The goal is the pattern's tiles home with the blank on ``blank_goal`` (the search's free
    moves then reach every cell of its region at no cost); −1: the blank on any free cell,
    a weaker table where the goal placement walls the blank's goal cell off from other free
    cells (tiles 1-7 of the 15-puzzle wall cell 0 off from the bottom two rows)."""
    k = goal_cells.shape[0]
    cells = rows * cols
    m = k + 1
    total = np.int64(1)
    for i in range(m):
        total *= cells - i
    popcount = popcounts()
    dist = np.full(total, UNSEEN, np.uint8)
    size = np.int64(1)
    for _ in range(k):
        size *= cells
    table = np.full(size, UNSEEN, np.uint8)
    cur = np.empty(total, np.uint32)
    nxt = np.empty(total, np.uint32)
    n_cur = 0
    n_nxt = 0
    base = np.int64(0)
    occupied = 0
    for j in range(k):
        base |= np.int64(goal_cells[j]) << np.int64(4 * j)
        occupied |= 1 << goal_cells[j]
    for b in range(cells):  # the goal: pattern tiles home, the blank on its goal cell
        if occupied & (1 << b) or (blank_goal >= 0 and b != blank_goal):
            continue
        s = base | (np.int64(b) << np.int64(4 * k))
        dist[rank(s, m, cells, popcount)] = 0
        cur[n_cur] = s
        n_cur += 1
    reached = np.int64(0)
    d = 0
    shift_blank = np.int64(4 * k)
    while n_cur > 0:
        while n_cur > 0:
            n_cur -= 1
            s = np.int64(cur[n_cur])
            if dist[rank(s, m, cells, popcount)] != d:
                continue  # lowered to an earlier layer after it was queued
            reached += 1
            pidx = _sparse_index(s, k, cells)
            if table[pidx] > d:
                table[pidx] = d
            blank = (s >> shift_blank) & 15
            br, bc = blank // cols, blank % cols
            for mv in range(4):
                nr, nc = br, bc
                if mv == 0:
                    nr -= 1
                elif mv == 1:
                    nr += 1
                elif mv == 2:
                    nc -= 1
                else:
                    nc += 1
                if nr < 0 or nr >= rows or nc < 0 or nc >= cols:
                    continue
                n = nr * cols + nc
                tile = -1
                for j in range(k):
                    if ((s >> np.int64(4 * j)) & 15) == n:
                        tile = j
                        break
                t = (s & ~(np.int64(15) << shift_blank)) | (np.int64(n) << shift_blank)
                if tile >= 0:  # a pattern tile slides into the blank: one move
                    t = (t & ~(np.int64(15) << np.int64(4 * tile))) | (blank << np.int64(4 * tile))
                    r = rank(t, m, cells, popcount)
                    if dist[r] == UNSEEN:
                        dist[r] = d + 1
                        nxt[n_nxt] = t
                        n_nxt += 1
                else:  # the blank passes a non-pattern tile: free
                    r = rank(t, m, cells, popcount)
                    if dist[r] == UNSEEN or dist[r] == d + 1:
                        dist[r] = d
                        cur[n_cur] = t
                        n_cur += 1
        cur, nxt = nxt, cur
        n_cur, n_nxt = n_nxt, 0
        d += 1
    return table, reached, dist


def build_table(goal_cells: tuple[int, ...], rows: int, cols: int, blank_goal: int = -1) -> np.ndarray:
    """The sparse one-byte table of the pattern whose goal cells are ``goal_cells`` (the blank's
    goal cell ``blank_goal``; −1: any free cell)."""
    if not 1 <= len(goal_cells) <= MAX_PATTERN:
        raise ValueError(f"a pattern holds 1..{MAX_PATTERN} tiles, got {len(goal_cells)}")
    if rows * cols > 16 or len(set(goal_cells)) != len(goal_cells) or \
            not all(0 <= c < rows * cols for c in goal_cells):
        raise ValueError(f"pattern cells {goal_cells} do not fit a {rows}x{cols} board of ≤ 16 cells")
    if blank_goal >= 0 and (blank_goal in goal_cells or not 0 <= blank_goal < rows * cols):
        raise ValueError(f"the blank's goal cell {blank_goal} must be a free cell of the board")
    table, _, _ = build_kernel(np.asarray(goal_cells, np.int64), rows, cols, blank_goal)
    return table
