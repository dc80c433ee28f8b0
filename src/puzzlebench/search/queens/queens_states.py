"""N-Queens search states for seed 000's three heuristics (classic and torus boards).

- H1 (pairs of attacking queens) and H2 (queens attacked by at least one other): start from a
  random placement with repetition, one queen per row; a move shifts one queen one column left
  or right; g = Σ |column − start column|, the exact number of moves from the start.
  Cost per child: g in O(1) from the parent (only the moved queen's term changes); H1's h in
  O(n) (only the moved queen's attacks are recounted); H2's h in O(n) from line counts.
- H3 (pairs of queens on a shared diagonal): start from a random permutation (no column
  clashes ever); a move swaps two adjacent rows; g = the inversion count of the current
  permutation relative to the start (the exact number of adjacent swaps), by merge sort in
  O(n log n); h in O(n) (only the two moved queens' diagonal clashes are recounted).

On the torus the diagonals are (row ± col) mod n; every heuristic keeps its meaning.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from puzzlebench.search.best_first import SearchState
from puzzlebench.solvers.queens_keys import diagonal_keys, same_diagonal


@dataclass(frozen=True, slots=True)
class Board:
    """Shared, immutable context of one search: size, topology, start columns."""

    n: int
    torus: bool
    start: tuple[int, ...]

    def same_diagonal(self, r1: int, c1: int, r2: int, c2: int) -> bool:
        return same_diagonal(r1, c1, r2, c2, self.n, self.torus)

    def attacks(self, r1: int, c1: int, r2: int, c2: int) -> bool:
        return c1 == c2 or same_diagonal(r1, c1, r2, c2, self.n, self.torus)


class Lines:
    """One placement's lines — rows on each column, anti-diagonal and diagonal — built in O(n)
    once per expansion, so that a child's H1 costs O(1) and its H2 O(queens on the moved
    queen's six lines) instead of O(n) each (at n = 10,000 an expansion was O(n²) before).

    Two queens in different rows share at most one line, except on an even torus, where a
    queen at (r + n/2, c + n/2) shares both diagonals with one at (r, c): such a pair is one
    attacking pair, and ``partner`` says when it is there."""

    __slots__ = ("anti", "board", "col", "cols", "diag", "half")

    def __init__(self, board: Board, cols: tuple[int, ...]) -> None:
        self.board, self.cols = board, cols
        self.col: dict[int, list[int]] = {}
        self.anti: dict[int, list[int]] = {}
        self.diag: dict[int, list[int]] = {}
        n, torus = board.n, board.torus
        for r, c in enumerate(cols):
            a, d = diagonal_keys(r, c, n, torus)
            self.col.setdefault(c, []).append(r)
            self.anti.setdefault(a, []).append(r)
            self.diag.setdefault(d, []).append(r)
        self.half = n // 2 if torus and n % 2 == 0 else 0

    def keys(self, row: int, c: int) -> tuple[int, int, int]:
        a, d = diagonal_keys(row, c, self.board.n, self.board.torus)
        return c, a, d

    def partner(self, row: int, c: int) -> bool:
        """Whether another queen shares both diagonals with a queen at (row, c)."""
        if not self.half:
            return False
        n = self.board.n
        return self.cols[(row + self.half) % n] == (c + self.half) % n

    def on(self, c: int, a: int, d: int) -> int:
        """Queens on column c, anti-diagonal a and diagonal d, counted once per line."""
        return (len(self.col.get(c, ())) + len(self.anti.get(a, ()))
                + len(self.diag.get(d, ())))

    def attacks(self, row: int, c: int) -> int:
        """Queens attacking the queen of ``row`` if it stood at (row, c), the others as they
        are: O(1)."""
        k = self.keys(row, c)
        here = int(self.cols[row] == c) * 3  # the queen itself, when it stands there
        return self.on(*k) - here - int(self.partner(row, c))

    def pairs(self, columns: bool = True) -> int:
        """Attacking pairs of the placement (on shared diagonals only, with ``columns``
        False): O(n)."""
        families = [self.anti, self.diag] + ([self.col] if columns else [])
        total = sum(len(v) * (len(v) - 1) // 2 for f in families for v in f.values())
        if self.half:  # pairs on both diagonals were counted twice
            n = self.board.n
            total -= sum(1 for r in range(n // 2) if self.partner(r, self.cols[r]))
        return total

    def attacked(self, row: int) -> bool:
        """Whether the queen of ``row`` is attacked by at least one other."""
        c, a, d = self.keys(row, self.cols[row])
        return len(self.col[c]) > 1 or len(self.anti[a]) > 1 or len(self.diag[d]) > 1


def queen_attacks(board: Board, cols: tuple[int, ...] | list[int], row: int, col: int) -> int:
    """How many other queens attack a queen at (row, col): O(n)."""
    return sum(
        1 for r, c in enumerate(cols) if r != row and board.attacks(row, col, r, c)
    )


def attacking_pairs(board: Board, cols: tuple[int, ...]) -> int:
    return sum(queen_attacks(board, cols, r, c) for r, c in enumerate(cols)) // 2


def attacked_queens(board: Board, cols: tuple[int, ...]) -> int:
    """Queens attacked by at least one other, from column and diagonal counts: O(n)."""
    n = board.n
    colc: dict[int, int] = {}
    d1: dict[int, int] = {}
    d2: dict[int, int] = {}
    keys = []
    for r, c in enumerate(cols):
        a, b = diagonal_keys(r, c, n, board.torus)
        keys.append((c, a, b))
        colc[c] = colc.get(c, 0) + 1
        d1[a] = d1.get(a, 0) + 1
        d2[b] = d2.get(b, 0) + 1
    return sum(1 for c, a, b in keys if colc[c] > 1 or d1[a] > 1 or d2[b] > 1)


class ShiftState(SearchState):
    """H1/H2 state: one queen per row, columns may repeat; moves shift one queen by one."""

    __slots__ = ("board", "cols", "g", "h")
    pairs_heuristic = True  # H1; H2 overrides

    def __init__(self, board: Board, cols: tuple[int, ...], g: int, h: int) -> None:
        self.board, self.cols, self.g, self.h = board, cols, g, h

    @classmethod
    def initial(cls, board: Board) -> ShiftState:
        cols = board.start
        lines = Lines(board, cols)
        h = lines.pairs() if cls.pairs_heuristic else sum(
            1 for r in range(board.n) if lines.attacked(r))
        return cls(board, cols, 0, h)

    @property
    def key(self) -> tuple[int, ...]:
        return self.cols

    def is_goal(self) -> bool:
        return self.h == 0

    def child_h(self, lines: Lines, row: int, old: int, new: int) -> int:
        """H1 of the child that moves the queen of ``row`` from ``old`` to ``new``: O(1)."""
        return self.h - lines.attacks(row, old) + lines.attacks(row, new)

    def successors(self) -> Iterator[tuple[Any, SearchState]]:
        n, start = self.board.n, self.board.start
        lines = Lines(self.board, self.cols)
        for row, col in enumerate(self.cols):
            for new in (col - 1, col + 1):
                if 0 <= new < n:
                    cols = (*self.cols[:row], new, *self.cols[row + 1:])
                    g = self.g - abs(col - start[row]) + abs(new - start[row])
                    yield (row, new), type(self)(self.board, cols, g,
                                                 self.child_h(lines, row, col, new))


#: Queens below which H2's recount of every queen (O(n), in tight code) beats the
#: incremental update (measured at n = 10: 1.6× faster; at n = 10,000 the recount is O(n²)
#: per expansion).
SMALL_BOARD = 48


class AttackedShiftState(ShiftState):
    """H2: the number of queens attacked by at least one other."""

    __slots__ = ()
    pairs_heuristic = False

    def child_h(self, lines: Lines, row: int, old: int, new: int) -> int:
        """H2 of the child: only the queens on the moved queen's old and new lines (and the
        queen itself) can change their status. Below SMALL_BOARD queens a recount is faster."""
        if self.board.n < SMALL_BOARD:
            cols = lines.cols
            return attacked_queens(self.board, (*cols[:row], new, *cols[row + 1:]))
        gone, come = lines.keys(row, old), lines.keys(row, new)
        h = self.h
        touched: set[int] = set()
        for family, g, c in zip((lines.col, lines.anti, lines.diag), gone, come, strict=True):
            touched.update(family.get(g, ()))
            touched.update(family.get(c, ()))
        touched.discard(row)
        for q in touched:
            after = lines.keys(q, lines.cols[q])
            now = False
            for family, key, g, c in zip((lines.col, lines.anti, lines.diag), after, gone, come,
                                         strict=True):
                if len(family[key]) - (key == g) + (key == c) > 1:
                    now = True
                    break
            h += int(now) - int(lines.attacked(q))
        h -= int(lines.attacked(row))
        h += int(lines.on(*come) > 0)  # the moved queen: attacked if any queen is on its lines
        return h


def inversions(seq: list[int]) -> int:
    """Inversion count by merge sort, O(n log n)."""
    if len(seq) < 2:
        return 0
    mid = len(seq) // 2
    left, right = seq[:mid], seq[mid:]
    count = inversions(left) + inversions(right)
    left.sort()
    right.sort()
    i = j = 0
    merged = []
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:
            merged.append(left[i])
            i += 1
        else:
            merged.append(right[j])
            count += len(left) - i
            j += 1
    seq[:] = merged + left[i:] + right[j:]
    return count


class SwapState(SearchState):
    """H3 state: a permutation; moves swap the queens of two adjacent rows."""

    __slots__ = ("board", "cols", "g", "h")

    def __init__(self, board: Board, cols: tuple[int, ...], g: int, h: int) -> None:
        self.board, self.cols, self.g, self.h = board, cols, g, h

    @classmethod
    def initial(cls, board: Board) -> SwapState:
        return cls(board, board.start, 0, Lines(board, board.start).pairs(columns=False))

    @property
    def key(self) -> tuple[int, ...]:
        return self.cols

    def is_goal(self) -> bool:
        return self.h == 0

    def diag_clashes(self, cols: tuple[int, ...], row: int) -> int:
        b, c = self.board, cols[row]
        return sum(1 for r, x in enumerate(cols) if r != row and b.same_diagonal(row, c, r, x))

    def successors(self) -> Iterator[tuple[Any, SearchState]]:
        b = self.board
        where = {c: r for r, c in enumerate(b.start)}
        for row in range(b.n - 1):
            cols = list(self.cols)
            cols[row], cols[row + 1] = cols[row + 1], cols[row]
            child = tuple(cols)
            before = self.diag_clashes(self.cols, row) + self.diag_clashes(self.cols, row + 1)
            after = self.diag_clashes(child, row) + self.diag_clashes(child, row + 1)
            pair_before = b.same_diagonal(row, self.cols[row], row + 1, self.cols[row + 1])
            pair_after = b.same_diagonal(row, child[row], row + 1, child[row + 1])
            h = self.h - (before - pair_before) + (after - pair_after)
            g = inversions([where[c] for c in child])
            yield row, SwapState(b, child, g, h)


def diagonal_pairs(board: Board, cols: tuple[int, ...]) -> int:
    return sum(
        1 for r1 in range(board.n) for r2 in range(r1 + 1, board.n)
        if board.same_diagonal(r1, cols[r1], r2, cols[r2])
    )


def random_start(n: int, permutation: bool, rng: np.random.Generator) -> tuple[int, ...]:
    """H1/H2: columns drawn with repetition; H3: a random permutation."""
    cols = rng.permutation(n) if permutation else rng.integers(0, n, size=n)
    return tuple(int(c) for c in cols)
