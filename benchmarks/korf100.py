"""Benchmark: Korf's 100 15-puzzles with idastar-pdb on both cores, through the harness.

1. Builds the 6-6-3 databases from nothing in a fresh cache folder (timed: the one-time cost).
2. Runs the 100 instances as a study on two worker processes (every run isolated, warmed and
   judged against the published optimal length) and reports the wall time of the batch, the
   sum of the timed phases, nodes, nodes per second and the hardest instance.
3. The same 100 with the blank-aware (consistent) tables, for comparison.
4. Reference measured in the same run: idastar-linear-conflict on the ten instances Korf's
   IDA* found easiest, set against idastar-pdb on the same ten (node and time ratios).

    python benchmarks/korf100.py [--workers 2] [--keep-cache]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from puzzlebench.harness.judging.environment import machine
from puzzlebench.problems.korf_instances import KORF_GOAL, korf100

FELNER_663_NODES = 617_555  # Felner, Korf & Hanan (2004): 6-6-3 with reflection, per instance
TARGET_S = 60.0


def study(solver: str, numbers: list[int], limit: float, params: dict | None = None) -> dict:
    starts = [",".join(map(str, k.start)) for k in korf100() if k.number in numbers]
    return {"study": {"name": f"bench-{solver}", "time_limit": limit},
            "problems": [{"problem": "sliding", "sizes": [15], "starts": starts,
                          "goal": ",".join(map(str, KORF_GOAL))}],
            "solvers": [{"name": solver, "params": params or {}}]}


def run(definition: dict, store: Path, workers: int) -> tuple[list, float]:
    from puzzlebench.harness.campaign.runner import run_study
    from puzzlebench.harness.campaign.store import load_records
    from puzzlebench.harness.campaign.study_file import study_from_dict

    s = study_from_dict(definition, "benchmark")
    t0 = time.perf_counter()
    run_study(s, store, workers=workers, quiet=True)
    wall = time.perf_counter() - t0
    return load_records(store, keys=[r.key for r in s.runs()]), wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--keep-cache", action="store_true", help="use $PUZZLEBENCH_CACHE as it is")
    ap.add_argument("--no-blank-aware", dest="blank_aware", action="store_false",
                    help="skip the run with the blank-aware (consistent) tables")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="korf100-"))
    if not args.keep_cache:
        os.environ["PUZZLEBENCH_CACHE"] = str(tmp / "cache")
    from puzzlebench.search.pdb_lookup import databases

    m = machine()
    print(f"machine: {m['cpu']}, {m['cores']} cores; {args.workers} workers")
    t0 = time.perf_counter()
    dbs = databases(4, 4, 0)
    build = time.perf_counter() - t0
    how = "built" if any(db.built_now for db in dbs) else "loaded from the cache"
    print(f"databases: {len(dbs)} ({', '.join(str(len(db.cells)) for db in dbs)} tiles), "
          f"{sum(db.nbytes for db in dbs) / 2**20:.1f} MiB, {how} in {build:.1f} s")

    all_numbers = [k.number for k in korf100()]
    records, wall = run(study("idastar-pdb", all_numbers, 120.0), tmp / "pdb.sqlite", args.workers)
    optimal = sum(1 for r in records if r.verified_success)
    nodes = sum(int(r.counters.get("nodes_generated", 0)) for r in records)
    timed = sum(r.time_s for r in records)
    hardest = max(records, key=lambda r: r.time_s)
    number = {",".join(map(str, k.start)): k.number for k in korf100()}
    hard_no = number[",".join(map(str, hardest.instance["start"]))]
    korf_nodes = sum(k.ida_nodes_1985 for k in korf100())
    print(f"idastar-pdb: {optimal}/100 verified optimal; batch wall time {wall:.1f} s on "
          f"{args.workers} workers (target < {TARGET_S:.0f} s: {'met' if wall < TARGET_S else 'MISSED'}); "
          f"sum of timed phases {timed:.1f} s")
    print(f"  nodes generated {nodes:,} = {nodes / 100:,.0f} per instance; Felner et al. 6-6-3: "
          f"{FELNER_663_NODES:,} per instance (ratio {nodes / 100 / FELNER_663_NODES:.2f}); "
          f"Korf 1985 (Manhattan): {korf_nodes:,} (ratio {korf_nodes / nodes:,.0f}x more)")
    print(f"  {nodes / timed / 1e6:.1f} M nodes/s per core; hardest: #{hard_no} in {hardest.time_s:.2f} s "
          f"({int(hardest.counters['nodes_generated']):,} nodes)")

    if args.blank_aware:
        aware, wall_b = run(study("idastar-pdb", all_numbers, 120.0, {"blank_aware": True}),
                            tmp / "pdb-blank.sqlite", args.workers)
        nb = sum(int(r.counters.get("nodes_generated", 0)) for r in aware)
        tb = sum(r.time_s for r in aware)
        print(f"blank-aware tables (consistent; --param blank_aware=true): "
              f"{sum(r.verified_success for r in aware)}/100 verified optimal, batch {wall_b:.1f} s, "
              f"timed {tb:.1f} s, {nb:,} nodes ({nb / nodes:.2f} x the compressed tables' nodes, "
              f"{tb / timed:.2f} x their time), {nb / tb / 1e6:.1f} M nodes/s per core")

    easy = [k.number for k in sorted(korf100(), key=lambda k: k.ida_nodes_1985)[:10]]
    ref, _ = run(study("idastar-linear-conflict", easy, 120.0), tmp / "lc.sqlite", args.workers)
    mine = [r for r in records if number[",".join(map(str, r.instance["start"]))] in easy]
    ln = sum(int(r.counters["nodes_generated"]) for r in ref)
    pn = sum(int(r.counters["nodes_generated"]) for r in mine)
    lt, pt = sum(r.time_s for r in ref), sum(r.time_s for r in mine)
    print(f"reference (same run): idastar-linear-conflict on Korf's 10 easiest: {ln:,} nodes in "
          f"{lt:.2f} s ({ln / lt / 1e6:.1f} M nodes/s); idastar-pdb {pn:,} nodes in {pt:.2f} s: "
          f"{ln / pn:.0f}x fewer nodes, {lt / pt:.0f}x less time")


if __name__ == "__main__":
    main()
