"""Benchmark: what recording anytime traces costs (target: at most 3 % more time).

Each solve runs in this process twice — with a trace sink and without (``solve(..., trace=None)``
is what a run of a non-tracing harness does) — interleaved so drift hits both alike, same seeds,
after warming both paths, with a garbage collection before each timed solve. Reported: the
summed times and their ratio.

1. qs4 at n = 10^6 (``--reps`` seeds).
2. Seed 004's study: first-choice-hc and stochastic-hc on queens-knights 12×12 and 15×15 for
   every A, five seeds each (the 290 runs of reports/queens-knights).

    python benchmarks/trace_overhead.py [--reps 7]
"""

from __future__ import annotations

import argparse
import gc
import time
from typing import Any

import numpy as np

from puzzlebench.contract import Budget
from puzzlebench.harness.judging.environment import machine
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.problems import get_problem
from puzzlebench.records.trace import Trace


def timed(solver: Any, instance: Any, seed: int, traced: bool) -> tuple[float, int]:
    """One solve's time; the previous result is gone and garbage collected first (without
    this, whichever path follows a large kept answer pays for its memory: ±5 % at n = 10^6)."""
    rng = np.random.default_rng(seed)
    sink = Trace() if traced else None
    gc.collect()
    t0 = time.perf_counter()
    result = solver.solve(instance, Budget(time_limit=60), rng, trace=sink)
    elapsed = time.perf_counter() - t0
    del result
    return elapsed, len(sink) if sink is not None else 0


def compare(label: str, cases: list[tuple[Any, Any, int]]) -> None:
    on = off = 0.0
    points = 0
    for i, (solver, instance, seed) in enumerate(cases):
        order = (True, False) if i % 2 == 0 else (False, True)
        for traced in order:
            dt, n = timed(solver, instance, seed, traced)
            if traced:
                on += dt
                points += n
            else:
                off += dt
    print(f"{label}: {len(cases)} runs; traced {on:.3f} s, untraced {off:.3f} s, "
          f"ratio {on / off:.3f} ({(on / off - 1) * 100:+.1f} %); {points:,} trace points")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=7)
    args = ap.parse_args()
    m = machine()
    print(f"machine: {m['cpu']}, {m['cores']} cores; in-process solves, traced and untraced interleaved")
    qs4 = resolve_solver("qs4").create()
    nq = get_problem("nqueens")
    timed(qs4, nq.make(1000), 0, True)  # warm both paths (numba)
    timed(qs4, nq.make(1000), 0, False)
    big = nq.make(10**6)
    compare("qs4 n=10^6", [(qs4, big, s) for s in range(args.reps)])

    qk = get_problem("queens-knights")
    cases = []
    for name in ("first-choice-hc", "stochastic-hc"):
        solver = resolve_solver(name).create()
        timed(solver, qk.make(8, queens=4), 0, True)
        timed(solver, qk.make(8, queens=4), 0, False)
        for n in (12, 15):
            for a in range(n + 1):
                for seed in range(5):
                    cases.append((solver, qk.make(n, queens=a), seed))
    compare("seed 004 study (hill climbing, queens-knights 12x12 and 15x15, every A, 5 seeds)", cases)


if __name__ == "__main__":
    main()
