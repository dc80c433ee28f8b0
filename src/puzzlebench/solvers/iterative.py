"""Iterative solvers the framework drives (pymoo's model): the solver says how a run starts and
what one natural chunk of work is; the framework runs the loop.

A subclass of :class:`IterativeSolver` implements

- ``init(instance, rng, run)`` → a state (a start placement, a first population);
- ``step(state)``: one natural chunk of work — a repair, a generation, a pass of repairs, one
  climb — which may be a compiled kernel bounded by ``run.caps`` (the framework's caps, absolute,
  as plain numbers); it returns '' to go on, or what ended the run when the solver itself has
  nothing left to do (``"param:max_kicks"``, ``"exhausted"``);
- ``solved(state)``, ``conflicts(state)`` (the best objective so far, the problem's conflict
  count: what the anytime trace records), ``best(state)`` (the answer, asked once solved),
  ``counters(state)`` (the native counters, ``evaluations`` in the common unit).

The framework's ``solve`` (what the harness's child process runs) starts the clock, calls
``init``, then before every step: records the trace point, returns the answer once solved, and
stops at the first of the caps — ``max_evaluations`` on ``evaluations``, ``max_iterations``
on the solver's ``iteration_counter``, ``max_nodes`` on its ``node_counter``, then the time
limit. A parameter that caps effort (``param_caps``: ``{"max_repairs": "iterations"}``) is one
more cap on the same counter; a parameter that limits time (``time_param``) applies only when
the budget sets no time limit. The proposal's ``stopped_by`` names what stopped the run
(``contract.STOPPED_BY``). ``init`` may raise :class:`DeclinedError` to refuse an instance.

A compiled solver records its own trace points (``kernel_traces = True``) into ``run.points``
with ``trace.trace_point``; the framework hands them to the trace sink at the end.
"""

from __future__ import annotations

import math
import time
from abc import abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from puzzlebench.records.trace import CAP, Trace, buffers
from puzzlebench.solvers.contract import Budget, Claim, Proposal, Solver


class DeclinedError(Exception):
    """Raised by ``init`` to refuse an instance without trying; the message says why."""


@dataclass(frozen=True, slots=True)
class Caps:
    """What a run may spend, as a compiled kernel takes it: absolute counter caps (-1: none)
    and a deadline on the ``time.perf_counter`` clock (the compiled clock's; inf: none)."""

    deadline: float = math.inf
    max_evaluations: int = -1
    max_iterations: int = -1
    max_nodes: int = -1


def kernel_caps(budget: Budget, start: float | None = None) -> Caps:
    """The budget as a compiled call takes it (a search solver that is one compiled call
    passes these in as arguments): the clock starts now unless ``start`` is given."""
    start = time.perf_counter() if start is None else start
    return Caps(deadline=math.inf if budget.time_limit is None else start + budget.time_limit,
                max_evaluations=_cap(budget.max_evaluations),
                max_iterations=_cap(budget.max_iterations), max_nodes=_cap(budget.max_nodes))


def _cap(value: int | None) -> int:
    return -1 if value is None else int(value)


@dataclass(slots=True)
class KernelPoints:
    """Trace buffers a compiled step records into (``trace.trace_point``); length 0 when the
    run is not traced. ``count`` is the points recorded so far (the kernel's ``tn``)."""

    evals: np.ndarray
    best: np.ndarray
    stamps: np.ndarray
    count: int = 0


@dataclass(slots=True)
class Run:
    """What the framework hands ``init``: the caps a step must keep within (budget and
    parameter caps combined, absolute), whether the run is traced, the kernel's trace buffers."""

    caps: Caps
    traced: bool
    points: KernelPoints
    #: What each cap comes from: a budget field, or ``param:<name>`` (``IterativeSolver``).
    sources: dict[str, str] = field(default_factory=dict)


class IterativeSolver(Solver):
    """The base of solvers whose loop the framework runs (see the module docstring)."""

    honours: ClassVar[frozenset[str]] = frozenset({"time_limit", "max_iterations", "max_evaluations"})
    traces: ClassVar[bool] = True
    #: The counter ``max_iterations`` caps (a GA's ``generations``).
    iteration_counter: ClassVar[str] = "iterations"
    #: The counter ``max_nodes`` caps.
    node_counter: ClassVar[str] = "nodes"
    #: Parameters that cap a counter (name → counter): the lower of it and the budget's cap
    #: stops the run, and ``stopped_by`` says which.
    param_caps: ClassVar[Mapping[str, str]] = {}
    #: A parameter (seconds) that limits the run's time when the budget sets no time limit.
    time_param: ClassVar[str] = ""
    #: The solver's steps record trace points themselves (``Run.points``).
    kernel_traces: ClassVar[bool] = False

    @abstractmethod
    def init(self, instance: Any, rng: np.random.Generator, run: Run) -> Any:
        """The run's start state (may raise ``DeclinedError``)."""

    @abstractmethod
    def step(self, state: Any) -> str:
        """One natural chunk of work; '' to go on, else what ended the run."""

    @abstractmethod
    def conflicts(self, state: Any) -> int:
        """The best objective so far (the problem's conflict count; 0 once solved)."""

    def solved(self, state: Any) -> bool:
        """The best so far is a solution (override when a cheaper test exists)."""
        return self.conflicts(state) == 0

    @abstractmethod
    def best(self, state: Any) -> Any:
        """The answer of the best state (asked once solved), in the problem's encoding."""

    @abstractmethod
    def counters(self, state: Any) -> dict[str, int]:
        """The native effort counters, ``evaluations`` (``contract.EFFORT_UNIT``) among them."""

    def describe(self, state: Any) -> str:
        """Where an unsolved run stands, for the proposal's note ('' for nothing to say)."""
        return ""

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator,
              trace: Trace | None = None) -> Proposal:
        """The framework's loop: caps and time checked before every step, trace, claim."""
        return drive(self, instance, budget, rng, trace)


def _caps(solver: IterativeSolver, budget: Budget, start: float) -> tuple[Caps, dict[str, str]]:
    """The budget's caps with the parameters' folded in, and what each one comes from."""
    caps = kernel_caps(budget, start)
    sources = {"max_evaluations": "max_evaluations", "max_iterations": "max_iterations",
               "max_nodes": "max_nodes", "time_limit": "time_limit"}
    values = {"max_evaluations": caps.max_evaluations, "max_iterations": caps.max_iterations,
              "max_nodes": caps.max_nodes}
    counter_cap = {"evaluations": "max_evaluations", solver.iteration_counter: "max_iterations",
                   solver.node_counter: "max_nodes"}
    for name, counter in solver.param_caps.items():
        cap = counter_cap.get(counter)
        if cap is None:
            raise TypeError(f"{solver.name}: parameter {name!r} caps {counter!r}, which no "
                            f"budget cap counts ({', '.join(counter_cap)})")
        value = int(solver.config[name])
        if values[cap] < 0 or value < values[cap]:
            values[cap], sources[cap] = value, f"param:{name}"
    deadline = caps.deadline
    if solver.time_param and budget.time_limit is None:
        deadline, sources["time_limit"] = start + float(solver.config[solver.time_param]), \
            f"param:{solver.time_param}"
    return Caps(deadline=deadline, max_evaluations=values["max_evaluations"],
                max_iterations=values["max_iterations"], max_nodes=values["max_nodes"]), sources


def drive(solver: IterativeSolver, instance: Any, budget: Budget, rng: np.random.Generator,
          trace: Trace | None = None) -> Proposal:
    """Run an iterative solver within its budget; see the module docstring."""
    start = time.perf_counter()
    caps, sources = _caps(solver, budget, start)
    kernel = trace is not None and solver.kernel_traces
    run = Run(caps=caps, traced=trace is not None,
              points=KernelPoints(*buffers(CAP if kernel else 0)), sources=sources)
    try:
        state = solver.init(instance, rng, run)
    except DeclinedError as exc:
        return Proposal(claim=Claim.DECLINED, note=f"declined: {exc}", stopped_by="declined")
    checks = (("max_evaluations", "evaluations", caps.max_evaluations),
              ("max_iterations", solver.iteration_counter, caps.max_iterations),
              ("max_nodes", solver.node_counter, caps.max_nodes))
    ended = ""
    while True:
        counters = solver.counters(state)
        if trace is not None and not kernel:
            trace.improve(counters["evaluations"], solver.conflicts(state))
        if solver.solved(state):
            return _end(solver, state, run, trace, counters, "answer")
        stop = ended
        for cap, counter, limit in checks if not stop else ():
            if limit >= 0 and counters.get(counter, 0) >= limit:
                stop = sources[cap]
                break
        if not stop and time.perf_counter() >= caps.deadline:
            stop = sources["time_limit"]
        if stop:
            return _end(solver, state, run, trace, counters, stop)
        ended = solver.step(state)


def _end(solver: IterativeSolver, state: Any, run: Run, trace: Trace | None,
         counters: dict[str, int], stopped_by: str) -> Proposal:
    if trace is not None and solver.kernel_traces:
        trace.extend(run.points.evals, run.points.best, run.points.stamps, run.points.count)
    if stopped_by == "answer":
        return Proposal(answer=solver.best(state), claim=Claim.SOLVED, counters=counters,
                        stopped_by="answer")
    where = solver.describe(state)
    return Proposal(counters=counters, stopped_by=stopped_by,
                    note=f"stopped by {stopped_by}" + (f"; {where}" if where else ""))
