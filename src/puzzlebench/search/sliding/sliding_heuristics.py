"""Sliding-puzzle heuristics for any goal state and any rows × cols board.

- ``rowcol`` (seed 001's ``calculate_h``): tiles outside their goal row + tiles outside their
  goal column. Admissible: each such tile needs at least one vertical / horizontal move.
- ``misplaced``: tiles not on their goal square.
- ``manhattan``: Σ of row and column distances to the goal square.
- ``linear-conflict``: Manhattan + 2 per tile that must leave a line (row or column) so that
  the tiles whose goals lie in that line can pass each other (Hansson, Mayer & Yung 1992;
  the fewest tiles are removed so that the rest are in goal order: k − LIS; admissible).

``Heuristic.full(tiles)`` evaluates a state; ``Heuristic.delta(...)`` updates one after a
move in O(1) (O(line length) for linear conflict), which is what the searches use.
"""

from __future__ import annotations

from dataclasses import dataclass

HEURISTICS: tuple[str, ...] = ("misplaced", "rowcol", "manhattan", "linear-conflict")


@dataclass(frozen=True, slots=True)
class Tables:
    """Per-board lookup tables: goal square of each tile and distances per (tile, square)."""

    rows: int
    cols: int
    goal: tuple[int, ...]
    goal_row: tuple[int, ...]
    goal_col: tuple[int, ...]
    manhattan: tuple[tuple[int, ...], ...]

    @classmethod
    def build(cls, rows: int, cols: int, goal: tuple[int, ...]) -> Tables:
        cells = rows * cols
        where = [0] * cells
        for i, t in enumerate(goal):
            where[t] = i
        goal_row = tuple(where[t] // cols for t in range(cells))
        goal_col = tuple(where[t] % cols for t in range(cells))
        md = tuple(
            tuple(0 if t == 0 else abs(p // cols - goal_row[t]) + abs(p % cols - goal_col[t])
                  for p in range(cells))
            for t in range(cells)
        )
        return cls(rows, cols, goal, goal_row, goal_col, md)


def line_conflict(tiles_in_order: list[int], goals: list[int]) -> int:
    """Extra moves for one line: 2 × (tiles − the longest run already in goal order), i.e. the
    fewest tiles that must leave the line (admissible on lines of any length)."""
    k = len(goals)
    best = [1] * k
    for i in range(k):
        for j in range(i):
            if goals[j] < goals[i]:
                best[i] = max(best[i], best[j] + 1)
    return 2 * (k - max(best, default=0))


class Heuristic:
    """One named heuristic bound to a board's tables."""

    def __init__(self, name: str, tables: Tables) -> None:
        if name not in HEURISTICS:
            raise ValueError(f"unknown sliding heuristic {name!r}; known: {', '.join(HEURISTICS)}")
        self.name = name
        self.t = tables

    def row_lc(self, tiles: tuple[int, ...], r: int) -> int:
        t, c0 = self.t, r * self.t.cols
        line = [x for x in tiles[c0:c0 + t.cols] if x and t.goal_row[x] == r]
        return line_conflict(line, [t.goal_col[x] for x in line]) if len(line) > 1 else 0

    def col_lc(self, tiles: tuple[int, ...], c: int) -> int:
        t = self.t
        line = [x for x in tiles[c::t.cols] if x and t.goal_col[x] == c]
        return line_conflict(line, [t.goal_row[x] for x in line]) if len(line) > 1 else 0

    def lines(self, tiles: tuple[int, ...]) -> tuple[int, ...]:
        """Linear-conflict extra per line: rows first, then columns."""
        if self.name != "linear-conflict":
            return ()
        return (*(self.row_lc(tiles, r) for r in range(self.t.rows)),
                *(self.col_lc(tiles, c) for c in range(self.t.cols)))

    def base(self, tiles: tuple[int, ...]) -> int:
        """The per-tile part of h (everything except linear-conflict's line extras)."""
        t, cols = self.t, self.t.cols
        if self.name == "misplaced":
            return sum(1 for p, x in enumerate(tiles) if x and t.goal[p] != x)
        if self.name == "rowcol":
            return sum((p // cols != t.goal_row[x]) + (p % cols != t.goal_col[x])
                       for p, x in enumerate(tiles) if x)
        return sum(t.manhattan[x][p] for p, x in enumerate(tiles))

    def base_delta(self, tile: int, src: int, dst: int) -> int:
        """Change of the per-tile part when ``tile`` moves from square src to dst."""
        t, cols = self.t, self.t.cols
        if self.name == "misplaced":
            return (t.goal[dst] != tile) - (t.goal[src] != tile)
        if self.name == "rowcol":
            before = (src // cols != t.goal_row[tile]) + (src % cols != t.goal_col[tile])
            after = (dst // cols != t.goal_row[tile]) + (dst % cols != t.goal_col[tile])
            return after - before
        return t.manhattan[tile][dst] - t.manhattan[tile][src]

    def full(self, tiles: tuple[int, ...]) -> int:
        return self.base(tiles) + sum(self.lines(tiles))
