"""Benchmark: `mzn-gecode` solves with the model analysed once per process (today) against
analysed before every solve (as the minizinc library did for each new instance), alternately
in one process on the same instances and seeds; the answers must be equal (checked).

``every`` empties the cache of analysed models (``minizinc_gecode._ANALYSED``) before each
solve, so each one runs ``minizinc --model-interface-only`` again; ``once`` keeps it.

    python benchmarks/minizinc_analysis.py [--sizes 6,8,10,12] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from puzzlebench.contract import Budget
from puzzlebench.problems import get_problem
from puzzlebench.solvers.registry import REGISTRY
from puzzlebench_baselines import minizinc_gecode


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="6,8,10,12", help="n-queens sizes, comma-separated")
    ap.add_argument("--rounds", type=int, default=5, help="solves per size and mode")
    args = ap.parse_args()
    solver = REGISTRY.find("mzn-gecode").create()
    problem = get_problem("nqueens")
    solver.solve(problem.make(8), Budget(time_limit=30.0), np.random.default_rng(0))  # warm
    times: dict[str, list[float]] = {"every": [], "once": []}
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average at start "
          f"{os.getloadavg()[0]:.2f}; sizes {args.sizes}, {args.rounds} rounds, modes alternating")
    for n in (int(s) for s in args.sizes.split(",")):
        instance = problem.make(n)
        for r in range(args.rounds):
            answers = []
            for mode in (("every", "once") if r % 2 == 0 else ("once", "every")):
                if mode == "every":
                    minizinc_gecode._ANALYSED.clear()
                start = time.perf_counter()
                proposal = solver.solve(instance, Budget(time_limit=30.0),
                                        np.random.default_rng(r))
                times[mode].append(time.perf_counter() - start)
                answers.append((proposal.claim, proposal.answer))
            if answers[0] != answers[1]:
                raise SystemExit(f"n = {n}, round {r}: the two modes answered differently")
    every, once = (statistics.median(times[m]) for m in ("every", "once"))
    print(f"median solve: analysed every time {every:.4f} s, once {once:.4f} s, "
          f"once / every {once / every:.2f} ({len(times['once'])} solves each, answers equal)")


if __name__ == "__main__":
    main()
