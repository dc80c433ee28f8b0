"""How long the judge takes to certify infeasibility, by size: CaDiCaL's proof of the judge's
CNF and dratify's check of it (``harness.judging.proofs``), per generated nqueens-completion
instance (seeded by the size, as ``agree --generate`` draws them), and on the other families'
instances no rule decides (queens-knights) or a rule does (nqueens n = 2, 3; torus sizes without
solutions). Each certification runs exactly as the judge runs it: in a process of its own under its
time limit. Instances the judge's CaDiCaL solves are counted apart (refuted, not certified).

    python benchmarks/certification_times.py --sizes 16..28 --generate 5
    python benchmarks/certification_times.py --sizes 30,40,50 --generate 5 --families
    python benchmarks/certification_times.py --sizes 40,60,80,100 --fraction 0.7
    python benchmarks/certification_times.py --sizes "" --torus 14..20 --queens-knights 9..11
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import numpy as np

from puzzlebench.harness.judging.proofs import CERTIFIED, REFUTED, prove_infeasible
from puzzlebench.problems import get_problem
from puzzlebench.problems.cnf import encode
from puzzlebench.problems.nqueens_completion import CompletionInstance, _random_placement
from puzzlebench.problems.queens_knights import QueensKnightsInstance


def sizes_of(text: str) -> list[int]:
    if ".." in text:
        lo, hi = text.split("..")
        return list(range(int(lo), int(hi) + 1))
    return [int(t) for t in text.split(",")]


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--sizes", default="16..28")
    ap.add_argument("--generate", type=int, default=5)
    ap.add_argument("--limit", type=float, default=60.0, help="certification time limit (s)")
    ap.add_argument("--fraction", type=float, default=None,
                    help="pre-placed queens per row (default: the generator's, 0.5); larger "
                         "sizes need more to be infeasible")
    ap.add_argument("--families", action="store_true",
                    help="also nqueens 2, 3, torus 2..12 and queens-knights A without a rule")
    ap.add_argument("--torus", default="", help="torus sizes (unsolvable ones are certified)")
    ap.add_argument("--queens-knights", default="",
                    help="queens-knights sizes (every 0 < A < n, one row per size)")
    args = ap.parse_args()
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print("n | instances | certified | refuted | other | clauses | check s median (max) | "
          "solve s median (max) | wall s max")
    prob = get_problem("nqueens-completion")
    for n in sizes_of(args.sizes) if args.sizes else []:
        if args.fraction is None:
            insts = prob.generate(n, args.generate, np.random.default_rng(n))
        else:
            rng, insts = np.random.default_rng(n), []
            while len(insts) < args.generate:
                placed = _random_placement(n, round(args.fraction * n), rng)
                if placed is not None:
                    insts.append(CompletionInstance(n, placed))
        _row(str(n), insts, args.limit)
    if args.families:
        qk = [QueensKnightsInstance(n, a) for n in range(2, 9) for a in range(1, n)]
        for label, insts in (("nqueens 2,3", [get_problem("nqueens").make(n) for n in (2, 3)]),
                             ("torus 2..12 unsolvable",
                              [get_problem("torus-queens").make(n) for n in range(2, 13)
                               if np.gcd(n, 6) != 1]),
                             ("queens-knights n ≤ 8, 0 < A < n", qk)):
            _row(label, insts, args.limit)
    for n in sizes_of(args.torus) if args.torus else []:
        if np.gcd(n, 6) != 1:
            _row(f"torus {n}", [get_problem("torus-queens").make(n)], args.limit)
    for n in sizes_of(args.queens_knights) if args.queens_knights else []:
        _row(f"queens-knights {n}", [QueensKnightsInstance(n, a) for a in range(1, n)], args.limit)


def _row(label: str, insts: list, limit: float) -> None:  # type: ignore[type-arg]
    checks, solves, walls, clauses = [], [], [], []
    certified = refuted = other = 0
    notes = []
    for inst in insts:
        clauses.append(len(encode(inst).clauses))
        t = time.perf_counter()
        got = prove_infeasible(inst, time_limit=limit)
        walls.append(time.perf_counter() - t)
        if got.status == CERTIFIED:
            certified += 1
            checks.append(got.check_s or 0.0)
            solves.append(got.solve_s or 0.0)
        elif got.status == REFUTED:
            refuted += 1
        else:
            other += 1
            notes.append(f"{inst.instance_id}: {got.text}")

    def stat(values: list[float]) -> str:
        return f"{statistics.median(values):.3f} ({max(values):.3f})" if values else "-"

    print(f"{label} | {len(insts)} | {certified} | {refuted} | {other} | "
          f"{min(clauses)}-{max(clauses)} | {stat(checks)} | {stat(solves)} | {max(walls):.2f}")
    for note in notes:
        print(f"    {note}")


if __name__ == "__main__":
    main()
