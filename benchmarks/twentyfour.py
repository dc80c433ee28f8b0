"""Benchmark: the 24-puzzle with idastar-pdb through the harness — the 6-6-6-6 tables built,
then Korf & Felner's five instances under 10^9 published nodes (#25, #32, #38, #40, #44) as one
batch (issue 41 §2).

1. Builds the four 6-tile tables from nothing in a fresh cache folder (unless ``--keep-cache``),
   in a child process (``puzzlebench pdb build --shape 5x5``): wall time, CPU time, the child's
   peak resident memory, bytes on disk.
2. Runs the five as a study on two worker processes (every run isolated, warmed and judged
   against the published optimal length). Per instance: outcome, moves against the published
   length, nodes expanded against Korf & Felner's (and the part before the last iteration,
   which the order of the moves cannot change), time, nodes generated per second. Then the
   batch: wall time, the timed phases' sum, nodes per second per core (generated / timed).

    python benchmarks/twentyfour.py [--workers 2] [--keep-cache] [--limit 600] [--numbers 25,32,38,40,44]
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from korf100 import build_tables, run  # the same batch and build, beside this file

from puzzlebench.harness.judging.environment import machine
from puzzlebench.problems.korf_instances import KORF24_GOAL, korf24

FIVE = (25, 32, 38, 40, 44)
TARGET_BATCH_S = 600.0  # issue 41: the five in at most 10 minutes on this machine


def study(numbers: list[int], limit: float) -> dict:
    starts = [",".join(map(str, k.start)) for k in korf24() if k.number in numbers]
    return {"study": {"name": "bench-twentyfour", "time_limit": limit, "memory_limit_mb": 4096},
            "problems": [{"problem": "sliding", "sizes": [24], "starts": starts,
                          "goal": ",".join(map(str, KORF24_GOAL))}],
            "solvers": [{"name": "idastar-pdb", "params": {"partition": "6-6-6-6"}}]}


def build() -> dict:
    """The 24-puzzle's 6-6-6-6 databases, built (``korf100.build_tables``)."""
    return build_tables(["--shape", "5x5", "--goal", ",".join(map(str, KORF24_GOAL))])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--keep-cache", action="store_true", help="use $PUZZLEBENCH_CACHE as it is")
    ap.add_argument("--limit", type=float, default=600.0, help="per-instance time limit (s)")
    ap.add_argument("--numbers", default=",".join(map(str, FIVE)), help="instances (1..50)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="twentyfour-"))
    if not args.keep_cache:
        os.environ["PUZZLEBENCH_CACHE"] = str(tmp / "cache")
    m = machine()
    print(f"machine: {m['cpu']}, {m['cores']} cores; {args.workers} workers; load average "
          f"{os.getloadavg()[0]:.2f} at the start; cache {os.environ.get('PUZZLEBENCH_CACHE')}", flush=True)

    b = build()
    how = "built" if any(d["built_now"] for d in b["databases"]) else "cached (checked)"
    print(f"databases 6-6-6-6: {how}: wall {b['wall']:.1f} s, CPU {b['cpu']:.1f} s, peak RSS "
          f"{b['rss_gb']:.2f} GiB, {b['disk'] / 2**20:.1f} MiB on disk; "
          + "; ".join(f"{d['cells']} {d['entries']:,} entries, {d['abstract_states']:,} states, "
                      f"{d['build_s']:.1f} s" for d in b["databases"]), flush=True)

    numbers = [int(n) for n in args.numbers.split(",")]
    records, wall = run(study(numbers, args.limit), tmp / "five.sqlite", args.workers)
    published = {k.start: k for k in korf24()}
    print(f"{'#':>3} {'outcome':<8} {'moves':>5} {'published':>9} {'expanded':>14} {'Korf & Felner':>14} "
          f"{'ours/theirs':>11} {'before last':>12} {'time s':>8} {'M gen/s':>8}")
    generated = 0
    for r in sorted(records, key=lambda r: published[tuple(r.key.instance["start"])].number):
        k = published[tuple(r.key.instance["start"])]
        c = r.figures.counters
        gen, exp = int(c.get("nodes_generated", 0)), int(c.get("nodes_expanded", 0))
        generated += gen
        moves = r.verdict.answer_length if r.verdict.answer_length is not None else "-"
        outcome = r.verdict.outcome.value
        print(f"{k.number:>3} {outcome:<8} {moves:>5} {k.optimal:>9} {exp:>14,} {k.nodes_expanded:>14,} "
              f"{exp / k.nodes_expanded:>11.2f} {int(c.get('expanded_before_last', 0)):>12,} "
              f"{r.figures.time_s:>8.1f} {gen / max(r.figures.time_s, 1e-9) / 1e6:>8.2f}", flush=True)
    timed = sum(r.figures.time_s for r in records)
    optimal = sum(1 for r in records if r.verified_success)
    print(f"batch: {optimal}/{len(records)} verified optimal; wall {wall:.1f} s on {args.workers} workers "
          f"(target ≤ {TARGET_BATCH_S:.0f} s: {'met' if wall <= TARGET_BATCH_S else 'MISSED'}); timed "
          f"{timed:.1f} s; {generated:,} nodes generated; {generated / max(timed, 1e-9) / 1e6:.2f} M nodes/s "
          "per core")


if __name__ == "__main__":
    main()
