"""The sliding-tile board's notation and arithmetic: goal states, the start-state text format
(``125408367``, comma-separated for tiles ≥ 10, ``korf:K``, ``korf24:K``), board shapes, move replay and
permutation parity — what the ``sliding`` problem and its solvers share."""

from __future__ import annotations

import math
from typing import Any

from puzzlebench.problems.errors import InvalidInstanceError
from puzzlebench.problems.korf_instances import korf24_instance, korf_instance

MOVES: dict[str, tuple[int, int]] = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


def default_goal(rows: int, cols: int) -> tuple[int, ...]:
    """1..N-1 in row-major order, blank last."""
    cells = rows * cols
    return (*range(1, cells), 0)


def parse_state(text: str, cells: int | None = None) -> tuple[int, ...]:
    """Read ``125408367`` (one digit per cell) or ``1,2,3,...`` (any tile numbers)."""
    text = text.strip()
    if not text:
        raise InvalidInstanceError("empty puzzle state")
    separated = "," in text or " " in text
    parts = [p for p in text.replace(" ", ",").split(",") if p] if separated else list(text)
    try:
        state = tuple(int(p) for p in parts)
    except ValueError:
        raise InvalidInstanceError(f"malformed puzzle state {text!r}: tiles are integers") from None
    if cells is not None and len(state) != cells:
        raise InvalidInstanceError(
            f"puzzle state {text!r} has {len(state)} cells, the board has {cells}"
        )
    return state


def board_shape(size: int) -> tuple[int, int]:
    """The square board holding ``size`` tiles (8 → 3×3, 15 → 4×4)."""
    side = math.isqrt(size + 1)
    if side * side != size + 1 or side < 2:
        raise InvalidInstanceError(
            f"sliding size {size} is not k*k-1 for a square board (8, 15, 24, ...); "
            "give the shape explicitly"
        )
    return side, side


def permutation_parity(perm: list[int]) -> int:
    """Parity (0 even, 1 odd) of a permutation of 0..k-1, by cycle decomposition."""
    seen = [False] * len(perm)
    parity = 0
    for i in range(len(perm)):
        if seen[i]:
            continue
        j, length = i, 0
        while not seen[j]:
            seen[j] = True
            j = perm[j]
            length += 1
        parity ^= (length - 1) & 1
    return parity


def korf24_start(text: str) -> tuple[int, ...]:
    """The start of ``korf24:N``, Korf & Felner's 24-puzzle instance N (1..50)."""
    number = text.strip().lower().removeprefix("korf24").lstrip(":#")
    if not number.isdigit():
        raise InvalidInstanceError(
            f"a Korf & Felner 24-puzzle instance is named korf24:N (N = 1..50), got {text!r}")
    try:
        return korf24_instance(int(number)).start
    except ValueError as exc:
        raise InvalidInstanceError(str(exc)) from None


def korf_start(text: str) -> tuple[int, ...]:
    number = text.strip().lower().removeprefix("korf").lstrip(":#")
    if not number.isdigit():
        raise InvalidInstanceError(f"a Korf instance is named korf:N (N = 1..100), got {text!r}")
    try:
        return korf_instance(int(number)).start
    except ValueError as exc:
        raise InvalidInstanceError(str(exc)) from None


def parse_shape(shape: Any) -> tuple[int, int]:
    if isinstance(shape, tuple):
        return int(shape[0]), int(shape[1])
    try:
        r, c = str(shape).lower().split("x")
        return int(r), int(c)
    except ValueError:
        raise InvalidInstanceError(f"shape must be ROWSxCOLS (e.g. 3x3), got {shape!r}") from None
