"""Greedy best-first and A* for nqueens and torus-queens with seed 000's heuristics.

Six registered solvers: ``greedy-h1``, ``astar-h1``, ``greedy-h2``, ``astar-h2``,
``greedy-h3``, ``astar-h3``. Each draws its random start from the seeded generator (H1/H2:
columns with repetition; H3: a permutation). The state spaces are finite and searched with a
closed set, so an exhausted frontier proves there is no solution: the solvers are complete.
The answer is the goal placement; ``steps`` counts the moves from the start to it.

The solvers run the compiled kernel (``queens_kernels``), which expands the same nodes in the
same order as the pure-Python search over ``queens_states`` (``reference_search``): tests
compare the two start by start, and ``benchmarks/queens_search_speed.py`` times them side by
side. Boards past ``MAX_QUEENS`` run the reference.
Budget: a search loop of its own (a complete search, not stepped by the framework); its node
cap and deadline are the framework's (``iterative.kernel_caps``), passed into the search.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar, cast

import numpy as np

from puzzlebench.search.best_first import (
    CHECK_EVERY,
    LARGE_STATE,
    STORED_CELLS,
    SearchState,
    best_first,
    effective_branching_factor,
)
from puzzlebench.search.queens.queens_kernels import KINDS, MAX_QUEENS, queens_best_first_kernel
from puzzlebench.search.queens.queens_states import (
    AttackedShiftState,
    Board,
    ShiftState,
    SwapState,
    random_start,
)
from puzzlebench.solvers.contract import Budget, Claim, Proposal, Solver
from puzzlebench.solvers.iterative import Caps, kernel_caps
from puzzlebench.solvers.registry import register

STATES: dict[str, type[ShiftState] | type[SwapState]] = {
    "h1": ShiftState, "h2": AttackedShiftState, "h3": SwapState,
}


def _outcome(goal: list[int] | None, exhausted: bool, counters: dict[str, Any],
             caps: Caps) -> Proposal:
    if goal is not None:
        return Proposal(answer=goal, claim=Claim.SOLVED, counters=counters)
    if exhausted:
        return Proposal(claim=Claim.INFEASIBLE, counters=counters)
    stopped = _stopped_by(int(counters.get("nodes_generated", 0)), caps)
    return Proposal(claim=Claim.UNKNOWN, counters=counters, stopped_by=stopped,
                    note="stored-state cap reached" if stopped == "memory_cap"
                    else "budget exhausted")


def _stopped_by(generated: int, caps: Caps) -> str:
    """What stopped a search that neither solved nor exhausted its space: the node cap, the
    deadline, or else the cap on the states it holds (``best_first.STORED_CELLS``), which the
    record names ``memory_cap`` (it was left unnamed before: A* with H1/H2 from some starts)."""
    if caps.max_nodes >= 0 and generated > caps.max_nodes:
        return "max_nodes"
    if time.perf_counter() >= caps.deadline:
        return "time_limit"
    return "memory_cap"


def reference_search(instance: Any, budget: Budget, rng: np.random.Generator, heuristic: str,
                     astar: bool) -> Proposal:
    """The pure-Python search (``best_first`` over ``queens_states``): the reference the
    compiled kernel is held to, node for node."""
    n, state_type = instance.n, STATES[heuristic]
    board = Board(n, instance.wraps, random_start(n, state_type is SwapState, rng))
    start: SearchState = state_type.initial(board)
    caps = kernel_caps(budget)
    result = best_first(start, caps, astar=astar)
    counters = {**result.counters, "start_h": start.h}
    goal = None if result.goal is None else list(cast(tuple[int, ...], result.goal.key))
    return _outcome(goal, result.exhausted, counters, caps)


def compiled_search(instance: Any, budget: Budget, rng: np.random.Generator, heuristic: str,
                    astar: bool) -> Proposal:
    """The same search, compiled (``queens_kernels``), from the same random start."""
    n = instance.n
    if n > MAX_QUEENS:
        return reference_search(instance, budget, rng, heuristic, astar)
    start = np.asarray(random_start(n, heuristic == "h3", rng), np.int64)
    caps = kernel_caps(budget)  # the framework's caps, passed into the compiled call
    status, goal, expanded, generated, largest, steps, start_h = queens_best_first_kernel(
        start, bool(instance.wraps), KINDS[heuristic], astar, caps.max_nodes, caps.deadline,
        STORED_CELLS, CHECK_EVERY if n < LARGE_STATE else 1)
    counters: dict[str, Any] = {
        "nodes_expanded": int(expanded), "nodes_generated": int(generated),
        "max_frontier": int(largest), "steps": int(steps),
        "effective_branching": effective_branching_factor(int(generated), int(steps)),
        "start_h": int(start_h),
    }
    answer = [int(c) for c in goal] if status == 1 else None
    return _outcome(answer, status == 0, counters, caps)


class QueensBestFirst(Solver):
    """Shared body of the six N-Queens best-first solvers."""

    compiled: ClassVar[bool] = True  # numba: warmed, untimed, before each timed run
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens", "torus-queens"})
    counter_names: ClassVar[frozenset[str] | None] = frozenset({
        "nodes_expanded", "nodes_generated", "max_frontier", "steps", "effective_branching", "start_h"})

    honours: ClassVar[frozenset[str]] = frozenset({"time_limit", "max_nodes"})
    complete: ClassVar[bool] = True
    stochastic: ClassVar[bool] = True
    heuristic: ClassVar[str]
    astar: ClassVar[bool]

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
        return compiled_search(instance, budget, rng, self.heuristic, self.astar)


MEANING = {
    "h1": "H1 = pairs of attacking queens, one-column shifts, g = Σ|col − start col|",
    "h2": "H2 = queens attacked by at least one other, one-column shifts",
    "h3": "H3 = pairs on a shared diagonal, adjacent-row swaps, g = inversions from the start",
}


def _make(heuristic: str, astar: bool) -> type[QueensBestFirst]:
    kind = "astar" if astar else "greedy"
    cls = type(
        f"{kind.title()}{heuristic.upper()}", (QueensBestFirst,),
        {"name": f"{kind}-{heuristic}", "heuristic": heuristic, "astar": astar,
         "__doc__": f"{'A*' if astar else 'Greedy best-first'}, {MEANING[heuristic]} (seed 000).",
         "__module__": __name__},
    )
    return register(cls)  # type: ignore[return-value]


GreedyH1, AStarH1 = _make("h1", False), _make("h1", True)
GreedyH2, AStarH2 = _make("h2", False), _make("h2", True)
GreedyH3, AStarH3 = _make("h3", False), _make("h3", True)
