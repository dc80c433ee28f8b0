"""The solver's side of a run: load the solver, warm it, wait for the instance, run it, hand
its proposal over as data.

A run executes in a process of its own (``harness.run.isolation`` forks or spawns it), which never
judges. The protocol, on a result pipe and a control pipe the harness opened before any solver
code was loaded:

1. the process joins its cgroup (when the harness made one), loads, constructs and warms the
   solver on a warm-up instance — not the run's;
2. it writes ``ready`` and waits;
3. the harness answers ``go`` with the instance: the timed phase starts when the harness sends
   it. The process stamps the shared monotonic clock immediately around each solve
   (``harness.run.measure``), repeats the solve with the same seed while ``min_time`` asks for it,
   and writes ``done`` with the first proposal as data (``harness.run.payload``), the stamps and
   whether every repeat gave the same answer — or ``error`` with the reason;
4. it then waits, idle, until the harness has read its counters and kills it, so no teardown
   is ever measured.

Everything the solver prints goes to the run's log, never to the harness's output. The same
``perform`` serves in-process runs (``isolate=False``), which say so in their records.

``python -m puzzlebench.harness.run.inside.child FD`` is the spawned form (Dask workers, whose daemonic
processes should not fork): it reads its task, then ``go``, as frames on stdin, and writes to
fd FD.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import resource
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np

from puzzlebench.harness.run.inside.solver_call import call_solver, trace_type
from puzzlebench.harness.run.inside.warmup import Warmup, warm_up
from puzzlebench.harness.run.measure import (
    PRE_GO_SHARE,
    pre_go_allowance,
    pre_go_charge,
    repeat_more,
    rusage_cpu_s,
    stamp_ns,
)
from puzzlebench.harness.run.protocol.messages import read_message, send
from puzzlebench.harness.run.protocol.payload import MalformedProposalError, answer_data, to_payload
from puzzlebench.harness.run.sealed.sandbox import NONE, SandboxPlan, Sealed, check_mode, seal
from puzzlebench.harness.run_request import Go, RunRequest
from puzzlebench.problems import problem_of
from puzzlebench.problems.base import Instance
from puzzlebench.solvers.contract import Enumeration
from puzzlebench.solvers.locators import load_solver
from puzzlebench.solvers.spec import spec_of

if TYPE_CHECKING:
    # for annotations only: the trace code loads numba, which a run that does not trace
    # never needs (see _trace_type)
    from puzzlebench.records.trace import Trace

#: Cap on what a run may write to its log (RLIMIT_FSIZE; beyond it the process dies).
LOG_LIMIT_BYTES = 1 << 30


@dataclass(frozen=True, slots=True)
class RunSetup:
    """What a run's process does before any solver code: join its cgroup (the ``cgroup.procs``
    files, one per hierarchy), keep to one core (``core``, when pinned without a cpuset), and
    seal itself off from the machine (``sandbox``: a mode of ``harness.run.sealed.sandbox``; None: the
    default, ``$PUZZLEBENCH_SANDBOX`` or ``auto``)."""

    cgroup_procs: tuple[str, ...] = ()
    core: int | None = None
    sandbox: str | None = None
    #: Forked as PID 2 of a PID namespace of its own already (by the fork server).
    pid_namespace: bool = False
    #: When the harness started the run (``time.monotonic``, one clock for every process of
    #: the machine): the time limit counts from there (None: from the run's own start).
    started_at: float | None = None



@dataclass(frozen=True, slots=True)
class Performed:
    """What a run's process did: the first proposal as data, the stamps of every repeat, and
    the later repeats' results, compared with the first only after the timed phase
    (``repeats_agree``) so that the comparison is never measured."""

    data: dict[str, Any]
    raw: bytes | None
    stamps: list[list[int]]
    warmup_s: float
    task: RunRequest | None = None
    problem: Any = None
    later: tuple[Any, ...] = ()
    #: Start-up and warm-up used their whole share of the time limit, so the solver was given
    #: the rest (``harness.run.measure.pre_go_charge``).
    pre_go_capped: bool = False

    def repeats_agree(self) -> bool | None:
        """Whether every repeat proposed what the first did (None: one solve)."""
        if not self.later or self.task is None:
            return None
        first = _digest(self.data, self.raw)
        return all(_digest(*_as_data(self.task, self.problem, r)) == first for r in self.later)


def perform(task: RunRequest, wait_for_go: Callable[[Warmup], Go | None],
            on_stop: Callable[[], None] | None = None,
            started: float | None = None) -> Performed:
    """Load and (if ``task.warmup``) warm the solver, then run the task: the proposal as data.

    ``on_stop()`` is called right after the last solve, before its result becomes data (so
    the harness can read the run's counters there). ``wait_for_go(warmup)`` is called once
    the solver is warm; it returns the instance to solve and the run's seed (the harness
    sends them only then). The timed phase — stamped around each repeat — includes the
    solver's construction. ``started`` is when the run began
    (``time.monotonic``; the harness's clock where it says): the time limit counts from
    there, so start-up and warm-up are bounded by their share of it and what they used of it
    is taken from the solver's limit (``harness.run.measure.pre_go_allowance``). Raises whatever
    the solver raises, or MalformedProposalError.
    """
    started = time.monotonic() if started is None else started
    allowance = pre_go_allowance(task.budget.time_limit)
    spec = spec_of(task.factory) if task.factory is not None else load_solver(task.solver)
    if task.kind == "describe" or task.warmup_instance is None:
        wait_for_go(Warmup(0.0, True))
        t = stamp_ns()
        return Performed({"claim": "unknown", "spec": spec.to_json()}, None, [[t, t]], 0.0)
    sink_type = trace_type(task, spec)  # loaded now, never inside the timed phase
    warmup = Warmup(0.0, True)
    if task.warmup:
        warmup = warm_up(spec, task, None if allowance is None else started + allowance)
    go_message = wait_for_go(warmup)
    if go_message is None or not isinstance(go_message.instance, Instance):
        raise RuntimeError("the harness sent no instance")
    instance = go_message.instance
    task = replace(task, seed=int(go_message.seed))
    budget, limit, capped = task.budget, task.budget.time_limit, False
    if limit is not None:
        charge = pre_go_charge(limit, time.monotonic() - started)
        capped = charge >= PRE_GO_SHARE * limit
        budget = replace(budget, time_limit=limit - charge)
    problem = problem_of(instance)
    stamps: list[list[int]] = []
    results: list[Any] = []
    sinks: list[Trace | None] = []
    total = longest = 0
    go = stamp_ns()
    while True:
        sink = sink_type() if sink_type and not sinks else None  # the first repeat's is kept
        start = stamp_ns()
        result = call_solver(spec.create(**task.params), task, instance, budget, sink)
        end = stamp_ns()
        stamps.append([start, end])
        results.append(result)
        sinks.append(sink)
        total, longest = total + end - start, max(longest, end - start)
        if not repeat_more(len(stamps), total, longest, task.min_time, (end - go) / 1e9,
                           task.hard_limit):
            break
    if on_stop is not None:
        on_stop()
    data, raw = _as_data(task, problem, results[0])
    if sinks[0] is not None:
        data["trace"] = sinks[0].points()
    return Performed(data, raw, stamps, warmup.seconds, task, problem, tuple(results[1:]),
                     capped)


def _as_data(task: RunRequest, problem: Any, result: Any) -> tuple[dict[str, Any], bytes | None]:
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
    return to_payload(problem, result)


def _digest(data: dict[str, Any], raw: bytes | None) -> str:
    """What must be equal between repeats: the proposal without its counters' seconds."""
    kept = {k: v for k, v in data.items() if k not in ("counters", "trace", "note")}
    h = hashlib.sha256(json.dumps(kept, sort_keys=True, default=str).encode())
    if raw is not None:
        h.update(raw)
    return h.hexdigest()


def error_text(exc: BaseException) -> str:
    """One line: the exception and where the solver raised it."""
    tb = traceback.extract_tb(exc.__traceback__)
    where = f" at {tb[-1].filename}:{tb[-1].lineno}" if tb else ""
    text = str(exc) if not isinstance(exc, SystemExit) else f"code {exc.code!r}"
    return f"{type(exc).__name__}: {text}{where}"[:2000]


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


def child_main(task: RunRequest, result_fd: int, log_fd: int, control_fd: int,
               setup: RunSetup | None = None) -> NoReturn:
    """Run a task in this (fresh) process and report on ``result_fd``; never returns.

    ``control_fd`` carries the harness's ``go`` frame (the instance); ``setup`` says which
    cgroup to join and which core to keep to, before any solver code is loaded.
    """
    setup = setup or RunSetup()
    try:
        for procs in setup.cgroup_procs:  # first of all: every process from here on is counted
            with open(procs, "w", encoding="ascii") as fh:
                fh.write(str(os.getpid()))
        if setup.core is not None and not setup.cgroup_procs:
            os.sched_setaffinity(0, {setup.core})
        os.dup2(log_fd, 1)
        os.dup2(log_fd, 2)
        # every other inherited descriptor (the log's own, stores, sockets) is not the solver's
        keep = sorted({result_fd, control_fd})
        os.closerange(3, keep[0])
        if len(keep) == 2:
            os.closerange(keep[0] + 1, keep[1])
        os.closerange(keep[-1] + 1, 65536)
        sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115 - fresh locks
        sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
        resource.setrlimit(resource.RLIMIT_FSIZE, (LOG_LIMIT_BYTES, LOG_LIMIT_BYTES))
        sealed = _seal(task, setup)  # last: from here on this is the run's sealed process
        # the run's processes in its cgroup: with a keeper, the keeper, init and the run
        own_processes = 3 if sealed.status != NONE and not setup.pid_namespace else 1
    except BaseException as exc:
        _report_and_exit(result_fd, "crash", f"run set-up failed: {error_text(exc)}")
    cpu: list[float] = []
    held: list[tuple[Any, str]] = []  # the instance and its identity when it arrived

    def ready(warmup: Warmup) -> Go | None:
        try:
            with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
                fh.write("5")  # reset VmHWM: the peak is this run's own
        except OSError:
            pass
        send(result_fd, {"event": "ready", "warmup_s": warmup.seconds,
                         "warmup_complete": warmup.complete,
                         "rss_base_mb": _memory_now()[1], "sandbox": sealed.status,
                         "sandbox_why": sealed.why, "own_processes": own_processes})
        message = read_message(control_fd)  # the harness's go: the timed phase starts
        if task.memory_limit_mb is not None and not setup.cgroup_procs:
            # without a cgroup, a per-process address-space limit is all there is; in one, the
            # harness limits the group's memory, and an address-space limit sized by this
            # process would only be inherited by its children (a child's allocation failed
            # under it, short of the group's limit)
            size, _ = _memory_now()
            limit = size + task.memory_limit_mb * 2**20
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        instance = message.instance if isinstance(message, Go) else None
        held.append((instance, _identity(instance)))
        cpu.append(rusage_cpu_s())
        return message if isinstance(message, Go) and isinstance(instance, Instance) else None

    def stopped() -> None:
        """The timed phase is over: the harness reads the run's counters before the result
        is turned into data (a big answer's conversion is never measured)."""
        cpu.append(rusage_cpu_s())
        send(result_fd, {"event": "stopped"})
        with contextlib.suppress(OSError):
            os.read(control_fd, 1)  # the harness's go-ahead (or EOF)

    try:
        done = perform(task, ready, stopped, setup.started_at)
    except MemoryError:
        _report_and_exit(result_fd, "memout", "MemoryError", control_fd)
    except MalformedProposalError as exc:
        _report_and_exit(result_fd, "crash", str(exc), control_fd)
    except BaseException as exc:
        _report_and_exit(result_fd, "crash", error_text(exc), control_fd)
    meta = {"peak_rss_mb": _peak_rss_mb(), "stamps": done.stamps,
            "repeats_follow": bool(done.later),
            "cpu_s": cpu[-1] - cpu[0] if len(cpu) == 2 else None,
            "pre_go_capped": done.pre_go_capped}
    if held:
        meta["mutated"] = held[0][1] != _identity(held[0][0])
    try:
        send(result_fd, {"event": "done", "payload": done.data, "meta": meta}, done.raw)
    except BaseException as exc:
        _report_and_exit(result_fd, "crash", f"the proposal could not be sent: {error_text(exc)}",
                         control_fd)
    if done.later:  # after the timed phase: the harness has read the run's counters already
        try:
            agree: bool | None = done.repeats_agree()
        except Exception:
            agree = False
        with contextlib.suppress(OSError):
            send(result_fd, {"event": "repeats", "agree": agree})
    _linger(control_fd)


def _seal(task: RunRequest, setup: RunSetup) -> Sealed:
    """Seal the run's process (``harness.run.sealed.sandbox``) before any solver code is loaded. A project
    solver (trusted code) keeps its pattern-database cache writable; numba's cache machinery is
    loaded first for a run whose code uses numba (``RunRequest.jit``), so its cached kernels stay
    usable, and never for one that does not (forked lean, it would cost 0.25 s of start-up)."""
    plan = SandboxPlan(check_mode(setup.sandbox))
    if plan.mode == "off":
        return Sealed(NONE, "the sandbox is off")
    # imported on use: only a sealed run needs to know where the cache is, and what it sees
    from puzzlebench.harness.run.sealed.sealed_view import plan_view
    from puzzlebench.host.cache_dir import cache_dir

    view = plan_view(task.solver, project=bool(task.project_module), cache=str(cache_dir()))
    plan = SandboxPlan(plan.mode, (str(cache_dir() / "pdb"),) if task.project_module else (),
                       view)
    if task.jit:
        with contextlib.suppress(ImportError):
            import numba.core.caching  # noqa: F401 - patched by the sandbox, not compiled here
    return seal(plan, in_pid_namespace=setup.pid_namespace)


def _linger(control_fd: int) -> NoReturn:
    """Wait, idle, for the harness to read the run's counters and end it (the harness closing
    the control pipe ends it too)."""
    with contextlib.suppress(OSError):
        sys.stdout.flush()
        sys.stderr.flush()
        os.read(control_fd, 1)
    os._exit(0)


def _identity(instance: Any) -> str:
    if not isinstance(instance, Instance):
        return ""
    return json.dumps(instance.describe(), sort_keys=True, default=str)


def _report_and_exit(fd: int, kind: str, error: str, control_fd: int | None = None) -> NoReturn:
    try:
        send(fd, {"event": "error", "kind": kind, "error": error})
    finally:
        if control_fd is not None:
            _linger(control_fd)
        _exit(0)


def _exit(code: int) -> NoReturn:
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)


def main() -> NoReturn:
    """Spawned form: ``python -m puzzlebench.harness.run.inside.child RESULT_FD``, with the task and
    the run's set-up, then ``go``, as frames on stdin (written by the harness, never by a
    solver)."""
    result_fd = int(sys.argv[1])
    control_fd = os.dup(0)
    os.close(0)
    task, setup = read_message(control_fd)
    log_fd = os.dup(1)
    child_main(task, result_fd, log_fd, control_fd, setup)


if __name__ == "__main__":
    main()
