"""Benchmark: how far past ``--time-limit`` does each solver run? (goal: ≤ 10 % plus start-up)

Every registered solver, on the hard-ish conformance instance of each problem it declares,
with a time limit T (default 1 s) and the default hard limit (1.1 T + 0.5 s): prints per solver
the worst timed phase as a multiple of T, the outcome, and the whole wall time the harness
spent on the run (start-up and warm-up included) as a multiple of T. A solver that declares
``time_limit`` should stop by itself (ratio ≤ 1.1); one that does not is killed at the hard
limit. The whole run is bounded by 1.1 × T + 0.5 s from its start (warm-up included: see
docs/concepts/measurement.md). ``--large`` adds n-queens at n = 10,000, where one step of a
search can be long (issue 43).

    python benchmarks/time_limit_overrun.py [--limit 1.0] [--large] [--solvers a,b]
"""

from __future__ import annotations

import argparse
import time

from puzzlebench.contract import Budget
from puzzlebench.harness.execute import run_solve
from puzzlebench.problems import get_problem
from puzzlebench.registry import REGISTRY

#: The conformance suite's hard-ish instances (tests/conformance/cases.py).
HARD = {
    "nqueens": get_problem("nqueens").make(200),
    "torus-queens": get_problem("torus-queens").make(49),
    "queens-knights": get_problem("queens-knights").make(12, queens=7),
    "sliding": get_problem("sliding").make(15, start="14,13,15,7,11,12,9,5,6,0,2,1,4,8,10,3",
                                           goal=",".join(str(t) for t in range(16))),
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, default=1.0)
    ap.add_argument("--large", action="store_true", help="also n-queens at n = 10,000")
    ap.add_argument("--solvers", default="", help="comma-separated names (default: all)")
    args = ap.parse_args()
    cases = dict(HARD)
    if args.large:
        cases["nqueens-10000"] = get_problem("nqueens").make(10_000)
    wanted = {s for s in args.solvers.split(",") if s}
    worst: list[tuple[float, str]] = []
    for spec in REGISTRY.all():
        if wanted and spec.name not in wanted:
            continue
        for label, instance in cases.items():
            if instance.problem not in spec.problems:
                continue
            t0 = time.perf_counter()
            rec = run_solve(spec, instance, budget=Budget(time_limit=args.limit))
            whole = time.perf_counter() - t0
            ratio = rec.time_s / args.limit
            worst.append((ratio, spec.name))
            honours = "honours" if "time_limit" in spec.honours else "IGNORES"
            print(f"{spec.name:<26} {label:<15} {honours:<8} {rec.outcome.value:<8} "
                  f"timed {rec.time_s:7.3f} s = {ratio:5.2f} T   "
                  f"whole {whole:6.2f} s = {whole / args.limit:5.2f} T", flush=True)
    ratio, name = max(worst)
    print(f"worst: {name} at {ratio:.2f} × the time limit ({args.limit:g} s)")


if __name__ == "__main__":
    main()
