"""The common effort unit (issue 27) in the library baselines: deap-ga's ``evaluations`` equal
the calls of its fitness function; constraint-minconflicts' (counted through the generator it
hands python-constraint, hence *approximate*) equal the candidate values scored by a Python
port of the library's MinConflictsSolver that counts them itself."""

from __future__ import annotations

import random
from typing import Any

import constraint
import numpy as np
import pytest

from puzzlebench.contract import Budget
from puzzlebench.problems import get_problem
from puzzlebench_baselines import constraint_minconflicts, deap_ga


@pytest.mark.parametrize(("problem", "n"), [("nqueens", 10), ("torus-queens", 11)])
def test_deap_ga_counts_every_fitness_computed(monkeypatch: pytest.MonkeyPatch, problem: str,
                                               n: int) -> None:
    calls = {"n": 0}
    real = deap_ga.diagonal_conflicts

    def counting(individual: list[int], torus: bool) -> tuple[int]:
        calls["n"] += 1
        return real(individual, torus)

    monkeypatch.setattr(deap_ga, "diagonal_conflicts", counting)
    for seed in range(2):
        calls["n"] = 0
        p = deap_ga.DeapGA(population=40).solve(get_problem(problem).make(n),
                                                Budget(max_iterations=15), np.random.default_rng(seed))
        assert p.counters["evaluations"] == calls["n"] > 40


class CountingPort(constraint.MinConflictsSolver):
    """python-constraint2 2.x's MinConflictsSolver.getSolution, line for line in Python, counting
    each start and each candidate value it scores."""

    scored = 0

    def getSolution(self, domains: dict, constraints: list, vconstraints: dict) -> Any:  # noqa: N802
        rand = self._rand
        CountingPort.scored += 1  # the random start
        assignments = {}
        for variable in domains:
            assignments[variable] = rand.choice(domains[variable])
        for _ in range(self._steps):
            conflicted = False
            lst = list(domains.keys())
            rand.shuffle(lst)
            for variable in lst:
                if all(c(v, domains, assignments) for c, v in vconstraints[variable]):
                    continue
                mincount = len(vconstraints[variable])
                minvalues: list = []
                for value in domains[variable]:
                    CountingPort.scored += 1
                    assignments[variable] = value
                    count = sum(not c(v, domains, assignments) for c, v in vconstraints[variable])
                    if count == mincount:
                        minvalues.append(value)
                    elif count < mincount:
                        mincount = count
                        minvalues = [value]
                assignments[variable] = rand.choice(minvalues)
                conflicted = True
            if not conflicted:
                return assignments
        return None


@pytest.mark.parametrize(("problem", "n", "budget"), [
    ("nqueens", 6, Budget(time_limit=30)),
    ("nqueens", 8, Budget(time_limit=30, max_evaluations=3_000)),
    ("torus-queens", 5, Budget(time_limit=30)),
])
def test_constraint_minconflicts_count_matches_a_counting_port(monkeypatch: pytest.MonkeyPatch,
                                                               problem: str, n: int,
                                                               budget: Budget) -> None:
    instance = get_problem(problem).make(n)
    solver = constraint_minconflicts.ConstraintMinConflicts(steps=60)
    library = solver.solve(instance, budget, np.random.default_rng(3))
    CountingPort.scored = 0
    monkeypatch.setattr(constraint, "MinConflictsSolver", CountingPort)
    ported = solver.solve(instance, budget, np.random.default_rng(3))
    assert (ported.answer, dict(ported.counters)) == (library.answer, dict(library.counters))
    assert library.counters["evaluations"] == CountingPort.scored > 0
    assert library.counters["steps"] != library.counters["evaluations"]


def test_counting_random_draws_like_random() -> None:
    """Counting changes nothing the library sees: same seed, same draws."""
    clock = Budget().clock()
    a, b = constraint_minconflicts.CountingRandom(9, Budget(), clock), random.Random(9)
    xs, ys = list(range(20)), list(range(20))
    a.shuffle(xs)
    b.shuffle(ys)
    assert xs == ys and [a.choice(xs) for _ in range(5)] == [b.choice(ys) for _ in range(5)]
    assert a.steps == 1
