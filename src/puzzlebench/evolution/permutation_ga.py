"""A permutation GA for nqueens and torus-queens (``ga-permutation``): how such a GA scales.

Permutation encoding (no row or column clashes, only diagonals to fix), tournament selection,
order crossover (OX1: a slice from one parent, the rest in the other parent's order) and swap
mutation, with the best individuals carried over (elitism). A generation is a handful of array
operations: selection and mutation are vectorised with numpy; OX runs in a compiled kernel on
cut points drawn beforehand from the run's generator, so every random draw comes from it.
A step of the framework (``puzzlebench.solvers.iterative``) is one generation; ``max_iterations`` and
the parameter ``max_generations`` cap generations (the record's ``stopped_by`` says which).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numba
import numpy as np

from puzzlebench.evolution.population_fitness import attacking_pairs
from puzzlebench.evolution.queens_ga import Population, QueensGA
from puzzlebench.solvers.contract import Param
from puzzlebench.solvers.iterative import Run
from puzzlebench.solvers.param_space import FloatRange, IntRange
from puzzlebench.solvers.registry import register


@numba.njit(cache=True)
def order_crossover(parents_a: np.ndarray, parents_b: np.ndarray, cuts: np.ndarray,
                    apply: np.ndarray) -> np.ndarray:
    """OX1 children of each pair (a copy of parent a where ``apply`` is False)."""
    m, n = parents_a.shape
    out = parents_a.copy()
    used = np.zeros(n, np.bool_)
    for i in range(m):
        if not apply[i]:
            continue
        lo, hi = cuts[i, 0], cuts[i, 1]
        if lo > hi:
            lo, hi = hi, lo
        used[:] = False
        for j in range(lo, hi + 1):
            used[parents_a[i, j]] = True
        pos = (hi + 1) % n
        for t in range(n):
            gene = parents_b[i, (hi + 1 + t) % n]
            if not used[gene]:
                out[i, pos] = gene
                pos = (pos + 1) % n
    return out


class _State(Population):
    """A population between generations, with each board's cost (attacking pairs)."""

    cost: np.ndarray


@register
class PermutationGA(QueensGA):
    """Permutation GA: tournament selection, order crossover, swap mutation, elitism."""

    compiled: ClassVar[bool] = True  # numba: warmed, untimed, before each timed run

    name: ClassVar[str] = "ga-permutation"
    counter_names: ClassVar[frozenset[str] | None] = frozenset({
        "generations", "evaluations", "best_conflicts"})
    evaluation: ClassVar[str] = ("one individual's cost counted in full (the elite carried over "
                                 "is not recounted)")
    params: ClassVar[dict[str, Any]] = {
        "population_size": Param(100, 2, 10**6), "tournament": Param(3, 1, 10**4),
        "crossover_rate": Param(0.7, 0.0, 1.0), "mutation_rate": Param(0.9, 0.0, 1.0),
        "elite": Param(2, 0, 10**6), "max_generations": Param(1_000_000, 0, 10**12)}
    #: What ``tune`` tries (the elite at most the smallest population's tenth).
    param_space: ClassVar[dict[str, Any]] = {
        "population_size": IntRange(10, 1000, log=True), "tournament": IntRange(1, 10),
        "crossover_rate": FloatRange(0.0, 1.0), "mutation_rate": FloatRange(0.0, 1.0),
        "elite": IntRange(0, 5)}
    param_caps: ClassVar[dict[str, str]] = {"max_generations": "generations"}

    def init(self, instance: Any, rng: np.random.Generator, run: Run) -> _State:
        m = int(self.config["population_size"])
        st = _State(instance, rng, np.argsort(rng.random((m, instance.n)), axis=1).astype(np.int64))
        st.cost = attacking_pairs(st.pop, st.torus, columns=False)
        return st

    def conflicts(self, state: _State) -> int:
        return int(state.cost.min())

    def best(self, state: _State) -> list[int]:
        return state.pop[int(np.argmin(state.cost))].tolist()

    def counters(self, state: _State) -> dict[str, int]:
        return {**super().counters(state), "best_conflicts": int(state.cost.min())}

    def step(self, state: _State) -> str:
        """One generation."""
        st, cfg, rng, n = state, self.config, state.rng, state.n
        m, k, elite = int(cfg["population_size"]), int(cfg["tournament"]), int(cfg["elite"])
        pop, cost = st.pop, st.cost
        rows = np.arange(m)
        st.generations += 1
        contenders = rng.integers(0, m, size=(2, m, k))
        winners = contenders[np.arange(2)[:, None], rows[None, :],
                             np.argmin(cost[contenders], axis=2)]
        cuts = rng.integers(0, n, size=(m, 2))
        apply = rng.random(m) < float(cfg["crossover_rate"])
        children = order_crossover(pop[winners[0]], pop[winners[1]], cuts, apply)
        mutate = rng.random(m) < float(cfg["mutation_rate"])
        i = rng.integers(0, n, size=m)
        j = rng.integers(0, n, size=m)
        sel = rows[mutate]
        a, b = children[sel, i[mutate]].copy(), children[sel, j[mutate]].copy()
        children[sel, i[mutate]], children[sel, j[mutate]] = b, a
        child_cost = attacking_pairs(children, st.torus, columns=False)
        st.evaluations += m
        if elite:
            keep = np.argsort(cost, kind="stable")[:elite]
            worst = np.argsort(-child_cost, kind="stable")[:elite]
            children[worst], child_cost[worst] = pop[keep], cost[keep]
        st.pop, st.cost = children, child_cost
        return ""
