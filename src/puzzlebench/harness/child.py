"""The solver's side of a run: load the solver, warm it, run it, hand its proposal over as data.

A run executes in a process of its own (``harness.isolation`` forks or spawns it), which
never judges: it writes framed messages on a result pipe the harness opened before any solver
code was loaded — ``ready`` (warm-up done, the timed phase starts now), then ``done`` with the
proposal as data (``harness.payload``) or ``error`` with the reason. Everything the solver
prints goes to the run's log, never to the harness's output. The same ``perform`` serves
in-process runs (``isolate=False``), which say so in their records.

``python -m puzzlebench.harness.child FD`` is the spawned form (Dask workers, whose daemonic
processes should not fork): it reads a pickled :class:`Task` on stdin and writes to fd FD.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import resource
import struct
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NoReturn

import numpy as np

from puzzlebench.contract import Budget, Enumeration
from puzzlebench.harness.payload import MalformedProposalError, answer_data, to_payload
from puzzlebench.problems import problem_of
from puzzlebench.problems.base import Instance
from puzzlebench.trace import Trace

#: Budget of the untimed warm-up run (project solvers, and plugins declaring ``compiled``).
WARMUP_BUDGET = Budget(time_limit=0.5, max_nodes=20_000, max_evaluations=20_000,
                       max_iterations=20_000)
#: Cap on what a run may write to its log (RLIMIT_FSIZE; beyond it the process dies).
LOG_LIMIT_BYTES = 1 << 30


@dataclass(frozen=True, slots=True)
class Task:
    """One unit of solver work, as plain picklable data (never a live solver object).

    ``hard_limit`` counts from the start of the timed phase; ``None`` means no kill.
    """

    kind: str  # "solve", "count", "enumerate" or "describe" (a plugin's capabilities)
    solver: str  # a registered name or a module:attr / file.py:attr reference
    instance: Instance | None = None
    params: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    budget: Budget = field(default_factory=Budget)
    unique: bool = False
    limit: int | None = None
    hard_limit: float | None = None
    memory_limit_mb: int | None = None
    warmup: bool = True
    compiled: bool = False  # the harness starts numba once before forking such runs
    #: The solver class itself, when the caller holds one (an API user's class, a test's);
    #: reaches a forked child through memory, never a spawned one (use a reference there).
    factory: type | None = None

    def __getstate__(self) -> dict[str, Any]:  # pickled for spawned children: no class
        return {**{k: getattr(self, k) for k in self.__dataclass_fields__}, "factory": None}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            object.__setattr__(self, k, v)


def perform(task: Task, on_ready: Callable[[float], None] | None = None
            ) -> tuple[dict[str, Any], bytes | None]:
    """Load and (if ``task.warmup``) warm the solver, then run the task: the proposal as data.

    ``on_ready(warmup_s)`` is called just before the timed phase, which includes the solver's
    construction. Raises whatever the solver raises, or MalformedProposalError.
    """
    from puzzlebench.registry import REGISTRY, spec_of

    spec = spec_of(task.factory) if task.factory is not None else REGISTRY.load(task.solver)
    if task.kind == "describe" or task.instance is None:
        if on_ready is not None:
            on_ready(0.0)
        return {"claim": "unknown", "spec": spec.to_json()}, None
    problem = problem_of(task.instance)
    tracing = task.kind == "solve" and spec.traces  # the solver takes a trace sink
    warmup_s = 0.0
    if task.warmup:
        t0 = time.perf_counter()
        with contextlib.suppress(Exception):
            _run(spec.create(**task.params), task, problem.warmup_like(task.instance), WARMUP_BUDGET,
                 Trace() if tracing else None)  # the warm-up loads the trace code too
        warmup_s = time.perf_counter() - t0
    if on_ready is not None:
        on_ready(warmup_s)
    solver = spec.create(**task.params)
    sink = Trace() if tracing else None
    result = _run(solver, task, task.instance, task.budget, sink)
    if task.kind == "enumerate":
        if isinstance(result, Enumeration):
            solutions, complete = list(result.solutions), bool(result.complete)
        else:  # a bare list says nothing about completeness
            solutions, complete = list(result), False
        answers = []
        for s in solutions:
            data, raw = answer_data(problem, s)
            answers.append(np.frombuffer(raw, "<i8").tolist() if raw is not None else data)
        return {"claim": "unknown", "solutions": answers, "complete": complete}, None
    data, raw = to_payload(problem, result)
    if sink is not None:
        data["trace"] = sink.points()
    return data, raw


def _run(solver: Any, task: Task, instance: Instance | None, budget: Budget,
         sink: Trace | None = None) -> Any:
    if task.kind == "solve":
        rng = np.random.default_rng(task.seed)
        if sink is not None:
            return solver.solve(instance, budget, rng, trace=sink)
        return solver.solve(instance, budget, rng)
    if task.kind == "count":
        return solver.count(instance, budget, unique=task.unique)
    if task.kind == "enumerate":
        return solver.enumerate(instance, budget, limit=task.limit)
    raise ValueError(f"unknown task kind {task.kind!r}")


def error_text(exc: BaseException) -> str:
    """One line: the exception and where the solver raised it."""
    tb = traceback.extract_tb(exc.__traceback__)
    where = f" at {tb[-1].filename}:{tb[-1].lineno}" if tb else ""
    text = str(exc) if not isinstance(exc, SystemExit) else f"code {exc.code!r}"
    return f"{type(exc).__name__}: {text}{where}"[:2000]


def send(fd: int, message: dict[str, Any], raw: bytes | None = None) -> None:
    """One framed message (8-byte length + JSON), optionally followed by a raw frame."""
    body = json.dumps(message, allow_nan=False, separators=(",", ":")).encode()
    _write_all(fd, struct.pack("<Q", len(body)) + body)
    if raw is not None:
        _write_all(fd, struct.pack("<Q", len(raw)))
        _write_all(fd, raw)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _memory_now() -> tuple[int, float]:
    """(virtual size in bytes, resident MiB) of this process."""
    with open("/proc/self/statm", encoding="ascii") as fh:
        size, resident = (int(x) for x in fh.read().split()[:2])
    page = resource.getpagesize()
    return size * page, resident * page / 2**20


def _peak_rss_mb() -> float:
    """This process's peak resident set (VmHWM) since the last reset, in MiB."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child_main(task: Task, result_fd: int, log_fd: int) -> NoReturn:
    """Run a task in this (fresh) process and report on ``result_fd``; never returns."""
    try:
        os.dup2(log_fd, 1)
        os.dup2(log_fd, 2)
        # every other inherited descriptor (the log's own, stores, sockets) is not the solver's
        os.closerange(3, result_fd)
        os.closerange(result_fd + 1, 65536)
        sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115 - fresh locks
        sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
        resource.setrlimit(resource.RLIMIT_FSIZE, (LOG_LIMIT_BYTES, LOG_LIMIT_BYTES))
    except BaseException as exc:
        _report_and_exit(result_fd, "crash", f"run set-up failed: {error_text(exc)}")
    before = _identity(task.instance)

    def ready(warmup_s: float) -> None:
        if task.memory_limit_mb is not None:
            size, _ = _memory_now()
            limit = size + task.memory_limit_mb * 2**20
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        try:
            with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
                fh.write("5")  # reset VmHWM: the peak is this run's own
        except OSError:
            pass
        send(result_fd, {"event": "ready", "warmup_s": warmup_s,
                         "rss_base_mb": _memory_now()[1]})

    try:
        data, raw = perform(task, ready)
    except MemoryError:
        _report_and_exit(result_fd, "memout", "MemoryError")
    except MalformedProposalError as exc:
        _report_and_exit(result_fd, "crash", str(exc))
    except BaseException as exc:
        _report_and_exit(result_fd, "crash", error_text(exc))
    after = _identity(task.instance)
    meta = {"peak_rss_mb": _peak_rss_mb(), "mutated": before != after}
    try:
        send(result_fd, {"event": "done", "payload": data, "meta": meta}, raw)
    except BaseException as exc:
        _report_and_exit(result_fd, "crash", f"the proposal could not be sent: {error_text(exc)}")
    _exit(0)


def _identity(instance: Instance | None) -> str:
    return "" if instance is None else json.dumps(instance.describe(), sort_keys=True, default=str)


def _report_and_exit(fd: int, kind: str, error: str) -> NoReturn:
    try:
        send(fd, {"event": "error", "kind": kind, "error": error})
    finally:
        _exit(0)


def _exit(code: int) -> NoReturn:
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)


def main() -> NoReturn:
    """Spawned form: ``python -m puzzlebench.harness.child RESULT_FD`` with a pickled Task on
    stdin (written by the harness, never by a solver)."""
    result_fd = int(sys.argv[1])
    task = pickle.loads(sys.stdin.buffer.read())
    os.close(0)
    log_fd = os.dup(1)
    child_main(task, result_fd, log_fd)


if __name__ == "__main__":
    main()
