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
    python benchmarks/time_limit_overrun.py --doors [--limit 2.0]

``--doors`` times whole commands instead, as the user waits for them (the console script,
CLI start-up included): each front door with a solver whose first call sleeps 30 s (its
warm-up cannot finish: ``tests/plugins/slow_first_call.py``) and ``solve`` with astar-h1 at
n = 10,000, printing wall ÷ limit (the bound is 1.1 × T + 0.5 s per run, plus the CLI).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from puzzlebench.contract import Budget
from puzzlebench.harness.execute import run_solve
from puzzlebench.problems import get_problem
from puzzlebench.solvers.registry import REGISTRY

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
    ap.add_argument("--doors", action="store_true", help="time whole commands (see above)")
    args = ap.parse_args()
    if args.doors:
        doors(args.limit)
        return
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
            ratio = rec.figures.time_s / args.limit
            worst.append((ratio, spec.name))
            honours = "honours" if "time_limit" in spec.honours else "IGNORES"
            print(f"{spec.name:<26} {label:<15} {honours:<8} {rec.verdict.outcome.value:<8} "
                  f"timed {rec.figures.time_s:7.3f} s = {ratio:5.2f} T   "
                  f"whole {whole:6.2f} s = {whole / args.limit:5.2f} T", flush=True)
    ratio, name = max(worst)
    print(f"worst: {name} at {ratio:.2f} × the time limit ({args.limit:g} s)")


def doors(limit: float) -> None:
    """Each front door as a whole command, wall time ÷ the limit."""
    root = Path(__file__).resolve().parents[1]
    slow = f"{root / 'tests' / 'plugins' / 'slow_first_call.py'}:SlowFirstCall"
    script = Path(sys.executable).with_name("puzzlebench")
    t = f"{limit:g}"
    with tempfile.TemporaryDirectory() as tmp:
        study = Path(tmp) / "slow.toml"
        study.write_text(f'[study]\nname = "slow"\ntime_limit = {limit}\n[[problems]]\n'
                         f'problem = "nqueens"\nsizes = [7]\n[[solvers]]\nname = "{slow}"\n')
        commands = {
            "solve (slow warm-up)": ["solve", "nqueens", "7", "--solver", slow, "--time-limit", t],
            "count (slow warm-up)": ["count", "nqueens", "6", "--solver", slow, "--time-limit", t],
            "compare (slow warm-up)": ["compare", "nqueens", "--sizes", "7", "--solvers", slow,
                                       "--time-limit", t],
            "run (slow warm-up)": ["run", str(study), "--db", str(Path(tmp) / "s.sqlite")],
            "solve astar-h1 n=10000": ["solve", "nqueens", "10000", "--solver", "astar-h1",
                                       "--time-limit", t],
        }
        print(f"time limit T = {limit:g} s; bound per run 1.1 T + 0.5 s = {1.1 * limit + 0.5:g} s")
        for label, argv in commands.items():
            t0 = time.perf_counter()
            done = subprocess.run([str(script), *argv], capture_output=True, text=True,
                                  check=False)
            wall = time.perf_counter() - t0
            print(f"{label:<26} exit {done.returncode}   wall {wall:6.2f} s = {wall / limit:5.2f} T",
                  flush=True)


if __name__ == "__main__":
    main()
