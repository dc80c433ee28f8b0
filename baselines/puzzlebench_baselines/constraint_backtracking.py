"""python-constraint2's backtracking solver (forward checking) on the Boolean models of
``constraint_models``: first solution, infeasibility proofs, counting and enumeration.

The library offers no time limit and its Boolean models grow as n²; boards with
n > ``max_n`` (default 16) are declined (claim ``unknown``) rather than run unbounded.
Otherwise ``solve`` and ``count`` iterate solutions lazily and stop
at the budget between solutions (a single long proof cannot be interrupted, so the harness's
hard limit is the backstop). Pre-placed queens that attack each other (nqueens-completion) are
answered ``infeasible`` before the model is built: the library fails on the empty domain.
"""

from __future__ import annotations

from typing import Any, ClassVar

import constraint
import numpy as np

from puzzlebench.contract import Budget, Claim, Enumeration, Param, Proposal, Solver
from puzzlebench.solvers.queens_keys import clashing
from puzzlebench_baselines.constraint_models import build, declined, decode


class ConstraintBacktracking(Solver):
    """python-constraint2 backtracking with forward checking (built-in sum constraints)."""

    name: ClassVar[str] = "constraint-backtracking"
    counter_names: ClassVar[frozenset[str] | None] = frozenset({"solutions"})
    problems: ClassVar[frozenset[str]] = frozenset(
        {"nqueens", "torus-queens", "queens-knights", "nqueens-completion"})
    complete: ClassVar[bool] = True
    counts: ClassVar[bool] = True
    # The library's search cannot be interrupted: its solve() reads no budget (the harness's
    # hard limit stops it); count/enumerate check the clock between solutions.
    honours: ClassVar[frozenset[str]] = frozenset()
    params: ClassVar[dict[str, Any]] = {"max_n": Param(16, 1, 64)}

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
        if instance.n > self.config["max_n"]:
            return declined(instance.n, self.config["max_n"])
        if clashing(getattr(instance, "fixed", ()), instance.n):
            # the library's preprocessing fails on the empty domain this leaves
            return Proposal(claim=Claim.INFEASIBLE, counters={"solutions": 0},
                            note="pre-placed queens attack each other")
        problem = build(instance, constraint.BacktrackingSolver(forwardcheck=True))
        solution = problem.getSolution()
        if solution is None:
            return Proposal(claim=Claim.INFEASIBLE, counters={"solutions": 0})
        return Proposal(answer=decode(instance, solution), claim=Claim.SOLVED,
                        counters={"solutions": 1})

    def count(self, instance: Any, budget: Budget, *, unique: bool = False) -> Proposal:
        if unique:
            raise ValueError("constraint-backtracking counts all solutions, not unique ones")
        if instance.n > self.config["max_n"]:
            return declined(instance.n, self.config["max_n"])
        clock = budget.clock()
        if clashing(getattr(instance, "fixed", ()), instance.n):
            return Proposal(claim=Claim.INFEASIBLE, count=0, counters={"solutions": 0})
        problem = build(instance, constraint.BacktrackingSolver(forwardcheck=True))
        total = 0
        for _ in problem.getSolutionIter():
            total += 1
            if clock.expired():
                return Proposal(counters={"solutions": total}, note="time budget spent")
        return Proposal(claim=Claim.SOLVED if total else Claim.INFEASIBLE, count=total,
                        counters={"solutions": total})

    def enumerate(self, instance: Any, budget: Budget, *, limit: int | None = None) -> Enumeration:
        clock = budget.clock()
        if clashing(getattr(instance, "fixed", ()), instance.n):
            return Enumeration([], complete=True)
        problem = build(instance, constraint.BacktrackingSolver(forwardcheck=True))
        out = []
        for solution in problem.getSolutionIter():
            out.append(decode(instance, solution))
            if (limit is not None and len(out) >= limit) or clock.expired():
                return Enumeration(out, complete=False)
        return Enumeration(out, complete=True)
