"""The seed 002 GA and the permutation GA: operators, vectorised fitness, seeding."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlebench.contract import Budget
from puzzlebench.evolution.permutation_ga import order_crossover
from puzzlebench.evolution.population_fitness import attacking_pairs
from puzzlebench.harness.execute import run_solve
from puzzlebench.problems import get_problem
from puzzlebench.records.record import Outcome
from tests.conformance.cases import make


@given(st.integers(2, 12), st.booleans(), st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_vectorised_fitness_matches_the_validator_count(n: int, torus: bool, seed: int) -> None:
    rng = np.random.default_rng(seed)
    pop = rng.integers(0, n, size=(7, n))
    prob = get_problem("torus-queens" if torus else "nqueens")
    expected = [prob.conflicts(prob.make(n), row) for row in pop]
    assert attacking_pairs(pop, torus).tolist() == expected
    perms = np.array([rng.permutation(n) for _ in range(5)])
    assert attacking_pairs(perms, torus, columns=False).tolist() == [
        prob.conflicts(prob.make(n), row) for row in perms]


def test_order_crossover_keeps_permutations_and_the_slice() -> None:
    rng = np.random.default_rng(0)
    a = np.array([rng.permutation(9) for _ in range(50)])
    b = np.array([rng.permutation(9) for _ in range(50)])
    cuts = rng.integers(0, 9, size=(50, 2))
    children = order_crossover(a, b, cuts, np.ones(50, dtype=bool))
    for child, pa, (lo, hi) in zip(children, a, cuts, strict=True):
        lo, hi = min(lo, hi), max(lo, hi)
        assert sorted(child) == list(range(9))
        assert (child[lo:hi + 1] == pa[lo:hi + 1]).all()
    same = order_crossover(a, b, cuts, np.zeros(50, dtype=bool))
    assert (same == a).all()


@pytest.mark.covers("ga-permutation", "ga-seed002")
@pytest.mark.parametrize("solver", ["ga-seed002", "ga-permutation"])
def test_solves_and_counts_generations(solver: str) -> None:
    rec = run_solve(solver, make("nqueens", 10), seed=3, budget=Budget(time_limit=20))
    assert rec.verdict.outcome is Outcome.SOLVED
    assert rec.figures.counters["evaluations"] >= rec.key.params["population_size"]  # the first population
    again = run_solve(solver, make("nqueens", 10), seed=3, budget=Budget(time_limit=20))
    assert rec.stable() == again.stable()


def test_permutation_ga_scales_to_64_queens() -> None:
    for seed in range(3):
        rec = run_solve("ga-permutation", make("nqueens", 64), seed=seed,
                        budget=Budget(time_limit=30))
        assert rec.verdict.outcome is Outcome.SOLVED


def test_seed_ga_parameters_are_configurable_and_time_capped() -> None:
    rec = run_solve("ga-seed002", make("nqueens", 30), seed=1,
                    params={"population_size": 20, "k": 2, "crossover_rate": 0.0,
                            "mutation_rate": 0.0, "time_cap": 0.2})
    # no budget was given, so only its own time cap can have stopped it (never killed: no limit)
    v = rec.verdict
    assert v.outcome is Outcome.BUDGET and v.stopped_by == "param:time_cap" and not v.error
    assert rec.key.params["population_size"] == 20
    # With no crossover and no mutation the population cannot change after selection.
    assert rec.figures.counters["best_fitness"] < rec.figures.counters["max_fitness"]
