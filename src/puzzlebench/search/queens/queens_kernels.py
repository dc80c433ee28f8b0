# mypy: disable-error-code="assignment,index,arg-type"
"""Compiled (numba) greedy best-first and A* for n-queens and torus-queens, seed 000's H1-H3.

The same search as ``best_first`` over ``queens_states`` (the pure-Python reference, kept for
tests and the benchmark), node for node: children in the same order (H1/H2: each row, left
shift then right; H3: each adjacent pair of rows), the same g and h, the frontier ordered by
(f, h, insertion), a closed set, A*'s re-opening rule, the node cap counted on generated
nodes and checked at the same child, and the same cap on stored cells (``STORED_CELLS``,
looked at every ``CHECK_EVERY`` children): so nodes expanded and generated, the largest
frontier, the path length and the goal are equal to the reference's for every start.

A state is a row of a pool (int16 columns, so n ≤ 32,767), found through an open-addressing
table keyed by a code that each move updates in O(1): the columns packed, while they fit in
62 bits (up to 15 queens), else a sum of mixed (row, column) codes, and then a child's columns
are compared only when the code matches. h of a child that is stored comes from the parent's
line counts, built once per expansion: H1 and H3 in O(1), H2 recounted in O(n) (the reference
does so below 48 queens, and its incremental update gives the same number).
The wall clock is read through ``objmode`` every 4,096 children (every child from 1,024
queens on, where one child costs O(n)), and while the tables double (at millions of states
that takes a noticeable part of a second, and a search must not outlive its deadline there).
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlebench.solvers.compiled_clock import now
from puzzlebench.solvers.queens_keys_jit import diagonal_keys_jit, diagonal_lines_jit

#: The heuristics' codes in the kernel.
KINDS: dict[str, int] = {"h1": 1, "h2": 2, "h3": 3}
#: Largest n the pool's int16 columns hold.
MAX_QUEENS = 32_767


@numba.njit(cache=True, inline="always")
def _mix(x: int) -> int:
    """A well-spread 64-bit code of one (row, column) square (wrapping arithmetic)."""
    x = (x + 0x1E3779B97F4A7C15) * 0x3FB5D329728EA185
    x = (x ^ (x >> 29)) * 0x14C9ED1D7C5B6E3B
    return x ^ (x >> 32)


@numba.njit(cache=True, inline="always")
def _partner(cols, n, half, row, c):
    """1 when, on an even torus, another queen shares both diagonals with one at (row, c)."""
    if half == 0:
        return 0
    return 1 if cols[(row + half) % n] == (c + half) % n else 0


@numba.njit(cache=True, inline="always")
def _count(cols, n, torus, colc, anti, diag, sign):
    """Add (sign 1) or take away (sign −1) every queen's lines."""
    for r in range(n):
        a, d = diagonal_keys_jit(r, cols[r], n, torus)
        colc[cols[r]] += sign
        anti[a] += sign
        diag[d] += sign


@numba.njit(cache=True, inline="always")
def _attacked(cols, n, torus, colc, anti, diag):
    """Queens attacked by at least one other (H2), from the line counts."""
    total = 0
    for r in range(n):
        a, d = diagonal_keys_jit(r, cols[r], n, torus)
        if colc[cols[r]] > 1 or anti[a] > 1 or diag[d] > 1:
            total += 1
    return total


@numba.njit(cache=True, inline="always")
def _clashes(cols, n, torus, half, anti, diag, r, c):
    """Other queens on a diagonal of the queen at (r, c), each counted once (H3)."""
    a, d = diagonal_keys_jit(r, c, n, torus)
    return anti[a] - 1 + diag[d] - 1 - _partner(cols, n, half, r, c)


@numba.njit(cache=True, inline="always")
def _same_diagonal(r1, c1, r2, c2, n, torus):
    a1, d1 = diagonal_keys_jit(r1, c1, n, torus)
    a2, d2 = diagonal_keys_jit(r2, c2, n, torus)
    return 1 if a1 == a2 or d1 == d2 else 0


@numba.njit(cache=True, inline="always")
def _move_queen(n, torus, colc, anti, diag, r, old, new):
    """The line counts after the queen of row r moves from column old to new."""
    a, d = diagonal_keys_jit(r, old, n, torus)
    colc[old] -= 1
    anti[a] -= 1
    diag[d] -= 1
    a, d = diagonal_keys_jit(r, new, n, torus)
    colc[new] += 1
    anti[a] += 1
    diag[d] += 1


@numba.njit(cache=True)
def _initial_h(cols, n, torus, kind):
    """h of the start: H1 attacking pairs, H2 attacked queens, H3 pairs on a diagonal."""
    lines = diagonal_lines_jit(n, torus)
    colc = np.zeros(n, np.int64)
    anti = np.zeros(lines, np.int64)
    diag = np.zeros(lines, np.int64)
    _count(cols, n, torus, colc, anti, diag, 1)
    if kind == 2:
        return _attacked(cols, n, torus, colc, anti, diag)
    total = 0
    for k in anti:
        total += k * (k - 1) // 2
    for k in diag:
        total += k * (k - 1) // 2
    if kind == 1:
        for k in colc:
            total += k * (k - 1) // 2
    half = n // 2 if torus and n % 2 == 0 else 0
    if half:  # pairs on both diagonals were counted twice
        for r in range(half):
            total -= _partner(cols, n, half, r, cols[r])
    return total


@numba.njit(cache=True, inline="always")
def _square(row, col, n, bits):
    """A square's share of a state's code: the column in its row's bits when the whole
    placement fits in 62 bits (the code is then the state itself), else a mixed hash."""
    if bits > 0:
        return col << (bits * row)
    return _mix(row * n + col)


@numba.njit(cache=True, inline="always")
def _slot(code, mask):
    x = code * 0x5851F42D4C957F2D
    return (x ^ (x >> 31)) & mask


@numba.njit(cache=True, inline="always")
def _find(table, mask, code, bits, pool, cols, n):
    """The id of the stored state with these columns (and this code), or −1. A table row is
    (code, id + 1), 0 when empty."""
    i = _slot(code, mask)
    while table[i, 1] != 0:
        if table[i, 0] == code:
            s = table[i, 1] - 1
            if bits > 0:
                return s
            same = True
            for r in range(n):
                if pool[s, r] != cols[r]:
                    same = False
                    break
            if same:
                return s
        i = (i + 1) & mask
    return -1


@numba.njit(cache=True, inline="always")
def _place(table, mask, code, s):
    i = _slot(code, mask)
    while table[i, 1] != 0:
        i = (i + 1) & mask
    table[i, 0] = code
    table[i, 1] = s + 1


@numba.njit(cache=True, inline="always")
def _before(heap, i, j):
    """Whether frontier entry i leaves before j: by f, then h (packed in column 0), then
    insertion order (column 1)."""
    if heap[i, 0] != heap[j, 0]:
        return heap[i, 0] < heap[j, 0]
    return heap[i, 1] < heap[j, 1]


@numba.njit(cache=True, inline="always")
def _swap(heap, i, j):
    for k in range(4):
        heap[i, k], heap[j, k] = heap[j, k], heap[i, k]


@numba.njit(cache=True, inline="always")
def _grown_rows(a, size, cap):
    out = np.zeros((cap, a.shape[1]), a.dtype)
    out[:size] = a[:size]
    return out


@numba.njit(cache=True)
def queens_best_first_kernel(start: np.ndarray, torus: bool, kind: int, astar: bool,
                             max_nodes: int, deadline: float, stored_cells: int,
                             check_every: int) -> tuple[int, np.ndarray, int, int, int, int, int]:
    """(status 1 solved / 0 exhausted / −1 budget, the goal's columns, nodes expanded, nodes
    generated, largest frontier, moves from the start to the goal, h of the start)."""
    n = start.shape[0]
    lines = diagonal_lines_jit(n, torus)
    half = n // 2 if torus and n % 2 == 0 else 0
    bits = 1
    while (1 << bits) < n:
        bits += 1
    if bits * n > 62:
        bits = 0
    colc = np.zeros(n, np.int64)
    anti = np.zeros(lines, np.int64)
    diag = np.zeros(lines, np.int64)
    where = np.zeros(n, np.int64)  # H3: the start's row of each column
    cur = np.zeros(n, np.int64)
    code = 0
    for r in range(n):
        cur[r] = start[r]
        where[start[r]] = r
        code += _square(r, start[r], n, bits)
    h0 = _initial_h(cur, n, torus, kind)
    cap = 1024
    pool = np.zeros((cap, n), np.int16)
    state = np.zeros((cap, 4), np.int32)  # (best g, h, parent id, closed) of each state
    table = np.zeros((2 * cap, 2), np.int64)
    mask = 2 * cap - 1
    pool[0, :] = start
    state[0, 1] = h0
    state[0, 2] = -1
    _place(table, mask, code, 0)
    stored = 1
    heap = np.zeros((1024, 4), np.int64)  # (f << 32 | h, insertion, state id, g)
    heap[0, 0] = h0 << 32 | h0 if astar else h0
    size = 1
    tie = 1
    expanded = 0
    generated = 0
    largest = 1
    clock_every = 1 if check_every == 1 else 4096
    status = 0
    found = -1
    while size > 0:
        sid, g = heap[0, 2], heap[0, 3]
        size -= 1
        if size > 0:  # the last entry to the root, sifted down
            for k in range(4):
                heap[0, k] = heap[size, k]
            i = 0
            while True:
                m = 2 * i + 1
                if m >= size:
                    break
                if m + 1 < size and _before(heap, m + 1, m):
                    m += 1
                if not _before(heap, m, i):
                    break
                _swap(heap, i, m)
                i = m
        if state[sid, 3] or g > state[sid, 0]:
            continue  # a stale entry
        if state[sid, 1] == 0:
            status = 1
            found = sid
            break
        if (check_every == 1 or expanded % 1024 == 0) and now() >= deadline:
            status = -1
            break
        state[sid, 3] = 1
        expanded += 1
        pcode = 0
        for r in range(n):
            cur[r] = pool[sid, r]
            pcode += _square(r, cur[r], n, bits)
        _count(cur, n, torus, colc, anti, diag, 1)
        ph = state[sid, 1]
        moves = 2 * n if kind != 3 else n - 1
        stop = False
        for mv in range(moves):
            if kind != 3:
                row, old = mv // 2, cur[mv // 2]
                new = old - 1 if mv % 2 == 0 else old + 1
                if new < 0 or new >= n:
                    continue
            else:
                row, old, new = mv, cur[mv], cur[mv + 1]
            generated += 1
            if max_nodes >= 0 and generated > max_nodes:
                stop = True
                break
            if generated % check_every == 0 and (
                    stored * n > stored_cells
                    or (generated % clock_every == 0 and now() >= deadline)):
                stop = True
                break
            if kind != 3:
                cg = g - abs(old - start[row]) + abs(new - start[row])
                ccode = pcode - _square(row, old, n, bits) + _square(row, new, n, bits)
                cur[row] = new
            else:
                cg = g + 1 if where[old] < where[new] else g - 1
                ccode = (pcode - _square(row, old, n, bits) - _square(row + 1, new, n, bits)
                         + _square(row, new, n, bits) + _square(row + 1, old, n, bits))
                cur[row], cur[row + 1] = new, old
            known = _find(table, mask, ccode, bits, pool, cur, n)
            if known < 0 or (astar and cg < state[known, 0]):
                # h of the child, from the parent's line counts (cur holds the child)
                if kind == 1:  # H1: the moved queen's attacks before and after
                    a, d = diagonal_keys_jit(row, old, n, torus)
                    gone = colc[old] + anti[a] + diag[d] - 3 - _partner(cur, n, half, row, old)
                    a, d = diagonal_keys_jit(row, new, n, torus)
                    come = colc[new] + anti[a] + diag[d] - _partner(cur, n, half, row, new)
                    ch = ph - gone + come
                elif kind == 2:  # H2: recounted over the child's lines
                    _move_queen(n, torus, colc, anti, diag, row, old, new)
                    ch = _attacked(cur, n, torus, colc, anti, diag)
                    _move_queen(n, torus, colc, anti, diag, row, new, old)
                else:  # H3: pairs involving the two swapped queens, before and after
                    _move_queen(n, torus, colc, anti, diag, row, old, new)
                    _move_queen(n, torus, colc, anti, diag, row + 1, new, old)
                    after = (_clashes(cur, n, torus, half, anti, diag, row, new)
                             + _clashes(cur, n, torus, half, anti, diag, row + 1, old)
                             - _same_diagonal(row, new, row + 1, old, n, torus))
                    _move_queen(n, torus, colc, anti, diag, row + 1, old, new)
                    _move_queen(n, torus, colc, anti, diag, row, new, old)
                    cur[row], cur[row + 1] = old, new
                    before = (_clashes(cur, n, torus, half, anti, diag, row, old)
                              + _clashes(cur, n, torus, half, anti, diag, row + 1, new)
                              - _same_diagonal(row, old, row + 1, new, n, torus))
                    cur[row], cur[row + 1] = new, old
                    ch = ph - before + after
                if known >= 0:  # A* re-opens a state reached more cheaply
                    s = known
                    state[s, 3] = 0
                else:
                    s = stored
                    if s == cap:  # doubling takes a while when large: it watches the clock
                        if now() >= deadline:
                            stop = True
                            break
                        cap *= 2
                        pool = _grown_rows(pool, s, cap)
                        state = _grown_rows(state, s, cap)
                        old_table = table
                        table = np.zeros((2 * cap, 2), np.int64)
                        mask = 2 * cap - 1
                        for t in range(old_table.shape[0]):
                            if (t & 65535) == 65535 and now() >= deadline:
                                stop = True  # the search ends here: a half-built table is
                                break        # never read
                            if old_table[t, 1] != 0:
                                _place(table, mask, old_table[t, 0], old_table[t, 1] - 1)
                        if stop:
                            break
                    for r in range(n):
                        pool[s, r] = cur[r]
                    state[s, 1] = ch
                    _place(table, mask, ccode, s)
                    stored += 1
                state[s, 0] = cg
                state[s, 2] = sid
                if size == heap.shape[0]:
                    heap = _grown_rows(heap, size, 2 * size)
                j = size
                heap[j, 0] = (cg + ch) << 32 | ch if astar else ch
                heap[j, 1] = tie
                heap[j, 2] = s
                heap[j, 3] = cg
                tie += 1
                size += 1
                while j > 0:  # sifted up
                    up = (j - 1) // 2
                    if not _before(heap, j, up):
                        break
                    _swap(heap, j, up)
                    j = up
            if kind != 3:
                cur[row] = old
            else:
                cur[row], cur[row + 1] = old, new
        _count(cur, n, torus, colc, anti, diag, -1)
        if stop:
            status = -1
            break
        if size > largest:
            largest = size
    if status != 1:
        return status, np.zeros(0, np.int64), expanded, generated, largest, 0, h0
    steps = 0
    s = found
    while state[s, 2] >= 0:
        steps += 1
        s = state[s, 2]
    goal = np.zeros(n, np.int64)
    for r in range(n):
        goal[r] = pool[found, r]
    return status, goal, expanded, generated, largest, steps, h0
