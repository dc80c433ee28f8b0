"""Benchmark: how long one-shot commands take, whole, as a user waits for them.

Each command is run as the installed console script (kernels cached, every isolation
guarantee on), ``--repeats`` times in a row after one untimed run, and its median wall time is
printed beside the issue's target and beside the interpreter's own start-up measured in the
same invocation (``python -c pass``), so the figures read the same on a faster machine.

    python benchmarks/one_shot.py [--repeats 7]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

#: (command line, target seconds from issue 38 §5)
COMMANDS: tuple[tuple[str, float], ...] = (
    ("--help", 0.4),
    ("count nqueens 4", 1.0),
    ("solve nqueens 8 --solver bitboard", 1.0),
    ("solve nqueens 8 --solver mod12", 0.6),
    ("solve nqueens 8 --solver backtracking", 0.6),
    ("solve nqueens 8 --solver min-conflicts", 0.6),
    ("solve nqueens 8 --solver greedy-h1", 1.0),  # compiled since issue 57 (0.6 before)
    ("solve nqueens 8 --solver constellations", 1.0),
    # commands that make no run: "one-shot commands answer within a second"
    ("check nqueens 8 --answer 0,4,7,5,2,6,1,3", 1.0),
    ("studies", 1.0),
    ("solvers --problem sliding", 1.0),
    ("problems", 1.0),
)


def wall(argv: list[str], repeats: int) -> float:
    """Median seconds of ``repeats`` runs of ``argv`` (after one untimed run)."""
    subprocess.run(argv, check=False, capture_output=True)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        subprocess.run(argv, check=False, capture_output=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    # the script beside this interpreter (a version manager's shim on PATH adds its own start)
    beside = Path(sys.executable).with_name("puzzlebench")
    script = str(beside) if beside.is_file() else shutil.which("puzzlebench")
    if script is None:
        sys.exit("the puzzlebench console script is not installed (pip install -e .)")
    python = wall([sys.executable, "-c", "pass"], args.repeats)
    print(f"python -c pass: {python:.3f} s (median of {args.repeats})")
    print(f"{'command':<42} {'median':>8} {'target':>7} {'÷ target':>9} {'÷ python':>9}")
    for command, target in COMMANDS:
        t = wall([script, *command.split()], args.repeats)
        print(f"{command:<42} {t:7.3f}s {target:6.1f}s {t / target:9.2f} {t / python:9.1f}")


if __name__ == "__main__":
    main()
