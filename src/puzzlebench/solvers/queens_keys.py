"""Queens line keys for solvers: the one place solvers get row ± col, the torus modulo and the
even-torus correction from.

A queen at (row, col) stands on one column, one anti-diagonal (↗, row + col constant) and one
diagonal (↘, row − col constant). On an n × n board the diagonal keys are offset into
``0 .. 2n − 2``; on a torus (diagonals wrap) they are taken mod n, so each family has n
lines, and on an even torus two queens can share *both* diagonals — a pair a per-line count
sees twice.

The validator keeps its own copy of this arithmetic (``problems/queens_lines.py``) on purpose:
the judge must not share code with what it judges, so a bug here cannot hide itself.

The functions work on ints and numpy arrays alike; ``queens_keys_jit`` compiles them for numba
kernels (kept there so that a pure-Python solver's process never loads numba for them).
"""

from __future__ import annotations

from typing import Any


def anti_key(row: Any, col: Any, n: int, torus: bool) -> Any:
    """The anti-diagonal (↗) key of a square, in ``0 .. diagonal_lines(n) − 1``."""
    return (row + col) % n if torus else row + col


def diag_key(row: Any, col: Any, n: int, torus: bool) -> Any:
    """The diagonal (↘) key of a square, in ``0 .. diagonal_lines(n) − 1``."""
    return (row - col + n) % n if torus else row - col + n - 1


def diagonal_keys(row: Any, col: Any, n: int, torus: bool) -> tuple[Any, Any]:
    """(anti-diagonal, diagonal) keys of a square, each in ``0 .. diagonal_lines(n) − 1``."""
    if torus:
        return (row + col) % n, (row - col + n) % n
    return row + col, row - col + n - 1


def diagonal_lines(n: int, torus: bool) -> int:
    """Lines in each diagonal family: n on a torus, 2n − 1 on a board."""
    return n if torus else 2 * n - 1


def same_diagonal(r1: int, c1: int, r2: int, c2: int, n: int, torus: bool) -> bool:
    """Whether two squares share a diagonal of either family (compared without building keys:
    this sits in the heuristics' inner loops)."""
    if torus:
        return (r1 + c1 - r2 - c2) % n == 0 or (r1 - c1 - r2 + c2) % n == 0
    return abs(r1 - r2) == abs(c1 - c2)


def shares_both_diagonals(n: int, torus: bool) -> bool:
    """Whether two queens can share both diagonals (an even torus): per-line pair counts
    then count such a pair twice and need the correction."""
    return torus and n % 2 == 0


def diagonal_squares(n: int, torus: bool) -> list[list[tuple[int, int]]]:
    """The squares of every diagonal line, both families (anti-diagonals first), each line in
    row order: what a model builder posts at-most-one (or exactly-one, on a torus) on."""
    lines = diagonal_lines(n, torus)
    anti: list[list[tuple[int, int]]] = [[] for _ in range(lines)]
    diag: list[list[tuple[int, int]]] = [[] for _ in range(lines)]
    for r in range(n):
        for c in range(n):
            a, d = diagonal_keys(r, c, n, torus)
            anti[a].append((r, c))
            diag[d].append((r, c))
    return anti + diag


def clashing(placed: tuple[tuple[int, int], ...] | list[tuple[int, int]], n: int,
             torus: bool = False) -> bool:
    """Whether any two of these queens attack each other (or share a row)."""
    seen = [set(), set(), set(), set()]  # type: list[set[int]]
    for r, c in placed:
        for keys, key in zip(seen, (r, c, *diagonal_keys(r, c, n, torus)), strict=True):
            if key in keys:
                return True
            keys.add(key)
    return False
