"""The one scheduler: every run the harness makes goes through ``schedule``.

``solve``, ``count`` and the Python API's ``run_solve``/``run_count`` (``harness.execute``),
``agree`` (``harness.campaign.agreement``) and ``compare``/``run``/``study``
(``harness.campaign.runner``) hand it jobs — a task and how its report becomes a result —
and it runs them under one set of limits, one error path and one Ctrl-C path, in two threads:

* the reading loop (``harness.run.isolation.run_requests``, in the calling thread) starts the runs,
  reads their pipes, answers ``ready`` with ``go``, enforces the limits and kills. It does
  nothing else: a finished run's report is put on a queue, and the loop turns again;
* the judging thread takes finished runs off that queue in the order they ended, judges each
  (the job's ``record_of``: ``judging.run_record.make_record``, proofs included) and hands the result to
  the sink — the store's transaction, the progress display, the caller's callback. The sink is
  opened in this thread, so a SQLite connection stays in the thread that writes.

A judgement that takes seconds (a proof checked) therefore delays no other run's ``go``, and
no ``ready`` waits for a store write. A run the loop would fork from this process (a solver
class that lives only here, or no fork server) is forked while the judging thread is between
two jobs (``fork_guard``), so no lock of that thread's is copied held into the run.

Errors: a judge or sink that raises stops the loop at its next turn (every running run is
killed) and the error is raised to the caller. Ctrl-C (or any error of the loop) kills the
running runs, then waits until the runs that had finished are judged and delivered — they
are stored — before it propagates.

With a ``backend`` (the runner's Dask path) the runs are made elsewhere; the backend puts
their reports, or results judged where they ran (:class:`WorkerResult`), on the same queue.
"""

from __future__ import annotations

import contextlib
import copy
import os
import queue
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from puzzlebench.harness.run.child_report import ChildReport
from puzzlebench.harness.run.isolation import run_requests
from puzzlebench.harness.run.measure import Measurement
from puzzlebench.harness.run_request import RunRequest

__all__ = ["Job", "WorkerResult", "schedule"]


@dataclass(eq=False, slots=True)
class Job:
    """One run: its run request, how its report becomes a result (called in the judging thread),
    and the caller's own data (``tag``: a study's run spec, ...)."""

    request: RunRequest | None  # None: a job only a backend that judges where it runs can make
    record_of: Callable[[ChildReport], Any]
    tag: Any = None


@dataclass(frozen=True, slots=True)
class WorkerResult:
    """A result made where the run ran (a Dask worker judges its own run): delivered as is."""

    result: Any


#: Called in the judging thread with each job and its result, in the order runs ended.
Deliver = Callable[[Job, Any], None]
#: What a backend calls for each finished run (it must return at once).
Put = Callable[[Job, "ChildReport | WorkerResult"], None]
#: Runs the jobs somewhere, putting each finished one; calls ``check`` now and then (it
#: raises when the judging thread has failed).
Backend = Callable[[Sequence[Job], Put, Callable[[], None]], None]

_END = object()


class _Judging(threading.Thread):
    """The judging thread: results from reports, delivered to the sink opened here."""

    def __init__(self, sink: Callable[[], AbstractContextManager[Deliver]]) -> None:
        super().__init__(name="puzzlebench-judging", daemon=True)
        self.sink = sink
        self.queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.results: list[Any] = []
        self.error: BaseException | None = None
        #: Held while a job is judged and delivered (see ``fork_guard`` in the module doc).
        self.busy = threading.Lock()
        #: Set once the sink is open (or failed to open): no run starts before.
        self.opened = threading.Event()

    def run(self) -> None:
        try:
            with self.sink() as deliver:
                self.opened.set()
                while (item := self.queue.get()) is not _END:
                    job, got = item
                    with self.busy:
                        result = got.result if isinstance(got, WorkerResult) else job.record_of(got)
                        deliver(job, result)
                    self.results.append(result)
        except BaseException as exc:  # raised in the caller's thread
            self.error = exc
            self.opened.set()
            while self.queue.get() is not _END:  # nothing more is judged
                pass

    def check(self) -> None:
        """Raise the judging thread's error in the loop's thread, which then stops."""
        if self.error is not None:
            raise self.error

    def put(self, job: Job, got: ChildReport | WorkerResult) -> None:
        self.queue.put((job, got))


def schedule(jobs: Iterable[Job] | Callable[[], Iterable[Job]], *, workers: int | None = None,
             measurement: Measurement | None = None, spawn: bool = False,
             deliver: Deliver | None = None,
             sink: Callable[[], AbstractContextManager[Deliver]] | None = None,
             backend: Backend | None = None) -> list[Any]:
    """Run every job, at most ``workers`` at once (default: the cores), and return their
    results in the order the runs ended. Each result is handed to ``deliver``, or to the
    function ``sink()`` yields — a context entered in the judging thread (a store opened
    there, closed when the last result is in). ``backend`` runs the jobs elsewhere (default:
    fresh local processes, ``harness.run.isolation``). No run starts before the sink is open;
    ``jobs`` may be a function, called then (a study's runs are those its store lacks)."""
    if deliver is not None and sink is not None:
        raise ValueError("give deliver or sink, not both")
    judging = _Judging(sink or _calling(deliver))
    judging.start()
    try:
        judging.opened.wait()
        judging.check()
        todo = _distinct(jobs() if callable(jobs) else jobs)
        if backend is not None:
            backend(todo, judging.put, judging.check)
        elif todo:
            _run_local(todo, judging, workers or os.cpu_count() or 1, measurement, spawn)
    finally:
        judging.queue.put(_END)  # the end of the queue
        judging.join()  # finished runs are judged and delivered, even on Ctrl-C
    judging.check()
    return judging.results


def _run_local(todo: list[Job], judging: _Judging, workers: int,
               measurement: Measurement | None, spawn: bool) -> None:
    """The reading loop over fresh local processes; a finished run is only queued."""
    job_of = {id(job.request): job for job in todo}
    tasks = [job.request for job in todo]
    if any(task is None for task in tasks):
        raise ValueError("a job without a task cannot run here")
    run_requests([task for task in tasks if task is not None], workers=workers,
              on_report=lambda task, report: judging.put(job_of[id(task)], report),
              spawn=spawn, measurement=measurement, check=judging.check,
              fork_guard=judging.busy)


def _distinct(jobs: Iterable[Job]) -> list[Job]:
    """The jobs, each with a task object of its own (the loop tells runs apart by it)."""
    out: list[Job] = []
    seen: set[int] = set()
    for job in jobs:
        if job.request is not None and id(job.request) in seen:
            job = Job(copy.copy(job.request), job.record_of, job.tag)
        seen.add(id(job.request))
        out.append(job)
    return out


def _calling(deliver: Deliver | None) -> Callable[[], AbstractContextManager[Deliver]]:
    @contextlib.contextmanager
    def sink() -> Iterator[Deliver]:
        yield deliver or (lambda _job, _result: None)

    return sink
