"""Exhaustive n-queens counting with bitboards (each row's free columns as a bit mask).

Two enumerations, chosen by the ``symmetry`` parameter:

* ``full`` (the default for nqueens): all eight symmetries of the square, in
  ``puzzlebench_baselines.bitboard_symmetric`` — each orbit is reached through its lexicographic minimum,
  so totals and unique counts come from one search several times smaller than the mirror one.
* ``mirror`` (always used for torus boards): the textbook halving.

Mirror enumeration: work is split into tasks, one per (first-row, second-row) column pair with
the first-row queen in the left half (mirror symmetry: each left-half solution stands for its
mirror image; the middle column of an odd board counts once). Both enumerations run their
tasks on every core as GIL-free kernels on threads (``puzzlebench_baselines.bitboard_tasks``), which stop
starting tasks at the time budget. Unique solutions up to rotation and reflection (OEIS
A002562) are counted by keeping each solution that is the lexicographic minimum of its eight
images; every such minimum has its first queen in the left half, so the half enumeration sees
each orbit once.

Torus boards use rotations instead of shifts for the diagonal masks (reflection is a symmetry
of the torus too, so the mirror halving still holds). ``solve`` returns the first solution
found by the same bit-parallel depth-first search.

nqueens-completion: ``solve`` restricts each row holding a pre-placed queen to that queen's
column; ``count`` then enumerates completions with the same plain depth-first search (the
symmetric and mirror enumerations assume an empty board, so they are not used there).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numba
import numpy as np

from puzzlebench.contract import Budget, Claim, Param, Proposal, Solver
from puzzlebench.problems.base import InvalidInstanceError
from puzzlebench.solvers.compiled_clock import now
from puzzlebench_baselines.bitboard_symmetric import (
    CLOCK_MASK,
    bit_index,
    count_symmetric,
    orbit_if_canonical,
)
from puzzlebench_baselines.bitboard_tasks import run_tasks

MAX_N = 32


@numba.njit(cache=True, inline="always")
def _shift_l(x: int, n: int, full: int, torus: bool) -> int:
    if torus:
        return ((x << 1) | (x >> (n - 1))) & full
    return (x << 1) & full


@numba.njit(cache=True, inline="always")
def _shift_r(x: int, n: int, full: int, torus: bool) -> int:
    if torus:
        return ((x >> 1) | (x << (n - 1))) & full
    return x >> 1


@numba.njit(cache=True, nogil=True)
def _count_task(n: int, c0: int, c1: int, torus: bool, unique: bool,
                deadline: float) -> tuple[int, int, int]:
    """(solutions, canonical solutions, nodes) below the fixed first two rows; a total of -1
    when ``deadline`` passed first (the clock is read every 2^20 nodes)."""
    full = (1 << n) - 1
    cols_s = np.zeros(n + 1, np.int64)
    ld_s = np.zeros(n + 1, np.int64)
    rd_s = np.zeros(n + 1, np.int64)
    avail = np.zeros(n + 1, np.int64)
    pos = np.zeros(n, np.int64)
    inv = np.zeros(n, np.int64)
    b0 = 1 << c0
    b1 = 1 << c1
    pos[0] = c0
    pos[1] = c1
    ld = _shift_l(_shift_l(b0, n, full, torus) | b1, n, full, torus)
    rd = _shift_r(_shift_r(b0, n, full, torus) | b1, n, full, torus)
    cols = b0 | b1
    if n == 2:
        return 1, 1, 2
    row = 2
    cols_s[row] = cols
    ld_s[row] = ld
    rd_s[row] = rd
    avail[row] = full & ~(cols | ld | rd)
    count = 0
    canon = 0
    nodes = 0
    last = n - 1
    while row >= 2:
        a = avail[row]
        if a == 0:
            row -= 1
            continue
        bit = a & -a
        avail[row] = a ^ bit
        nodes += 1
        if (nodes & CLOCK_MASK) == 0 and now() >= deadline:
            return -1, 0, nodes
        if unique:
            pos[row] = bit_index(bit)
        if row == last:
            count += 1
            if unique and orbit_if_canonical(pos, inv, n):
                canon += 1
            continue
        c = cols_s[row] | bit
        lnext = _shift_l(ld_s[row] | bit, n, full, torus)
        rnext = _shift_r(rd_s[row] | bit, n, full, torus)
        row += 1
        cols_s[row] = c
        ld_s[row] = lnext
        rd_s[row] = rnext
        avail[row] = full & ~(c | lnext | rnext)
    return count, canon, nodes


def _count_all(
    n: int, tasks: np.ndarray, torus: bool, unique: bool, deadline: float = float("inf")
) -> np.ndarray | None:
    """Per task (weighted solutions, canonical solutions, nodes); None past the deadline."""
    rows = run_tasks(lambda t: _count_task(n, int(t[0]), int(t[1]), torus, unique, deadline),
                     list(tasks), deadline)
    if rows is None or any(int(r[0]) < 0 for r in rows):
        return None
    out = np.array(rows, dtype=np.int64).reshape(-1, 3)
    out[:, 0] *= tasks[:, 2]
    return out


def _tasks(n: int, torus: bool) -> np.ndarray:
    """(c0, c1, weight) for every compatible first-two-row pair with c0 in the left half."""
    rows = []
    for c0 in range((n + 1) // 2):
        weight = 2 if c0 < n // 2 else 1
        for c1 in range(n):
            d = (c1 - c0) % n if torus else abs(c1 - c0)
            if c1 == c0 or d == 1 or (torus and d == n - 1):
                continue
            rows.append((c0, c1, weight))
    return np.array(rows, dtype=np.int64).reshape(-1, 3)


def _prefix(fixed: tuple[tuple[int, int], ...], n: int) -> tuple[int, ...] | None:
    """The columns of pre-placed queens that fill exactly the first one or two rows of a
    board of n ≥ 3 (a split count's sub-problem: ``problems.count_splits``); None otherwise."""
    rows = tuple(r for r, _ in fixed)
    return tuple(c for _, c in fixed) if n >= 3 and rows in ((0,), (0, 1)) else None


def _count_below(n: int, prefix: tuple[int, ...], deadline: float) -> tuple[int, int] | None:
    """(completions, nodes) of a one- or two-row prefix, by the compiled two-row search;
    None when ``deadline`` passed first."""
    c0 = prefix[0]
    seconds = prefix[1:] if len(prefix) == 2 else tuple(range(n))
    total = nodes = 0
    for c1 in seconds:
        if abs(c1 - c0) <= 1:  # the same column or a diagonal neighbour: attacked
            continue
        found, _, spent = _count_task(n, c0, c1, False, False, deadline)
        if found < 0:
            return None
        total, nodes = total + found, nodes + spent + 1
    return total, nodes + 1


SYMMETRIES = ("full", "mirror")


def count_queens(
    n: int, torus: bool = False, unique: bool = False, symmetry: str = "full"
) -> tuple[int, int, int]:
    """(solutions, unique solutions, nodes) for n ≤ 32 using every core (see below)."""
    found = count_queens_until(n, torus, unique, symmetry, float("inf"))
    assert found is not None  # no deadline, so every task ran
    return found


def count_queens_until(
    n: int, torus: bool, unique: bool, symmetry: str, deadline: float
) -> tuple[int, int, int] | None:
    """(solutions, unique solutions, nodes) for n ≤ 32 using every core; None when the
    ``time.perf_counter()`` deadline passed before every task had started.

    ``symmetry="full"`` uses the eight-symmetry enumeration for nqueens (unique counts come
    free); ``"mirror"`` the first-row halving (unique counts by a canonical test per
    solution). Torus boards always use the mirror enumeration. ``nodes`` is the size of the
    enumeration actually run.
    """
    if n > MAX_N:
        raise InvalidInstanceError(f"the bitboard counter handles n ≤ {MAX_N}")
    if symmetry not in SYMMETRIES:
        raise InvalidInstanceError(f"symmetry must be one of {', '.join(SYMMETRIES)}")
    if symmetry == "full" and not torus:
        found = count_symmetric(n, deadline=deadline)
        return None if found is None else (found[0], found[1] if unique else 0, found[2])
    if n == 1:
        return 1, 1, 1
    tasks = _tasks(n, torus)
    if tasks.shape[0] == 0:
        return 0, 0, n
    out = _count_all(n, tasks, torus, unique, deadline)
    if out is None:
        return None
    return int(out[:, 0].sum()), int(out[:, 1].sum()), int(out[:, 2].sum())


def first_solution(n: int, torus: bool, budget: Budget, fixed: dict[int, int] | None = None,
                   *, count_all: bool = False) -> tuple[list[int] | None, bool, int, int]:
    """Bit-parallel DFS: (first answer, exhausted, nodes, solutions). ``fixed`` maps rows to
    the column their queen must take; ``count_all`` walks the whole tree counting solutions
    (no answer is returned then)."""
    clock = budget.clock()
    full = (1 << n) - 1
    only = [full] * n
    for row, col in (fixed or {}).items():
        only[row] = 1 << col
    stack: list[tuple[int, int, int, int]] = [(only[0], 0, 0, 0)]  # (avail, cols, ld, rd)
    path: list[int] = []
    nodes = solutions = 0

    def sl(x: int) -> int:
        return (((x << 1) | (x >> (n - 1))) & full) if torus else (x << 1) & full

    def sr(x: int) -> int:
        return (((x >> 1) | (x << (n - 1))) & full) if torus else x >> 1

    while stack:
        avail, cols, ld, rd = stack[-1]
        if avail == 0:
            stack.pop()
            if path:
                path.pop()
            continue
        bit = avail & -avail
        stack[-1] = (avail ^ bit, cols, ld, rd)
        nodes += 1
        if ((nodes & 4095) == 0 and clock.expired()) or (
            budget.max_nodes is not None and nodes > budget.max_nodes
        ):
            return None, False, nodes, solutions
        path.append(bit.bit_length() - 1)
        if len(path) == n:
            if not count_all:
                return path, False, nodes, 1
            solutions += 1
            path.pop()
            continue
        c, lft, rgt = cols | bit, sl(ld | bit), sr(rd | bit)
        stack.append((only[len(path)] & ~(c | lft | rgt), c, lft, rgt))
    return None, True, nodes, solutions


class BitboardCounter(Solver):
    """Bitboard backtracking on both cores: counts (and unique counts) and first solutions."""

    compiled: ClassVar[bool] = True  # numba: warmed, untimed, before each timed run

    name: ClassVar[str] = "bitboard"
    counter_names: ClassVar[frozenset[str] | None] = frozenset({"nodes"})
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens", "torus-queens", "nqueens-completion"})
    honours: ClassVar[frozenset[str]] = frozenset({"time_limit", "max_nodes"})
    complete: ClassVar[bool] = True
    counts: ClassVar[bool] = True
    counts_unique: ClassVar[bool] = True
    count_max_n: ClassVar[int | None] = 32
    params: ClassVar[dict[str, Any]] = {"symmetry": Param("full", choices=tuple(SYMMETRIES))}

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
        answer, exhausted, nodes, _ = first_solution(
            instance.n, instance.wraps, budget, dict(instance.fixed))
        counters = {"nodes": nodes}
        if answer is not None:
            return Proposal(answer=answer, claim=Claim.SOLVED, counters=counters)
        if exhausted:
            return Proposal(claim=Claim.INFEASIBLE, counters=counters)
        return Proposal(claim=Claim.UNKNOWN, counters=counters, note="budget exhausted")

    def count(self, instance: Any, budget: Budget, *, unique: bool = False) -> Proposal:
        torus = instance.wraps
        if unique and (torus or instance.fixed):
            raise InvalidInstanceError("unique counts are defined for nqueens only")
        prefix = _prefix(instance.fixed, instance.n)
        if prefix is not None and not torus:
            counted = _count_below(instance.n, prefix, budget.clock().end)
            if counted is None:
                return Proposal(claim=Claim.UNKNOWN, note="time budget ended before the count")
            return Proposal(claim=Claim.SOLVED if counted[0] else Claim.INFEASIBLE,
                            count=counted[0], counters={"nodes": counted[1]})
        if instance.fixed:
            _, exhausted, nodes, total = first_solution(
                instance.n, torus, budget, dict(instance.fixed), count_all=True)
            if not exhausted:
                return Proposal(claim=Claim.UNKNOWN, note="budget ended before the count")
            return Proposal(claim=Claim.SOLVED if total else Claim.INFEASIBLE, count=total,
                            counters={"nodes": nodes})
        found = count_queens_until(instance.n, torus, unique, self.config["symmetry"],
                                   budget.clock().end)
        if found is None:
            return Proposal(claim=Claim.UNKNOWN, note="time budget ended before the count")
        total, canon, nodes = found
        return Proposal(
            claim=Claim.SOLVED if total else Claim.INFEASIBLE,
            count=total,
            unique=canon if unique else None,
            counters={"nodes": nodes},
        )
