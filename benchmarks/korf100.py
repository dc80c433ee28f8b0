"""Benchmark: Korf's 100 15-puzzles with idastar-pdb through the harness — the 6-6-3 and the
7-8 pattern databases built, then the batches, in one invocation (issue 41 §3).

1. Builds each partition's databases from nothing in a fresh cache folder, each in a child
   process of its own (``puzzlebench pdb build``): wall time, CPU time, the child's peak
   resident memory, bytes on disk.
2. Runs the 100 instances as a study on two worker processes (every run isolated, warmed and
   judged against the published optimal length), for each configuration asked for: 6-6-3
   without and with the reflected lookup, 7-8 with it (and with the dual lookup, ``--dual``).
   Per batch: verified optimal, wall time, sum of the timed phases, nodes per instance beside
   Felner, Korf & Hanan (2004) and Korf (1985), nodes per second per core (nodes / timed).
3. ``--reference``: idastar-linear-conflict on the ten instances Korf's IDA* found easiest,
   set against 6-6-3 on the same ten.

    python benchmarks/korf100.py [--workers 2] [--keep-cache] [--only 7-8+r] [--dual] [--reference]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from puzzlebench.harness.judging.environment import machine
from puzzlebench.problems.korf_instances import KORF_GOAL, korf100
from puzzlebench.records.record import RunRecord

#: Felner, Korf & Hanan (2004), nodes per instance on Korf's 100, with the reflected lookup
#: (the figures issue 41 quotes).
FELNER_NODES = {"6-6-3+r": 617_555, "7-8+r": 36_710}
TARGET_NODES_78 = 50_000  # issue 41: 7-8 with reflection, mean per instance
TARGET_BATCH_78_S = 3.0  # issue 41: the batch on 2 workers, tables built

#: label → (partition, parameters)
CONFIGS: dict[str, dict[str, object]] = {
    "6-6-3": {"partition": "6-6-3", "reflect": False},
    "6-6-3+r": {"partition": "6-6-3", "reflect": True},
    "7-8+r": {"partition": "7-8", "reflect": True},
    "7-8+r+dual": {"partition": "7-8", "reflect": True, "dual": True},
    "6-6-3+r+aware": {"partition": "6-6-3", "reflect": True, "blank_aware": True},
}


def study(solver: str, numbers: list[int], limit: float, params: dict | None = None) -> dict:
    starts = [",".join(map(str, k.start)) for k in korf100() if k.number in numbers]
    return {"study": {"name": f"bench-{solver}", "time_limit": limit},
            "problems": [{"problem": "sliding", "sizes": [15], "starts": starts,
                          "goal": ",".join(map(str, KORF_GOAL))}],
            "solvers": [{"name": solver, "params": params or {}}]}


def run(definition: dict, store: Path, workers: int) -> tuple[list, float]:
    # imported on use: the harness is loaded after the cache folder is chosen
    from puzzlebench.harness.campaign.design.study_file import study_from_dict
    from puzzlebench.harness.campaign.runner import run_study
    from puzzlebench.harness.campaign.storage.store import load_records

    s = study_from_dict(definition, "benchmark")
    t0 = time.perf_counter()
    run_study(s, store, workers=workers, quiet=True)
    wall = time.perf_counter() - t0
    return load_records(store, keys=[r.key for r in s.runs()]), wall


def build(partition: str) -> dict:
    """The 15-puzzle's databases of one partition, built (``build_tables``)."""
    return build_tables(["--shape", "4x4", "--goal", ",".join(map(str, KORF_GOAL)),
                         "--partition", partition])


def build_tables(options: list[str]) -> dict:
    """``puzzlebench pdb build OPTIONS`` in a child process: its JSON, wall and CPU time and
    peak resident memory (``wait4``'s rusage of that child alone)."""
    cmd = [sys.executable, "-m", "puzzlebench", "pdb", "build", *options, "--json"]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    out = proc.stdout.read() if proc.stdout else ""
    if status != 0:
        raise SystemExit(f"pdb build {' '.join(options)} failed (status {status})")
    data = json.loads(out)
    disk = sum(Path(d["path"]).stat().st_size for d in data["databases"] if d["path"])
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_gb": usage.ru_maxrss / 2**20,
            "disk": disk, "databases": data["databases"]}


def summary(label: str, records: list[RunRecord], wall: float, workers: int) -> dict:
    optimal = sum(1 for r in records if r.verified_success)
    nodes = sum(int(r.figures.counters.get("nodes_generated", 0)) for r in records)
    timed = sum(r.figures.time_s for r in records)
    per = nodes / len(records)
    felner = FELNER_NODES.get(label.replace("+dual", ""))
    korf = sum(k.ida_nodes_1985 for k in korf100()) / 100
    line = (f"{label:<11} {optimal}/{len(records)} verified optimal; batch {wall:5.2f} s on {workers} "
            f"workers; timed {timed:6.2f} s; {per:>12,.0f} nodes/instance")
    if felner:
        line += f" (Felner et al. {felner:,}: x{per / felner:.2f})"
    line += f"; Korf 1985 / ours: {korf / per:,.0f}; {nodes / timed / 1e6:.2f} M nodes/s per core"
    dual = sum(int(r.figures.counters.get("dual_cutoffs", 0)) for r in records)
    if dual:
        line += f"; dual cut-offs {dual:,}"
    print(line, flush=True)
    return {"label": label, "optimal": optimal, "wall": wall, "timed": timed, "nodes": per,
            "rate": nodes / timed}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--keep-cache", action="store_true", help="use $PUZZLEBENCH_CACHE as it is")
    ap.add_argument("--only", action="append", choices=sorted(CONFIGS),
                    help="run only these configurations (repeatable)")
    ap.add_argument("--dual", action="store_true", help="also 7-8 with the dual lookup")
    ap.add_argument("--reference", action="store_true",
                    help="idastar-linear-conflict on Korf's ten easiest beside 6-6-3")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="korf100-"))
    if not args.keep_cache:
        os.environ["PUZZLEBENCH_CACHE"] = str(tmp / "cache")
    labels = args.only or ["6-6-3", "6-6-3+r", "7-8+r"] + (["7-8+r+dual"] if args.dual else [])
    m = machine()
    print(f"machine: {m['cpu']}, {m['cores']} cores; {args.workers} workers; "
          f"load average {os.getloadavg()[0]:.2f} at the start; cache {os.environ.get('PUZZLEBENCH_CACHE')}")

    for partition in sorted({str(CONFIGS[label]["partition"]) for label in labels}):
        b = build(partition)
        how = "built" if any(d["built_now"] for d in b["databases"]) else "cached (checked)"
        print(f"databases {partition}: {how}: wall {b['wall']:.1f} s, CPU {b['cpu']:.1f} s, peak RSS "
              f"{b['rss_gb']:.2f} GiB, {b['disk'] / 2**20:.1f} MiB on disk; "
              + "; ".join(f"{len(d['cells'])} tiles {d['entries']:,} entries, {d['abstract_states']:,} "
                          f"states, {d['build_s']:.1f} s" for d in b["databases"]), flush=True)

    numbers = [k.number for k in korf100()]
    results = {}
    for label in labels:
        records, wall = run(study("idastar-pdb", numbers, 120.0, dict(CONFIGS[label])),
                            tmp / f"{label}.sqlite", args.workers)
        results[label] = summary(label, records, wall, args.workers)
    if "7-8+r" in results:
        r78 = results["7-8+r"]
        print(f"targets (issue 41): 7-8+r nodes/instance {r78['nodes']:,.0f} ≤ {TARGET_NODES_78:,}: "
              f"{'met' if r78['nodes'] <= TARGET_NODES_78 else 'MISSED'}; batch {r78['wall']:.2f} s ≤ "
              f"{TARGET_BATCH_78_S:.0f} s: {'met' if r78['wall'] <= TARGET_BATCH_78_S else 'MISSED'}")
        if "6-6-3+r" in results:
            r663 = results["6-6-3+r"]
            print(f"7-8+r against 6-6-3+r: {r663['nodes'] / r78['nodes']:.1f}x fewer nodes, "
                  f"{r663['timed'] / r78['timed']:.1f}x less timed work, nodes/s per core "
                  f"{r78['rate'] / r663['rate']:.2f}x")

    if args.reference:
        easy = [k.number for k in sorted(korf100(), key=lambda k: k.ida_nodes_1985)[:10]]
        ref, _ = run(study("idastar-linear-conflict", easy, 120.0), tmp / "lc.sqlite", args.workers)
        mine, _ = run(study("idastar-pdb", easy, 120.0), tmp / "pdb-easy.sqlite", args.workers)
        ln = sum(int(r.figures.counters["nodes_generated"]) for r in ref)
        pn = sum(int(r.figures.counters["nodes_generated"]) for r in mine)
        lt, pt = sum(r.figures.time_s for r in ref), sum(r.figures.time_s for r in mine)
        print(f"reference: idastar-linear-conflict on Korf's 10 easiest: {ln:,} nodes in {lt:.2f} s "
              f"({ln / lt / 1e6:.1f} M nodes/s); idastar-pdb 6-6-3+r {pn:,} nodes in {pt:.2f} s: "
              f"{ln / pn:.0f}x fewer nodes, {lt / pt:.0f}x less time")


if __name__ == "__main__":
    main()
