"""The one scheduler (issue 31 §3): every command's runs go through ``scheduler.schedule``;
judging and store writes happen in its judging thread, never on the loop that reads the runs'
pipes; a failing judge stops the loop; Ctrl-C stores the runs that had finished."""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from puzzlebench.cli import main
from puzzlebench.contract import Budget
from puzzlebench.harness import scheduler
from puzzlebench.harness.campaign import runner
from puzzlebench.harness.campaign.design.study_file import study_from_dict
from puzzlebench.harness.campaign.storage.store import Store, load_records
from puzzlebench.harness.execute import make_request
from puzzlebench.harness.judging.run_record import make_record
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.harness.run.run_process import RunProcess
from puzzlebench.harness.scheduler import Job
from puzzlebench.problems import get_problem
from puzzlebench.records.record import Outcome

PLUGIN = Path(__file__).resolve().parent / "misbehaving_solvers.py"
#: Seconds the first judgement takes in the test below: far longer than a trivial run.
SLOW_S = 4.0


def trivial_study(name: str, runs: int) -> Any:
    return study_from_dict({
        "study": {"name": name, "repeats": runs, "time_limit": 5.0},
        "problems": [{"problem": "nqueens", "sizes": [5]}],
        "solvers": [{"name": "mod12"}],
    })


def test_a_slow_judgement_delays_no_other_run(tmp_path: Path, monkeypatch) -> None:
    """With one worker and the first run's judgement taking seconds, the loop goes on:
    the other runs are started, answered (``ready`` → ``go``), read and ended meanwhile."""
    ended: list[float] = []
    finish = RunProcess.finish

    def timed_finish(self: RunProcess) -> Any:
        ended.append(time.monotonic())
        return finish(self)

    judgements: list[tuple[float, float]] = []
    judged_in: set[str] = set()

    def slow_judge(*args: Any, **kw: Any) -> Any:
        start = time.monotonic()
        judged_in.add(threading.current_thread().name)
        if not judgements:
            time.sleep(SLOW_S)
        record = make_record(*args, **kw)
        judgements.append((start, time.monotonic()))
        return record

    stored_in: set[str] = set()
    add = Store.add

    def noted_add(self: Store, key: str, record: Any) -> bool:
        stored_in.add(threading.current_thread().name)
        return add(self, key, record)

    monkeypatch.setattr(RunProcess, "finish", timed_finish)
    monkeypatch.setattr(runner, "make_record", slow_judge)
    monkeypatch.setattr(Store, "add", noted_add)
    result = runner.run_study(trivial_study("slow-judge", 4), tmp_path / "s.sqlite", workers=1,
                              quiet=True)
    assert [r.verdict.outcome for r in result.new] == [Outcome.SOLVED] * 4
    assert len(ended) == 4
    first_judged = judgements[0][1]
    assert max(ended) < first_judged, (
        f"runs ended {[round(t - ended[0], 2) for t in ended]} s after the first; its "
        f"judgement ended at {first_judged - ended[0]:.2f} s")
    assert threading.main_thread().name not in judged_in | stored_in
    assert judged_in == stored_in == {"puzzlebench-judging"}


def test_a_failing_judge_stops_the_loop() -> None:
    """A judge that raises ends the scheduling at once: the running run is killed (not left
    to its hard limit) and the error reaches the caller."""
    nq = get_problem("nqueens")
    quick = make_request(resolve_solver("mod12"), nq.make(6), "solve")
    endless = make_request(resolve_solver(f"{PLUGIN}:EndlessLoop"), nq.make(6), "solve",
                        budget=Budget(time_limit=60.0))

    def broken(_report: Any) -> Any:
        raise RuntimeError("the judge broke")

    start = time.monotonic()
    with pytest.raises(RuntimeError, match="the judge broke"):
        scheduler.schedule([Job(quick, broken), Job(endless, lambda report: report)], workers=2)
    assert time.monotonic() - start < 30


def test_ctrl_c_stores_the_runs_that_had_finished(tmp_path: Path, monkeypatch) -> None:
    """Ctrl-C while a finished run is still being judged: the running runs are killed, the
    finished one is judged and stored all the same, then the interrupt propagates.

    The signal is sent to the main thread itself (``pthread_kill``: the loop's ``select``
    wakes at once), with Python's own SIGINT handler in place for the test whatever an earlier
    test in this worker left; if no interrupt comes out, the message says what happened."""
    fired: list[str] = []
    main_thread = threading.main_thread().ident
    assert main_thread is not None

    def interrupting_judge(*args: Any, **kw: Any) -> Any:
        if not fired:  # once: a second Ctrl-C after the first has propagated would hit pytest
            fired.append(f"{threading.current_thread().name}, handler "
                         f"{signal.getsignal(signal.SIGINT)!r}")
            signal.pthread_kill(main_thread, signal.SIGINT)  # the loop's thread gets it
            time.sleep(0.5)  # still judging when the loop stops
        return make_record(*args, **kw)

    monkeypatch.setattr(runner, "make_record", interrupting_judge)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    study = study_from_dict({
        "study": {"name": "ctrl-c", "time_limit": 30.0},
        "problems": [{"problem": "nqueens", "sizes": [6]}],
        "solvers": [{"name": "mod12"}, {"name": f"{PLUGIN}:EndlessLoop"}],
    })
    db = tmp_path / "c.sqlite"
    start = time.monotonic()
    interrupted = False
    try:
        runner.run_study(study, db, workers=2, quiet=True)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        signal.signal(signal.SIGINT, previous)
    took = time.monotonic() - start
    stored = [(r.key.solver, r.verdict.outcome.value) for r in load_records(db)]
    assert interrupted, f"no interrupt came out: judged by {fired}, stored {stored}, {took:.1f} s"
    assert took < 25  # the endless run was killed, not waited for
    assert [solver for solver, _ in stored] == ["mod12"]


def test_every_command_goes_through_the_scheduler(tmp_path: Path, monkeypatch,
                                                  capsys) -> None:
    calls: list[int] = []
    schedule = scheduler.schedule

    def spy(*args: Any, **kw: Any) -> Any:
        calls.append(1)
        return schedule(*args, **kw)

    monkeypatch.setattr(scheduler, "schedule", spy)
    study = tmp_path / "s.toml"
    study.write_text('[study]\nname = "through"\ntime_limit = 5.0\n\n[[problems]]\n'
                     'problem = "nqueens"\nsizes = [5]\n\n[[solvers]]\nname = "mod12"\n')
    commands = {
        "solve": ["solve", "nqueens", "6", "--solver", "mod12"],
        "count": ["count", "nqueens", "6"],
        "agree": ["agree", "nqueens", "--sizes", "4", "--solver", "mod12", "--count-up-to", "0",
                  "--enumerate-up-to", "0", "--time-limit", "30", "--json"],
        "compare": ["compare", "nqueens", "--sizes", "5", "--solvers", "mod12", "--json",
                    "--db", str(tmp_path / "c.sqlite")],
        "run": ["run", str(study), "--db", str(tmp_path / "r.sqlite"), "--quiet"],
    }
    for name, argv in commands.items():
        calls.clear()
        assert main(argv) == 0, (name, capsys.readouterr())
        assert calls, f"{name} did not go through the scheduler"
