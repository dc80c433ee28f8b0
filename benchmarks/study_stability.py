"""Benchmark: the same study three times from empty stores — do its times agree?

Runs a built-in study (default ``eight-puzzle``) ``--times`` times, each into an empty store,
and, for every run (solver, parameters, instance, repeat), compares its recorded ``time_s``
across the repetitions: the median over runs of max/min, the 90th percentile and the worst,
with the node counts checked identical. Issue 24's targets for ``eight-puzzle``: median ≤ 1.3,
worst ≤ 3 (before the issue: 4.3 and 112).

    python benchmarks/study_stability.py [--study eight-puzzle] [--times 3] [--workers 2]
        [--min-time T]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from puzzlebench.harness.campaign.design.study_file import study_from_dict
from puzzlebench.harness.campaign.runner import run_study
from puzzlebench.harness.campaign.storage.store import load_records
from puzzlebench.studies import get_study


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--study", default="eight-puzzle")
    ap.add_argument("--times", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--min-time", type=float, default=None,
                    help="Override the study's min_time (0: repeat nothing).")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    study = study_from_dict(get_study(args.study).definition(args.quick), args.study)
    if args.min_time is not None:
        study = replace(study, min_time=args.min_time or None)
    times: dict[str, list[float]] = {}
    effort: dict[str, set[str]] = {}
    for i in range(args.times):
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "s.sqlite"
            t0 = time.perf_counter()
            run_study(study, db, workers=args.workers, quiet=True)
            wall = time.perf_counter() - t0
            records = load_records(db)
        print(f"pass {i + 1}: {len(records)} runs in {wall:.1f} s")
        for r in records:
            key = json.dumps([r.key.solver, r.key.params, r.key.instance_id, r.key.repeat], sort_keys=True)
            times.setdefault(key, []).append(r.figures.time_s)
            effort.setdefault(key, set()).add(json.dumps(
                {k: v for k, v in r.figures.counters.items() if not k.endswith("_s")}, sort_keys=True))
    ratios = sorted(max(v) / min(v) for v in times.values() if len(v) == args.times and min(v) > 0)
    same = sum(len(v) == 1 for v in effort.values())
    print(f"\n{args.study}: {len(ratios)} runs made {args.times} times "
          f"(min_time {study.min_time}, workers {args.workers}); identical counters in "
          f"{same} of {len(effort)}")
    print(f"max/min time per run: median {statistics.median(ratios):.3f}, "
          f"p90 {statistics.quantiles(ratios, n=10)[-1]:.3f}, worst {ratios[-1]:.3f}; "
          f"share above 2: {sum(r > 2 for r in ratios) / len(ratios):.1%}")


if __name__ == "__main__":
    main()
