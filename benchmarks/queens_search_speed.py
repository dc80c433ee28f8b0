"""Benchmark: seed 000's searches, pure Python against compiled, side by side (issue 57 §1).

Greedy best-first and A* with H1, H2 and H3 on n-queens: for every solver, the same starts
(``--sizes``, seeds ``0 .. --seeds − 1``, the same node cap) are searched by the pure-Python
reference (``queens_search.reference_search``) and by the compiled kernel
(``queens_search.compiled_search``), alternately, in this one process, the kernel loaded
first. Every pair must give equal counters and answers (checked, not assumed). Per solver:
nodes generated, each side's time (wall and CPU of this process), nodes generated per second
and the ratio (target: ≥ 20×). Beside it the load average, since the machine may be shared.

    python benchmarks/queens_search_speed.py [--sizes 8,9,10] [--seeds 5] [--max-nodes 200000]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from puzzlebench.contract import Budget
from puzzlebench.problems import get_problem
from puzzlebench.search.queens.queens_search import compiled_search, reference_search

SOLVERS = [("greedy", "h1"), ("astar", "h1"), ("greedy", "h2"), ("astar", "h2"),
           ("greedy", "h3"), ("astar", "h3")]


def timed(search, instance, budget: Budget, seed: int, heuristic: str, astar: bool):  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), time.process_time()
    proposal = search(instance, budget, np.random.default_rng(seed), heuristic, astar)
    return proposal, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="8,9,10", help="n-queens sizes, comma-separated")
    ap.add_argument("--seeds", type=int, default=5, help="random starts per size")
    ap.add_argument("--max-nodes", type=int, default=200_000,
                    help="node cap of every search (both sides stop at the same node)")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    budget = Budget(max_nodes=args.max_nodes)
    nq = get_problem("nqueens")
    compiled_search(nq.make(8), budget, np.random.default_rng(0), "h1", True)  # load the kernel
    print(f"n = {args.sizes}, seeds 0..{args.seeds - 1}, node cap {args.max_nodes:,}; "
          f"load average at the start {os.getloadavg()[0]:.2f}")
    print(f"{'solver':<10} {'runs':>4} {'nodes generated':>16} | {'Python s':>9} {'(cpu)':>7}"
          f" {'nodes/s':>9} | {'compiled s':>10} {'(cpu)':>7} {'nodes/s':>11} | {'ratio':>6}"
          f" {'(cpu)':>6}")
    all_py = all_c = all_pc = all_cc = 0.0
    all_nodes = 0
    for kind, heuristic in SOLVERS:
        astar = kind == "astar"
        nodes, py, pc, c, cc, runs = 0, 0.0, 0.0, 0.0, 0.0, 0
        for n in sizes:
            for seed in range(args.seeds):
                instance = nq.make(n)
                ref, wall, cpu = timed(reference_search, instance, budget, seed, heuristic, astar)
                py, pc = py + wall, pc + cpu
                fast, wall, cpu = timed(compiled_search, instance, budget, seed, heuristic, astar)
                c, cc = c + wall, cc + cpu
                if (ref.answer, ref.claim, ref.counters) != (fast.answer, fast.claim,
                                                             fast.counters):
                    raise SystemExit(f"{kind}-{heuristic} n={n} seed={seed}: the searches "
                                     f"differ: {ref.counters} against {fast.counters}")
                nodes += ref.counters["nodes_generated"]
                runs += 1
        print(f"{kind}-{heuristic:<4} {runs:>4} {nodes:>16,} | {py:>9.3f} {pc:>7.3f}"
              f" {nodes / py:>9,.0f} | {c:>10.4f} {cc:>7.4f} {nodes / c:>11,.0f} |"
              f" {py / c:>5.1f}× {pc / max(cc, 1e-9):>5.1f}×")
        all_py, all_c, all_pc, all_cc, all_nodes = (all_py + py, all_c + c, all_pc + pc,
                                                    all_cc + cc, all_nodes + nodes)
    print(f"{'all':<10} {'':>4} {all_nodes:>16,} | {all_py:>9.3f} {all_pc:>7.3f}"
          f" {all_nodes / all_py:>9,.0f} | {all_c:>10.4f} {all_cc:>7.4f}"
          f" {all_nodes / all_c:>11,.0f} | {all_py / all_c:>5.1f}× {all_pc / all_cc:>5.1f}×")
    print(f"counters and answers equal in every pair; load average at the end "
          f"{os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
