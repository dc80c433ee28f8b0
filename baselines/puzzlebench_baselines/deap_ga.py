"""The DEAP reference GA for nqueens and torus-queens, after DEAP's own n-queens example.

Permutation encoding (no row or column clashes), fitness = pairs of queens on a shared
(wrapped, on the torus) diagonal, minimised; PMX crossover, shuffle-index mutation,
tournament selection, and DEAP's ``Statistics``/``Logbook`` per generation. The example's
settings are the defaults: population 300, crossover 0.5, mutation 0.2, indpb 2/n,
tournament size 3. Stops at a solution, at the generation cap or at the budget.

DEAP's operators draw from the global ``random`` module; the run instead hands a seeded
``random.Random`` (drawn from its generator) to ports of ``cxPartialyMatched``,
``mutShuffleIndexes`` and ``selTournament`` registered in the toolbox, so no global state is
touched. ``creator`` classes are created once per process under puzzlebench's own names.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar

import numpy as np
from deap import base, creator, tools

from puzzlebench.contract import Budget, Claim, Param, Proposal, Solver
from puzzlebench.records.trace import Trace
from puzzlebench.solvers.queens_keys import diagonal_keys

if not hasattr(creator, "PuzzlebenchFitnessMin"):
    creator.create("PuzzlebenchFitnessMin", base.Fitness, weights=(-1.0,))
if not hasattr(creator, "PuzzlebenchIndividual"):
    creator.create("PuzzlebenchIndividual", list, fitness=creator.PuzzlebenchFitnessMin)


def diagonal_conflicts(individual: list[int], torus: bool) -> tuple[int]:
    """Pairs of queens sharing a diagonal (row i holds column individual[i])."""
    n = len(individual)
    d1: Counter[int] = Counter()
    d2: Counter[int] = Counter()
    for r, c in enumerate(individual):
        a, d = diagonal_keys(r, c, n, torus)
        d1[a] += 1
        d2[d] += 1
    return (sum(k * (k - 1) // 2 for k in d1.values()) +
            sum(k * (k - 1) // 2 for k in d2.values()),)


def cx_partially_matched(ind1: list[int], ind2: list[int], rng: random.Random) -> tuple:
    """deap.tools.cxPartialyMatched with an explicit generator."""
    size = min(len(ind1), len(ind2))
    p1, p2 = [0] * size, [0] * size
    for i in range(size):
        p1[ind1[i]] = i
        p2[ind2[i]] = i
    a = rng.randint(0, size)
    b = rng.randint(0, size - 1)
    if b >= a:
        b += 1
    else:
        a, b = b, a
    for i in range(a, b):
        t1, t2 = ind1[i], ind2[i]
        ind1[i], ind1[p1[t2]] = t2, t1
        ind2[i], ind2[p2[t1]] = t1, t2
        p1[t1], p1[t2] = p1[t2], p1[t1]
        p2[t1], p2[t2] = p2[t2], p2[t1]
    return ind1, ind2


def mut_shuffle_indexes(individual: list[int], indpb: float, rng: random.Random) -> tuple:
    """deap.tools.mutShuffleIndexes with an explicit generator."""
    size = len(individual)
    for i in range(size):
        if rng.random() < indpb:
            j = rng.randint(0, size - 2)
            if j >= i:
                j += 1
            individual[i], individual[j] = individual[j], individual[i]
    return (individual,)


def sel_tournament(individuals: list, k: int, tournsize: int, rng: random.Random) -> list:
    """deap.tools.selTournament with an explicit generator."""
    chosen = []
    for _ in range(k):
        aspirants = [rng.choice(individuals) for _ in range(tournsize)]
        chosen.append(max(aspirants, key=lambda ind: ind.fitness))
    return chosen


class DeapGA(Solver):
    """DEAP's n-queens GA: permutations, PMX, shuffle mutation, tournament selection."""

    name: ClassVar[str] = "deap-ga"
    counter_names: ClassVar[frozenset[str] | None] = frozenset({
        "generations", "evaluations", "best_conflicts"})
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens", "torus-queens"})
    honours: ClassVar[frozenset[str]] = frozenset({"time_limit", "max_iterations", "max_evaluations"})
    stochastic: ClassVar[bool] = True
    traces: ClassVar[bool] = True
    evaluation: ClassVar[str] = ("one individual's fitness counted in full (only offspring changed "
                                 "by crossover or mutation are re-evaluated)")
    params: ClassVar[dict[str, Any]] = {
        "population": Param(300, 2, 10**6), "cxpb": Param(0.5, 0.0, 1.0),
        "mutpb": Param(0.2, 0.0, 1.0), "tournsize": Param(3, 1, 10**4),
        "generations": Param(1000, 0, 10**9)}

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator,
              trace: Trace | None = None) -> Proposal:
        n, torus = instance.n, instance.wraps
        cfg = self.config
        clock = budget.clock()
        rand = random.Random(int(rng.integers(2**63)))
        toolbox = base.Toolbox()
        toolbox.register("permutation", rand.sample, range(n), n)
        toolbox.register("individual", tools.initIterate, creator.PuzzlebenchIndividual,
                         toolbox.permutation)
        toolbox.register("evaluate", diagonal_conflicts, torus=torus)
        toolbox.register("mate", cx_partially_matched, rng=rand)
        toolbox.register("mutate", mut_shuffle_indexes, indpb=2.0 / max(n, 1), rng=rand)
        toolbox.register("select", sel_tournament, tournsize=int(cfg["tournsize"]), rng=rand)
        stats = tools.Statistics(lambda ind: ind.fitness.values[0])
        stats.register("min", min)
        stats.register("avg", lambda xs: sum(xs) / len(xs))
        logbook = tools.Logbook()
        # the population one individual at a time (what ``tools.initRepeat`` does), the clock
        # between them: 300 permutations of 10,001 take 0.85 s, past a 0.5 s limit
        pop = []
        for _ in range(int(cfg["population"])):
            if clock.expired():
                return Proposal(counters={"generations": 0, "evaluations": 0},
                                note="budget exhausted")
            pop.append(toolbox.individual())
        evaluations = 0
        for ind in pop:  # the clock between individuals: at n = 10,000 a generation is seconds
            if clock.expired():
                return Proposal(counters={"generations": 0, "evaluations": evaluations},
                                note="budget exhausted")
            ind.fitness.values = toolbox.evaluate(ind)
            evaluations += 1
        generation = 0
        logbook.record(gen=0, evals=len(pop), **stats.compile(pop))
        while True:
            best = min(pop, key=lambda ind: ind.fitness.values[0])
            if trace is not None:
                trace.improve(evaluations, int(best.fitness.values[0]))
            counters = {"generations": generation, "evaluations": evaluations,
                        "best_conflicts": int(best.fitness.values[0])}
            if best.fitness.values[0] == 0:
                return Proposal(answer=list(best), claim=Claim.SOLVED, counters=counters)
            if (generation >= int(cfg["generations"]) or clock.expired() or
                    (budget.max_evaluations is not None and evaluations >= budget.max_evaluations)
                    or (budget.max_iterations is not None and generation >= budget.max_iterations)):
                return Proposal(counters=counters, note="budget exhausted")
            generation += 1
            offspring = [toolbox.clone(ind) for ind in toolbox.select(pop, len(pop))]
            if clock.expired():  # cloning a large population is long too
                return Proposal(counters=counters, note="budget exhausted")
            for a, b in zip(offspring[::2], offspring[1::2], strict=False):
                if rand.random() < cfg["cxpb"]:
                    toolbox.mate(a, b)
                    del a.fitness.values, b.fitness.values
            for ind in offspring:
                if rand.random() < cfg["mutpb"]:
                    toolbox.mutate(ind)
                    del ind.fitness.values
            fresh = [ind for ind in offspring if not ind.fitness.valid]
            for ind in fresh:
                if clock.expired():  # this generation is not finished: the last one's best
                    counters["evaluations"] = evaluations
                    return Proposal(counters=counters, note="budget exhausted")
                ind.fitness.values = toolbox.evaluate(ind)
                evaluations += 1
            pop[:] = offspring
            logbook.record(gen=generation, evals=len(fresh), **stats.compile(pop))
            self.logbook = logbook  # per-generation statistics, for API users
