"""Compiled solvers of a git revision against the working tree: same runs, identical results,
best-of-K solve time of each (the check behind every split or restructuring of a numba kernel:
issue 16's helper steps, issue 31's stepped kernels).

Each side runs in a process of its own — the revision from a ``git worktree`` of it, the
working tree as it is — so that the kernels may change name, signature or module between the
two: only the solvers' names and ``solve`` are compared. Each side warms every solver (compiles
its kernels) before anything is timed; the sides alternate between repetitions.

    python benchmarks/kernel_split.py [--rev HEAD~1] [--repeats 5] [--only qs4]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: (label, solver, problem, size, problem options, solver parameters, seed)
CASES: list[tuple[str, str, str, int, dict[str, object], dict[str, object], int]] = [
    ("qs4 n=1,000,000", "qs4", "nqueens", 1_000_000, {}, {}, 1),
    ("qs4 n=100,000", "qs4", "nqueens", 100_000, {}, {}, 3),
    ("qs4 torus n=1,009", "qs4", "torus-queens", 1_009, {}, {}, 4),
    ("first-choice-hc n=20 A=9", "first-choice-hc", "queens-knights", 20, {"queens": 9}, {}, 1),
    ("stochastic-hc n=16 A=6", "stochastic-hc", "queens-knights", 16, {"queens": 6}, {}, 2),
    ("first-choice-hc n=30", "first-choice-hc", "nqueens", 30, {}, {}, 3),
    ("stochastic-hc n=24", "stochastic-hc", "nqueens", 24, {}, {}, 6),
    ("min-conflicts n=10,000", "min-conflicts", "nqueens", 10_000, {}, {}, 1),
    ("astar-linear-conflict 876543210", "astar-linear-conflict", "sliding", 8,
     {"start": "876543210"}, {}, 0),
    ("greedy-manhattan 647850321", "greedy-manhattan", "sliding", 8, {"start": "647850321"}, {}, 0),
    ("idastar-linear-conflict korf #12", "idastar-linear-conflict", "sliding", 15,
     {"korf": "12"}, {}, 0),
    ("idastar-pdb korf #79", "idastar-pdb", "sliding", 15, {"korf": "79"}, {}, 0),
    ("idastar-pdb korf #60", "idastar-pdb", "sliding", 15, {"korf": "60"}, {}, 0),
    ("idastar-pdb korf #88 reflect=false", "idastar-pdb", "sliding", 15, {"korf": "88"},
     {"reflect": False}, 0),
]

#: Run inside each side's process: warm every case, then time them; JSON on stdout.
SIDE = r"""
import hashlib, json, sys, time
import numpy as np
from puzzlebench.solvers.registry import REGISTRY
from puzzlebench.problems import get_problem
cases, repeats = json.loads(sys.argv[1]), int(sys.argv[2])
find = getattr(REGISTRY, "load", None) or getattr(REGISTRY, "get")
def instance(problem, size, options):
    options = dict(options)
    korf = options.pop("korf", None)
    if korf is not None:
        from puzzlebench.problems.korf_instances import KORF_GOAL, korf_instance
        start = korf_instance(int(korf)).start
        options = {"start": ",".join(map(str, start)), "goal": ",".join(map(str, KORF_GOAL))}
    return get_problem(problem).make(size, **options)
def solve(case):
    label, name, problem, size, options, params, seed = case
    spec = find(name)
    inst = instance(problem, size, options)
    t = time.perf_counter()
    proposal = spec.create(**params).solve(inst, _budget(), np.random.default_rng(seed))
    took = time.perf_counter() - t
    answer = getattr(proposal, "answer", None)
    digest = hashlib.sha256(repr(answer if answer is None else list(answer)).encode()).hexdigest()
    return took, digest[:16]
def _budget():
    from puzzlebench.contract import Budget
    return Budget(time_limit=120.0)
out = {}
for case in cases:  # warm: every kernel compiled (or loaded) before anything is timed
    solve(case)
for case in cases:
    times, digests = [], set()
    for _ in range(repeats):
        took, digest = solve(case)
        times.append(took)
        digests.add(digest)
    out[case[0]] = {"best": min(times), "digests": sorted(digests)}
print(json.dumps(out))
"""


def side(src_root: Path, cases: list[tuple[object, ...]], repeats: int) -> dict[str, dict]:
    """One side's results: a fresh process whose ``puzzlebench`` is the one under ``src_root``."""
    path = os.pathsep.join([str(src_root / "src"), str(src_root / "baselines")])
    env = {**os.environ, "PYTHONPATH": path}
    done = subprocess.run([sys.executable, "-c", SIDE, json.dumps(cases), str(repeats)],
                          capture_output=True, text=True, env=env, cwd=src_root, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{src_root}: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rev", default="HEAD~1", help="The git revision to compare against.")
    ap.add_argument("--repeats", type=int, default=5, help="Timed solves per case and side.")
    ap.add_argument("--rounds", type=int, default=2, help="Alternations of the two sides.")
    ap.add_argument("--only", default="", help="Run the cases whose label starts with this.")
    args = ap.parse_args()
    cases = [c for c in CASES if c[0].startswith(args.only)]
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "rev"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(tree), args.rev],
                       cwd=ROOT, check=True)
        try:
            best: dict[str, dict[str, float]] = {"rev": {}, "tree": {}}
            digests: dict[str, dict[str, set[str]]] = {"rev": {}, "tree": {}}
            for k in range(args.rounds):
                order = [("rev", tree), ("tree", ROOT)]
                for name, root in order if k % 2 == 0 else order[::-1]:
                    for label, got in side(root, cases, args.repeats).items():
                        best[name][label] = min(best[name].get(label, float("inf")), got["best"])
                        digests[name].setdefault(label, set()).update(got["digests"])
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                           check=False)
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores; best of "
          f"{args.repeats} x {args.rounds} solves per side; rev {args.rev} vs working tree")
    print(f"{'case':38} {'rev (s)':>10} {'tree (s)':>10} {'tree/rev':>9}  same answer")
    for label, *_ in cases:
        old, new = best["rev"][label], best["tree"][label]
        same = digests["rev"][label] == digests["tree"][label] and len(digests["tree"][label]) == 1
        print(f"{label:38} {old:10.4f} {new:10.4f} {new / old:9.3f}  {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
