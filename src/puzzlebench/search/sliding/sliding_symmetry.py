"""Goals in any position, reduced to one: the board's symmetries, the relabelling of an
instance onto the canonical goal (tile p on cell p, blank on cell 0), and the mapping of moves
found there back to the instance's own board (see ``search.idastar_pdb``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from puzzlebench.problems.sliding import SlidingInstance

#: The blank's row and column step for moves 0..3 (U, D, L, R).
DR = (-1, 1, 0, 0)
DC = (0, 0, -1, 1)


DR = (-1, 1, 0, 0)


DC = (0, 0, -1, 1)


def board_symmetries(rows: int, cols: int) -> list[tuple[int, ...]]:
    """Symmetries of the board as maps cell → cell (8 for a square, 4 otherwise), identity first."""
    out: list[tuple[int, ...]] = []
    for rot in range(4 if rows == cols else 1):
        for flip_r in (False, True):
            for flip_c in (False, True):
                if rows == cols and flip_r:
                    continue
                perm = []
                for p in range(rows * cols):
                    r, c = divmod(p, cols)
                    for _ in range(rot):
                        r, c = c, rows - 1 - r
                    if flip_r:
                        r = rows - 1 - r
                    if flip_c:
                        c = cols - 1 - c
                    perm.append(r * cols + c)
                out.append(tuple(perm))
    return out


@dataclass(frozen=True)
class Relabelled:
    """An instance on the canonical board: ``tiles[q]`` is the goal cell of the tile on cell
    q (−1 for the blank); ``sym`` maps original cells to canonical ones."""

    rows: int
    cols: int
    tiles: tuple[int, ...]
    blank_goal: int
    sym: tuple[int, ...]

    @property
    def reflects(self) -> bool:
        """The diagonal reflection maps this goal onto itself."""
        return self.rows == self.cols and self.blank_goal // self.cols == self.blank_goal % self.cols


def relabel(instance: SlidingInstance) -> Relabelled:
    """Move the goal's blank to cell 0 by a symmetry when it is in a corner; name tiles by goal cell."""
    rows, cols = instance.rows, instance.cols
    blank = instance.goal.index(0)
    syms = board_symmetries(rows, cols)
    sym = next((g for g in syms if g[blank] == 0), syms[0])
    goal_t = [0] * (rows * cols)
    start_t = [0] * (rows * cols)
    for p in range(rows * cols):
        goal_t[sym[p]] = instance.goal[p]
        start_t[sym[p]] = instance.start[p]
    home = {t: q for q, t in enumerate(goal_t)}
    tiles = tuple(-1 if t == 0 else home[t] for t in start_t)
    return Relabelled(rows, cols, tiles, sym[blank], sym)


def original_moves(moves: np.ndarray, rel: Relabelled, start_blank: int) -> str:
    """The relabelled board's blank moves, as moves on the instance's own board."""
    inverse = [0] * len(rel.sym)
    for p, q in enumerate(rel.sym):
        inverse[q] = p
    cols = rel.cols
    out = []
    blank = start_blank  # original cell
    for mv in moves:
        q = rel.sym[blank]
        q2 = (q // cols + DR[mv]) * cols + q % cols + DC[mv]
        nxt = inverse[q2]
        step = (nxt // cols - blank // cols, nxt % cols - blank % cols)
        out.append({(-1, 0): "U", (1, 0): "D", (0, -1): "L", (0, 1): "R"}[step])
        blank = nxt
    return "".join(out)
