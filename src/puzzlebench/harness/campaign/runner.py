"""The study runner: every run in a fresh process, results into the store as they finish.

Locally, runs execute in fresh processes forked by ``harness.run.isolation`` (at most ``workers``
at once): no run can leave anything behind for another — a patched validator, a thread
burning CPU, a raised memory high-water mark — and each run's memory limit and peak are its
own. With a Dask scheduler address the same runs go to the cluster: each task spawns a fresh
``python -m puzzlebench.harness.run.inside.child`` under the same limits, judges its proposal in the Dask
worker (a process the solver never ran in) and returns the record. Runs whose keys are stored
already are skipped, so an interrupted study resumes; the key holds everything that changes a
result, so a study run again under other limits or other code makes new runs.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from puzzlebench.harness import scheduler as schedules
from puzzlebench.harness.campaign.design.claim_revisions import state_claims
from puzzlebench.harness.campaign.design.study import RunSpec, Study
from puzzlebench.harness.campaign.preparation import prepare
from puzzlebench.harness.campaign.progress import StudyProgress
from puzzlebench.harness.campaign.storage.store import Store
from puzzlebench.harness.execute import make_request
from puzzlebench.harness.judging.rules import judge_version
from puzzlebench.harness.judging.run_record import make_record
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.harness.run.child_report import ChildReport
from puzzlebench.harness.run.forking.early_server import start_for_solvers
from puzzlebench.harness.run.isolation import run_request
from puzzlebench.harness.run.measure import STARTUP_LIMIT, Measurement
from puzzlebench.harness.run_request import RunRequest
from puzzlebench.harness.scheduler import Backend, Job, Put, WorkerResult
from puzzlebench.problems import get_problem
from puzzlebench.problems.base import PuzzlebenchError
from puzzlebench.records.record import RunRecord
from puzzlebench.solvers.contract import Budget


@dataclass(frozen=True, slots=True)
class StudyResult:
    """What a call to ``run_study`` did: the runs it made and the ones it found stored."""

    new: list[RunRecord]
    skipped: int
    db: Path


def run_study(
    study: Study,
    db: str | Path,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    quiet: bool = False,
    on_record: Callable[[RunRecord], None] | None = None,
) -> StudyResult:
    """Run every not-yet-stored run of a study; each finished run is committed at once. The
    study's description, claims and tuned configurations (how ``tune`` found them) are kept
    in the store for its report; claims that differ from those stored before are kept as a new
    revision (``claim_revisions``), never replacing them."""
    claims = [c.to_dict() for c in study.claims]
    definition: dict[str, object] = {"description": study.description, "claims": claims}
    tuned = [{"solver": e["name"], "params": e["params"], **e["tuned"]}
             for e in study.solvers if e.get("tuned")]
    if tuned:  # only then: a store's definition of an untuned study stays as it was
        definition["tuned"] = tuned
    with Store(db) as store:
        store.save_study(study.name, definition)
        with store.reading():
            revision = state_claims(store.conn, study.name, claims)
    if revision is not None and revision.runs_before and not quiet:
        print(f"the claims differ from those stored with {study.name!r}: kept as revision "
              f"{revision.revision}, {revision.when} (the report shows it beside the original)",
              file=sys.stderr)
    return run_specs(study.name, study.runs(), db, workers=workers, scheduler=scheduler,
                     quiet=quiet, on_record=on_record)


def run_specs(
    name: str,
    specs: list[RunSpec],
    db: str | Path,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    quiet: bool = False,
    on_record: Callable[[RunRecord], None] | None = None,
) -> StudyResult:
    """Run every not-yet-stored run of a list made outside a study file (``certify``'s
    ranking grid), stored under the study ``name`` as a study's runs are.

    The runs go through the one scheduler (``harness.scheduler``); the store is opened, read
    and written in its judging thread, never on the loop that reads the runs' pipes."""
    db = Path(db)
    new: list[RunRecord] = []
    todo: list[RunSpec] = []
    if db.exists():
        with Store(db) as store:
            kept = store.keys(name)
        prepare([s for s in specs if s.key not in kept], quiet=quiet)
    else:
        prepare(specs, quiet=quiet)  # tables, kernels: built before the first run, or refused

    @contextlib.contextmanager
    def storing() -> Iterator[Callable[[Job, RunRecord], None]]:
        with Store(db) as store:
            false = store.drop_false_crashes(name, FALSE_CRASH)
            if false and not quiet:
                print(f"re-running {false} runs that a lost Dask cluster had stored as "
                      "crashes (an earlier puzzlebench's record of a machine fault)",
                      file=sys.stderr)
            stored = store.keys(name)
            todo.extend(largest_first(s for s in specs if s.key not in stored))
            progress = StudyProgress(len(todo), len(specs) - len(todo), quiet=quiet)

            def finish(job: Job, record: RunRecord) -> None:
                store.add(job.tag.key, record)
                new.append(record)
                progress.update(record)
                if on_record is not None:
                    on_record(record)

            try:
                yield finish
            finally:
                progress.close()

    if scheduler:
        schedules.schedule(lambda: [Job(None, _judge_remote, spec) for spec in todo],
                           sink=storing, backend=_dask_backend(scheduler))
    else:
        count = workers or os.cpu_count() or 1
        _head_start(specs)
        schedules.schedule(lambda: [_job(spec, count) for spec in todo], workers=count,
                           measurement=measurement_of(specs), sink=storing)
    return StudyResult(new, len(specs) - len(todo), db)


def _head_start(specs: Sequence[RunSpec]) -> None:
    """Before the store is read and the tasks are made: start the fork servers the runs will
    ask for, and fill this process's judge caches (each problem's judge fingerprint, read from
    the installed files: ~0.3 s) while they start, instead of in the judging thread while the
    first runs are reading their pipes. A guess that misses costs an idle server; nothing about
    a run changes."""
    if not specs:
        return
    start_for_solvers(spec.name or spec.solver for spec in specs)
    for problem in {spec.problem for spec in specs}:
        with contextlib.suppress(PuzzlebenchError):
            judge_version(get_problem(problem))


def largest_first(specs: Iterable[RunSpec]) -> list[RunSpec]:
    """The runs in the order they start: largest instance first, the study's order among
    equals (a stable sort). Size stands in for a run's length, so a long run does not start
    last while the other workers run out of work (the longest-processing-time-first rule:
    README's first command, whose A* with H2 at n = 10 spends its whole 10 s budget, ended
    ~10 s after every other run when it started last). The order changes no record: every run
    is isolated, and its key and seed are its own."""
    return sorted(specs, key=lambda spec: -spec.size)


def _request(spec: RunSpec) -> RunRequest:
    return make_request(resolve_solver(spec.solver), spec.instance(), spec.kind, unique=spec.unique,
                     params=spec.params,
                     seed=spec.seed, budget=Budget(**spec.budget), hard_limit=spec.hard_limit,
                     memory_limit_mb=spec.memory_limit_mb, min_time=spec.min_time)


def _record(spec: RunSpec, task: RunRequest, report: ChildReport, workers: int) -> RunRecord:
    record = make_record(resolve_solver(spec.solver), task, report, study=spec.study,
                      repeat=spec.repeat, master_seed=spec.master_seed)
    return record.with_(machine={**record.provenance.machine, "workers": workers})


def _job(spec: RunSpec, workers: int) -> Job:
    """A study's run for the scheduler: its run request, judged into its record."""
    task = _request(spec)
    return Job(task, lambda report: _record(spec, task, report, workers), spec)


def _judge_remote(report: ChildReport) -> RunRecord:
    raise AssertionError("a Dask run is judged where it ran")  # pragma: no cover


def measurement_of(todo: list[RunSpec]) -> Measurement:
    """How a study's runs are measured and confined (its runs share the study's settings)."""
    first = todo[0] if todo else None
    return Measurement(pin=any(spec.pin for spec in todo),
                       sandbox=first.sandbox if first else None,
                       startup_limit=(first.startup_limit if first and first.startup_limit
                                      else STARTUP_LIMIT))


def run_on_dask_worker(spec_json: str, workers: int) -> dict[str, Any]:
    """A Dask task: one run in a spawned child, judged here, returned as a record dict. Runs
    are not pinned on Dask (a worker knows nothing of its siblings' cores): pin the workers
    themselves (``taskset``) where that matters."""
    spec = RunSpec.from_json(spec_json)
    task = _request(spec)
    report = run_request(task, spawn=True, measurement=replace(measurement_of([spec]), pin=False))
    record = _record(spec, task, report, workers)
    return {**record.to_dict(), "trace": record.figures.trace}  # the trace travels beside the record


class InfrastructureError(PuzzlebenchError):
    """The machinery failed (a Dask scheduler or worker lost): the runs it took with it are
    not stored — no solver is blamed — and the same command resumes them. Exit status 3
    from the command line (2 is bad input)."""

    exit_code = 3


#: The error text of a run that today's code, before infrastructure faults were kept apart,
#: stored as a crash when its Dask task failed (a lost scheduler or worker): never the
#: solver's outcome. ``run_specs`` deletes such records and runs them again.
FALSE_CRASH = "Dask task failed: "


def _dask_backend(address: str) -> Backend:
    """The scheduler's backend for a Dask cluster: each run judged on the worker that made
    it and released as soon as it is stored, so a lost worker costs only its runs in flight.

    A task that raises did not fail because of its solver — a run's crash, timeout or wrong
    answer comes back as a record, judged on the worker — but because the cluster did (a lost
    scheduler or worker, a connection closed). Such runs are not stored: the backend finishes
    what it can and then raises :class:`InfrastructureError`, which says how many runs are
    stored and that the same command resumes."""

    def backend(jobs: Sequence[Job], put: Put, check: Callable[[], None]) -> None:
        # imported on use: Dask loads only for a study sent to a cluster
        from distributed import Client, as_completed

        if not jobs:
            return
        # the client logs a lost scheduler as a traceback; the user gets one line instead
        logging.getLogger("distributed.client").setLevel(logging.CRITICAL)
        lost: list[str] = []
        with Client(address, timeout=30) as client:
            workers = max(1, len(client.scheduler_info().get("workers", {})))
            futures = {
                client.submit(run_on_dask_worker, job.tag.to_json(), workers, pure=False,
                              key=f"run-{i}-{job.tag.seed}"): job
                for i, job in enumerate(jobs)
            }
            for fut in as_completed(futures):
                check()
                job = futures.pop(fut)
                try:
                    result = fut.result()
                except Exception as exc:  # the cluster failed, not the solver
                    lost.append(f"{type(exc).__name__}: {str(exc)[:200]}")
                else:
                    put(job, WorkerResult(RunRecord.from_dict(result)))
                finally:
                    fut.release()  # stored or lost: Dask need not keep or recompute it
        if lost:
            raise InfrastructureError(
                f"the Dask cluster at {address} failed ({lost[0]}); {len(lost)} of "
                f"{len(jobs)} runs sent there did not finish and were not stored — run the "
                "same command to resume them")

    return backend
