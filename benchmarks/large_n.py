"""Benchmark: nqueens at very large n as whole commands (solve + independent validation).

``puzzlebench solve nqueens N --solver qs4`` (and mod12 for comparison) timed as a subprocess;
goals for qs4: n = 10^6 under 1 s, n = 10^7 ≤ 6 s; n = 10^8 completes within 24 GiB (peak
RSS printed). Sosic & Gu's QS4 did 3×10^6 in about 55 s on an IBM RS/6000.

    python benchmarks/large_n.py [--sizes 1000000,10000000,100000000]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import time

from installed_command import installed_command


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000000,10000000,100000000")
    ap.add_argument("--solvers", default="qs4,mod12")
    args = ap.parse_args()
    cli = installed_command()
    subprocess.run([*cli, "solve", "nqueens", "1000", "--solver", "qs4"], check=True,
                   capture_output=True)  # compile caches
    for n in [int(s) for s in args.sizes.split(",")]:
        for solver in args.solvers.split(","):
            t0 = time.perf_counter()
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            proc = subprocess.run([*cli, "solve", "nqueens", str(n), "--solver", solver],
                                  capture_output=True, text=True)
            wall = time.perf_counter() - t0
            peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024**2
            line = proc.stdout.strip().splitlines()[0] if proc.stdout.strip() else proc.stderr
            print(f"n = {n:>11,} {solver:>5}: {wall:7.2f} s whole command, peak RSS ≤ "
                  f"{peak:5.1f} GiB | {line[:110]}")


if __name__ == "__main__":
    main()
