"""python-constraint2's MinConflictsSolver as a stochastic, incomplete baseline.

The library's solver makes ``steps`` repairs from a random assignment and gives up; we restart
it, seeded through its ``rand`` argument (a ``random.Random`` drawn from the run's generator),
until it finds a solution or the budget runs out. Boards with n > ``max_n`` (default 24) are
declined (claim ``unknown``): each restart rebuilds an n²-variable model.
Counters: restarts and the repair steps allowed in total (the library does not report how many it used).

Its anytime trace says only what the library lets us see: the library returns a solution or
nothing, never its conflict count, so a run's trace has one point — 0 conflicts at the steps
allowed so far — when (and if) a restart returns a solution.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import constraint
import numpy as np

from puzzlebench.baselines.constraint_models import build, declined, decode
from puzzlebench.contract import Budget, Claim, Param, Proposal, Solver
from puzzlebench.registry import register
from puzzlebench.trace import Trace


@register
class ConstraintMinConflicts(Solver):
    """python-constraint2 MinConflictsSolver with seeded restarts (incomplete)."""

    name: ClassVar[str] = "constraint-minconflicts"
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens", "torus-queens", "queens-knights"})
    honours: ClassVar[frozenset[str]] = frozenset({"time_limit", "max_iterations"})
    stochastic: ClassVar[bool] = True
    traces: ClassVar[bool] = True  # evaluation = one repair step allowed (only the solution is seen)
    params: ClassVar[dict[str, Any]] = {"steps": Param(300, 1, 10**9), "max_n": Param(24, 1, 1000)}

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator,
              trace: Trace | None = None) -> Proposal:
        if instance.n > self.config["max_n"]:
            return declined(instance.n, self.config["max_n"], "iterations", "restarts")
        clock = budget.clock()
        rand = random.Random(int(rng.integers(2**63)))
        steps = int(self.config["steps"])
        restarts = 0
        while True:
            restarts += 1
            solver = constraint.MinConflictsSolver(steps=steps, rand=rand)
            solution = build(instance, solver).getSolution()
            counters = {"restarts": restarts, "iterations": restarts * steps,
                        "evaluations": restarts * steps}
            if solution is not None:
                if trace is not None:
                    trace.improve(restarts * steps, 0)
                return Proposal(answer=decode(instance, solution), claim=Claim.SOLVED,
                                counters=counters)
            if clock.expired() or (budget.max_iterations is not None
                                   and restarts * steps >= budget.max_iterations):
                return Proposal(counters=counters, note="budget exhausted")
