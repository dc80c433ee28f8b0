"""Sliding-puzzle search states: tiles as a tuple, h maintained incrementally.

Successors are generated in the fixed order U, D, L, R (blank moves). A child costs O(cells)
to build (a new tuple) and O(1) to score, plus O(line) for linear conflict, whose two affected
lines (the moved tile's old and new column for a horizontal move, rows for a vertical one)
are re-evaluated.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from puzzlebench.search.best_first import SearchState
from puzzlebench.search.sliding.sliding_heuristics import Heuristic

STEPS: tuple[tuple[str, int, int], ...] = (("U", -1, 0), ("D", 1, 0), ("L", 0, -1), ("R", 0, 1))


class SlidingState(SearchState):
    """One board position; ``g`` is the number of moves from the start."""

    __slots__ = ("base", "blank", "g", "h", "heur", "lines", "tiles")

    def __init__(self, heur: Heuristic, tiles: tuple[int, ...], blank: int, g: int, base: int,
                 lines: tuple[int, ...]) -> None:
        self.heur, self.tiles, self.blank, self.g = heur, tiles, blank, g
        self.base, self.lines = base, lines
        self.h = base + sum(lines)

    @classmethod
    def initial(cls, heur: Heuristic, tiles: tuple[int, ...]) -> SlidingState:
        return cls(heur, tiles, tiles.index(0), 0, heur.base(tiles), heur.lines(tiles))

    @property
    def key(self) -> tuple[int, ...]:
        return self.tiles

    def is_goal(self) -> bool:
        return self.tiles == self.heur.t.goal

    def successors(self) -> Iterator[tuple[Any, SearchState]]:
        heur = self.heur
        rows, cols = heur.t.rows, heur.t.cols
        r, c = divmod(self.blank, cols)
        for move, dr, dc in STEPS:
            nr, nc = r + dr, c + dc
            if not (0 <= nr < rows and 0 <= nc < cols):
                continue
            src = nr * cols + nc
            tile = self.tiles[src]
            cells = list(self.tiles)
            cells[self.blank], cells[src] = tile, 0
            tiles = tuple(cells)
            base = self.base + heur.base_delta(tile, src, self.blank)
            lines = self.lines
            if lines:
                changed = list(lines)
                if dr:  # the tile changes row: its old and new rows
                    changed[nr] = heur.row_lc(tiles, nr)
                    changed[r] = heur.row_lc(tiles, r)
                else:  # it changes column
                    changed[rows + nc] = heur.col_lc(tiles, nc)
                    changed[rows + c] = heur.col_lc(tiles, c)
                lines = tuple(changed)
            yield move, SlidingState(heur, tiles, src, self.g + 1, base, lines)
