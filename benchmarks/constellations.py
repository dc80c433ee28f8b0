"""Benchmark (issue 40 §1): the constellation counter beside today's bitboard and the C reference.

For each n, in one invocation and interleaved (each repeat runs every contender once, so all
see the machine in the same state): the ``constellations`` solver on 1 thread and on every
core, ``bitboard`` (its default, all eight symmetries, every core) and ``bitboard --param
symmetry=mirror`` for n ≤ 16, each as a sealed ``count nqueens N --unique`` run judged by
the harness (the record's timed phase, warm-up excluded); and the single-thread C mirror
counter of ``benchmarks/bitboard_vs_c.py`` as a whole process. Prints seconds (best of
--repeats, or of --repeats-large from n = 17 on) and the ratios bitboard / constellations
(every core) and C / constellations (one thread). n = 18 takes several minutes (the C counter
alone about two): pass --sizes 14,15,16,17,18.

    python benchmarks/constellations.py [--sizes 14,15,16,17] [--repeats 3] [--repeats-large 1]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bitboard_vs_c import C_SOURCE

from puzzlebench.contract import Budget
from puzzlebench.harness.execute import run_count
from puzzlebench.problems import get_problem
from puzzlebench.records.record import Outcome

#: (column heading, solver, parameters, largest n it is run at).
CONTENDERS: tuple[tuple[str, str, dict[str, object], int], ...] = (
    ("constellations 1 thread", "constellations", {"threads": 1}, 99),
    ("constellations all cores", "constellations", {"threads": 0}, 99),
    ("bitboard (full symmetry)", "bitboard", {}, 99),
    ("bitboard mirror", "bitboard", {"symmetry": "mirror"}, 16),
)


def timed_count(solver: str, params: dict[str, object], n: int) -> tuple[float, int, int]:
    """(timed phase in seconds, count, unique count) of one judged run."""
    rec = run_count(solver, get_problem("nqueens").make(n), unique=True, params=params,
                    budget=Budget(time_limit=3600))
    if rec.verdict.outcome is not Outcome.SOLVED or not rec.verdict.verified:
        v = rec.verdict
        sys.exit(f"{solver} {params} n={n}: {v.outcome.value} {v.reason} {v.error}")
    return rec.figures.time_s, int(rec.verdict.count or 0), int(rec.verdict.unique or 0)


def c_count(exe: Path, n: int) -> tuple[float, int]:
    start = time.perf_counter()
    out = subprocess.run([str(exe), str(n)], capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - start, int(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--sizes", default="14,15,16,17")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--repeats-large", type=int, default=1, help="repeats from n = 17 on")
    ap.add_argument("--no-c", action="store_true", help="leave the C reference out")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None and not args.no_c:
        sys.exit("no C compiler found (or pass --no-c)")
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load average at start {os.getloadavg()[0]:.2f}; best of {args.repeats} "
          f"({args.repeats_large} from n = 17)")
    for _, solver, params, _ in CONTENDERS:  # warm caches (numba, the fork server)
        timed_count(solver, params, 8)
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "nq"
        if not args.no_c:
            (Path(tmp) / "nq.c").write_text(C_SOURCE)
            subprocess.run([cc or "cc", "-O3", "-march=native", "-o", str(exe),
                            str(Path(tmp) / "nq.c")], check=True)
        heads = [h for h, *_ in CONTENDERS] + ([] if args.no_c else ["C mirror 1 thread"])
        print("| n | " + " | ".join(f"{h} (s)" for h in heads)
              + " | bitboard / constellations (all cores) | C / constellations (1 thread) | count | unique |")
        print("|" + " --- |" * (len(heads) + 5))
        for n in sizes:
            best: dict[str, float] = {}
            counts: set[tuple[int, int]] = set()
            c_total: set[int] = set()
            for _ in range(args.repeats if n < 17 else args.repeats_large):
                for head, solver, params, top in CONTENDERS:
                    if n > top:
                        continue
                    t, total, unique = timed_count(solver, params, n)
                    counts.add((total, unique))
                    best[head] = min(best.get(head, float("inf")), t)
                if not args.no_c:
                    t, total = c_count(exe, n)
                    c_total.add(total)
                    best["C mirror 1 thread"] = min(best.get("C mirror 1 thread", float("inf")), t)
            assert len(counts) == 1 and c_total <= {next(iter(counts))[0]}, (counts, c_total)
            total, unique = next(iter(counts))
            cells = [f"{best[h]:.3f}" if h in best else "–" for h in heads]
            bb = best["bitboard (full symmetry)"] / best["constellations all cores"]
            cr = (f"{best['C mirror 1 thread'] / best['constellations 1 thread']:.2f}"
                  if "C mirror 1 thread" in best else "–")
            print(f"| {n} | " + " | ".join(cells) + f" | {bb:.2f} | {cr} | {total} | {unique} |",
                  flush=True)
    print(f"# load average at end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
