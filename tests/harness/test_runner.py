"""The study runner's reliability: hard limits, crashes, resume after SIGKILL, Dask parity."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from puzzlebench.harness.campaign.design.study_file import load_study, study_from_dict
from puzzlebench.harness.campaign.runner import run_study
from puzzlebench.harness.campaign.storage.store import Store
from puzzlebench.records.record import Outcome

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "tests" / "harness" / "misbehaving_solvers.py"


def test_misbehaving_solvers_get_the_right_outcomes(tmp_path: Path) -> None:
    names = {"EndlessLoop": Outcome.TIMEOUT, "HugeAllocation": Outcome.MEMOUT,
             "HardCrash": Outcome.CRASH, "Abort": Outcome.CRASH,
             "InvalidAnswers": Outcome.WRONG}
    study = study_from_dict({
        "study": {"name": "misbehave", "time_limit": 0.5, "hard_limit": 2.0,
                  "memory_limit_mb": 512},
        "problems": [{"problem": "nqueens", "sizes": [5, 6]}],
        "solvers": [{"name": f"{PLUGIN}:{n}"} for n in names] + [{"name": "mod12"}],
    })
    result = run_study(study, tmp_path / "s.sqlite", workers=2, quiet=True)
    assert len(result.new) == len(study.runs()) == 12
    by_solver: dict[str, set[Outcome]] = {}
    for rec in result.new:
        by_solver.setdefault(rec.key.solver, set()).add(rec.verdict.outcome)
    expected = {cls: names[cls] for cls in names}
    for cls, outcome in expected.items():
        solver = {"EndlessLoop": "endless-loop", "HugeAllocation": "huge-allocation",
                  "HardCrash": "hard-crash", "Abort": "abort",
                  "InvalidAnswers": "invalid-answers"}[cls]
        assert by_solver[solver] == {outcome}, (solver, by_solver[solver])
    assert by_solver["mod12"] == {Outcome.SOLVED}
    crash = next(r for r in result.new if r.key.solver == "abort")
    assert "SIGABRT" in crash.verdict.error
    assert "status 7" in next(r for r in result.new if r.key.solver == "hard-crash").verdict.error
    wrong = next(r for r in result.new if r.key.solver == "invalid-answers")
    assert "diagonal" in wrong.verdict.reason


STUDY = textwrap.dedent("""
    [study]
    name = "resume"
    master_seed = 11
    repeats = 3
    time_limit = 5.0

    [[problems]]
    problem = "nqueens"
    sizes = "4..9"

    [[problems]]
    problem = "torus-queens"
    sizes = [5, 7]

    [[solvers]]
    name = "mod12"

    [[solvers]]
    name = "greedy-h3"

    [[solvers]]
    name = "{plugin}:SlowValid"
""")

SLOW_PLUGIN = textwrap.dedent('''
    import time
    from puzzlebench.contract import Claim, Proposal, Solver

    class SlowValid(Solver):
        """Takes a little while, then answers with the torus construction."""
        name = "slow-valid"
        problems = frozenset({"nqueens", "torus-queens"})

        def solve(self, instance, budget, rng):
            time.sleep(0.05)
            n = instance.n
            if n in (5, 7):
                return Proposal(answer=[(2 * r) % n for r in range(n)], claim=Claim.SOLVED)
            return Proposal(claim=Claim.UNKNOWN)
''')


def differences(a: dict[str, dict], b: dict[str, dict]) -> list[tuple[str, str, object, object]]:
    """(run, field, left, right) for every field that differs: a readable failure message."""
    return [(k, f, a[k].get(f), b[k].get(f)) for k in sorted(set(a) & set(b))
            for f in sorted(set(a[k]) | set(b[k])) if a[k].get(f) != b[k].get(f)]


def stable_rows(db: Path) -> dict[str, dict]:
    with Store(db) as store:
        out = {}
        for rec in store.records():
            d = rec.stable()
            d.pop("error", None)
            k = rec.key
            out[json.dumps([k.study, k.instance_id, k.solver, k.seed, k.repeat])] = d
        return out


def count_rows(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def write_study(tmp_path: Path) -> Path:
    plugin = tmp_path / "slow_plugin.py"
    plugin.write_text(SLOW_PLUGIN)
    study = tmp_path / "resume.toml"
    study.write_text(STUDY.format(plugin=plugin))
    return study


@pytest.mark.slow  # slow tier: see docs/development.md
def test_sigkill_and_resume_gives_the_uninterrupted_set(tmp_path: Path) -> None:
    study = write_study(tmp_path)
    total = len(load_study(study).runs())
    reference = tmp_path / "reference.sqlite"
    run_study(load_study(study), reference, workers=2, quiet=True)
    assert count_rows(reference) == total

    db = tmp_path / "killed.sqlite"
    cmd = [sys.executable, "-m", "puzzlebench", "run", str(study), "--db", str(db),
           "--workers", "2", "--quiet"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    kills = 0
    for threshold in (5, 20, 40):
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.time() + 60
        while count_rows(db) < threshold and proc.poll() is None and time.time() < deadline:
            time.sleep(0.01)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)  # the runner and its workers, at once
            kills += 1
        proc.wait()
    assert kills >= 2, "the study finished before it could be interrupted"
    assert count_rows(db) < total
    final = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert final.returncode == 0, final.stderr
    assert count_rows(db) == total
    assert stable_rows(db) == stable_rows(reference), differences(stable_rows(db),
                                                                  stable_rows(reference))


@pytest.mark.slow  # a Dask cluster; test_dask_faults keeps Dask in the default tier
def test_local_and_dask_give_identical_records(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    study = study_from_dict({
        "study": {"name": "parity", "master_seed": 5, "time_limit": 5.0},
        "problems": [{"problem": "nqueens", "sizes": [6, 8]},
                     {"problem": "sliding", "sizes": [8], "starts": ["125408367"]}],
        "solvers": [{"name": "greedy-h1"}, {"name": "astar-linear-conflict"},
                    {"name": "mod12"}, {"name": "min-conflicts", "problems": ["nqueens"]}],
    })
    local = tmp_path / "local.sqlite"
    run_study(study, local, workers=2, quiet=True)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        dask_db = tmp_path / "dask.sqlite"
        result = run_study(study, dask_db, scheduler=cluster.scheduler_address, quiet=True)
    assert len(result.new) == len(study.runs()) == 7
    assert all(r.verdict.outcome is Outcome.SOLVED for r in result.new)
    assert stable_rows(local) == stable_rows(dask_db), differences(stable_rows(local),
                                                                   stable_rows(dask_db))
    # the traces travel back from the Dask workers too: same points apart from times
    from puzzlebench.harness.campaign.storage.store import load_traces
    traces = [load_traces(db)[["key", "point", "evaluations", "best"]].sort_values(["key", "point"])
              .reset_index(drop=True) for db in (local, dask_db)]
    assert len(traces[0]) > 0 and traces[0].equals(traces[1])


@pytest.mark.slow  # slow tier: see docs/development.md
def test_threads_share_one_fork_server() -> None:
    """A Dask worker runs tasks on several threads of one process, all through its fork
    server: every run must get its own reply (a thread that read another's reply off the
    socket used to leave that one waiting for ever)."""
    import threading

    from puzzlebench.harness.execute import run_solve
    from puzzlebench.problems import get_problem

    outcomes: list[Outcome] = []

    def runs() -> None:
        for n in range(4, 12):
            outcomes.append(run_solve("mod12", get_problem("nqueens").make(n)).verdict.outcome)

    threads = [threading.Thread(target=runs, daemon=True) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a run waited for ever for its fork"
    assert outcomes == [Outcome.SOLVED] * 24


def test_runs_start_largest_instance_first(tmp_path: Path) -> None:
    """The runner starts the largest instances first (a long run must not start last while
    the other workers idle); among equal sizes the study's order is kept."""
    study = study_from_dict({
        "study": {"name": "order", "time_limit": 5.0},
        "problems": [{"problem": "nqueens", "sizes": [4, 6, 5]}],
        "solvers": [{"name": "mod12"}, {"name": "backtracking"}],
    })
    result = run_study(study, tmp_path / "o.sqlite", workers=1, quiet=True)
    assert [(r.key.size, r.key.solver) for r in result.new] == [
        (6, "mod12"), (6, "backtracking"), (5, "mod12"), (5, "backtracking"),
        (4, "mod12"), (4, "backtracking")]


def test_a_run_inherits_the_fork_servers_objects_frozen(tmp_path: Path) -> None:
    """The fork server moves its objects to the collector's permanent generation before each
    fork, so that a run's first full collection does not walk them (90 ms a run otherwise)."""
    study = study_from_dict({
        "study": {"name": "frozen", "time_limit": 5.0},
        "problems": [{"problem": "nqueens", "sizes": [5]}],
        "solvers": [{"name": f"{PLUGIN}:FrozenHeapWitness"}],
    })
    (record,) = run_study(study, tmp_path / "f.sqlite", workers=1, quiet=True).new
    assert record.figures.counters["frozen"] > 10_000, record.figures.counters


def test_a_study_starts_its_fork_server_before_it_reads_its_store(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The runner's head start: the fork server its runs will use is up before the store is
    opened (its start-up overlaps the store's reading and the tasks' making)."""
    from puzzlebench.harness.campaign import runner
    from puzzlebench.harness.run.forking import forkserver

    servers: dict[bool, forkserver.ForkServer] = {}
    monkeypatch.setattr(forkserver, "SERVERS", servers)
    seen: list[list[bool]] = []

    class Watched(Store):
        def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
            seen.append(sorted(servers))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(runner, "Store", Watched)
    study = study_from_dict({"study": {"name": "head", "time_limit": 5.0},
                             "problems": [{"problem": "nqueens", "sizes": [5]}],
                             "solvers": [{"name": "mod12"}]})
    try:
        run_study(study, tmp_path / "h.sqlite", workers=1, quiet=True)
    finally:
        for server in list(servers.values()):
            server.close()
    assert seen[-1] == [False], seen  # the runs' store (the first: the study's description)
