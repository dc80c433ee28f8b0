"""Where the n-queens completion generator makes hard instances: the share of generated
instances that can be completed, and the search effort, by fraction of pre-placed queens.

Each instance is decided by OR-Tools CP-SAT through the harness (a complete solver). The
effort shown is that of plain backtracking (``bitboard``'s first-solution search, capped by
``--limit`` seconds), the kind of solver for which Gent, Jefferson & Nightingale found
completion hard; CP-SAT's own times are shown beside it. The generator's default
``PLACED_FRACTION`` is set from this table.

    python benchmarks/completion_hardness.py --sizes 20,30 --per-point 20
"""

from __future__ import annotations

import argparse
import platform
import statistics

import numpy as np

from puzzlebench.contract import Budget
from puzzlebench.harness.execute import run_solve
from puzzlebench.problems.nqueens_completion import CompletionInstance, _random_placement
from puzzlebench.records.record import Outcome


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--sizes", default="20,30")
    ap.add_argument("--fractions", default="0.1,0.2,0.3,0.4,0.5,0.6")
    ap.add_argument("--per-point", type=int, default=20)
    ap.add_argument("--limit", type=float, default=5.0)
    args = ap.parse_args()
    print(f"{platform.processor() or platform.machine()}, {args.per_point} instances per point; "
          f"bitboard capped at {args.limit} s")
    print(f"{'n':>4} {'fraction':>8} {'k':>3} {'solvable':>9} {'cpsat med s':>11} "
          f"{'bitboard med nodes':>18} {'max nodes':>10} {'bitboard capped':>15}")
    for n in (int(s) for s in args.sizes.split(",")):
        for frac in (float(f) for f in args.fractions.split(",")):
            k = round(frac * n)
            rng = np.random.default_rng(n * 1000 + k)
            solvable, cp_times, nodes, capped = 0, [], [], 0
            made = 0
            while made < args.per_point:
                placed = _random_placement(n, k, rng)
                if placed is None:
                    continue
                made += 1
                inst = CompletionInstance(n, placed)
                cp = run_solve("cpsat", inst, seed=0, budget=Budget(time_limit=30))
                bb = run_solve("bitboard", inst, seed=0, budget=Budget(time_limit=args.limit))
                cp_times.append(cp.figures.time_s)
                nodes.append(int(bb.figures.counters.get("nodes", 0)))
                capped += bb.verdict.outcome is Outcome.BUDGET
                solvable += cp.verdict.outcome is Outcome.SOLVED
            print(f"{n:>4} {frac:>8.2f} {k:>3} {solvable / made:>9.0%} "
                  f"{statistics.median(cp_times):>11.3f} {statistics.median(nodes):>18,.0f} "
                  f"{max(nodes):>10,} {capped:>15}", flush=True)


if __name__ == "__main__":
    main()
