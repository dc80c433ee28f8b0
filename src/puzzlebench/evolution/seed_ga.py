"""Seed 002's genetic algorithm, exactly as the seed describes it (``ga-seed002``).

("Seed" means source document 002 here, not a random seed; the name ``ga-seed002`` stays:
it is part of every stored run's key.)

An individual is n column positions, one per row, repetition allowed. Fitness = pairs of
queens that do not attack (maximum C(n, 2)). Each generation: POPULATION_SIZE times, pick two
different parents by K-tournament (the second is redrawn until it differs from the first),
apply one-point crossover with CROSSOVER_RATE (else the parents pass unchanged), mutate each
child with MUTATION_RATE (one random gene gets a random column), and add the children to the
new population unless already present — up to 2 × POPULATION_SIZE; keep the POPULATION_SIZE
fittest. Stops at maximum fitness or at the budget (checked by the framework,
``puzzlebench.solvers.iterative``, before each generation; ``max_iterations`` caps generations). The
parameter ``time_cap`` (the seed's 20 s) limits a run only when the budget sets no time limit:
``--time-limit 300`` runs for up to 300 s, and the record's ``stopped_by`` says which stopped it.

The seed does not state its rates: the defaults are its example's population (100), K = 3,
crossover 0.9 and mutation 0.8 (the seed found speed rising with the mutation rate up to 0.8).
Fitness is evaluated for the whole population at once (population_fitness).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from puzzlebench.evolution.population_fitness import attacking_pairs
from puzzlebench.evolution.queens_ga import Population, QueensGA
from puzzlebench.solvers.contract import Param
from puzzlebench.solvers.iterative import Run
from puzzlebench.solvers.param_space import FloatRange, IntRange
from puzzlebench.solvers.registry import register


class _State(Population):
    """A population between generations, with each board's fitness (non-attacking pairs)."""

    max_fitness: int
    fit: np.ndarray


@register
class SeedGA(QueensGA):
    """Seed 002's GA: repetition encoding, K-tournament, one-point crossover, one-gene mutation."""

    name: ClassVar[str] = "ga-seed002"
    counter_names: ClassVar[frozenset[str] | None] = frozenset({
        "generations", "evaluations", "best_fitness", "max_fitness"})
    evaluation: ClassVar[str] = ("one individual's fitness counted in full (a generation adds its "
                                 "distinct children)")
    params: ClassVar[dict[str, Any]] = {
        "population_size": Param(100, 2, 10**6), "k": Param(3, 1, 10**4),
        "crossover_rate": Param(0.9, 0.0, 1.0), "mutation_rate": Param(0.8, 0.0, 1.0),
        "time_cap": Param(20.0, 0.0, 10**6)}
    #: What ``tune`` tries: seed 002's grid axes as ranges (its time cap is the budget's).
    param_space: ClassVar[dict[str, Any]] = {
        "population_size": IntRange(10, 1000, log=True), "k": IntRange(1, 10),
        "crossover_rate": FloatRange(0.0, 1.0), "mutation_rate": FloatRange(0.0, 1.0)}
    time_param: ClassVar[str] = "time_cap"

    def init(self, instance: Any, rng: np.random.Generator, run: Run) -> _State:
        size, n = int(self.config["population_size"]), instance.n
        st = _State(instance, rng, rng.integers(0, n, size=(size, n), dtype=np.int64))
        st.max_fitness = n * (n - 1) // 2
        st.fit = st.max_fitness - attacking_pairs(st.pop, st.torus)
        return st

    def conflicts(self, state: _State) -> int:
        """Attacking pairs of the fittest (max fitness − fitness)."""
        return state.max_fitness - int(state.fit.max())

    def best(self, state: _State) -> list[int]:
        return state.pop[int(np.argmax(state.fit))].tolist()

    def counters(self, state: _State) -> dict[str, int]:
        return {**super().counters(state), "best_fitness": int(state.fit.max()),
                "max_fitness": state.max_fitness}

    def step(self, state: _State) -> str:
        """One generation."""
        st, cfg, rng, n = state, self.config, state.rng, state.n
        size, k = int(cfg["population_size"]), int(cfg["k"])
        cx_rate, mut_rate = float(cfg["crossover_rate"]), float(cfg["mutation_rate"])
        pop, fit = st.pop, st.fit
        st.generations += 1
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
        new_fit = st.max_fitness - attacking_pairs(new, st.torus)
        st.evaluations += len(new)
        order = np.argsort(-new_fit, kind="stable")[:size]
        st.pop, st.fit = new[order], new_fit[order]
        return ""


def _tournament(fit: np.ndarray, k: int, rng: np.random.Generator) -> int:
    """Index of the fittest of k individuals drawn at random (first one on ties)."""
    idx = rng.integers(0, fit.size, size=k)
    return int(idx[int(np.argmax(fit[idx]))])

