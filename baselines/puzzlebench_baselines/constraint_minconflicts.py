"""python-constraint2's MinConflictsSolver as a stochastic, incomplete baseline.

The library's solver makes ``steps`` sweeps from a random assignment and gives up; we restart
it, seeded through its ``rand`` argument, until it finds a solution or the budget runs out.
Boards with n > ``max_n`` (default 24) are declined (claim ``unknown``): each restart rebuilds
an n²-variable model.

The library reports no effort, so the run counts it through the generator it hands the
library (:class:`CountingRandom`): the library shuffles the variables once per sweep (a
*step*) and calls ``choice`` once per variable of its random start and once per *repair* — a
conflicted variable moved to a value of least conflict after every value of its domain was
scored. Counters: ``restarts``, ``steps`` (sweeps made; ``iterations``, which
``max_iterations`` caps), ``repairs`` and ``evaluations`` in the common unit
(``contract.EFFORT_UNIT``): one per start, two per repair (the models' variables are 0/1, so a
repair scores two candidate values). The count is *approximate* (``solvers --json`` says so):
it rests on the library's use of the generator, counts a repair of a variable with a
one-value domain as two, and leaves out the constraint checks by which a sweep finds the
conflicted variables. The caps and the time limit are checked at each sweep and repair (the
library is stopped by an exception raised from the generator), so a restart can be cut short.

Its anytime trace says only what the library lets us see: the library returns a solution or
nothing, never its conflict count, so a run's trace has one point — 0 conflicts at the
evaluations counted so far — when (and if) a restart returns a solution.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import constraint
import numpy as np

from puzzlebench.contract import Budget, Claim, Deadline, Param, Proposal, Solver
from puzzlebench.records.trace import Trace
from puzzlebench_baselines.constraint_models import build, declined, decode

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

T = TypeVar("T")

#: Candidate values a repair scores: every model variable is 0/1.
VALUES_PER_REPAIR = 2


class BudgetSpentError(Exception):
    """Raised from the generator to stop the library when a budget is spent."""


class CountingRandom(random.Random):
    """The generator handed to the library, counting its sweeps and repairs and stopping it
    at the budget (``begin()`` before each restart)."""

    def __init__(self, seed: int, budget: Budget, clock: Deadline) -> None:
        super().__init__(seed)
        self.budget, self.clock = budget, clock
        self.restarts = self.steps = self.repairs = 0
        self._in_start = True

    @property
    def evaluations(self) -> int:
        return self.restarts + VALUES_PER_REPAIR * self.repairs

    def begin(self) -> None:
        """A restart: its random start is counted as one evaluation."""
        self.restarts += 1
        self._in_start = True

    def spent(self) -> str:
        """Which budget is spent ('' when none)."""
        b = self.budget
        if b.max_evaluations is not None and self.evaluations >= b.max_evaluations:
            return "evaluation budget spent"
        if b.max_iterations is not None and self.steps >= b.max_iterations:
            return "step budget spent"
        if self.clock.expired():
            return "time limit reached"
        return ""

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """One sweep begins."""
        why = self.spent()
        if why:
            raise BudgetSpentError(why)
        self._in_start = False
        self.steps += 1
        super().shuffle(x)

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        """A start value, or a repair's pick among the values of least conflict."""
        if not self._in_start:
            self.repairs += 1
            if self.budget.max_evaluations is not None and \
                    self.evaluations >= self.budget.max_evaluations:
                raise BudgetSpentError("evaluation budget spent")
        return super().choice(seq)


class ConstraintMinConflicts(Solver):
    """python-constraint2 MinConflictsSolver with seeded restarts (incomplete)."""

    name: ClassVar[str] = "constraint-minconflicts"
    counter_names: ClassVar[frozenset[str] | None] = frozenset({
        "solutions", "restarts", "steps", "iterations", "repairs", "evaluations"})
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens", "torus-queens", "queens-knights"})
    honours: ClassVar[frozenset[str]] = frozenset({"time_limit", "max_iterations", "max_evaluations"})
    stochastic: ClassVar[bool] = True
    traces: ClassVar[bool] = True
    evaluation: ClassVar[str] = ("two per repair (a 0/1 variable's two values scored), one per "
                                 "start; counted through the library's generator calls")
    evaluation_approximate: ClassVar[bool] = True
    params: ClassVar[dict[str, Any]] = {"steps": Param(300, 1, 10**9), "max_n": Param(24, 1, 1000)}

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator,
              trace: Trace | None = None) -> Proposal:
        if instance.n > self.config["max_n"]:
            return declined(instance.n, self.config["max_n"], "iterations", "restarts",
                            "evaluations")
        rand = CountingRandom(int(rng.integers(2**63)), budget, budget.clock())
        steps = int(self.config["steps"])

        def counters() -> dict[str, int]:
            return {"restarts": rand.restarts, "steps": rand.steps, "iterations": rand.steps,
                    "repairs": rand.repairs, "evaluations": rand.evaluations}

        while True:
            why = rand.spent()
            if why:
                return Proposal(counters=counters(), note=why)
            rand.begin()
            try:
                solution = build(instance, constraint.MinConflictsSolver(
                    steps=steps, rand=rand)).getSolution()
            except BudgetSpentError as stop:
                return Proposal(counters=counters(), note=str(stop))
            if solution is not None:
                if trace is not None:
                    trace.improve(rand.evaluations, 0)
                return Proposal(answer=decode(instance, solution), claim=Claim.SOLVED,
                                counters=counters())
