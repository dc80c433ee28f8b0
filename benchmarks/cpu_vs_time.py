"""Benchmark: does a single-threaded CPU-bound run's CPU time match its time?

For deterministic single-threaded runs of 5 ms and more, ``cpu_s`` (from the run's cgroup, or
the rusage fallback) should be within 10 % of ``time_s`` (issue 24). Each case runs
``--repeats`` times through ``compare`` (2 workers); the script prints cpu_s/time_s per case.

    python benchmarks/cpu_vs_time.py [--repeats 10] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CASES = (
    ("sliding", "8", ["--start", "867254301"], "astar-manhattan"),
    ("sliding", "8", ["--start", "867254301"], "astar-misplaced"),
    ("sliding", "8", ["--start", "867254301"], "idastar-linear-conflict"),
    ("nqueens", "24", [], "backtracking"),
    ("nqueens", "1000000", [], "mod12"),
)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    for problem, size, extra, solver in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            out = subprocess.run(
                [sys.executable, "-m", "puzzlebench", "compare", problem, "--sizes", size, *extra,
                 "--solvers", solver, "--repeats", str(args.repeats), "--workers",
                 str(args.workers), "--json", "--db", str(Path(tmp) / "c.sqlite")],
                capture_output=True, text=True, check=True).stdout
        runs = [json.loads(line) for line in out.splitlines()]
        ratio = [r["cpu_s"] / r["time_s"] for r in runs if r["time_s"] > 0]
        print(f"{solver:24s} {problem} {size:>8s}: time median "
              f"{statistics.median(r['time_s'] for r in runs) * 1e3:9.3f} ms, cpu/time median "
              f"{statistics.median(ratio):.3f} [{min(ratio):.3f}, {max(ratio):.3f}] over "
              f"{len(runs)} runs, measured by {sorted({r['measured_by'] for r in runs})}")


if __name__ == "__main__":
    main()
