"""Where the n-queens completion generator makes hard instances: the share of generated
instances that can be completed, and the search effort, by fraction of pre-placed queens.

Each instance is decided by OR-Tools CP-SAT through the harness (a complete solver; its
``infeasible`` claims are accepted here as the decision, as ``agree`` would cross-check them).
The hard region is where about half the instances are solvable and the effort peaks; the
generator's default ``PLACED_FRACTION`` is set there.

    python benchmarks/completion_hardness.py --sizes 20,30 --per-point 20
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from puzzlebench.contract import Budget
from puzzlebench.harness.execute import run_solve
from puzzlebench.problems.nqueens_completion import CompletionInstance, _random_placement


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="20,30")
    ap.add_argument("--fractions", default="0.1,0.2,0.3,0.4,0.5")
    ap.add_argument("--per-point", type=int, default=20)
    ap.add_argument("--solver", default="cpsat")
    args = ap.parse_args()
    print(f"solver {args.solver}; {args.per_point} instances per point")
    print(f"{'n':>4} {'fraction':>8} {'k':>3} {'solvable':>9} {'median s':>9} {'max s':>7}")
    for n in (int(s) for s in args.sizes.split(",")):
        for frac in (float(f) for f in args.fractions.split(",")):
            k = round(frac * n)
            rng = np.random.default_rng(n * 1000 + k)
            solvable, times = 0, []
            made = 0
            while made < args.per_point:
                placed = _random_placement(n, k, rng)
                if placed is None:
                    continue
                made += 1
                t0 = time.perf_counter()
                rec = run_solve(args.solver, CompletionInstance(n, placed), seed=0,
                                budget=Budget(time_limit=30))
                times.append(rec.time_s if rec.time_s else time.perf_counter() - t0)
                solvable += rec.outcome.value == "solved"
            print(f"{n:>4} {frac:>8.2f} {k:>3} {solvable / made:>9.0%} "
                  f"{statistics.median(times):>9.3f} {max(times):>7.3f}", flush=True)


if __name__ == "__main__":
    main()
