"""Benchmark: harness overhead per run with a trivial solver (the price of isolation).

Runs a study of N runs of a solver on nqueens n = 4 (microseconds of solving) through the full
runner — a fresh forked process per run, its hard limit, the proposal sent back as data,
validation in the harness, one SQLite transaction per run — and prints wall time per run
amortised over the study, beside the solver time itself. ``mod12`` is pure Python;
``first-choice-hc`` is compiled, so each run also loads its numba kernels (untimed warm-up).

    python benchmarks/harness_overhead.py [--runs 2000] [--workers 2] [--solver mod12]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from puzzlebench.harness.runner import run_study
from puzzlebench.harness.study_file import study_from_dict


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--solver", default="mod12")
    args = ap.parse_args()
    study = study_from_dict({
        "study": {"name": "overhead", "repeats": args.runs, "time_limit": 5.0},
        "problems": [{"problem": "nqueens", "sizes": [4]}],
        "solvers": [{"name": args.solver}],
    })
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        result = run_study(study, Path(tmp) / "o.sqlite", workers=args.workers, quiet=True)
        wall = time.perf_counter() - t0
    solver_time = sum(r.time_s for r in result.new)
    warm = sum(r.warmup_s for r in result.new)
    print(f"{args.solver}: {len(result.new)} runs on {args.workers} workers: {wall:.2f} s in total, "
          f"{wall / len(result.new) * 1000:.2f} ms per run amortised "
          f"(solver time {solver_time / len(result.new) * 1e6:.1f} µs, untimed warm-up "
          f"{warm / len(result.new) * 1e3:.1f} ms per run)")


if __name__ == "__main__":
    main()
