"""The numba kernels split into named helper steps (issue 16 §2), against their previous form:
same inputs, identical outputs, best-of-K wall time of each, in one process.

The previous form of each module is read from a git revision (``--rev``, default the commit
before the split) and imported beside the working tree's; both are compiled (warmed) before
anything is timed, and the order alternates between repetitions.

    python benchmarks/kernel_split.py [--rev 3c1f1c0] [--repeats 7]
"""

from __future__ import annotations

import argparse
import importlib.util
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from puzzlebench.local.compiled_random import new_state
from puzzlebench.problems import get_problem
from puzzlebench.problems.korf_instances import KORF_GOAL, korf_instance
from puzzlebench.trace import buffers

ROOT = Path(__file__).resolve().parents[1]
MODULES = {"qs4": "src/puzzlebench/local/qs4.py",
           "hill_climbing": "src/puzzlebench/local/hill_climbing.py",
           "sliding_kernels": "src/puzzlebench/search/sliding_kernels.py",
           "idastar": "src/puzzlebench/search/idastar.py",
           "idastar_pdb": "src/puzzlebench/search/idastar_pdb.py"}


def load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def sliding(start: str) -> tuple[np.ndarray, np.ndarray, int, int]:
    inst = get_problem("sliding").make(8, start=start)
    return (np.array(inst.start, np.int64), np.array(inst.goal, np.int64), inst.rows, inst.cols)


def korf(k: int) -> tuple[np.ndarray, np.ndarray, int, int]:
    inst = korf_instance(k)
    return (np.array(inst.start, np.int64), np.array(KORF_GOAL, np.int64), 4, 4)


def cases() -> list[tuple[str, str, str, Callable[[], tuple[Any, ...]]]]:
    """(label, module, kernel, fresh arguments)."""
    out: list[tuple[str, str, str, Callable[[], tuple[Any, ...]]]] = []
    for n, torus, seed in ((1_000_000, False, 1), (100_000, False, 3), (1_009, True, 4),
                           (1_000, True, 5)):
        out.append((f"qs4 n={n} torus={torus}", "qs4", "qs4_kernel",
                    lambda n=n, torus=torus, seed=seed: (
                        n, torus, 32, new_state(np.random.default_rng(seed)), np.inf, 2_000_000,
                        50, *buffers(2048))))
    for n, queens, stochastic, hood, seed in ((20, 9, False, 0, 1), (16, 6, True, 0, 2),
                                              (30, 30, False, 1, 3), (24, 24, True, 1, 6),
                                              (20, 8, True, 3, 4)):
        out.append((f"climb n={n} A={queens} stochastic={stochastic} hood={hood}",
                    "hill_climbing", "climb_kernel",
                    lambda n=n, queens=queens, stochastic=stochastic, hood=hood, seed=seed: (
                        n, queens, stochastic, hood, 180, -1, np.inf,
                        new_state(np.random.default_rng(seed)), queens == n, *buffers(2048))))
    for start, kind, astar in (("876543210", 3, True), ("647850321", 1, True),
                               ("876543210", 3, False), ("806547231", 0, True)):
        out.append((f"best-first {start} kind={kind} astar={astar}", "sliding_kernels",
                    "best_first_kernel",
                    lambda start=start, kind=kind, astar=astar: (
                        *sliding(start), kind, astar, -1, np.inf)))
    for k in (79, 12, 97):
        out.append((f"IDA* korf #{k}", "idastar", "idastar_kernel",
                    lambda k=k: (*korf(k), -1, np.inf)))
    for k in (79, 12, 97):
        out.append((f"IDA*-PDB korf #{k}", "idastar_pdb", "idastar_pdb_kernel",
                    lambda k=k: pdb_arguments(k)))
    return out


def pdb_arguments(k: int) -> tuple[Any, ...]:
    """The compressed 6-6-3 tables as the solver looks them up, for Korf's instance k."""
    from puzzlebench.search.pdb_lookup import databases, lookup
    from puzzlebench.search.sliding_symmetry import relabel

    inst = get_problem("sliding").make(15, start=",".join(map(str, korf_instance(k).start)),
                                       goal=",".join(map(str, KORF_GOAL)))
    rel = relabel(inst)
    look = lookup(databases(rel.rows, rel.cols, rel.blank_goal), rel.rows, rel.cols, rel.reflects)
    return (np.asarray(rel.tiles, np.int64), rel.rows, rel.cols, look.tables, look.offset,
            look.pattern_of, look.weight, look.reflect, -1, np.inf)


def same(a: Any, b: Any) -> bool:
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, np.ndarray):
        return bool(np.array_equal(a, b))
    return bool(a == b)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rev", default="HEAD~1")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--only", default="", help="Run the cases whose label starts with this.")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    before, after = {}, {}
    for name, rel in MODULES.items():
        old = tmp / f"{name}_before.py"
        text = subprocess.run(["git", "show", f"{args.rev}:{rel}"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout
        old.write_text(text.replace("@register\n", ""))  # the registry already holds the name
        before[name] = load(old, f"kernel_before_{name}")
        new = tmp / f"{name}_after.py"
        new.write_text((ROOT / rel).read_text().replace("@register\n", ""))
        after[name] = load(new, f"kernel_after_{name}")
    print(f"{platform.machine()} {platform.processor()}, Python {platform.python_version()}; "
          f"before = {args.rev}, after = working tree; best of {args.repeats}")
    print(f"{'case':48} {'identical':>9} {'before ms':>10} {'after ms':>9} {'after/before':>12}")
    for label, module, kernel, make in cases():
        if not label.startswith(args.only):
            continue
        fns = {"before": getattr(before[module], kernel), "after": getattr(after[module], kernel)}
        for fn in fns.values():
            fn(*make())  # compile and warm
        times: dict[str, list[float]] = {"before": [], "after": []}
        results: dict[str, Any] = {}
        for rep in range(args.repeats):
            for side in (("before", "after") if rep % 2 == 0 else ("after", "before")):
                call = make()
                t = time.perf_counter()
                result = fns[side](*call)
                times[side].append(time.perf_counter() - t)
                results.setdefault(side, result)
        b, a = min(times["before"]), min(times["after"])
        print(f"{label:48} {same(results['before'], results['after'])!s:>9} {b * 1e3:10.2f} "
              f"{a * 1e3:9.2f} {a / b:12.3f}", flush=True)


if __name__ == "__main__":
    main()
