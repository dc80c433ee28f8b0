"""The framework drives iterative solvers: every cap, the time limit and parameter caps are
enforced for a solver that checks nothing itself, and the record says what stopped a run."""

from __future__ import annotations

import json
import time
from typing import Any, ClassVar

import numpy as np
import pytest

from puzzlebench.cli import main
from puzzlebench.contract import Budget, Claim, Param
from puzzlebench.harness.execute import run_solve
from puzzlebench.problems import QueensInstance
from puzzlebench.records.record import Outcome
from puzzlebench.records.trace import Trace
from puzzlebench.solvers.iterative import Caps, DeclinedError, IterativeSolver, Run, kernel_caps
from puzzlebench.solvers.registry import spec_of


class _Count:
    def __init__(self) -> None:
        self.steps = 0


class Plodder(IterativeSolver):
    """Never checks a budget: each step spends 3 evaluations, 2 nodes and one iteration;
    solved after ``solve_at`` steps (0: never); declines n = 13; sleeps ``pause`` per step."""

    name: ClassVar[str] = "test-plodder"
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens"})
    honours: ClassVar[frozenset[str]] = frozenset(
        {"time_limit", "max_iterations", "max_evaluations", "max_nodes"})
    params: ClassVar[dict[str, Any]] = {"solve_at": 0, "max_steps": Param(10**9, 0),
                                        "patience": 1000.0, "pause": 0.0, "give_up_at": 0}
    param_caps: ClassVar[dict[str, str]] = {"max_steps": "iterations"}
    time_param: ClassVar[str] = "patience"

    def init(self, instance: Any, rng: np.random.Generator, run: Run) -> _Count:
        if instance.n == 13:
            raise DeclinedError("not thirteen")
        return _Count()

    def step(self, state: _Count) -> str:
        state.steps += 1
        time.sleep(float(self.config["pause"]))
        return "exhausted" if state.steps == self.config["give_up_at"] else ""

    def conflicts(self, state: _Count) -> int:
        at = int(self.config["solve_at"])
        return max(0, at - state.steps) if at else 1000 - min(state.steps, 999)

    def best(self, state: _Count) -> list[int]:
        return [1, 3, 0, 2]

    def counters(self, state: _Count) -> dict[str, int]:
        return {"evaluations": 1 + 3 * state.steps, "iterations": state.steps,
                "nodes": 2 * state.steps}


def _solve(budget: Budget, **params: Any) -> Any:
    return Plodder(**params).solve(QueensInstance(8), budget, np.random.default_rng(0))


@pytest.mark.parametrize(("cap", "value", "counter", "expected"), [
    ("max_evaluations", 10, "evaluations", 10),   # 1 + 3·3: the first check at or past 10
    ("max_evaluations", 11, "evaluations", 13),   # passed by less than one step
    ("max_iterations", 7, "iterations", 7),
    ("max_nodes", 9, "nodes", 10),
])
def test_the_driver_enforces_each_cap(cap: str, value: int, counter: str, expected: int) -> None:
    p = _solve(Budget(**{cap: value}))
    assert p.claim is Claim.UNKNOWN and p.answer is None
    assert p.stopped_by == cap
    assert p.counters[counter] == expected


def test_the_driver_enforces_the_time_limit() -> None:
    start = time.perf_counter()
    p = _solve(Budget(time_limit=0.2), pause=0.01)
    spent = time.perf_counter() - start
    assert p.stopped_by == "time_limit"
    assert 0.2 <= spent < 0.2 + 0.5
    assert 5 <= p.counters["iterations"] <= 21


def test_the_first_cap_reached_stops_and_an_answer_comes_first() -> None:
    assert _solve(Budget(max_evaluations=100, max_iterations=5)).stopped_by == "max_iterations"
    solved = _solve(Budget(max_iterations=5), solve_at=5)
    assert solved.claim is Claim.SOLVED and solved.answer == [1, 3, 0, 2]
    assert solved.stopped_by == "answer" and solved.counters["iterations"] == 5


def test_a_parameter_cap_is_named_and_never_lifts_the_budget() -> None:
    by_param = _solve(Budget(max_iterations=50), max_steps=4)
    assert by_param.stopped_by == "param:max_steps" and by_param.counters["iterations"] == 4
    by_budget = _solve(Budget(max_iterations=3), max_steps=4)
    assert by_budget.stopped_by == "max_iterations" and by_budget.counters["iterations"] == 3
    alone = _solve(Budget(), max_steps=6)
    assert alone.stopped_by == "param:max_steps" and alone.counters["iterations"] == 6


def test_a_time_parameter_applies_only_without_a_budget_time_limit() -> None:
    start = time.perf_counter()
    alone = _solve(Budget(), patience=0.05, pause=0.005)
    assert alone.stopped_by == "param:patience"
    assert time.perf_counter() - start < 1.0
    start = time.perf_counter()
    budgeted = _solve(Budget(time_limit=0.3), patience=0.05, pause=0.005)
    assert budgeted.stopped_by == "time_limit"
    assert time.perf_counter() - start >= 0.3


def test_a_step_may_end_the_run_and_init_may_decline() -> None:
    ended = _solve(Budget(), give_up_at=4)
    assert ended.stopped_by == "exhausted" and ended.counters["iterations"] == 4
    declined = Plodder().solve(QueensInstance(13), Budget(), np.random.default_rng(0))
    assert declined.claim is Claim.DECLINED and "not thirteen" in declined.note
    record = run_solve(spec_of(Plodder), QueensInstance(13), isolate=False)
    assert record.verdict.outcome is Outcome.DECLINED and record.verdict.stopped_by == "declined"


def test_the_driver_records_the_trace_under_evaluations() -> None:
    trace = Trace()
    Plodder().solve(QueensInstance(8), Budget(max_iterations=3), np.random.default_rng(0),
                    trace=trace)
    assert [p[:2] for p in trace.points()] == [[1, 1000], [4, 999], [7, 998], [10, 997]]


def test_kernel_caps_are_absolute_plain_numbers() -> None:
    assert kernel_caps(Budget(), start=5.0) == Caps()
    caps = kernel_caps(Budget(time_limit=2.0, max_nodes=7, max_evaluations=9), start=5.0)
    assert caps == Caps(deadline=7.0, max_evaluations=9, max_iterations=-1, max_nodes=7)


def test_stopped_by_reaches_the_record_for_real_solvers() -> None:
    instance = QueensInstance(64)
    repairs = run_solve("min-conflicts", instance, seed=1, params={"max_repairs": 5},
                        budget=Budget(max_iterations=100), isolate=False)
    assert repairs.verdict.outcome is Outcome.BUDGET and repairs.verdict.stopped_by == "param:max_repairs"
    assert repairs.figures.counters["repairs"] == 5
    generations = run_solve("ga-permutation", instance, seed=1, params={"max_generations": 2},
                            budget=Budget(max_evaluations=10**6), isolate=False)
    assert generations.verdict.stopped_by == "param:max_generations"
    climbs = run_solve("stochastic-hc", instance, seed=1, budget=Budget(max_evaluations=500),
                       isolate=False)
    assert climbs.verdict.stopped_by == "max_evaluations" and climbs.figures.counters["evaluations"] == 500


def test_ga_seed002_time_cap_no_longer_caps_a_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    """``solve nqueens 64 --solver ga-seed002 --time-limit T`` runs until solved or T, whatever
    ``time_cap`` says; without a time limit ``time_cap`` stops it, and the record says so."""
    alone = run_solve("ga-seed002", QueensInstance(64), params={"time_cap": 0.02},
                      budget=Budget(), isolate=False)
    assert alone.verdict.stopped_by == "param:time_cap" and alone.figures.time_s < 0.5
    assert alone.verdict.outcome is Outcome.BUDGET and "param:time_cap" in alone.verdict.reason
    code = main(["solve", "nqueens", "64", "--solver", "ga-seed002", "--param", "time_cap=0.02",
                 "--time-limit", "0.6", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code in (0, 1)
    assert out["stopped_by"] in ("time_limit", "answer")  # seed 0 needs ~280 generations
    # Ran past the cap, and kept working: more generations than the cap alone allowed. The count
    # is compared with the same machine's capped run, not a constant (CI's busy host once gave 33
    # generations in 0.3 s against a constant of 40; an idle one gives 44-66 in 0.3 s, 95-135 in
    # 0.6 s, and 4-5 under the 0.02 s cap alone).
    # (not "ran about 0.6 s": start-up and warm-up beyond their share of the limit are taken
    # from the solver's time, so on a busy host it is given less — issue 43)
    assert out["stopped_by"] == "answer" or out["time_s"] > 5 * 0.02
    assert out["counters"]["generations"] > alone.figures.counters["generations"]
