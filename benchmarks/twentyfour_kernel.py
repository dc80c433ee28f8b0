"""Benchmark: the 24-puzzle's search kernel before and after, side by side in one run —
``compact_batch_kernel`` (each child's pattern ranked afresh, four tables in a tuple) against
``sparse_batch_kernel`` (the same tables spread to sparse indices end to end in one array, an
index updated by one multiply-add), on the same Korf & Felner instances, alternating, in this
process (no harness).

Per instance and kernel: nodes generated and expanded (they must be equal: the same search),
wall and CPU seconds, nodes generated per CPU second, and the ratio. CPU seconds are the
figure to read on a shared machine (the load average is printed at the start and the end).

    python benchmarks/twentyfour_kernel.py [--numbers 40,25] [--cap 60000000] [--repeats 2]

Needs the 6-6-6-6 tables (``puzzlebench pdb build --shape 5x5``); the spread ones are made and
cached on first use (a few minutes).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from puzzlebench.problems.korf_instances import KORF24_GOAL, korf24_instance
from puzzlebench.problems.sliding import SlidingInstance
from puzzlebench.search.pattern_databases.compact_batch_kernel import idastar_batch_kernel
from puzzlebench.search.pattern_databases.compact_lookup import compact_databases, compact_lookup
from puzzlebench.search.pattern_databases.sparse_batch_kernel import idastar_sparse_kernel
from puzzlebench.search.pattern_databases.sparse_tables import sparse_lookup
from puzzlebench.search.sliding.sliding_symmetry import relabel


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--numbers", default="40,25", help="Korf & Felner's instances (1..50)")
    ap.add_argument("--cap", type=int, default=60_000_000, help="nodes generated per search (-1: none)")
    ap.add_argument("--repeats", type=int, default=2)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} at the start", flush=True)
    dbs = compact_databases(5, 5, 0, build=False)
    look = compact_lookup(dbs, 5, 5, True)
    t0 = time.perf_counter()
    sparse = sparse_lookup(dbs, 5, 5, True, look.popcount)
    print(f"spread tables ready in {time.perf_counter() - t0:.1f} s ({sparse.nbytes / 1e6:.0f} MB)",
          flush=True)

    def before(tiles: np.ndarray, cap: int) -> tuple:
        return idastar_batch_kernel(tiles, 5, 5, look.tables, look.pattern_tiles, look.pattern_start,
                                    look.pattern_size, look.pattern_of, look.reflect, look.popcount,
                                    cap, 1e18)

    def after(tiles: np.ndarray, cap: int) -> tuple:
        return idastar_sparse_kernel(tiles, 5, 5, sparse.table, sparse.base, sparse.pattern_of, sparse.weight,
                                     sparse.reflect, cap, 1e18)

    print(f"{'#':>3} {'kernel':<8} {'status':>6} {'generated':>12} {'expanded':>12} {'wall s':>7} "
          f"{'CPU s':>7} {'M gen/CPU s':>11}")
    totals = {"compact": [0, 0.0], "sparse": [0, 0.0]}
    for number in (int(n) for n in args.numbers.split(",")):
        k = korf24_instance(number)
        tiles = np.asarray(relabel(SlidingInstance(5, 5, k.start, KORF24_GOAL)).tiles, np.int64)
        seen = {}
        for _ in range(args.repeats):
            for name, kernel in (("compact", before), ("sparse", after)):
                kernel(tiles, 1000)  # compiled and loaded before the clock
                w, c = time.perf_counter(), time.process_time()
                out = kernel(tiles, args.cap)
                wall, cpu = time.perf_counter() - w, time.process_time() - c
                seen.setdefault(name, (out[2], out[5], len(out[1])))
                totals[name][0] += out[2]
                totals[name][1] += cpu
                status = "solved" if out[0] == 1 else "cap"
                print(f"{number:>3} {name:<8} {status:>6} {out[2]:>12,} {out[5]:>12,} {wall:>7.2f} "
                      f"{cpu:>7.2f} {out[2] / max(cpu, 1e-9) / 1e6:>11.2f}", flush=True)
        same = seen["compact"] == seen["sparse"]
        print(f"    nodes generated, expanded and answer length equal: {'yes' if same else 'NO'}")
    rate = {name: g / max(c, 1e-9) / 1e6 for name, (g, c) in totals.items()}
    print(f"all: compact {rate['compact']:.2f} M nodes generated per CPU second, sparse "
          f"{rate['sparse']:.2f} ({rate['sparse'] / max(rate['compact'], 1e-9):.2f}×); load average "
          f"{os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
