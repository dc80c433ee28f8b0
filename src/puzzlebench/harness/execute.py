"""One judged run: the solver proposes in a process of its own, the harness judges here.

``make_request`` and ``judging.run_record.make_record`` are the unit every front door builds on
(CLI, agreement, study runner, the Python API): a checked run request, and its report judged
into a record. By
default each run executes in a fresh process under a hard wall-clock limit enforced from
outside, through the one scheduler (``harness.scheduler``; ``run_solve``/``run_count`` and
``judged`` for one run); its proposal crosses back as data and is judged in this process, in
the scheduler's judging thread, with the problem's validator. An explicit
``isolate=False`` runs the solver in this process (for debugging with a debugger or
profiler); its record says ``isolated: false``.

Time: ``time_s`` is the timed phase (the solver's construction and its run), stamped in the
run and checked by the harness (``harness.run.measure``); with ``min_time`` it is the median of
repeated solves. Project solvers (and plugins declaring ``compiled``) are warmed first,
untimed (``warmup_s``; see ``warms``). An answer that arrives after the run's time limit is
never a success within it: such a run is a ``timeout``.
"""

from __future__ import annotations

import resource
import time
from typing import Any

from puzzlebench.harness import scheduler as schedules
from puzzlebench.harness.judging.run_record import make_record
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.harness.run.child_report import ChildReport
from puzzlebench.harness.run.inside.child import Performed, error_text, perform
from puzzlebench.harness.run.inside.numba_kernels import uses_numba
from puzzlebench.harness.run.inside.warmup import Warmup
from puzzlebench.harness.run.measure import (
    MAX_TIME_LIMIT_S,
    Measurement,
    check_stamps,
    default_hard_limit,
    stamp_ns,
)
from puzzlebench.harness.run.protocol.payload import MalformedProposalError, from_payload
from puzzlebench.harness.run_request import Go, RunRequest
from puzzlebench.harness.scheduler import Job
from puzzlebench.problems.base import Instance
from puzzlebench.records.record import RunFigures, RunRecord
from puzzlebench.solvers.contract import Budget
from puzzlebench.solvers.registry import RegistryError, SolverSpec


def make_request(spec: SolverSpec, instance: Instance, kind: str, *, params: dict[str, Any] | None = None,
              seed: int = 0, budget: Budget | None = None, unique: bool = False,
              limit: int | None = None, hard_limit: float | None = None,
              memory_limit_mb: int | None = None, min_time: float | None = None) -> RunRequest:
    """A checked task: the solver handles the problem, its parameters are valid."""
    if instance.problem not in spec.problems:
        raise RegistryError(
            f"solver {spec.name!r} does not handle {instance.problem!r} "
            f"(it handles {', '.join(sorted(spec.problems))})"
        )
    if spec.unavailable:
        raise RegistryError(f"solver {spec.name!r} is unavailable here: {spec.unavailable}")
    if kind == "count" and not spec.counts:
        raise RegistryError(f"solver {spec.name!r} does not count solutions")
    if kind == "enumerate" and not spec.enumerates:
        raise RegistryError(f"solver {spec.name!r} does not enumerate solutions")
    budget = budget or Budget()
    if budget.time_limit is not None and budget.time_limit > MAX_TIME_LIMIT_S:
        raise RegistryError(f"the time limit must be at most {MAX_TIME_LIMIT_S:,.0f} s, got "
                            f"{budget.time_limit}")
    if hard_limit is None:
        hard_limit = default_hard_limit(budget.time_limit)
    elif not 0 < hard_limit <= (default_hard_limit(MAX_TIME_LIMIT_S) or 0):
        raise RegistryError(f"the hard limit must be positive and at most "
                            f"{default_hard_limit(MAX_TIME_LIMIT_S):,.1f} s, got {hard_limit}")
    elif budget.time_limit is not None and hard_limit < budget.time_limit:
        raise RegistryError(f"the hard limit ({hard_limit} s) is below the time limit "
                            f"({budget.time_limit} s)")
    return RunRequest(kind=kind, solver=spec.reference or spec.name, instance=instance,
                params=spec.check_params(params), seed=int(seed), budget=budget, unique=unique,
                limit=limit, hard_limit=hard_limit, memory_limit_mb=memory_limit_mb,
                warmup=warms(spec), compiled=spec.compiled, jit=uses_numba(spec),
                factory=spec.factory if not spec.reference else None, min_time=min_time,
                project_module=spec.module if spec.origin in ("handwritten", "baseline") else "")


def warms(spec: SolverSpec) -> bool:
    """Whether a run warms the solver first: every project solver (a fresh process pays its
    first-touch costs — JIT caches, lazy imports, copy-on-write pages — there, untimed) and
    plugins that declare ``compiled``. Other plugins are not run beyond their own run."""
    return spec.compiled or spec.origin in ("handwritten", "baseline")


def execute(task: RunRequest, *, isolate: bool = True, spawn: bool = False,
            measurement: Measurement | None = None) -> ChildReport:
    """Run a task in a fresh process through the scheduler (or, with ``isolate=False``,
    here); its report, unjudged."""
    if not isolate:
        return run_here(task)
    report: ChildReport = schedules.schedule([Job(task, lambda got: got)], workers=1,
                                             spawn=spawn, measurement=measurement)[0]
    return report


def run_judged(spec: SolverSpec, task: RunRequest, *, isolate: bool = True,
           measurement: Measurement | None = None, **meta: Any) -> RunRecord:
    """One run through the scheduler (``harness.scheduler``), judged in its judging thread:
    ``solve``, ``count`` and the Python API. With ``isolate=False`` it runs and is judged
    here (debugging)."""
    if not isolate:
        return make_record(spec, task, run_here(task), isolated=False, **meta)
    record: RunRecord = schedules.schedule(
        [Job(task, lambda report: make_record(spec, task, report, **meta))], workers=1,
        measurement=measurement)[0]
    return record


def run_here(task: RunRequest) -> ChildReport:
    """The in-process form of a run (no isolation, no hard limit): for debugging only."""
    marks: dict[str, float] = {}

    def go(warmup: Warmup) -> Go:
        marks.update(warmup=warmup.seconds, go=stamp_ns(), cpu=time.process_time())
        return task.go()

    done: Performed | None = None
    try:
        done = perform(task.sealed(), go)
        status, error, kind = "done", "", ""
    except MemoryError:
        status, error, kind = "error", "MemoryError", "memout"
    except MalformedProposalError as exc:
        status, error, kind = "error", str(exc), "crash"
    except Exception as exc:
        status, error, kind = "error", error_text(exc), "crash"
    end = stamp_ns()
    start = int(marks.get("go", end))
    cpu = time.process_time() - marks.get("cpu", time.process_time())
    timing = check_stamps(done.stamps if done else None, (start, end), cpu_s=None, cores=1)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    figures = RunFigures(time_s=timing.time_s, time_min_s=timing.time_min_s,
                         repeats=timing.repeats, timed_by=timing.timed_by,
                         span_s=(end - start) / 1e9, cpu_s=cpu / timing.repeats,
                         warmup_s=marks.get("warmup", 0.0), peak_rss_mb=peak,
                         measured_by="process",
                         repeats_agree=done.repeats_agree() if done else None)
    return ChildReport(status, data=done.data if done else None, raw=done.raw if done else None,
                       error=error, error_kind=kind, figures=figures)


def run_solve(
    solver: str | SolverSpec,
    instance: Instance,
    *,
    params: dict[str, Any] | None = None,
    seed: int = 0,
    budget: Budget | None = None,
    isolate: bool = True,
    hard_limit: float | None = None,
    memory_limit_mb: int | None = None,
    measurement: Measurement | None = None,
    **meta: Any,
) -> RunRecord:
    """Solve once and judge: the solver proposes (in its own process), the validator decides.
    ``measurement`` sets repeats to a minimum time, pinning and cgroups (``harness.run.measure``)."""
    spec = resolve_solver(solver)
    measurement = measurement or Measurement()
    task = make_request(spec, instance, "solve", params=params, seed=seed, budget=budget,
                     hard_limit=hard_limit, memory_limit_mb=memory_limit_mb,
                     min_time=measurement.min_time)
    return run_judged(spec, task, isolate=isolate, measurement=measurement, **meta)


def run_count(
    solver: str | SolverSpec,
    instance: Instance,
    *,
    unique: bool = False,
    params: dict[str, Any] | None = None,
    budget: Budget | None = None,
    isolate: bool = True,
    hard_limit: float | None = None,
    **meta: Any,
) -> RunRecord:
    """Count solutions once and compare the count with the known facts."""
    spec = resolve_solver(solver)
    task = make_request(spec, instance, "count", params=params, budget=budget, unique=unique,
                     hard_limit=hard_limit)
    return run_judged(spec, task, isolate=isolate, **meta)


def run_enumerate(solver: str | SolverSpec, instance: Instance, *, budget: Budget,
                  limit: int | None = None) -> tuple[list[Any], bool, str]:
    """(solutions as canonical data, whether the set is complete, error text) from a
    solver's enumeration, run in its own process."""
    spec = resolve_solver(solver)
    task = make_request(spec, instance, "enumerate", budget=budget, limit=limit)
    report = execute(task)
    if report.status != "done" or report.data is None:
        return [], False, report.error or f"enumeration ended: {report.status}"
    try:
        data = from_payload(report.data)
    except MalformedProposalError as exc:
        return [], False, str(exc)
    return list(data.solutions or []), bool(data.complete), ""
