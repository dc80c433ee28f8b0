"""The constellation kernel against variants of it, alternated finely: CPU seconds of each.

Each variant is a copy of ``puzzlebench_baselines/constellation_kernel.py`` (edited) given by
its path; the installed kernel is the first contender. Every contender, the installed one
too, is compiled afresh in this process: a kernel reloaded from numba's on-disk cache can run
at another speed than the same source freshly compiled (one variant here: 0.945 of the
installed kernel's CPU time fresh, 1.072 reloaded, n = 17), so a variant's gain must also be
confirmed the way ``count`` runs it (installed, then ``benchmarks/constellations.py``).
The representatives of each size (in
the counter's order) are split into chunks, and every chunk is counted by each contender in
turn, the order rotating from chunk to chunk, so a neighbour's load falls on all of them alike
(on a busy 2-core machine whole-run A/B timings swing by ±10%, these by about ±3%). Totals and
queens placed are printed beside the times: a variant that changes them is wrong (totals) or
searches another tree (queens placed).

    python benchmarks/constellation_ab.py /tmp/variant.py [--sizes 16,17] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from types import ModuleType

import numpy as np

from puzzlebench_baselines import constellation_kernel
from puzzlebench_baselines.constellation_counter import schedule
from puzzlebench_baselines.constellations import representatives


def _load(path: Path, index: int) -> ModuleType:
    """A kernel variant run from its file under a name of its own, compiled afresh: numba's
    on-disk cache cannot reload functions of a module imported from a path."""
    name = f"kernel_variant_{index}"
    module = ModuleType(name)
    module.__file__ = str(path)
    sys.modules[name] = module
    source = path.read_text(encoding="utf-8").replace("cache=True", "cache=False")
    exec(compile(source, str(path), "exec"), module.__dict__)
    return module


def compare(n: int, kernels: list[ModuleType], repeats: int, chunks: int) -> None:
    """Print, per repeat, each kernel's CPU seconds over all of n's representatives."""
    reps = representatives(n)[schedule(n)]
    rows = np.ascontiguousarray(reps[:, [0, 1, 2, 3, 5]])
    warm = np.ascontiguousarray(representatives(8)[:, [0, 1, 2, 3, 5]])
    for k in kernels:
        k.count_batch(8, warm, np.inf)  # compile before timing
    parts = np.array_split(np.arange(len(rows)), chunks)
    for r in range(repeats):
        cpu = np.zeros(len(kernels))
        totals = [0] * len(kernels)
        nodes = [0] * len(kernels)
        load = os.getloadavg()[0]
        for c, idx in enumerate(parts):
            sub = np.ascontiguousarray(rows[idx])
            for j in range(len(kernels)):
                i = (j + c + r) % len(kernels)
                start = time.process_time()
                out = kernels[i].count_batch(n, sub, np.inf)
                cpu[i] += time.process_time() - start
                totals[i] += int((reps[idx, 4] * out[:, 0]).sum())
                nodes[i] += int(out[:, 3].sum())
        print(f"n={n} repeat {r + 1}: CPU s " + ", ".join(f"{t:.3f}" for t in cpu)
              + "; / installed " + ", ".join(f"{t / cpu[0]:.3f}" for t in cpu)
              + f"; totals {totals}; queens placed {nodes}; load {load:.1f}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+", type=Path, help="edited copies of the kernel")
    parser.add_argument("--sizes", default="16")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--chunks", type=int, default=128)
    args = parser.parse_args(argv)
    try:
        sizes = [int(v) for v in args.sizes.split(",")]
    except ValueError:
        print(f"constellation_ab: --sizes takes integers like 16,17, not {args.sizes!r}",
              file=sys.stderr)
        return 2
    missing = [str(p) for p in args.variants if not p.is_file()]
    if missing or not all(8 <= n <= 32 for n in sizes) or args.repeats < 1 or args.chunks < 1:
        print("constellation_ab: " + (f"no such file: {', '.join(missing)}" if missing else
              "sizes must lie in 8..32, --repeats and --chunks be positive"), file=sys.stderr)
        return 2
    installed = Path(constellation_kernel.__file__)
    kernels = [_load(p, i) for i, p in enumerate([installed, *args.variants])]
    print("kernels: installed, " + ", ".join(str(p) for p in args.variants))
    for n in sizes:
        compare(n, kernels, args.repeats, args.chunks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
