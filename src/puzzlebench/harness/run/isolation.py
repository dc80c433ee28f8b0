"""The judge's side of a run: a fresh process per run, watched, measured and killed from outside.

Every run gets a process of its own — forked by the fork server (``harness.run.forkserver``: a
lean process that never saw the harness's memory or another run's instance; forked from the
harness only for a solver class that exists nowhere but in the harness's memory) or spawned as
``python -m puzzlebench.harness.run.inside.child`` (on Dask workers) — in a new session and, where the
machine allows, a cgroup of its own (``harness.run.cgroups``), so the run and every process it
starts form one group that the harness measures and kills. The harness opens the result pipe,
the control pipe and the log file before the solver's code is loaded; the child writes only
framed messages on the result pipe (see ``harness.run.child``). Nothing a run does can reach the
judge's process, the next run, or the command's output:

* the run is told its instance only after it is loaded and warm (``ready`` → ``go``); the
  timed phase starts when the harness sends ``go``. Its time is stamped in the run and checked
  against the harness's own window (``harness.run.measure``); CPU time and peak memory come from
  the run's cgroup (every process of the run, timed phase only), else from resource usage;
* the hard limit counts from ``go``; warm-up and start-up have their own limit;
* a process that ends without a ``done`` or ``error`` message is a crash with its exit status
  (or signal), whatever the status — the harness's own codes cannot collide with a solver's;
  every field of ``ready`` is type-checked, a malformed frame is a crash of that run only;
* after every run the whole process group and cgroup are killed, so no helper process
  outlives its run.

A solver can still write to the pipe itself (it shares the process); the most it can do is
propose an answer, which is judged like any other, at a time the harness bounds.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import time
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager

from puzzlebench.harness.run.child_report import ChildReport
from puzzlebench.harness.run.forking.forkserver import ForkServer, ForkServerError, forget, fork_server
from puzzlebench.harness.run.measure import Measurement
from puzzlebench.harness.run.reaping import reap
from puzzlebench.harness.run.run_process import RunProcess
from puzzlebench.harness.run.starting import forks_in_server
from puzzlebench.harness.run_request import RunRequest

__all__ = ["fork_server", "pinned_cores", "run_request", "run_requests"]


def _drain(selector: selectors.BaseSelector, running: dict[int, tuple[RunProcess, int]],
           timeout: float) -> None:
    """Read every pipe that has data (waiting up to ``timeout``); a ``ready`` is answered with
    ``go`` at once, so a run waits for its instance no longer than the loop takes to turn."""
    for key, _ in selector.select(timeout=timeout):
        running[int(key.fd)][0].read()


def _start(task: RunRequest, spawn: bool, measurement: Measurement, core: int | None,
           server: ForkServer | None,
           fork_guard: AbstractContextManager[object] | None = None) -> RunProcess:
    """A run forked by the fork server (forked from here if the server is gone). A run forked
    from this process is forked under ``fork_guard`` (the scheduler's judging thread holds it
    while it works, so no lock of that thread's is copied held into the run)."""
    guard = fork_guard or contextlib.nullcontext()
    if spawn or (server is not None and forks_in_server(task)):
        try:
            return RunProcess(task, spawn, measurement, core, server)
        except ForkServerError:
            if server is not None:
                forget(server)
    with guard:
        return RunProcess(task, spawn, measurement, core, None)


def run_request(task: RunRequest, *, spawn: bool = False, measurement: Measurement | None = None
             ) -> ChildReport:
    """Run one task in a fresh process and wait for it."""
    out: list[ChildReport] = []
    run_requests([task], workers=1, on_report=lambda _t, r: out.append(r), spawn=spawn,
              measurement=measurement)
    return out[0]


def pinned_cores(workers: int) -> list[int]:
    """The core each worker slot keeps to when runs are pinned: the cores this process may
    use, one per slot (slots beyond the cores share them round-robin)."""
    try:
        cores = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = list(range(os.cpu_count() or 1))
    return [cores[i % len(cores)] for i in range(max(1, workers))]


def run_requests(tasks: Iterable[RunRequest], *, workers: int,
              on_report: Callable[[RunRequest, ChildReport], None], spawn: bool = False,
              measurement: Measurement | None = None,
              check: Callable[[], None] | None = None,
              fork_guard: AbstractContextManager[object] | None = None) -> None:
    """Run tasks in fresh processes, at most ``workers`` at once, reporting each as it ends.

    Single-threaded: one selector over the result pipes, deadlines checked between events.
    Nothing the loop does between reading two messages can change a run's time: the run
    stamps its own, and CPU time does not accrue while a run waits. ``on_report`` should
    return at once (the scheduler, ``harness.scheduler``, only queues the report: judging
    and storing happen in another thread); ``check`` is called at every turn (at least once
    a second) and may raise to stop the loop. With ``measurement.pin`` each worker slot
    keeps to its own core. Ctrl-C (or any error) kills every running process group before
    it propagates.
    """
    measurement = measurement or Measurement()
    queue = list(tasks)
    queue.reverse()
    if not spawn and any(t.compiled and not forks_in_server(t) for t in queue):
        # A compiled solver's run forked from this process inherits its compiler; runs the
        # fork server makes inherit the server's (numba never loads here for them: a
        # one-shot `solve` or `count` would pay ~0.5 s for nothing).
        # imported here: numba loads only when a compiled solver runs (start-up time)
        from puzzlebench.harness.run.inside.numba_kernels import start_compiler

        start_compiler(load=True)
    servers: dict[bool, ForkServer | None] = {}

    def server_for(task: RunRequest) -> ForkServer | None:
        if spawn or not forks_in_server(task):
            return None
        if task.jit not in servers:
            servers[task.jit] = fork_server(jit=task.jit)
        return servers[task.jit]

    slots = pinned_cores(workers) if measurement.pin else [None] * max(1, workers)
    free = list(range(len(slots)))
    running: dict[int, tuple[RunProcess, int]] = {}
    selector = selectors.DefaultSelector()
    try:
        while queue or running:
            while queue and free:
                slot = free.pop(0)
                task = queue.pop()
                run = _start(task, spawn, measurement, slots[slot], server_for(task), fork_guard)
                running[run.fd] = (run, slot)
                selector.register(run.fd, selectors.EVENT_READ)
                _drain(selector, running, 0.0)
            now = time.monotonic()
            timeout = max(0.0, min(r.deadline() for r, _ in running.values()) - now)
            _drain(selector, running, min(timeout, 1.0))
            if check is not None:
                check()
            now = time.monotonic()
            reap()
            for fd, (run, slot) in list(running.items()):
                if not run.finished and now >= run.deadline():
                    if run.w.t_done is not None:
                        run.kill("killed while comparing its repeats")
                    elif run.w.t_ready is None:
                        run.kill("killed: start-up and warm-up exceeded "
                                 f"{run.startup_limit:g} s")
                    else:
                        run.kill(f"killed at the hard limit of {run.task.hard_limit:.3g} s")
                if run.finished or run.killed:
                    selector.unregister(fd)
                    del running[fd]
                    free.append(slot)
                    free.sort()
                    on_report(run.task, run.finish())
                    _drain(selector, running, 0.0)  # answer what arrived meanwhile
    except BaseException:
        for run, _ in running.values():
            run.kill("interrupted")
            run.finish()
        raise
    finally:
        selector.close()
        reap(block=True)
