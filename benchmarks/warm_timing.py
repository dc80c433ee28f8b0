"""Benchmark: are the first runs of compiled solvers as fast as the rest? (warm timings)

Runs ``compare queens-knights --sizes 12 --queens 6 --solvers first-choice-hc,stochastic-hc
--repeats 8`` through the installed command and prints, per solver, the max / median run time
(goal ≤ 20; before warm-up it was ≈ 4,000, the first run of each worker paying for JIT) and the
untimed warm-up each run paid.

    python benchmarks/warm_timing.py [--repeats 8]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections import defaultdict

from installed_command import installed_command


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=8)
    args = ap.parse_args()
    cmd = [*installed_command(), "compare", "queens-knights", "--sizes", "12", "--queens", "6",
           "--solvers", "first-choice-hc,stochastic-hc", "--repeats", str(args.repeats), "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode not in (0, 1):
        sys.exit(out.stderr)
    times: dict[str, list[float]] = defaultdict(list)
    warm: dict[str, list[float]] = defaultdict(list)
    for line in out.stdout.splitlines():
        row = json.loads(line)
        times[row["solver"]].append(row["time_s"])
        warm[row["solver"]].append(row["warmup_s"])
    for solver, ts in sorted(times.items()):
        med = statistics.median(ts)
        print(f"{solver}: {len(ts)} runs, median {med * 1e3:.3f} ms, max {max(ts) * 1e3:.3f} ms, "
              f"max/median {max(ts) / med:.1f} (goal ≤ 20); untimed warm-up median "
              f"{statistics.median(warm[solver]) * 1e3:.1f} ms, max {max(warm[solver]) * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
