"""A fault of the machine is never a solver's verdict: a Dask scheduler lost half-way stores
nothing against the solvers, says so in one line, and the same study resumes to the end; a
store holding the crashes an earlier puzzlebench recorded for such a loss is repaired by
resuming. Real parts: a ``dask scheduler`` and a ``dask worker`` process on loopback."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from puzzlebench.harness.campaign.design.study_file import study_from_dict
from puzzlebench.harness.campaign.runner import FALSE_CRASH, InfrastructureError, run_study
from puzzlebench.harness.campaign.storage.store import Store, load_records
from puzzlebench.records.record import Outcome, RunRecord

NAPPING = Path(__file__).resolve().parents[1] / "plugins" / "napping.py"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def cluster(workers: int = 1) -> Iterator[tuple[str, subprocess.Popen[bytes],
                                                 list[subprocess.Popen[bytes]]]]:
    """A `dask scheduler` and `workers` `dask worker` processes on loopback, each in a process
    group of its own (for the tests to kill), all killed on leaving."""
    pytest.importorskip("distributed")
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", str(port), "--dashboard-address", ":0"], env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    started = [subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nworkers", "1",
         "--nthreads", "1", "--no-dashboard"], env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        for _ in range(workers)]
    try:
        deadline = time.monotonic() + 60
        while True:  # the scheduler answers once it listens
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the scheduler did not start"
                time.sleep(0.2)
        yield address, scheduler, started
    finally:
        for proc in (*started, scheduler):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)


def study(name: str, naps: int = 12) -> object:
    return study_from_dict({
        "study": {"name": name, "time_limit": 10.0},
        "problems": [{"problem": "nqueens", "sizes": list(range(4, 4 + naps))}],
        "solvers": [{"name": f"{NAPPING}:Napping", "params": {"nap": 0.4}}],
    })


def test_a_lost_scheduler_blames_no_solver_and_the_study_resumes(tmp_path: Path) -> None:
    db = tmp_path / "lost.sqlite"
    the_study = study("lost")
    stored: list[str] = []
    with cluster() as (address, scheduler, _):

        def kill_the_scheduler_after_the_first_run(record: object) -> None:
            stored.append("one")
            if len(stored) == 2:
                os.killpg(scheduler.pid, signal.SIGKILL)

        with pytest.raises(InfrastructureError, match="same command to resume"):
            run_study(the_study, db, scheduler=address, quiet=True,  # type: ignore[arg-type]
                      on_record=kill_the_scheduler_after_the_first_run)
    records = load_records(db)
    assert 2 <= len(records) < 12  # some runs finished, the rest were lost with the scheduler
    assert all(r.verdict.outcome is Outcome.SOLVED for r in records), [r.verdict.error for r in records]
    result = run_study(the_study, db, workers=2, quiet=True)  # type: ignore[arg-type]
    assert len(result.new) == 12 - len(records) and result.skipped == len(records)
    assert [r.verdict.outcome for r in load_records(db)] == [Outcome.SOLVED] * 12


def test_resume_reruns_the_crashes_a_lost_cluster_was_charged_with(tmp_path: Path) -> None:
    the_study = study("repair", naps=3)
    db = tmp_path / "false.sqlite"
    run_study(the_study, db, workers=2, quiet=True)  # type: ignore[arg-type]
    with Store(db) as store:  # as the code before this fix stored a lost scheduler's runs
        key, record = store.keyed_records("repair")[0]
        store.conn.execute("DELETE FROM runs WHERE key = ?", (key,))
        store.add(key, record.with_(outcome=Outcome.CRASH, valid=None, answer=None,
                                    error=f"{FALSE_CRASH}FutureCancelledError: "
                                          "scheduler-connection-lost"))
    assert sum(r.verdict.outcome is Outcome.CRASH for r in load_records(db)) == 1
    result = run_study(the_study, db, workers=2, quiet=True)  # type: ignore[arg-type]
    assert len(result.new) == 1
    assert [r.verdict.outcome for r in load_records(db)] == [Outcome.SOLVED] * 3


@pytest.mark.slow  # slow tier: see docs/development.md
def test_a_lost_worker_costs_only_its_runs_in_flight(tmp_path: Path) -> None:
    """Two `dask worker` processes; one is SIGKILLed after the second run is stored. The other
    finishes the study: every run stored once, solved, none charged to the solver."""
    db = tmp_path / "worker.sqlite"
    the_study = study("worker-lost")
    stored: list[object] = []
    with cluster(workers=2) as (address, _, workers):

        def kill_a_worker_after_the_second_run(record: object) -> None:
            stored.append(record)
            if len(stored) == 2:
                os.killpg(workers[0].pid, signal.SIGKILL)

        result = run_study(the_study, db, scheduler=address, quiet=True,  # type: ignore[arg-type]
                           on_record=kill_a_worker_after_the_second_run)
    assert workers[0].returncode is not None and workers[0].returncode < 0  # it was killed
    assert len(result.new) == 12 and len(stored) == 12  # each run stored once
    assert [r.verdict.outcome for r in load_records(db)] == [Outcome.SOLVED] * 12


@pytest.mark.slow  # slow tier (docs/development.md): a cluster's start-up and 12 napping runs
def test_a_split_count_on_a_lost_cluster_sums_no_lost_part_and_resumes(tmp_path: Path) -> None:
    """Issue 40 §2: sub-problems of a split count lost with the scheduler are not stored (never
    summed as zero); the same count resumes locally and runs only those."""
    from puzzlebench.harness.campaign.split_count import count_split

    splits = Path(__file__).resolve().parents[1] / "plugins" / "split_counters.py"
    solver = f"{splits}:NappingConstellations"
    db = tmp_path / "split.sqlite"
    seen: list[str] = []
    with cluster() as (address, scheduler, _):

        def kill_the_scheduler_after_two_parts(record: RunRecord) -> None:
            seen.append(record.key.instance_id)
            if len(seen) == 2:
                os.killpg(scheduler.pid, signal.SIGKILL)

        with pytest.raises(InfrastructureError, match="same command to resume"):
            count_split(solver, 10, "constellations:12", db, params={"nap": 0.4},
                        scheduler=address, quiet=True, on_record=kill_the_scheduler_after_two_parts)
    before = {r.key.instance_id for r in load_records(db)}
    assert 2 <= len(before) < 12
    ran: list[str] = []
    result = count_split(solver, 10, "constellations:12", db, params={"nap": 0.4}, workers=2,
                         quiet=True, on_record=lambda r: ran.append(r.key.instance_id))
    assert (result.total, result.status) == (724, "verified")
    assert not set(ran) & before and len(ran) == 12 - len(before)
