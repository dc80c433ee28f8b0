"""The common effort unit (issue 27) in the handwritten GAs: the ``evaluations`` counter equals
the individuals whose conflicts the population fitness function actually computed, counted by
a wrapper around it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from puzzlebench.contract import Budget
from puzzlebench.evolution import permutation_ga, seed_ga
from puzzlebench.evolution.population_fitness import attacking_pairs
from puzzlebench.problems import get_problem


@pytest.mark.parametrize(("module", "cls", "params"), [
    (seed_ga, seed_ga.SeedGA, {"population_size": 30}),
    (permutation_ga, permutation_ga.PermutationGA, {"population_size": 30, "elite": 3})])
@pytest.mark.parametrize(("problem", "n"), [("nqueens", 12), ("torus-queens", 11)])
def test_ga_counts_every_individual_it_scores(monkeypatch: pytest.MonkeyPatch, module: Any,
                                              cls: Any, params: dict, problem: str, n: int) -> None:
    scored = {"rows": 0}

    def counting(pop: np.ndarray, torus: bool, columns: bool = True) -> np.ndarray:
        scored["rows"] += pop.shape[0]
        return attacking_pairs(pop, torus, columns)

    monkeypatch.setattr(module, "attacking_pairs", counting)
    for seed in range(3):
        scored["rows"] = 0
        p = cls(**params).solve(get_problem(problem).make(n), Budget(max_iterations=40),
                                np.random.default_rng(seed))
        assert p.counters["evaluations"] == scored["rows"] > 0
        assert p.counters["evaluations"] != p.counters["generations"]


@pytest.mark.parametrize("cls", [seed_ga.SeedGA, permutation_ga.PermutationGA])
def test_ga_evaluation_cap_stops_within_one_generation(cls: Any) -> None:
    cap = 1_000
    p = cls(population_size=50).solve(get_problem("torus-queens").make(25),
                                      Budget(max_evaluations=cap), np.random.default_rng(0))
    assert cap <= p.counters["evaluations"] < cap + 2 * 50  # seed002: ≤ 2× population children
