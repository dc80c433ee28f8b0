"""Seed 002's genetic algorithm, exactly as the seed describes it (``ga-seed002``).

An individual is n column positions, one per row, repetition allowed. Fitness = pairs of
queens that do not attack (maximum C(n, 2)). Each generation: POPULATION_SIZE times, pick two
different parents by K-tournament (the second is redrawn until it differs from the first),
apply one-point crossover with CROSSOVER_RATE (else the parents pass unchanged), mutate each
child with MUTATION_RATE (one random gene gets a random column), and add the children to the
new population unless already present — up to 2 × POPULATION_SIZE; keep the POPULATION_SIZE
fittest. Stops at maximum fitness, at the time cap (the seed used 20 s) or at the budget.

The seed does not state its rates: the defaults are its example's population (100), K = 3,
crossover 0.9 and mutation 0.8 (the seed found speed rising with the mutation rate up to 0.8).
Fitness is evaluated for the whole population at once (population_fitness).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from puzzlebench.contract import Budget, Claim, Param, Proposal, Solver
from puzzlebench.evolution.population_fitness import attacking_pairs
from puzzlebench.registry import register
from puzzlebench.trace import Trace


@register
class SeedGA(Solver):
    """Seed 002's GA: repetition encoding, K-tournament, one-point crossover, one-gene mutation."""

    name: ClassVar[str] = "ga-seed002"
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens", "torus-queens"})
    honours: ClassVar[frozenset[str]] = frozenset({"time_limit", "max_iterations", "max_evaluations"})
    stochastic: ClassVar[bool] = True
    traces: ClassVar[bool] = True
    evaluation: ClassVar[str] = ("one individual's fitness counted in full (a generation adds its "
                                 "distinct children)")
    params: ClassVar[dict[str, Any]] = {
        "population_size": Param(100, 2, 10**6), "k": Param(3, 1, 10**4),
        "crossover_rate": Param(0.9, 0.0, 1.0), "mutation_rate": Param(0.8, 0.0, 1.0),
        "time_cap": Param(20.0, 0.0, 10**6)}

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator,
              trace: Trace | None = None) -> Proposal:
        n, torus = instance.n, instance.wraps
        cfg = self.config
        size, k = int(cfg["population_size"]), int(cfg["k"])
        cx_rate, mut_rate = float(cfg["crossover_rate"]), float(cfg["mutation_rate"])
        limit = float(cfg["time_cap"])
        if budget.time_limit is not None:
            limit = min(limit, budget.time_limit)
        clock = Budget(time_limit=limit).clock()
        max_fitness = n * (n - 1) // 2
        pop = rng.integers(0, n, size=(size, n), dtype=np.int64)
        fit = max_fitness - attacking_pairs(pop, torus)
        generations, evaluations = 0, size
        while True:
            best = int(np.argmax(fit))
            if trace is not None:  # the objective: attacking pairs = max fitness - fitness
                trace.improve(evaluations, max_fitness - int(fit[best]))
            counters = {"generations": generations, "evaluations": evaluations,
                        "best_fitness": int(fit[best]), "max_fitness": max_fitness}
            if fit[best] == max_fitness:
                return Proposal(answer=pop[best].tolist(), claim=Claim.SOLVED, counters=counters)
            if clock.expired() or _capped(budget, generations, evaluations):
                return Proposal(counters=counters, note="budget exhausted")
            generations += 1
            children: dict[bytes, np.ndarray] = {}
            for _ in range(size):
                a = _tournament(fit, k, rng)
                b = _tournament(fit, k, rng)
                while b == a and size > 1:
                    b = _tournament(fit, k, rng)
                c1, c2 = pop[a].copy(), pop[b].copy()
                if rng.random() < cx_rate:
                    x = int(rng.integers(0, n))
                    c1[x:], c2[x:] = pop[b][x:], pop[a][x:]
                for child in (c1, c2):
                    if rng.random() < mut_rate:
                        child[int(rng.integers(0, n))] = int(rng.integers(0, n))
                    children.setdefault(child.tobytes(), child)
            new = np.array(list(children.values()), dtype=np.int64)
            new_fit = max_fitness - attacking_pairs(new, torus)
            evaluations += len(new)
            order = np.argsort(-new_fit, kind="stable")[:size]
            pop, fit = new[order], new_fit[order]


def _tournament(fit: np.ndarray, k: int, rng: np.random.Generator) -> int:
    """Index of the fittest of k individuals drawn at random (first one on ties)."""
    idx = rng.integers(0, fit.size, size=k)
    return int(idx[int(np.argmax(fit[idx]))])


def _capped(budget: Budget, generations: int, evaluations: int) -> bool:
    return ((budget.max_iterations is not None and generations >= budget.max_iterations) or
            (budget.max_evaluations is not None and evaluations >= budget.max_evaluations))
