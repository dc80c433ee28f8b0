"""Benchmark: the reference panel side by side (first solutions and counts, whole commands).

First solution for nqueens n = 50, 100, 200, 500 and counting n = 8..12 with cpsat, choco,
mzn-gecode, sat-cadical, constraint-backtracking and bitboard, each as a whole
``puzzlebench solve``/``count`` command (process start-up included) and as the harness's timed
phase. Prints a Markdown table (cells: whole command s / timed s, or the outcome).

    python benchmarks/reference_panel.py [--time-limit 60]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time

from installed_command import installed_command

SOLVERS = ["cpsat", "choco", "mzn-gecode", "sat-cadical", "constraint-backtracking", "bitboard"]
SOLVE_SIZES = [50, 100, 200, 500]
COUNT_SIZES = [8, 9, 10, 11, 12]


def cell(args: list[str], limit: float) -> str:
    t0 = time.perf_counter()
    out = subprocess.run([*installed_command(), *args, "--json", "--time-limit", str(limit)],
                         capture_output=True, text=True, check=False)
    whole = time.perf_counter() - t0
    if out.returncode == 2:
        return "n/a"
    row = json.loads(out.stdout.splitlines()[-1])
    if row["outcome"] not in ("solved", "infeasible"):
        return row["outcome"]
    return f"{whole:.2f} / {row['time_s']:.3f}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--time-limit", type=float, default=60.0)
    args = ap.parse_args()
    head = [f"solve {n}" for n in SOLVE_SIZES] + [f"count {n}" for n in COUNT_SIZES]
    print("| solver | " + " | ".join(head) + " |")
    print("| --- |" + " --- |" * len(head))
    for solver in SOLVERS:
        cells = [cell(["solve", "nqueens", str(n), "--solver", solver], args.time_limit)
                 for n in SOLVE_SIZES]
        cells += [cell(["count", "nqueens", str(n), "--solver", solver], args.time_limit)
                  for n in COUNT_SIZES]
        print(f"| {solver} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
