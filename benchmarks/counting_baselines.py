"""Benchmark: counting times for n = 8..12 — CP-SAT, python-constraint2 and the bitboard
counter side by side — and CP-SAT's first-solution time for n = 50, 100, 200 (issue 3).

    python benchmarks/counting_baselines.py [--limit 120]
"""

from __future__ import annotations

import argparse

from puzzlebench.contract import Budget
from puzzlebench.harness.execute import run_count, run_solve
from puzzlebench.problems import get_problem


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, default=120.0)
    args = ap.parse_args()
    nq = get_problem("nqueens")
    run_count("bitboard", nq.make(6))
    solvers = ("cpsat", "constraint-backtracking", "bitboard")
    print(f"{'n':>3} {'count':>7} " + " ".join(f"{s + ' (s)':>26}" for s in solvers))
    for n in range(8, 13):
        cells, count = [], None
        for s in solvers:
            params = {"max_n": 16} if s == "constraint-backtracking" else None
            rec = run_count(s, nq.make(n), params=params, budget=Budget(time_limit=args.limit))
            count = rec.verdict.count if rec.verdict.count is not None else count
            cells.append(f"{rec.figures.time_s:>22.3f} {rec.verdict.outcome.value[:3]}")
        print(f"{n:>3} {count:>7} " + " ".join(f"{c:>26}" for c in cells))
    print("\nCP-SAT first solution (num_workers = 1):")
    for n in (50, 100, 200):
        rec = run_solve("cpsat", nq.make(n), seed=0, budget=Budget(time_limit=args.limit))
        print(f"  n = {n:>3}: {rec.figures.time_s:.3f} s, {rec.verdict.outcome.value}, "
              f"{rec.figures.counters}")


if __name__ == "__main__":
    main()
