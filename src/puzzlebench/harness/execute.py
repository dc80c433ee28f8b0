"""Run one solver on one instance in this process: time it, judge it, make the record.

This is the unit every higher layer (CLI, agreement, study runner) builds on. It enforces no
wall-clock limit from outside; the study runner does that by running this function in a
supervised worker process.
"""

from __future__ import annotations

import resource
import sys
import time
import traceback
from datetime import UTC, datetime
from typing import Any

import numpy as np

from puzzlebench.contract import Budget, Claim, Proposal
from puzzlebench.harness import environment
from puzzlebench.harness.judge import Judgement, judge_count, judge_solution
from puzzlebench.harness.outcome import Outcome, RunRecord
from puzzlebench.problems import problem_of
from puzzlebench.problems.base import Instance
from puzzlebench.registry import REGISTRY, RegistryError, SolverSpec


def resolve(solver: str | SolverSpec) -> SolverSpec:
    """A spec from a registered name, a ``module:attr`` reference, or a spec."""
    return solver if isinstance(solver, SolverSpec) else REGISTRY.get(solver)


def run_solve(
    solver: str | SolverSpec,
    instance: Instance,
    *,
    params: dict[str, Any] | None = None,
    seed: int = 0,
    budget: Budget | None = None,
    **meta: Any,
) -> RunRecord:
    """Solve once and judge: the solver proposes, the problem's validator decides."""
    spec = resolve(solver)
    _check_supported(spec, instance)
    budget = budget or Budget()
    instance_solver = spec.create(**(params or {}))
    rng = np.random.default_rng(seed)
    error = ""
    wall0, cpu0 = time.perf_counter(), time.process_time()
    try:
        proposal = instance_solver.solve(instance, budget, rng)
        if not isinstance(proposal, Proposal):
            raise TypeError(f"solve() returned {type(proposal).__name__}, not a Proposal")
    except MemoryError:
        proposal, error = None, "MemoryError"
    except Exception as exc:  # a crash is an outcome, recorded with its text
        proposal, error = None, _error_text(exc)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    problem = problem_of(instance)
    if proposal is None:
        outcome = Outcome.MEMOUT if error == "MemoryError" else Outcome.CRASH
        judgement = Judgement(outcome, None, error)
        proposal = Proposal()
    else:
        judgement = judge_solution(problem, instance, proposal, exact=spec.exact)
    answer = None
    if proposal.answer is not None:
        try:
            answer = problem.answer_to_json(proposal.answer)
        except Exception:
            answer = repr(proposal.answer)[:1000]
    return _record(
        spec, instance, instance_solver.config, seed, budget, judgement, proposal,
        wall, cpu, task="solve", answer=answer, error=error, **meta,
    )


def run_count(
    solver: str | SolverSpec,
    instance: Instance,
    *,
    unique: bool = False,
    params: dict[str, Any] | None = None,
    budget: Budget | None = None,
    **meta: Any,
) -> RunRecord:
    """Count solutions once and compare the count with the known facts."""
    spec = resolve(solver)
    _check_supported(spec, instance)
    if not spec.counts:
        raise RegistryError(f"solver {spec.name!r} does not count solutions")
    budget = budget or Budget()
    solver_obj = spec.create(**(params or {}))
    error = ""
    wall0, cpu0 = time.perf_counter(), time.process_time()
    try:
        proposal = solver_obj.count(instance, budget, unique=unique)
    except MemoryError:
        proposal, error = None, "MemoryError"
    except Exception as exc:
        proposal, error = None, _error_text(exc)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    if proposal is None:
        outcome = Outcome.MEMOUT if error == "MemoryError" else Outcome.CRASH
        judgement = Judgement(outcome, None, error)
        proposal = Proposal()
    else:
        judgement = judge_count(problem_of(instance), instance, proposal, unique=unique)
    return _record(
        spec, instance, solver_obj.config, 0, budget, judgement, proposal, wall, cpu,
        task="count", answer=None, error=error, **meta,
    )


def _check_supported(spec: SolverSpec, instance: Instance) -> None:
    if instance.problem not in spec.problems:
        raise RegistryError(
            f"solver {spec.name!r} does not handle {instance.problem!r} "
            f"(it handles {', '.join(sorted(spec.problems))})"
        )


def _record(
    spec: SolverSpec,
    instance: Instance,
    params: dict[str, Any],
    seed: int,
    budget: Budget,
    judgement: Judgement,
    proposal: Proposal,
    wall: float,
    cpu: float,
    *,
    task: str,
    answer: Any,
    error: str,
    **meta: Any,
) -> RunRecord:
    length = len(answer) if isinstance(answer, str | list) else None
    return RunRecord(
        problem=instance.problem,
        size=instance.size,
        instance_id=instance.instance_id,
        solver=spec.name,
        params=dict(params),
        seed=int(seed),
        outcome=judgement.outcome,
        claim=Claim(proposal.claim).value,
        valid=judgement.valid,
        reason=judgement.reason,
        task=task,
        answer=answer,
        answer_length=length,
        optimum=judgement.optimum,
        count=proposal.count,
        unique=proposal.unique,
        counters={k: _plain(v) for k, v in proposal.counters.items()},
        time_s=wall,
        cpu_s=cpu,
        peak_rss_mb=_peak_rss_mb(),
        budget=budget.to_dict(),
        instance=instance.describe(),
        origin=spec.origin,
        versions=environment.versions(),
        machine=environment.machine(),
        timestamp=datetime.now(UTC).isoformat(timespec="seconds"),
        error=error,
        **meta,
    )


def _plain(v: Any) -> Any:
    return v.item() if hasattr(v, "item") else v


def _peak_rss_mb() -> float:
    """Peak resident memory of this process (the worker, under the study runner)."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


def _error_text(exc: BaseException) -> str:
    tb = traceback.extract_tb(exc.__traceback__)
    where = f" at {tb[-1].filename}:{tb[-1].lineno}" if tb else ""
    return f"{type(exc).__name__}: {exc}{where}"
