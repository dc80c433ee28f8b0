"""Greedy best-first and A* for nqueens and torus-queens with seed 000's heuristics.

Six registered solvers: ``greedy-h1``, ``astar-h1``, ``greedy-h2``, ``astar-h2``,
``greedy-h3``, ``astar-h3``. Each draws its random start from the seeded generator (H1/H2:
columns with repetition; H3: a permutation). The state spaces are finite and searched with a
closed set, so an exhausted frontier proves there is no solution: the solvers are complete.
The answer is the goal placement; ``steps`` counts the moves from the start to it.
Budget: a search loop of its own (a complete search, not stepped by the framework); its node
cap and deadline are the framework's (``iterative.kernel_caps``), checked once per node.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

import numpy as np

from puzzlebench.search.best_first import SearchState, best_first
from puzzlebench.search.queens.queens_states import (
    AttackedShiftState,
    Board,
    ShiftState,
    SwapState,
    random_start,
)
from puzzlebench.solvers.contract import Budget, Claim, Proposal, Solver
from puzzlebench.solvers.iterative import kernel_caps
from puzzlebench.solvers.registry import register


class QueensBestFirst(Solver):
    """Shared body of the six N-Queens best-first solvers."""

    problems: ClassVar[frozenset[str]] = frozenset({"nqueens", "torus-queens"})
    counter_names: ClassVar[frozenset[str] | None] = frozenset({
        "nodes_expanded", "nodes_generated", "max_frontier", "steps", "effective_branching", "start_h"})

    honours: ClassVar[frozenset[str]] = frozenset({"time_limit", "max_nodes"})
    complete: ClassVar[bool] = True
    stochastic: ClassVar[bool] = True
    state_type: ClassVar[type[ShiftState] | type[SwapState]]
    astar: ClassVar[bool]

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
        n = instance.n
        permutation = self.state_type is SwapState
        board = Board(n, instance.wraps, random_start(n, permutation, rng))
        start: SearchState = self.state_type.initial(board)
        result = best_first(start, kernel_caps(budget), astar=self.astar)
        counters = {**result.counters, "start_h": start.h}
        if result.goal is not None:
            answer = list(cast(tuple[int, ...], result.goal.key))
            return Proposal(answer=answer, claim=Claim.SOLVED, counters=counters)
        if result.exhausted:
            return Proposal(claim=Claim.INFEASIBLE, counters=counters)
        return Proposal(claim=Claim.UNKNOWN, counters=counters, note="budget exhausted")


STATES: dict[str, type[ShiftState] | type[SwapState]] = {
    "h1": ShiftState, "h2": AttackedShiftState, "h3": SwapState,
}
MEANING = {
    "h1": "H1 = pairs of attacking queens, one-column shifts, g = Σ|col − start col|",
    "h2": "H2 = queens attacked by at least one other, one-column shifts",
    "h3": "H3 = pairs on a shared diagonal, adjacent-row swaps, g = inversions from the start",
}


def _make(heuristic: str, astar: bool) -> type[QueensBestFirst]:
    kind = "astar" if astar else "greedy"
    cls = type(
        f"{kind.title()}{heuristic.upper()}", (QueensBestFirst,),
        {"name": f"{kind}-{heuristic}", "state_type": STATES[heuristic], "astar": astar,
         "__doc__": f"{'A*' if astar else 'Greedy best-first'}, {MEANING[heuristic]} (seed 000).",
         "__module__": __name__},
    )
    return register(cls)  # type: ignore[return-value]


GreedyH1, AStarH1 = _make("h1", False), _make("h1", True)
GreedyH2, AStarH2 = _make("h2", False), _make("h2", True)
GreedyH3, AStarH3 = _make("h3", False), _make("h3", True)
