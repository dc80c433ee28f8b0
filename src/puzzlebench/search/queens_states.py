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

from puzzlebench.queens_keys import diagonal_keys, same_diagonal
from puzzlebench.search.best_first import SearchState


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
        h = attacking_pairs(board, cols) if cls.pairs_heuristic else attacked_queens(board, cols)
        return cls(board, cols, 0, h)

    @property
    def key(self) -> tuple[int, ...]:
        return self.cols

    def is_goal(self) -> bool:
        return self.h == 0

    def child_h(self, row: int, old: int, new: int, cols: tuple[int, ...]) -> int:
        b = self.board
        return self.h - queen_attacks(b, self.cols, row, old) + queen_attacks(b, cols, row, new)

    def successors(self) -> Iterator[tuple[Any, SearchState]]:
        n, start = self.board.n, self.board.start
        for row, col in enumerate(self.cols):
            for new in (col - 1, col + 1):
                if 0 <= new < n:
                    cols = (*self.cols[:row], new, *self.cols[row + 1:])
                    g = self.g - abs(col - start[row]) + abs(new - start[row])
                    yield (row, new), type(self)(self.board, cols, g,
                                                 self.child_h(row, col, new, cols))


class AttackedShiftState(ShiftState):
    """H2: the number of queens attacked by at least one other."""

    __slots__ = ()
    pairs_heuristic = False

    def child_h(self, row: int, old: int, new: int, cols: tuple[int, ...]) -> int:
        return attacked_queens(self.board, cols)


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
        return cls(board, board.start, 0, diagonal_pairs(board, board.start))

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
