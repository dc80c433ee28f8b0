"""Classic backtracking as seed 003 describes it: row by row, the first safe column, back up
on a dead end. Readable on purpose — it is the textbook baseline whose tree Knuth's estimate
measures — with node and backtrack counters.

nqueens and torus-queens: one queen per row, columns tried left to right; for
nqueens-completion a row holding a pre-placed queen tries only that queen's column.
queens-knights:
pieces are placed square by square in row-major order (a square is left empty, given a queen
or given a knight), which enumerates each placement once since pieces of a kind are
interchangeable; a dead end is a square where no remaining piece fits.

Counters: ``nodes`` (pieces placed), ``backtracks`` (pieces taken back).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from puzzlebench.contract import Budget, Claim, Proposal, Solver
from puzzlebench.problems.queens_knights import QueensKnightsInstance
from puzzlebench.solvers.queens_keys import diagonal_keys, diagonal_lines

CHECK_EVERY = 1024
#: Columns looked at between two looks at the clock, however few queens they placed (at
#: n = 10,000 a backtracking step scans up to 10,000 columns, and most steps place none).
CHECK_SCANNED = 1 << 16


class _BudgetSpentError(Exception):
    """The budget ran out."""


def queens_first_solution(
    n: int, torus: bool, budget: Budget, fixed: dict[int, int] | None = None
) -> tuple[list[int] | None, bool, dict[str, int]]:
    """(answer or None, exhausted, counters). ``exhausted`` means the tree was fully searched;
    ``fixed`` maps rows to the column their queen must take."""
    clock = budget.clock()
    fixed = fixed or {}
    max_nodes = budget.max_nodes
    col_used = [False] * n
    ndiag = diagonal_lines(n, torus)
    diag_used = [False] * ndiag
    anti_used = [False] * ndiag
    cols = [-1] * n
    nodes = backtracks = 0
    scanned, next_look = 0, CHECK_SCANNED

    row = 0
    while 0 <= row < n:
        start = cols[row] + 1
        if cols[row] >= 0:  # take the queen back before trying the next column
            d, a = diagonal_keys(row, cols[row], n, torus)
            col_used[cols[row]] = diag_used[d] = anti_used[a] = False
        placed = False
        choices = range(start, n) if row not in fixed else range(
            max(start, fixed[row]), min(n, fixed[row] + 1))
        for col in choices:
            d, a = diagonal_keys(row, col, n, torus)
            if not (col_used[col] or diag_used[d] or anti_used[a]):
                cols[row] = col
                col_used[col] = diag_used[d] = anti_used[a] = True
                nodes += 1
                placed = True
                break
        scanned += len(choices)  # at most: one scan of a row is O(n), long on a large board
        if scanned >= next_look:  # the clock, however few queens the scans placed
            next_look = scanned + CHECK_SCANNED
            if clock.expired():
                return None, False, {"nodes": nodes, "backtracks": backtracks}
        if placed:
            row += 1
            if nodes % CHECK_EVERY == 0 and (
                clock.expired() or (max_nodes is not None and nodes >= max_nodes)
            ):
                return None, False, {"nodes": nodes, "backtracks": backtracks}
        else:
            cols[row] = -1
            row -= 1
            backtracks += 1
        if max_nodes is not None and nodes >= max_nodes and row < n:
            return None, False, {"nodes": nodes, "backtracks": backtracks}
    counters = {"nodes": nodes, "backtracks": backtracks}
    if row == n:
        return cols, False, counters
    return None, True, counters


def queens_knights_first_solution(
    inst: QueensKnightsInstance, budget: Budget
) -> tuple[list[tuple[str, int, int]] | None, bool, dict[str, int]]:
    """Square-by-square backtracking for the mixed board (recursive; boards up to ~12)."""
    n = inst.n
    clock = budget.clock()
    occupied: dict[tuple[int, int], str] = {}
    counters = {"nodes": 0, "backtracks": 0}

    def on_line(r1: int, c1: int, r2: int, c2: int) -> bool:
        return r1 == r2 or c1 == c2 or abs(r1 - r2) == abs(c1 - c2)

    def knight_hit(r1: int, c1: int, r2: int, c2: int) -> bool:
        dr, dc = abs(r1 - r2), abs(c1 - c2)
        return (dr, dc) in ((1, 2), (2, 1))

    def fits(kind: str, r: int, c: int) -> bool:
        for (pr, pc), pk in occupied.items():
            if on_line(r, c, pr, pc) and (kind == "Q" or pk == "Q"):
                return False
            if knight_hit(r, c, pr, pc) and (kind == "N" or pk == "N"):
                return False
        return True

    def search(square: int, queens: int, knights: int) -> bool:
        if queens == 0 and knights == 0:
            return True
        if n * n - square < queens + knights:
            return False
        if counters["nodes"] % CHECK_EVERY == 0 and clock.expired():
            raise _BudgetSpentError
        if budget.max_nodes is not None and counters["nodes"] >= budget.max_nodes:
            raise _BudgetSpentError
        r, c = divmod(square, n)
        for kind, left in (("Q", queens), ("N", knights)):
            if left and fits(kind, r, c):
                occupied[(r, c)] = kind
                counters["nodes"] += 1
                if search(square + 1, queens - (kind == "Q"), knights - (kind == "N")):
                    return True
                del occupied[(r, c)]
                counters["backtracks"] += 1
        return search(square + 1, queens, knights)

    try:
        found = search(0, inst.queens, inst.knights)
    except _BudgetSpentError:
        return None, False, counters
    if not found:
        return None, True, counters
    answer = [(k, r, c) for (r, c), k in sorted(occupied.items())]
    return answer, False, counters


class Backtracking(Solver):
    """Seed 003's row-by-row backtracking: the first solution, or a proof there is none."""

    name: ClassVar[str] = "backtracking"
    counter_names: ClassVar[frozenset[str] | None] = frozenset({"nodes", "backtracks"})
    problems: ClassVar[frozenset[str]] = frozenset(
        {"nqueens", "torus-queens", "queens-knights", "nqueens-completion"})
    honours: ClassVar[frozenset[str]] = frozenset({"time_limit", "max_nodes"})
    complete: ClassVar[bool] = True

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
        if isinstance(instance, QueensKnightsInstance):
            answer: Any
            answer, exhausted, counters = queens_knights_first_solution(instance, budget)
        else:
            answer, exhausted, counters = queens_first_solution(
                instance.n, instance.wraps, budget, dict(instance.fixed))
        if answer is not None:
            return Proposal(answer=answer, claim=Claim.SOLVED, counters=counters)
        if exhausted:
            return Proposal(claim=Claim.INFEASIBLE, counters=counters)
        return Proposal(claim=Claim.UNKNOWN, counters=counters, note="budget exhausted")
