"""How the run side calls a solver: the method for the task's kind, with its budget, its
seeded generator and, when the solver takes one, its trace sink. The warm-up and the timed
phase call it alike, so the warm-up meets the code the timed phase runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from numpy.random import default_rng  # loaded with the run side: every solve takes one

from puzzlebench.harness.run_request import RunRequest
from puzzlebench.problems.base import Instance
from puzzlebench.solvers.contract import Budget
from puzzlebench.solvers.spec import SolverSpec

if TYPE_CHECKING:
    # for annotations only: the trace code loads numba, which a run that does not trace
    # never needs (see trace_type)
    from puzzlebench.records.trace import Trace


def trace_type(task: RunRequest, spec: SolverSpec) -> type[Trace] | None:
    """The trace sink's class when the solver takes one in this task, else None."""
    if task.kind != "solve" or not spec.traces:
        return None
    # imported on use: the trace code loads numba, which a run of a solver that does not
    # trace never needs (the lean fork server forks such runs without it)
    from puzzlebench.records.trace import Trace

    return Trace


def call_solver(solver: Any, task: RunRequest, instance: Instance | None, budget: Budget,
                sink: Trace | None = None) -> Any:
    """Call the solver's method for the task's kind: ``solve`` with a generator seeded by the
    task's seed (and the trace sink, when it takes one), ``count`` or ``enumerate``."""
    if task.kind == "solve":
        rng = default_rng(task.seed)
        if sink is not None:
            return solver.solve(instance, budget, rng, trace=sink)
        return solver.solve(instance, budget, rng)
    if task.kind == "count":
        return solver.count(instance, budget, unique=task.unique)
    if task.kind == "enumerate":
        return solver.enumerate(instance, budget, limit=task.limit)
    raise ValueError(f"unknown task kind {task.kind!r}")
