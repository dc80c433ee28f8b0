"""Benchmark: informed search against the seeds' figures (issue 4).

1. Seed 001's nine inputs: A* with Manhattan + linear conflict (goal: < 50 ms in total, all
   optimal), printed beside seed 001's own loop (path lengths, nodes) and its published times.
2. A* (linear conflict) on 1,000 random solvable 8-puzzle states: all optimal against the BFS
   table; median time per instance (goal: < 2 ms).
3. Seed 000's grid: H1, H2, H3 × greedy/A* on n = 8..16, 10 random starts each; mean steps and
   time per cell (H3 greedy goal: < 10 s in total).

    python benchmarks/search_speed.py [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from puzzlebench.contract import Budget
from puzzlebench.harness.execute import run_solve
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.problems import get_problem
from puzzlebench.problems.sliding_distances import optimal_length

SEED_001 = {  # input: (seed's step, seed's node count, seed's seconds)
    "125408367": (388, 667, 4.609), "876403521": (341, 568, 3.703), "142635780": (90, 154, 0.258),
    "327601845": (536, 909, 8.404), "876543210": (503, 860, 7.828), "347508621": (325, 558, 3.237),
    "617805234": (526, 901, 8.277), "760843521": (557, 929, 8.893), "102643785": (86, 146, 0.222),
}


def timed_solve(name: str, instance, seed: int = 0, budget: Budget | None = None):  # type: ignore[no-untyped-def]
    solver = resolve_solver(name).create()
    t0 = time.perf_counter()
    proposal = solver.solve(instance, budget or Budget(), np.random.default_rng(seed))
    return proposal, time.perf_counter() - t0


def nine_inputs() -> None:
    sl = get_problem("sliding")
    instances = {s: sl.make(8, start=s) for s in SEED_001}
    timed_solve("astar-linear-conflict", instances["125408367"])  # load compiled code
    total = 0.0
    print("input      optimum | A*-LC moves nodes   ms | seed-loop moves examined generated |"
          " seed: step nodes   s")
    for start, (step, nodes, secs) in SEED_001.items():
        inst = instances[start]
        prop, dt = timed_solve("astar-linear-conflict", inst)
        total += dt
        loop, _ = timed_solve("seed001-loop", inst)
        opt = optimal_length(inst.start)
        assert len(prop.answer) == opt and sl.validate(inst, prop.answer).valid
        print(f"{start}  {opt:>7} | {len(prop.answer):>11} {prop.counters['nodes_expanded']:>5}"
              f" {dt * 1000:>4.1f} | {len(loop.answer):>15} {loop.counters['nodes_examined']:>8}"
              f" {loop.counters['nodes_generated']:>9} | {step:>10} {nodes:>5} {secs:>5.2f}")
    print(f"A* + linear conflict, nine inputs: {total * 1000:.1f} ms in total (goal < 50 ms)\n")


def random_states(count: int) -> None:
    sl = get_problem("sliding")
    rng = np.random.default_rng(2026)
    times, optimal = [], 0
    while len(times) < count:
        start = tuple(int(t) for t in rng.permutation(9))
        inst = sl.make(8, start="".join(map(str, start)))
        if not sl.is_solvable(inst):
            continue
        prop, dt = timed_solve("astar-linear-conflict", inst)
        times.append(dt)
        optimal += len(prop.answer) == optimal_length(start)
    print(f"A* + linear conflict on {count} random 8-puzzles: {optimal}/{count} optimal, "
          f"median {statistics.median(times) * 1000:.2f} ms, max {max(times) * 1000:.1f} ms "
          f"(goal: median < 2 ms)\n")


def seed000_grid(sizes: range, starts: int, limit: float) -> None:
    nq = get_problem("nqueens")
    print(f"seed 000 grid, {starts} random starts per cell, {limit:.0f} s limit per run: "
          "mean steps / mean time (s) / solved")
    solvers = ["greedy-h1", "astar-h1", "greedy-h2", "astar-h2", "greedy-h3", "astar-h3"]
    print("  n " + "".join(f"{s:>24}" for s in solvers))
    h3_greedy_total = 0.0
    for n in sizes:
        cells = []
        for s in solvers:
            steps, secs, solved = [], [], 0
            for seed in range(starts):
                rec = run_solve(s, nq.make(n), seed=seed, budget=Budget(time_limit=limit))
                secs.append(rec.figures.time_s)
                if rec.verdict.outcome.value == "solved":
                    solved += 1
                    steps.append(rec.figures.counters["steps"])
            if s == "greedy-h3":
                h3_greedy_total += sum(secs)
            mean_steps = f"{statistics.mean(steps):.1f}" if steps else "-"
            cells.append(f"{mean_steps:>8} {statistics.mean(secs):>8.3f} {solved:>3}/{starts}")
        print(f"{n:>3} " + " ".join(f"{c:>23}" for c in cells))
    print(f"greedy-h3 over the grid: {h3_greedy_total:.2f} s in total (goal < 10 s)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smaller sample and grid")
    args = ap.parse_args()
    nine_inputs()
    random_states(200 if args.quick else 1000)
    seed000_grid(range(8, 11) if args.quick else range(8, 17), 3 if args.quick else 10,
                 1.0 if args.quick else 5.0)


if __name__ == "__main__":
    main()
