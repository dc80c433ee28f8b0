"""Benchmark (issue 40 §2): a split count on 1 and 2 local workers and on a local Dask cluster.

For each n: the count of board n split ``constellations:K`` (each sub-problem a sealed,
judged, stored run of the ``constellations`` solver on one thread) made from an empty store on
1 local worker, on 2 local workers, and on a Dask ``LocalCluster`` of 2 single-threaded worker
processes on loopback (same machine); beside them, in the same invocation, the direct count
(one sealed run) on 1 thread and on every core, for the cost of splitting. Prints the wall
time of each (the whole ``count_split`` call: start-up, every run, judging and storing) and
its ratio to one worker's, and checks every total against OEIS.

    python benchmarks/split_count.py [--sizes 18] [--parts 64] [--modes direct,1,2,dask]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from puzzlebench.contract import Budget
from puzzlebench.harness.campaign.split_count import count_split
from puzzlebench.harness.execute import run_count
from puzzlebench.problems import get_problem
from puzzlebench.records.record import Outcome


def direct(n: int, threads: int) -> float:
    """Wall seconds of one sealed direct count (the command's whole run, not its timed phase)."""
    started = time.perf_counter()
    rec = run_count("constellations", get_problem("nqueens").make(n), params={"threads": threads},
                    budget=Budget(time_limit=7200))
    v = rec.verdict
    assert v.outcome is Outcome.SOLVED and v.verified, (v.outcome, v.reason)
    return time.perf_counter() - started


def split(n: int, parts: int, workers: int | None, scheduler: str | None) -> float:
    """Wall seconds of a split count into an empty store."""
    with tempfile.TemporaryDirectory() as tmp:
        result = count_split("constellations", n, f"constellations:{parts}",
                             Path(tmp) / "split.sqlite", params={"threads": 1},
                             workers=workers, scheduler=scheduler, quiet=True)
    assert result.status == "verified", result
    return result.wall_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="18")
    parser.add_argument("--parts", type=int, default=64)
    parser.add_argument("--modes", default="direct,1,2,dask")
    args = parser.parse_args()
    modes = args.modes.split(",")
    cluster = client = None
    if "dask" in modes:
        import dask
        from distributed import Client, LocalCluster

        dask.config.set({"distributed.worker.daemon": False})  # a worker starts each run
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None)
        client = Client(cluster)
    print(f"machine: {os.cpu_count()} cores; split constellations:{args.parts}, each part "
          "on 1 thread; wall seconds of the whole call (1 run each)")
    print(f"{'n':>3} {'mode':<34} {'seconds':>9} {'vs 1 worker':>12}")
    try:
        for n in (int(s) for s in args.sizes.split(",")):
            rows: list[tuple[str, float]] = []
            if "direct" in modes:
                rows += [("direct, 1 thread (one run)", direct(n, 1)),
                         ("direct, every core (one run)", direct(n, 0))]
            if "1" in modes:
                rows.append(("split, 1 local worker", split(n, args.parts, 1, None)))
            if "2" in modes:
                rows.append(("split, 2 local workers", split(n, args.parts, 2, None)))
            if cluster is not None:
                rows.append(("split, Dask LocalCluster 2 workers",
                             split(n, args.parts, None, cluster.scheduler_address)))
            one = dict(rows).get("split, 1 local worker")
            for label, secs in rows:
                ratio = f"{secs / one:.2f}" if one else "-"
                print(f"{n:>3} {label:<34} {secs:>9.2f} {ratio:>12}", flush=True)
    finally:
        if client is not None and cluster is not None:
            client.close()
            cluster.close()


if __name__ == "__main__":
    main()
