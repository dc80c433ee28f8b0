"""A* and greedy best-first for the sliding puzzle, one registered solver per heuristic.

Boards of up to 16 cells run the compiled kernel (sliding_kernels.best_first_kernel); larger
boards run the generic best-first framework on SlidingState. Both order the frontier by
(f, h, insertion order) and generate moves in the order U, D, L, R, so they expand the same
nodes.

``astar-<h>`` is exact (every heuristic here is admissible), so the harness checks each 3×3
answer's length against the BFS distance table. ``greedy-<h>`` orders by h alone and makes no
optimality claim. An unsolvable start (the parity rule) is claimed infeasible before any search.
Budget: boards of up to 16 cells are one compiled call, larger ones
the Python best-first search, not stepped by the framework; its node cap and deadline are the
framework's (``iterative.kernel_caps``), passed in as arguments.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from puzzlebench.problems.sliding import Sliding, SlidingInstance
from puzzlebench.search.best_first import best_first, effective_branching_factor
from puzzlebench.search.sliding.sliding_heuristics import Heuristic, Tables
from puzzlebench.search.sliding.sliding_kernels import KINDS, MAX_CELLS, best_first_kernel
from puzzlebench.search.sliding.sliding_state import SlidingState
from puzzlebench.solvers.contract import Budget, Claim, Proposal, Solver
from puzzlebench.solvers.iterative import kernel_caps
from puzzlebench.solvers.registry import register

_RULES = Sliding()


def solvable(instance: SlidingInstance) -> bool:
    """The parity rule, applied by the solver itself before searching."""
    return _RULES.is_solvable(instance)


class SlidingBestFirst(Solver):
    """Shared body: build the heuristic's tables, check parity, search."""

    compiled: ClassVar[bool] = True  # numba: warmed, untimed, before each timed run

    problems: ClassVar[frozenset[str]] = frozenset({"sliding"})
    counter_names: ClassVar[frozenset[str] | None] = frozenset({
        "nodes_expanded", "nodes_generated", "max_frontier", "steps", "effective_branching", "start_h"})

    honours: ClassVar[frozenset[str]] = frozenset({"time_limit", "max_nodes"})
    complete: ClassVar[bool] = True
    heuristic: ClassVar[str]
    astar: ClassVar[bool]

    def solve(self, instance: SlidingInstance, budget: Budget, rng: np.random.Generator) -> Proposal:
        if not solvable(instance):
            return Proposal(claim=Claim.INFEASIBLE, counters={"nodes_expanded": 0})
        if instance.rows * instance.cols <= MAX_CELLS:
            return self._compiled(instance, budget)
        heur = Heuristic(self.heuristic, Tables.build(instance.rows, instance.cols, instance.goal))
        start = SlidingState.initial(heur, instance.start)
        result = best_first(start, kernel_caps(budget), astar=self.astar)
        counters: dict[str, Any] = {**result.counters, "start_h": start.h}
        if result.goal is not None:
            return Proposal(answer="".join(result.moves), claim=Claim.SOLVED, counters=counters,
                            optimal=self.astar)
        return Proposal(claim=Claim.UNKNOWN, counters=counters, note="budget exhausted")

    def _compiled(self, instance: SlidingInstance, budget: Budget) -> Proposal:
        caps = kernel_caps(budget)  # the framework's caps, passed into the compiled call
        status, moves, expanded, generated, largest = best_first_kernel(
            np.asarray(instance.start, np.int64), np.asarray(instance.goal, np.int64),
            instance.rows, instance.cols, KINDS[self.heuristic], self.astar,
            caps.max_nodes, caps.deadline,
        )
        counters: dict[str, Any] = {
            "nodes_expanded": int(expanded), "nodes_generated": int(generated),
            "max_frontier": int(largest), "steps": len(moves),
            "effective_branching": effective_branching_factor(int(generated), len(moves)),
        }
        if status == 1:
            answer = "".join("UDLR"[m] for m in moves)
            return Proposal(answer=answer, claim=Claim.SOLVED, counters=counters,
                            optimal=self.astar)
        if status == 0:  # cannot happen after the parity check; kept honest all the same
            return Proposal(claim=Claim.INFEASIBLE, counters=counters)
        return Proposal(claim=Claim.UNKNOWN, counters=counters, note="budget exhausted")


def _make(heuristic: str, astar: bool) -> type[SlidingBestFirst]:
    kind = "astar" if astar else "greedy"
    what = "A* (optimal)" if astar else "Greedy best-first (no optimality claim)"
    cls = type(
        f"{kind.title()}{heuristic.title().replace('-', '')}",
        (SlidingBestFirst,),
        {
            "name": f"{kind}-{heuristic}",
            "heuristic": heuristic,
            "astar": astar,
            "exact": astar,
            "__doc__": f"{what} on the sliding puzzle with the {heuristic} heuristic.",
            "__module__": __name__,
        },
    )
    return register(cls)  # type: ignore[return-value]


AStarMisplaced = _make("misplaced", True)
AStarRowCol = _make("rowcol", True)
AStarManhattan = _make("manhattan", True)
AStarLinearConflict = _make("linear-conflict", True)
GreedyMisplaced = _make("misplaced", False)
GreedyRowCol = _make("rowcol", False)
GreedyManhattan = _make("manhattan", False)
GreedyLinearConflict = _make("linear-conflict", False)
