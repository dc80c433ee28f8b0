"""Hill climbing (seed 004), QS4-style search and textbook min-conflicts."""

from __future__ import annotations

import numpy as np
import pytest

from puzzlebench.contract import Budget, SolverConfigError
from puzzlebench.harness.execute import run_solve
from puzzlebench.local.compiled_random import below, new_state
from puzzlebench.records.record import Outcome
from tests.conformance.cases import make


@pytest.mark.covers("first-choice-hc", "stochastic-hc")
@pytest.mark.parametrize("solver", ["first-choice-hc", "stochastic-hc"])
def test_hill_climbers_on_the_seed_boards(solver: str) -> None:
    for n, a in ((12, 0), (12, 5), (12, 12), (15, 7), (15, 15)):
        rec = run_solve(solver, make("queens-knights", n, queens=a), seed=n + a,
                        budget=Budget(time_limit=30))
        assert rec.verdict.outcome is Outcome.SOLVED, (n, a, rec.figures.counters)
        assert rec.figures.counters["iterations"] <= 180
    rec = run_solve(solver, make("nqueens", 10), seed=1)
    assert rec.verdict.outcome is Outcome.SOLVED


@pytest.mark.covers("min-conflicts")
@pytest.mark.parametrize("hood", ["any", "swap", "row"])
def test_hill_climbing_neighbourhoods(hood: str) -> None:
    rec = run_solve("stochastic-hc", make("nqueens", 12), params={"neighbourhood": hood},
                    seed=2, budget=Budget(time_limit=30))
    assert rec.verdict.outcome is Outcome.SOLVED
    with pytest.raises(SolverConfigError, match="neighbourhood"):
        run_solve("stochastic-hc", make("nqueens", 8), params={"neighbourhood": "teleport"})
    with pytest.raises(SolverConfigError, match="neighbourhood"):
        run_solve("min-conflicts", make("nqueens", 8), params={"neighbourhood": "any"})


def test_step_neighbourhood_is_weaker_but_honest() -> None:
    rec = run_solve("first-choice-hc", make("nqueens", 20), params={"neighbourhood": "step"},
                    seed=1, budget=Budget(time_limit=10))
    assert rec.verdict.outcome in (Outcome.SOLVED, Outcome.BUDGET)
    if rec.verdict.outcome is Outcome.BUDGET:
        assert rec.verdict.answer is None and rec.figures.counters["best_conflicts"] > 0


@pytest.mark.covers("qs4")
def test_qs4_large_boards_and_memory_layout() -> None:
    rec = run_solve("qs4", make("nqueens", 200_000), seed=5, budget=Budget(time_limit=30))
    assert rec.verdict.outcome is Outcome.SOLVED and rec.figures.counters["swaps"] > 0
    torus = run_solve("qs4", make("torus-queens", 7), seed=5, budget=Budget(time_limit=30))
    assert torus.verdict.outcome is Outcome.SOLVED
    assert run_solve("qs4", make("nqueens", 3), seed=5, budget=Budget(time_limit=0.5),
                     hard_limit=60).verdict.outcome is Outcome.BUDGET  # not a kill by a stalled host


@pytest.mark.parametrize("hood", ["row", "step", "swap"])
def test_min_conflicts(hood: str) -> None:
    rec = run_solve("min-conflicts", make("nqueens", 8), params={"neighbourhood": hood},
                    seed=4, budget=Budget(time_limit=20))
    assert rec.verdict.outcome is Outcome.SOLVED
    big = run_solve("min-conflicts", make("nqueens", 500), seed=4)
    assert big.verdict.outcome is Outcome.SOLVED and big.figures.counters["repairs"] < 5 * 500


def test_compiled_generator_is_seeded_and_uniform() -> None:
    a = new_state(np.random.default_rng(1))
    b = new_state(np.random.default_rng(1))
    xs = [below(a, 10) for _ in range(5000)]
    assert xs[:50] == [below(b, 10) for _ in range(50)]
    counts = np.bincount(xs, minlength=10)
    assert counts.min() > 400 and counts.max() < 600
