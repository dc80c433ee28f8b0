"""The sub-problems of n-queens counting: edge-queen constellations, one per symmetry class.

Every solution has exactly one queen in each of the four edge lines of the board — row 0,
row n-1, column 0 and column n-1 — and at most one corner queen (any two corners share a
line). The four edge queens of a solution form its *constellation*: ``top`` (row 0's column),
``bottom`` (row n-1's column), ``left`` (column 0's row) and ``right`` (column n-1's row); a
corner queen is two of them at once. This split is the idea of NQueensFAF's "constellations",
derived here from the definitions:

* The eight symmetries of the square map solutions to solutions and constellations to
  constellations, and a solution's constellation moves with it. So the solutions above
  constellations of one orbit are equally many, and the total is the sum, over one
  representative per orbit, of (orbit size) × (its completions). The representative is the
  image with the smallest ``(top, bottom, left, right)``; its orbit size (``weight``) is 8, 4
  or 2 (no constellation of n > 1 is kept by all eight).
* Unique solutions (A002562): the symmetries that keep a representative (its stabiliser, of
  8 / weight elements) permute its completions, and the solution classes it stands for are
  their orbits under that stabiliser. By Burnside's lemma that is weight / 8 × (completions +
  completions kept by a half turn + 2 × those kept by a quarter turn) — reflections keep no
  solution of n > 1 (a queen off the mirror's axis shares a line with its image, and at most
  one queen lies on the axis). Only a representative kept by a half turn (``rotation`` 180
  or 90) can have such completions, so only its search looks at whole boards.

``subproblems(n)`` lists the representatives in increasing ``(top, bottom, left, right)``
order; ``count_subproblem`` counts one (``puzzlebench_baselines.constellation_kernel``), so each
can be run, stored or distributed on its own and the parts summed.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from puzzlebench_baselines.constellation_kernel import count_batch


class Subproblem(NamedTuple):
    """One representative constellation: its four edge queens, orbit size and rotations."""

    top: int  #: column of row 0's queen
    bottom: int  #: column of row n-1's queen
    left: int  #: row of column 0's queen
    right: int  #: row of column n-1's queen
    weight: int  #: how many constellations its orbit holds (8, 4 or 2; 1 for n = 1)
    rotation: int  #: the smallest rotation, in degrees, that keeps it (0: none, 180 or 90)


class SubCount(NamedTuple):
    """A sub-problem's share: weighted solutions, solution classes, queens placed."""

    total: int
    unique: int
    nodes: int


Squares = list[tuple[np.ndarray, np.ndarray]]


def _squares(n: int, top: np.ndarray, bot: np.ndarray, lft: np.ndarray, rgt: np.ndarray) -> Squares:
    """(row, column) of the top, bottom, left and right queens."""
    last = n - 1
    return [(np.zeros_like(top), top), (np.full_like(bot, last), bot), (lft, np.zeros_like(lft)),
            (rgt, np.full_like(rgt, last))]


def _image_keys(n: int, top: np.ndarray, bot: np.ndarray, lft: np.ndarray,
                rgt: np.ndarray) -> list[np.ndarray]:
    """The key (top, bottom, left, right) of the eight images of each constellation: itself,
    the mirror images in the vertical and horizontal axes, the half turn, the transpose, the
    two quarter turns (index 5 and 6) and the anti-transpose. Moving a queen's square moves the
    edge it names: the transpose, for instance, takes row 0's queen to column 0."""
    last = n - 1
    images = (
        (top, bot, lft, rgt), (last - top, last - bot, rgt, lft), (bot, top, last - lft, last - rgt),
        (last - bot, last - top, last - rgt, last - lft), (lft, rgt, top, bot),
        (last - lft, last - rgt, bot, top), (rgt, lft, last - top, last - bot),
        (last - rgt, last - lft, last - bot, last - top),
    )
    return [((t * n + b) * n + le) * n + r for t, b, le, r in images]


def _compatible(squares: Squares) -> np.ndarray:
    """True where no edge queen attacks another (two names of one corner square are one
    queen; a corner square named once clashes with its line's other queen)."""
    ok = np.ones(squares[0][0].shape, dtype=bool)
    for i in range(4):
        for j in range(i + 1, 4):
            (y1, x1), (y2, x2) = squares[i], squares[j]
            same = (y1 == y2) & (x1 == x2)
            clash = (y1 == y2) | (x1 == x2) | (np.abs(y1 - y2) == np.abs(x1 - x2))
            ok &= same | ~clash
    return ok


@lru_cache(maxsize=8)
def representatives(n: int) -> np.ndarray:
    """``subproblems(n)`` as a read-only array, one row (top, bottom, left, right, weight,
    rotation) per representative, for callers that work on all of them at once."""
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    edges = np.indices((n, n, n, n), dtype=np.int64).reshape(4, -1)  # in key order
    edges = edges[:, _compatible(_squares(n, *edges))]
    keys = _image_keys(n, *edges)
    canonical = np.all([keys[0] <= k for k in keys[1:]], axis=0)
    kept = np.sum([k == keys[0] for k in keys], axis=0)  # the stabiliser's size
    rotation = np.where(keys[5] == keys[0], 90, np.where(keys[3] == keys[0], 180, 0))
    out = np.vstack([edges, 8 // kept, rotation])[:, canonical].T.copy()
    out.flags.writeable = False
    return out


@lru_cache(maxsize=8)
def subproblems(n: int) -> tuple[Subproblem, ...]:
    """Every representative constellation of the n × n board, in increasing (top, bottom,
    left, right) order (none for n = 2, 3). A pure function of n (cached: the tuple is
    immutable)."""
    return tuple(Subproblem(*row) for row in representatives(n).tolist())


def table(subs: tuple[Subproblem, ...] | list[Subproblem]) -> np.ndarray:
    """The kernel's input: one row (top, bottom, left, right, rotation) per sub-problem."""
    return np.array([(*s[:4], s.rotation) for s in subs], dtype=np.int64).reshape(-1, 5)


def share(sub: Subproblem, row: np.ndarray) -> SubCount | None:
    """A sub-problem's share from its kernel row (completions, kept by a half turn, by a
    quarter turn, queens placed); None for a row the deadline cut."""
    found, half, quarter, nodes = (int(v) for v in row)
    if found < 0:
        return None
    classes, rest = divmod(sub.weight * (found + half + 2 * quarter), 8)
    assert rest == 0, (sub, found, half, quarter)  # Burnside: a whole number of classes
    return SubCount(sub.weight * found, classes, nodes)


def count_subproblem(n: int, sub: Subproblem, deadline: float = math.inf) -> SubCount | None:
    """The solutions (× the orbit weight), solution classes and queens placed above one
    representative; None when ``time.perf_counter()`` passed ``deadline`` first."""
    if n == 1:  # the lone queen is kept by every symmetry, reflections too
        return SubCount(1, 1, 0)
    return share(sub, count_batch(n, table([sub]), deadline)[0])
