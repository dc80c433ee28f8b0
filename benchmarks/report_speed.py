"""Benchmark: ``puzzlebench report`` on a store of 10^5 runs (goal: under 30 s).

Builds a store from real judged runs (four solvers on nqueens n = 4..13), replicated over
seeds and repeats to 10^5 records, then times the report command as a whole process.

    python benchmarks/report_speed.py [--runs 100000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from puzzlebench.contract import Budget
from puzzlebench.harness.campaign.storage.store import Store
from puzzlebench.harness.execute import run_solve
from puzzlebench.problems import get_problem
from puzzlebench.records.record import json_default


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=100_000)
    args = ap.parse_args()
    nq = get_problem("nqueens")
    base = [run_solve(s, nq.make(n), seed=0, budget=Budget(time_limit=5), study="speed")
            for s in ("mod12", "backtracking", "greedy-h3", "min-conflicts")
            for n in range(4, 14)]
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "big.sqlite"
        with Store(db) as store:
            rows = []
            for i in range(args.runs):
                rec = base[i % len(base)].with_(repeat=i // len(base), seed=i,
                                                time_s=base[i % len(base)].figures.time_s * (1 + i % 7))
                rows.append((f"k{i}", rec.key.study, rec.key.problem, rec.key.size, rec.key.solver,
                             rec.verdict.outcome.value, rec.figures.time_s,
                             json.dumps(rec.to_dict(), default=json_default)))
            store.conn.execute("BEGIN")
            store.conn.executemany(
                "INSERT INTO runs (key, study, problem, size, solver, outcome, time_s, record)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
            store.conn.execute("COMMIT")
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "puzzlebench", "report", "--db", str(db),
                        "--out", str(Path(tmp) / "out")], check=True, capture_output=True)
        wall = time.perf_counter() - t0
    print(f"report on {args.runs:,} runs: {wall:.1f} s as a whole command (goal < 30 s)")


if __name__ == "__main__":
    main()
