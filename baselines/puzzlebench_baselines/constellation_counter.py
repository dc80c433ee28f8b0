"""Counting n-queens solutions by edge-queen constellations, on one thread or every core.

The method of NQueensFAF's CPU solver, in this project's own code: queens are pre-placed in
the first and last rows and columns, one representative constellation is kept per class of
the eight symmetries of the square, with its orbit size as weight, and each is completed by a
bit-parallel search (``puzzlebench_baselines.constellations`` lists the sub-problems and
states the counting argument; ``puzzlebench_baselines.constellation_kernel`` holds the numba
search). The same search yields the total (OEIS A000170) and the solution classes (A002562).

Sub-problems run on threads (the kernels release the GIL), each thread taking the next one
as soon as it is free, the corner ones first (one more free row: about six times the work),
so the last ones to finish are small. ``threads`` = 0 uses every core. ``nodes`` counts the
queens the searches placed (the edge queens are not searched). ``solve`` (a first solution) is
the bitboard solver's depth-first search: this solver is made to count.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

from puzzlebench.contract import Budget, Claim, Param, Proposal, Solver
from puzzlebench.problems.base import InvalidInstanceError
from puzzlebench_baselines.bitboard import first_solution
from puzzlebench_baselines.bitboard_tasks import run_tasks
from puzzlebench_baselines.constellation_kernel import count_batch
from puzzlebench_baselines.constellations import (
    SubCount,
    count_subproblem,
    representatives,
    subproblems,
)

MAX_N = 32


#: Sub-problems per task a thread takes (one kernel call): few enough that the last tasks
#: are short, enough that Python's share (a lock, a call) stays negligible.
BATCH = 8


def schedule(n: int, part: int = 1, parts: int = 1) -> np.ndarray:
    """Indices into ``subproblems(n)`` in the order threads take them: corner constellations
    (one more free row, about six times the work) first, then the rest, each in list order.
    With ``parts`` > 1, only those of part ``part`` (index mod ``parts`` = ``part`` - 1: the
    classes the nqueens-split instance ``part/parts`` holds)."""
    reps = representatives(n)
    last = n - 1
    corner = np.isin(reps[:, 0], (0, last)) | np.isin(reps[:, 1], (0, last))
    mine = np.arange(len(reps)) % parts == part - 1
    return np.concatenate([np.flatnonzero(corner & mine), np.flatnonzero(~corner & mine)])


def count_constellations(
    n: int, workers: int | None = None, deadline: float = math.inf, part: int = 1,
    parts: int = 1,
) -> SubCount | None:
    """(solutions, solution classes, queens placed) for nqueens n ≤ 32 — or for the part
    ``part`` of ``parts`` of its constellation classes — on ``workers`` threads (None: every
    core); None when ``time.perf_counter()`` passed ``deadline`` first."""
    if not 1 <= n <= MAX_N:
        raise InvalidInstanceError(f"the constellation counter handles 1 ≤ n ≤ {MAX_N}")
    if n == 1:
        return count_subproblem(1, subproblems(1)[0], deadline) if part == 1 else SubCount(0, 0, 0)
    reps = representatives(n)[schedule(n, part, parts)]
    if len(reps) == 0:  # n = 2, 3: no compatible edge queens, no solution
        return SubCount(0, 0, 0)
    rows = np.ascontiguousarray(reps[:, [0, 1, 2, 3, 5]])
    starts = list(range(0, len(rows), BATCH))
    results = run_tasks(lambda lo: count_batch(n, rows[lo:lo + BATCH], deadline), starts,
                        deadline, workers)
    if results is None:
        return None
    found, half, quarter, nodes = np.vstack(results).reshape(-1, 4).T
    if (found < 0).any():
        return None
    weight = reps[:, 4]
    classes, rest = np.divmod(weight * (found + half + 2 * quarter), 8)
    assert not rest.any()  # Burnside: a whole number of classes per representative
    return SubCount(int((weight * found).sum()), int(classes.sum()), int(nodes.sum()))


class ConstellationCounter(Solver):
    """Edge-queen constellations (NQueensFAF's method): totals and unique counts, n ≤ 32."""

    compiled: ClassVar[bool] = True  # numba: warmed, untimed, before each timed run

    name: ClassVar[str] = "constellations"
    counter_names: ClassVar[frozenset[str] | None] = frozenset({"nodes", "subproblems"})
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens", "nqueens-split"})
    honours: ClassVar[frozenset[str]] = frozenset({"time_limit"})
    complete: ClassVar[bool] = True
    counts: ClassVar[bool] = True
    counts_unique: ClassVar[bool] = True
    count_max_n: ClassVar[int | None] = MAX_N
    params: ClassVar[dict[str, Any]] = {"threads": Param(0, 0, 1024)}
    summary: ClassVar[str] = ("counts by edge-queen constellations, one per symmetry class "
                              "(NQueensFAF's method), on threads")

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
        parts = getattr(instance, "parts", 1)
        if parts == 1:
            answer, exhausted, nodes, _ = first_solution(instance.n, False, budget)
        else:
            answer, exhausted, nodes = _first_in_part(instance.n, instance.part, parts, budget)
        counters = {"nodes": nodes}
        if answer is not None:
            return Proposal(answer=answer, claim=Claim.SOLVED, counters=counters)
        if exhausted:
            return Proposal(claim=Claim.INFEASIBLE, counters=counters)
        return Proposal(claim=Claim.UNKNOWN, counters=counters, note="budget exhausted")

    def count(self, instance: Any, budget: Budget, *, unique: bool = False) -> Proposal:
        threads = int(self.config["threads"]) or None
        found = count_constellations(instance.n, threads, budget.clock().end,
                                     getattr(instance, "part", 1), getattr(instance, "parts", 1))
        if found is None:
            return Proposal(claim=Claim.UNKNOWN, note="time budget ended before the count")
        return Proposal(
            claim=Claim.SOLVED if found.total else Claim.INFEASIBLE,
            count=found.total,
            unique=found.unique if unique else None,
            counters={"nodes": found.nodes,
                      "subproblems": len(schedule(instance.n, getattr(instance, "part", 1),
                                                  getattr(instance, "parts", 1)))},
        )


def _first_in_part(n: int, part: int, parts: int,
                   budget: Budget) -> tuple[list[int] | None, bool, int]:
    """(first solution above a constellation of the part, exhausted, nodes): each of the
    part's representatives in turn, its edge queens pre-placed, by the bitboard search."""
    clock = budget.clock()
    nodes = 0
    reps = representatives(n)
    for index in range(part - 1, len(reps), parts):
        top, bottom, left, right = (int(v) for v in reps[index][:4])
        fixed = {0: top, n - 1: bottom, left: 0, right: n - 1}
        answer, exhausted, spent, _ = first_solution(
            n, False, Budget(None if clock.limit is None else clock.remaining()), fixed)
        nodes += spent
        if answer is not None:
            return answer, False, nodes
        if not exhausted:
            return None, False, nodes
    return None, True, nodes
