"""The study runner: every run in a supervised worker, results into the store as they finish.

Local execution uses a pebble ``ProcessPool``: its workers are reused between runs (low
overhead per run), and a run that overruns its hard limit has its worker killed and replaced
— which concurrent.futures and multiprocessing pools cannot do. With a Dask scheduler address
the same runs go to the cluster, each as a task that supervises a child process with the same
limits. Runs whose keys are stored already are skipped, so an interrupted study resumes.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from pathlib import Path

from pebble import ProcessExpired, ProcessPool

from puzzlebench.harness.outcome import Outcome, RunRecord
from puzzlebench.harness.progress import StudyProgress
from puzzlebench.harness.store import Store
from puzzlebench.harness.study import RunSpec, Study
from puzzlebench.harness.supervisor import (
    describe_exit,
    execute_spec,
    failure_record,
    run_in_child,
    worker_init,
)


@dataclass(frozen=True, slots=True)
class StudyResult:
    """What a call to ``run_study`` did: the runs it made and the ones it found stored."""

    new: list[RunRecord]
    skipped: int
    db: Path

    def all_records(self) -> list[RunRecord]:
        with Store(self.db) as store:
            return list(store.records())


def run_study(
    study: Study,
    db: str | Path,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    quiet: bool = False,
    on_record: Callable[[RunRecord], None] | None = None,
) -> StudyResult:
    """Run every not-yet-stored run of a study; each finished run is committed at once."""
    db = Path(db)
    specs = study.runs()
    with Store(db) as store:
        stored = store.keys(study.name)
        todo = [s for s in specs if s.key not in stored]
        progress = StudyProgress(len(todo), len(specs) - len(todo), quiet=quiet)
        new: list[RunRecord] = []

        def finish(spec: RunSpec, record: RunRecord) -> None:
            store.add(spec.key, record)
            new.append(record)
            progress.update(record)
            if on_record is not None:
                on_record(record)

        try:
            if scheduler:
                _run_dask(todo, scheduler, finish)
            else:
                _run_local(todo, workers or os.cpu_count() or 1, study.memory_limit_mb, finish)
        finally:
            progress.close()
    return StudyResult(new, len(specs) - len(todo), db)


def _run_local(todo: list[RunSpec], workers: int, memory_limit_mb: int | None,
               finish: Callable[[RunSpec, RunRecord], None]) -> None:
    if not todo:
        return
    with ProcessPool(max_workers=workers, initializer=worker_init,
                     initargs=(memory_limit_mb,)) as pool:
        pending: dict[Future[RunRecord], tuple[RunSpec, float]] = {}
        queue = list(reversed(todo))
        try:
            while queue or pending:
                # keep a bounded number of runs in flight so start times are meaningful
                while queue and len(pending) < 4 * workers:
                    spec = queue.pop()
                    fut = pool.schedule(execute_spec, (spec, workers), timeout=spec.hard_limit)
                    pending[fut] = (spec, time.perf_counter())
                done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
                for finished in done:
                    spec, t0 = pending.pop(finished)
                    finish(spec, _local_result(finished, spec, time.perf_counter() - t0, workers))
        except BaseException:
            pool.stop()
            raise


def _local_result(fut: Future[RunRecord], spec: RunSpec, wall: float, workers: int) -> RunRecord:
    try:
        return fut.result()
    except FutureTimeout:
        return failure_record(spec, Outcome.TIMEOUT, f"killed after {spec.hard_limit:.1f} s",
                              wall, workers)
    except ProcessExpired as exc:
        return failure_record(spec, Outcome.CRASH, describe_exit(exc.exitcode), wall, workers)
    except MemoryError:
        return failure_record(spec, Outcome.MEMOUT, "MemoryError", wall, workers)
    except Exception as exc:  # e.g. an unpicklable result from a plugin
        return failure_record(spec, Outcome.CRASH, f"{type(exc).__name__}: {exc}", wall, workers)


def _run_dask(todo: list[RunSpec], scheduler: str,
              finish: Callable[[RunSpec, RunRecord], None]) -> None:
    from distributed import Client, as_completed

    if not todo:
        return
    with Client(scheduler, timeout=30) as client:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        futures = {
            client.submit(run_in_child, spec.to_json(), workers, pure=False, key=f"run-{i}-{spec.seed}"): spec
            for i, spec in enumerate(todo)
        }
        for fut in as_completed(futures):
            spec = futures[fut]
            try:
                record = RunRecord.from_dict(fut.result())
            except Exception as exc:  # a lost worker or a failed task
                record = failure_record(spec, Outcome.CRASH,
                                        f"Dask task failed: {type(exc).__name__}: {exc}", 0.0,
                                        workers)
            finish(spec, record)
