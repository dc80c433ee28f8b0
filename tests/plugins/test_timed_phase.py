"""The timed phase starts at a moment the solver cannot move, on an instance it could not know
earlier (issue 32 §1).

Each plugin (``tests/plugins/timed_phase.py``) tries to solve before its timed phase — by
replacing the run's message-sending function and holding back ``ready``, by reading the
harness's frames at import, by working in an untimed warm-up — and then answers at once. None
is recorded as a fast solve: the run is told its instance only with ``go``, after ``ready``, and
the warm-up never runs on the run's own question. Start-up and warm-up are recorded beside the
solve time and have a limit of their own, past which the run is killed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.harness.execute import run_solve
from puzzlebench.harness.run.measure import STARTUP_LIMIT, Measurement
from puzzlebench.problems import get_problem
from puzzlebench.records.record import Outcome

PLUGINS = str(Path(__file__).with_name("timed_phase.py"))
WORK_S = 0.3  # the CPU work each plugin's "solving" costs


def ref(name: str) -> str:
    return f"{PLUGINS}:{name}"


@pytest.mark.parametrize("plugin", ["HeldReady", "FrameReader", "WarmupWorker"])
@pytest.mark.parametrize("n", [8, 10])  # 8: the fixed warm-up size, never the warm-up then
def test_work_before_the_timed_phase_finds_no_instance(plugin: str, n: int) -> None:
    rec = run_solve(ref(plugin), get_problem("nqueens").make(n))
    assert rec.verdict.outcome is Outcome.SOLVED
    assert rec.figures.counters["precomputed"] == 0
    assert rec.figures.time_s >= 0.8 * WORK_S, rec  # the work was done, and timed, after go


def test_warm_up_and_start_up_are_recorded_beside_the_solve_time(monkeypatch) -> None:
    monkeypatch.setenv("PUZZLEBENCH_HOSTILE_HOLD", "0.6")
    rec = run_solve(ref("WarmupWorker"), get_problem("nqueens").make(10))
    assert rec.figures.warmup_s >= 0.6 and rec.figures.startup_s >= rec.figures.warmup_s
    assert rec.figures.time_s >= 0.8 * WORK_S


def test_the_start_up_limit_is_small_by_default() -> None:
    assert STARTUP_LIMIT <= 30 and Measurement().startup_limit == STARTUP_LIMIT
    # the project's own solvers may build pattern databases on a cold cache while warming
    assert Measurement().startup_limit_for(project=True) >= 120
    assert Measurement(startup_limit=1).startup_limit_for(project=False) == 1


@pytest.mark.parametrize("plugin", ["HeldReady", "WarmupWorker"])
def test_a_run_past_its_start_up_limit_is_killed(plugin: str, monkeypatch) -> None:
    monkeypatch.setenv("PUZZLEBENCH_HOSTILE_HOLD", "5")
    rec = run_solve(ref(plugin), get_problem("nqueens").make(10),
                    measurement=Measurement(startup_limit=1.0))
    # a limit, not a crash
    assert rec.verdict.outcome is Outcome.TIMEOUT and "start-up" in rec.verdict.error, rec.verdict.error
    assert 1.0 <= rec.figures.startup_s < 4.0 and rec.figures.time_s == 0.0


def test_the_start_up_limit_is_an_option(monkeypatch, capsys) -> None:
    monkeypatch.setenv("PUZZLEBENCH_HOSTILE_HOLD", "5")
    code = main(["solve", "nqueens", "10", "--solver", ref("HeldReady"), "--startup-limit", "1",
                 "--json"])
    out = capsys.readouterr().out
    # a limit ended it: a timeout with its reason (not the solver's crash), and its notes say
    # why its sealing is not known
    record = json.loads(out)
    assert code == 1 and record["outcome"] == "timeout" and "start-up" in record["reason"]
    assert "killed before it said whether it was sealed" in record["notes"]
    assert main(["solve", "nqueens", "10", "--solver", "mod12", "--startup-limit", "0"]) == 2
