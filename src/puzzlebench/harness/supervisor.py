"""Running one study run under hard limits, in a worker process or a supervised child.

The worker side (``execute_spec``) builds the instance and calls ``run_solve``. The parent
side turns what happens to the process into an outcome: killed after the hard wall-clock
limit → ``timeout``; died (segfault, ``os._exit``, abort) → ``crash`` with the exit status;
an allocation refused by the memory limit → ``memout``.

The memory limit is RLIMIT_AS set in the worker after its imports: the run may grow the
process's address space by ``memory_limit_mb`` beyond that baseline.
"""

from __future__ import annotations

import faulthandler
import json
import resource
import signal
import subprocess
import sys
import time
from typing import Any

from puzzlebench.harness import environment
from puzzlebench.harness.execute import run_solve
from puzzlebench.harness.outcome import Outcome, RunRecord
from puzzlebench.harness.study import RunSpec
from puzzlebench.registry import REGISTRY


def apply_memory_limit(memory_limit_mb: int | None) -> None:
    """Cap this process's address space at its current size plus the limit."""
    if memory_limit_mb is None:
        return
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            current = int(fh.read().split()[0]) * resource.getpagesize()
    except OSError:
        current = 0
    limit = current + memory_limit_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def worker_init(memory_limit_mb: int | None) -> None:
    """Pool worker start-up: load every solver, then apply the memory limit."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    faulthandler.disable()  # a dying solver is reported by its exit status, not a dump
    REGISTRY.discover()
    apply_memory_limit(memory_limit_mb)


def execute_spec(spec: RunSpec, workers: int = 1) -> RunRecord:
    """Run one study run in this process and return its judged record."""
    from puzzlebench.contract import Budget

    record = run_solve(spec.solver, spec.instance(), params=spec.params, seed=spec.seed,
                       budget=Budget(**spec.budget), study=spec.study, repeat=spec.repeat,
                       master_seed=spec.master_seed)
    return record.with_(machine={**record.machine, "workers": workers})


def failure_record(spec: RunSpec, outcome: Outcome, error: str, wall: float,
                   workers: int = 1) -> RunRecord:
    """The record of a run the supervisor had to stop or lost."""
    from datetime import UTC, datetime

    return RunRecord(
        problem=spec.problem, size=spec.size, instance_id=spec.instance_id,
        solver=_name(spec.solver),
        params=dict(spec.params), seed=spec.seed, outcome=outcome, claim="unknown",
        valid=None, reason=error, budget=dict(spec.budget), instance=spec.instance().describe(),
        study=spec.study, repeat=spec.repeat, master_seed=spec.master_seed, time_s=wall,
        versions=environment.versions(),
        machine={**environment.machine(), "workers": workers},
        timestamp=datetime.now(UTC).isoformat(timespec="seconds"), error=error,
        origin=_origin(spec.solver),
    )


def _name(solver: str) -> str:
    """The registered name behind a name or a plugin reference."""
    try:
        return REGISTRY.get(solver).name
    except Exception:
        return solver


def _origin(solver: str) -> str:
    try:
        return REGISTRY.get(solver).origin
    except Exception:
        return ""


def describe_exit(code: int | None) -> str:
    """'exit code 3' or 'killed by SIGSEGV'."""
    if code is None:
        return "the worker process was lost"
    if code < 0:
        try:
            return f"the worker died: killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"the worker died: killed by signal {-code}"
    return f"the worker died: exit code {code}"


def run_in_child(spec_json: str, workers: int = 1) -> dict[str, Any]:
    """Run one spec in a fresh ``python -m puzzlebench.harness.child`` under the hard limits
    (used on Dask workers, whose daemonic processes cannot fork pool children)."""
    spec = RunSpec.from_json(spec_json)
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "puzzlebench.harness.child", str(workers)],
            input=spec_json, capture_output=True, text=True,
            timeout=spec.hard_limit + 20.0,  # + start-up; the child alarms itself
        )
    except subprocess.TimeoutExpired:
        wall = time.perf_counter() - t0
        return failure_record(spec, Outcome.TIMEOUT, f"killed after {spec.hard_limit:.1f} s",
                              wall, workers).to_dict()
    wall = time.perf_counter() - t0
    if proc.returncode == 0 and proc.stdout.strip():
        return dict(json.loads(proc.stdout.strip().splitlines()[-1]))
    if proc.returncode == 3:  # the child's own hard-limit alarm fired
        return failure_record(spec, Outcome.TIMEOUT, f"killed after {spec.hard_limit:.1f} s",
                              wall, workers).to_dict()
    tail = " | ".join(proc.stderr.strip().splitlines()[-3:])
    error = describe_exit(proc.returncode) + (f": {tail}" if tail else "")
    return failure_record(spec, Outcome.CRASH, error, wall, workers).to_dict()
