"""Benchmark: seed 004's whole study — every A on 12×12 and 15×15, five runs each, both hill
climbers (290 runs; the seed's took 9.48 hours, its longest run 81 minutes). Goal: < 60 s in
total. Prints per-A mean iterations, moves and time for both algorithms.

    python benchmarks/hill_climbing_study.py
"""

from __future__ import annotations

import statistics
import time

from puzzlebench.contract import Budget
from puzzlebench.harness.execute import run_solve
from puzzlebench.problems import get_problem


def main() -> None:
    qk = get_problem("queens-knights")
    run_solve("stochastic-hc", qk.make(5, queens=2))  # load compiled code
    run_solve("first-choice-hc", qk.make(5, queens=2))
    total = 0.0
    runs = solved = 0
    for n in (12, 15):
        print(f"\n{n}×{n}: A | first-choice: iterations moves time(s) | stochastic: iterations moves time(s)")
        for a in range(n + 1):
            cells = []
            for solver in ("first-choice-hc", "stochastic-hc"):
                its, mvs, secs = [], [], []
                for rep in range(5):
                    rec = run_solve(solver, qk.make(n, queens=a), seed=rep,
                                    budget=Budget(time_limit=60))
                    runs += 1
                    solved += rec.verdict.outcome.value == "solved"
                    its.append(rec.figures.counters["iterations"])
                    mvs.append(rec.figures.counters["moves"])
                    secs.append(rec.figures.time_s)
                    total += rec.figures.time_s
                cells.append(f"{statistics.mean(its):>6.1f} {statistics.mean(mvs):>7.1f} "
                             f"{statistics.mean(secs):>8.4f}")
            print(f"  {a:>2} | {cells[0]} | {cells[1]}")
    print(f"\n{runs} runs, {solved} solved, {total:.2f} s of solver time in total (goal < 60 s; "
          "the seed: 9.48 h)")


if __name__ == "__main__":
    t0 = time.perf_counter()
    main()
    print(f"wall time {time.perf_counter() - t0:.2f} s")
