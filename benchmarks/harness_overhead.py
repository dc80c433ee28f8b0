"""Benchmark: harness overhead per run with a trivial solver on local workers (goal < 5 ms).

Runs a study of N runs of ``mod12`` on nqueens n = 4 (microseconds of solving) through the
full runner — worker pool, hard limits, validation, one SQLite transaction per run — and prints
wall time per run amortised over the study, beside the solver time itself.

    python benchmarks/harness_overhead.py [--runs 2000] [--workers 2]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from puzzlebench.harness.runner import run_study
from puzzlebench.harness.study import study_from_dict


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    study = study_from_dict({
        "study": {"name": "overhead", "repeats": args.runs, "time_limit": 5.0},
        "problems": [{"problem": "nqueens", "sizes": [4]}],
        "solvers": [{"name": "mod12"}],
    })
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        result = run_study(study, Path(tmp) / "o.sqlite", workers=args.workers, quiet=True)
        wall = time.perf_counter() - t0
    solver_time = sum(r.time_s for r in result.new)
    print(f"{len(result.new)} runs on {args.workers} workers: {wall:.2f} s in total, "
          f"{wall / len(result.new) * 1000:.2f} ms per run amortised "
          f"(solver time {solver_time / len(result.new) * 1e6:.1f} µs per run; goal < 5 ms)")


if __name__ == "__main__":
    main()
