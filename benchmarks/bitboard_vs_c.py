"""Benchmark: `puzzlebench count nqueens N` against a single-thread C bitboard counter.

Compiles a textbook C counter (bitboards, mirror symmetry on the first row) with the system
compiler, times it and `puzzlebench count nqueens N` as whole commands in the same run (best
of --repeats), and prints the ratio puzzlebench / C. puzzlebench runs twice: with its default
eight-symmetry enumeration, and with ``--param symmetry=mirror`` (the same halving as the C
counter, so that ratio compares implementations rather than algorithms). Goal: ratio <= 1.0
at n = 16 (puzzlebench uses both cores), and n = 17 (95,815,104 solutions) in under 15 s.

    python benchmarks/bitboard_vs_c.py [--sizes 16,17] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from installed_command import installed_command

C_SOURCE = r"""
#include <stdio.h>
#include <stdlib.h>
static int n; static unsigned full;
static long long solve(unsigned cols, unsigned ld, unsigned rd) {
    if (cols == full) return 1;
    long long count = 0;
    unsigned avail = full & ~(cols | ld | rd);
    while (avail) {
        unsigned bit = avail & -avail;
        avail ^= bit;
        count += solve(cols | bit, ((ld | bit) << 1) & full, (rd | bit) >> 1);
    }
    return count;
}
int main(int argc, char **argv) {
    n = atoi(argv[1]); full = (1u << n) - 1; long long total = 0;
    for (int c = 0; c < n / 2; c++) { unsigned b = 1u << c; total += 2 * solve(b, (b << 1) & full, b >> 1); }
    if (n % 2) { unsigned b = 1u << (n / 2); total += solve(b, (b << 1) & full, b >> 1); }
    printf("%lld\n", total); return 0;
}
"""


def best_time(cmd: list[str], repeats: int) -> tuple[float, str]:
    best, out = float("inf"), ""
    for _ in range(repeats):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, check=True)
        best = min(best, time.perf_counter() - t0)
        out = proc.stdout
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="16,17")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        sys.exit("no C compiler found")
    cli = installed_command()
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = Path(tmp) / "nq.c", Path(tmp) / "nq"
        src.write_text(C_SOURCE)
        subprocess.run([cc, "-O3", "-march=native", "-o", str(exe), str(src)], check=True)
        subprocess.run([*cli, "count", "nqueens", "8"], capture_output=True, check=True)  # warm caches
        print(f"{'n':>3} {'C mirror 1 thread (s)':>22} {'puzzlebench (s)':>16} {'ratio':>6}"
              f" {'pb mirror (s)':>14} {'ratio':>6}  count")
        for n in [int(s) for s in args.sizes.split(",")]:
            t_c, out_c = best_time([str(exe), str(n)], args.repeats)
            base = [*cli, "count", "nqueens", str(n), "--json"]
            t_p, out_p = best_time(base, args.repeats)
            t_m, out_m = best_time([*base, "--param", "symmetry=mirror"], args.repeats)
            count_c = int(out_c)
            for out in (out_p, out_m):
                assert count_c == int(json.loads(out)["count"]), (count_c, out)
            print(f"{n:>3} {t_c:>22.3f} {t_p:>16.3f} {t_p / t_c:>6.2f} {t_m:>14.3f}"
                  f" {t_m / t_c:>6.2f}  {count_c}")


if __name__ == "__main__":
    main()
