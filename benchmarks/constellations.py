"""Benchmark (issue 57 §2): `constellations` beside `bitboard` and NQueensFAF, side by side.

For each n and thread count, in one invocation: the ``constellations`` solver and the
``bitboard`` yardstick (its default: all eight symmetries, every core), each as a sealed
``count nqueens N`` run judged by the harness (the record's timed phase, warm-up excluded),
and NQueensFAF's CPU solver (``benchmarks/nqueensfaf.py``: its timed ``start()`` after a JIT
warm-up) when a checkout is named by ``--nqueensfaf DIR`` or ``$NQUEENSFAF`` and Java is
installed. The contenders alternate within each repeat, the order reversed every other
repeat (A B C, C B A, ...), so a neighbour's load falls on all of them, and all run at the
priority the harness gives a sealed run's timed phase (nice -10 where it may). ``bitboard``
has no thread setting: it runs once per n and repeat, the yardstick of both thread counts'
rows.

Prints, per (n, threads), each contender's best wall time over the repeats, the ratios
constellations / NQueensFAF and constellations / bitboard, CPU seconds of constellations and
NQueensFAF, and the load average (1 min) before each measurement; every measurement is also
logged as a ``#`` line. A full n = 18 repeat takes about four minutes on an idle 2-core
machine (``--repeats-large`` sets its repeats, default 1).

    python benchmarks/constellations.py [--sizes 16,17,18] [--threads 1,2] [--repeats 3]
        [--repeats-large 1] [--nqueensfaf DIR] [--no-bitboard]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from functools import partial

from nqueensfaf import NQueensFafError, build, locate
from nqueensfaf import count as faf_count

from puzzlebench.contract import Budget
from puzzlebench.harness.execute import run_count
from puzzlebench.problems import get_problem
from puzzlebench.records.record import Outcome, RunRecord

#: A measurement: (wall seconds, CPU seconds, count).
Measure = Callable[[], tuple[float, float, int]]


def judged(solver: str, params: dict[str, object], n: int) -> RunRecord:
    """One judged ``count nqueens n`` run of ``solver`` (exits on anything but a right count)."""
    rec = run_count(solver, get_problem("nqueens").make(n), params=params,
                    budget=Budget(time_limit=3600))
    if rec.verdict.outcome is not Outcome.SOLVED or not rec.verdict.verified:
        v = rec.verdict
        sys.exit(f"{solver} {params} n={n}: {v.outcome.value} {v.reason} {v.error}")
    return rec


def sealed(solver: str, params: dict[str, object], n: int) -> Measure:
    """A judged run's measurement: its timed phase and CPU seconds."""
    def run() -> tuple[float, float, int]:
        rec = judged(solver, params, n)
        return rec.figures.time_s, rec.figures.cpu_s, int(rec.verdict.count or 0)
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--sizes", default="16,17,18")
    ap.add_argument("--threads", default="1,2", help="thread counts of constellations/NQueensFAF")
    ap.add_argument("--repeats", type=int, default=3, help="repeats below n = 18")
    ap.add_argument("--repeats-large", type=int, default=1, help="repeats from n = 18 on")
    ap.add_argument("--nqueensfaf", help="NQueensFAF checkout (default: $NQUEENSFAF)")
    ap.add_argument("--no-bitboard", action="store_true", help="leave the yardstick out")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    threads = [int(t) for t in args.threads.split(",")]
    checkout = locate(args.nqueensfaf)
    classes = None
    if checkout is not None:
        try:
            classes = build(checkout)
        except NQueensFafError as err:
            sys.exit(f"NQueensFAF: {err}")
    for t in threads:  # warm caches (numba, the fork server)
        judged("constellations", {"threads": t}, 8)
    # The harness raises a sealed run's priority for its timed phase (RUN_NICE, as root):
    # NQueensFAF runs at the same, or a busy machine would favour the sealed runs.
    nice = judged("bitboard", {}, 8).provenance.machine.get("nice")
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load average at start {os.getloadavg()[0]:.2f}; best of {args.repeats} "
          f"({args.repeats_large} from n = 18); every contender at nice {nice}; NQueensFAF: "
          f"{checkout if classes else 'not run (no --nqueensfaf / $NQUEENSFAF)'}", flush=True)
    rows = []
    for n in sizes:
        contenders: list[tuple[str, Measure]] = []
        for t in threads:
            contenders.append((f"constellations {t}", sealed("constellations", {"threads": t}, n)))
            if classes is not None:
                contenders.append((f"NQueensFAF {t}", partial(faf_count, classes, n, t, nice)))
        if not args.no_bitboard:
            contenders.insert(len(contenders) // 2, ("bitboard", sealed("bitboard", {}, n)))
        best: dict[str, tuple[float, float, float]] = {}
        counts: set[int] = set()
        for rep in range(args.repeats if n < 18 else args.repeats_large):
            for head, measure in contenders if rep % 2 == 0 else contenders[::-1]:
                load = os.getloadavg()[0]
                wall, cpu, total = measure()
                counts.add(total)
                print(f"#   n={n} {head}: {wall:.3f} s wall, {cpu:.3f} s CPU, load {load:.2f}",
                      flush=True)
                if wall < best.get(head, (float("inf"),))[0]:
                    best[head] = (wall, cpu, load)
        if len(counts) != 1:
            sys.exit(f"n={n}: the contenders disagree: {sorted(counts)}")
        rows.extend(_rows(n, threads, best))
    print("| n | threads | NQueensFAF (s) | constellations (s) | constellations / NQueensFAF "
          "| bitboard, every core (s) | constellations / bitboard | CPU s: constellations, "
          "NQueensFAF | load |")
    print("|" + " --- |" * 9)
    for row in rows:
        print(row)
    print(f"# load average at end {os.getloadavg()[0]:.2f}")


def _rows(n: int, threads: list[int], best: dict[str, tuple[float, float, float]]) -> list[str]:
    """The table's rows for one n: one per thread count."""
    out = []
    bb = best.get("bitboard")
    for t in threads:
        con, faf = best[f"constellations {t}"], best.get(f"NQueensFAF {t}")
        loads = "/".join(f"{x[2]:.1f}" for x in (faf, con, bb) if x is not None)
        cells = [_s(faf[0]) if faf else "–", _s(con[0]),
                 f"{con[0] / faf[0]:.2f}" if faf else "–", _s(bb[0]) if bb else "–",
                 f"{con[0] / bb[0]:.2f}" if bb else "–",
                 f"{_s(con[1])}, {_s(faf[1]) if faf else '–'}", loads]
        out.append(f"| {n} | {t} | " + " | ".join(cells) + " |")
    return out


def _s(seconds: float) -> str:
    """Seconds to three significant figures (milliseconds matter at small n)."""
    return f"{seconds:.3g}"


if __name__ == "__main__":
    main()
