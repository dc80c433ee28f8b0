"""A run's untimed warm-up, and what bounds it: a cut when its share of the time limit is spent, and
a count of numba's compilations, so that a round that compiled nothing is not repeated.

The warm-up (``warm_up``) runs the solver on a small instance, round after
round, while a round runs out of its time: a lazily compiled solver compiles one kernel per
round. Two things ended that loop before: a round that finishes in time, or six rounds. A
pure-Python search that cannot finish the warm-up instance in its round (A* with a weak
heuristic on 8-queens) then spent six rounds, 3 s, warming nothing, on every run. Now a round
that ran out of time but compiled (or loaded) no numba kernel ends the warm-up too: another
round would meet the same code again. And the whole warm-up is cut when the run's share of
the time limit before its timed phase is spent (``harness.run.measure.pre_go_allowance``): the
cut is a signal (SIGALRM) that raises :class:`WarmupCut` in the solver's code, so a warm-up
round that sleeps or loops in Python stops there. A cut that finds numba compiling, or a module
importing, waits for it to finish (a kernel cut half-way would only be compiled again in the timed
phase: on a cold cache a run would then spend its limit compiling); a call into native code
that does not return (a C extension) runs on until it does.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from puzzlebench.harness.run.inside.numba_kernels import compilations, compiling
from puzzlebench.harness.run.inside.solver_call import call_solver, trace_type
from puzzlebench.harness.run_request import RunRequest
from puzzlebench.solvers.contract import Budget
from puzzlebench.solvers.spec import SolverSpec

#: Budget of the untimed warm-up run (project solvers, and plugins declaring ``compiled``).
WARMUP_BUDGET = Budget(time_limit=0.5, max_nodes=20_000, max_evaluations=20_000,
                       max_iterations=20_000)
#: Most warm-up rounds a run makes: another round follows one that ran out of its time (a
#: lazily compiled solver compiles one kernel per round until none is left to compile).
WARMUP_ROUNDS = 6
#: How often a cut that found numba compiling looks again: the cut waits for the compiler.
COMPILE_GRACE_S = 0.02


def importing() -> bool:
    """Whether a module's code is running its import right now (importlib marks its spec
    ``_initializing`` until the module is done)."""
    return any(getattr(getattr(module, "__spec__", None), "_initializing", False)
               for module in list(sys.modules.values()))


class WarmupCut(BaseException):
    """Raised in the warm-up when its time is spent (a BaseException: a solver's own ``except
    Exception`` does not swallow it)."""


@contextlib.contextmanager
def cut_at(deadline: float | None) -> Iterator[None]:
    """Raise :class:`WarmupCut` in this (main) thread at ``deadline`` (``time.monotonic``;
    None: never); the timer and handler are undone on leaving."""
    if deadline is None or threading.current_thread() is not threading.main_thread():
        yield  # a signal reaches the main thread only: an in-process run elsewhere is not cut
        return

    def cut(_signum: int, _frame: Any) -> None:
        # a kernel half compiled would be compiled again in the timed phase; a module half
        # imported would be left half initialised (pandas, imported by OR-Tools, then fails its
        # next import with "option already registered"): the cut waits for either to finish
        if compiling() or importing():
            signal.setitimer(signal.ITIMER_REAL, COMPILE_GRACE_S)
            return
        raise WarmupCut

    previous = signal.signal(signal.SIGALRM, cut)
    try:
        signal.setitimer(signal.ITIMER_REAL, max(1e-3, deadline - time.monotonic()))
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True, slots=True)
class Warmup:
    """How a run's warm-up went: its seconds, and whether it ran to its end (False: cut short
    when the run's share of the time limit before its timed phase was spent)."""

    seconds: float
    complete: bool


def warm_up(spec: SolverSpec, task: RunRequest, until: float | None = None) -> Warmup:
    """Run the solver untimed on the task's warm-up instance, round after round while a round
    runs out of its time *and* compiled something (at most ``WARMUP_ROUNDS``), and never past
    ``until`` (``time.monotonic``; None: no cut) — see ``above``.

    One round is not enough for a solver that compiles lazily: on a cold cache its first
    round spends the warm-up's time compiling its start kernel and stops at the time limit
    before the search kernel is ever called, which then compiled inside the timed run (a
    3 s "solve" of 2-queens). A round that ends within its time has met every kernel the
    warm-up instance reaches; one that compiled nothing would meet the same code again."""
    sink_type = trace_type(task, spec)  # the warm-up runs the trace code too
    limit = WARMUP_BUDGET.time_limit or 0.0
    t0 = time.perf_counter()
    complete = False
    try:
        with cut_at(until):
            for _ in range(WARMUP_ROUNDS):
                start = time.perf_counter()
                before = compilations()
                with contextlib.suppress(Exception):
                    call_solver(spec.create(**task.params), task, task.warmup_instance, WARMUP_BUDGET,
                         sink_type() if sink_type else None)
                if time.perf_counter() - start < 0.9 * limit or compilations() == before:
                    complete = True
                    break
    except WarmupCut:
        complete = False
    return Warmup(time.perf_counter() - t0, complete)
