"""A permutation GA for nqueens and torus-queens (``ga-permutation``): how such a GA scales.

Permutation encoding (no row or column clashes, only diagonals to fix), tournament selection,
order crossover (OX1: a slice from one parent, the rest in the other parent's order) and swap
mutation, with the best individuals carried over (elitism). A generation is a handful of array
operations: selection and mutation are vectorised with numpy; OX runs in a compiled kernel on
cut points drawn beforehand from the run's generator, so every random draw comes from it.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numba
import numpy as np

from puzzlebench.contract import Budget, Claim, Param, Proposal, Solver
from puzzlebench.evolution.population_fitness import attacking_pairs
from puzzlebench.registry import register
from puzzlebench.trace import Trace


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


@register
class PermutationGA(Solver):
    """Permutation GA: tournament selection, order crossover, swap mutation, elitism."""

    compiled: ClassVar[bool] = True  # numba: warmed, untimed, before each timed run

    name: ClassVar[str] = "ga-permutation"
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens", "torus-queens"})
    honours: ClassVar[frozenset[str]] = frozenset({"time_limit", "max_iterations", "max_evaluations"})
    stochastic: ClassVar[bool] = True
    traces: ClassVar[bool] = True
    evaluation: ClassVar[str] = ("one individual's cost counted in full (the elite carried over "
                                 "is not recounted)")
    params: ClassVar[dict[str, Any]] = {
        "population_size": Param(100, 2, 10**6), "tournament": Param(3, 1, 10**4),
        "crossover_rate": Param(0.7, 0.0, 1.0), "mutation_rate": Param(0.9, 0.0, 1.0),
        "elite": Param(2, 0, 10**6), "max_generations": Param(1_000_000, 0, 10**12)}

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator,
              trace: Trace | None = None) -> Proposal:
        n, torus = instance.n, instance.wraps
        cfg = self.config
        m, k, elite = int(cfg["population_size"]), int(cfg["tournament"]), int(cfg["elite"])
        clock = budget.clock()
        pop = np.argsort(rng.random((m, n)), axis=1).astype(np.int64)
        cost = attacking_pairs(pop, torus, columns=False)
        generations, evaluations = 0, m
        rows = np.arange(m)
        while True:
            best = int(np.argmin(cost))
            if trace is not None:
                trace.improve(evaluations, int(cost[best]))
            counters = {"generations": generations, "evaluations": evaluations,
                        "best_conflicts": int(cost[best])}
            if cost[best] == 0:
                return Proposal(answer=pop[best].tolist(), claim=Claim.SOLVED, counters=counters)
            if (clock.expired() or generations >= int(cfg["max_generations"]) or
                    (budget.max_iterations is not None and generations >= budget.max_iterations)
                    or (budget.max_evaluations is not None
                        and evaluations >= budget.max_evaluations)):
                return Proposal(counters=counters, note="budget exhausted")
            generations += 1
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
            child_cost = attacking_pairs(children, torus, columns=False)
            evaluations += m
            if elite:
                keep = np.argsort(cost, kind="stable")[:elite]
                worst = np.argsort(-child_cost, kind="stable")[:elite]
                children[worst], child_cost[worst] = pop[keep], cost[keep]
            pop, cost = children, child_cost
