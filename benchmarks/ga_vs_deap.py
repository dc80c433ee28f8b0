"""Benchmark: the permutation GA against the DEAP reference GA, in the same run (issue 5).

For n in 8, 16, 32, 64 and 10 seeds each, both solvers under the same time limit: solved
count and median time-to-solution (unsolved runs count as the limit), and the ratio
permutation GA / DEAP (goal ≤ 0.2 at every n; the permutation GA solves 10/10 at n = 64).
Also times one generation's fitness evaluation for 100 individuals at n = 64.

    python benchmarks/ga_vs_deap.py [--seeds 10] [--limit 30]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from puzzlebench.contract import Budget
from puzzlebench.evolution.population_fitness import attacking_pairs
from puzzlebench.harness.execute import run_solve
from puzzlebench.problems import get_problem


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--limit", type=float, default=30.0)
    args = ap.parse_args()
    nq = get_problem("nqueens")
    pop = np.random.default_rng(0).integers(0, 64, size=(100, 64))
    attacking_pairs(pop, False)
    t0 = time.perf_counter()
    for _ in range(1000):
        attacking_pairs(pop, False)
    print(f"fitness of 100 individuals at n = 64: {(time.perf_counter() - t0) * 1000:.1f} µs "
          "per generation")
    print(f"{'n':>3} {'perm solved':>11} {'perm median s':>13} {'deap solved':>11} "
          f"{'deap median s':>13} {'ratio':>6}")
    for n in (8, 16, 32, 64):
        row = {}
        for solver in ("ga-permutation", "deap-ga"):
            times, solved = [], 0
            for seed in range(args.seeds):
                rec = run_solve(solver, nq.make(n), seed=seed, budget=Budget(time_limit=args.limit))
                ok = rec.verdict.outcome.value == "solved"
                solved += ok
                times.append(rec.figures.time_s if ok else args.limit)
            row[solver] = (solved, statistics.median(times))
        (ps, pt), (ds, dt) = row["ga-permutation"], row["deap-ga"]
        print(f"{n:>3} {ps:>8}/{args.seeds} {pt:>13.4f} {ds:>8}/{args.seeds} {dt:>13.4f} "
              f"{pt / dt:>6.3f}")


if __name__ == "__main__":
    main()
