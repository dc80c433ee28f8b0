"""Benchmark: BenchExec's RunExecutor beside puzzlebench's own runner, on this machine.

Issue 24 §2 asked to prefer a well-kept implementation of per-run measurement — BenchExec, whose
``RunExecutor`` measures and limits one command's process tree in a cgroup — where it fits, and to
choose by measurement. This script makes the measurements the choice rests on, in one invocation:

1. **Price per run**, one run at a time: ``RunExecutor.execute_run`` of ``/bin/true`` without and
   with BenchExec's container (namespaces, read-only file system, no network), against a
   puzzlebench study of trivial runs (``mod12`` on 4-queens: a fresh sealed process per run, its
   cgroup, validation and one store transaction), amortised per run.
2. **What a 5 ms solve is recorded as.** BenchExec measures a command, so a Python solver's run
   is an interpreter that starts, imports the solver (numba and its kernels), solves once and
   exits: its ``walltime`` and ``cputime`` are that whole process. puzzlebench stamps the
   solve itself in a warm process (``time_s``) and reads the cgroup's CPU time around it
   (``cpu_s``).
3. **A process tree.** A command whose background grandchild burns 0.3 s of CPU after its
   parent has exited: both count it through their cgroups (``cpu_s``, ``cputime``).

Needs BenchExec (``pip install -e ".[bench]"``) and cgroups it may use (root here).

    python benchmarks/benchexec_comparison.py [--runs 20]
"""

from __future__ import annotations

import argparse
import json
import logging
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

from benchexec.runexecutor import RunExecutor

from puzzlebench.harness.campaign.design.study_file import study_from_dict
from puzzlebench.harness.campaign.runner import run_study

START = "867254301"  # an 8-puzzle: astar-manhattan expands the same 6,744 nodes every time
SOLVE_ONCE = f"""
import numpy as np
from puzzlebench.contract import Budget
from puzzlebench.problems import get_problem
from puzzlebench.solvers.locators import load_solver
spec = load_solver("astar-manhattan")
spec.create().solve(get_problem("sliding").make(8, start="{START}"), Budget(),
                    np.random.default_rng(0))
"""
BURN = "import time; t = time.process_time()\nwhile time.process_time() - t < 0.3: pass"
TREE = f"{sys.executable} -c '{BURN}' &"


def benchexec_runs(executor: RunExecutor, args: list[str], runs: int) -> list[dict[str, float]]:
    """``runs`` executions of ``args``: BenchExec's figures and the price of each call."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            t0 = time.perf_counter()
            result = executor.execute_run(args=args, output_filename=f"{tmp}/out.log",
                                          memlimit=2 << 30)
            out.append({"price": time.perf_counter() - t0, "walltime": result["walltime"],
                        "cputime": result["cputime"]})
    return out


def puzzlebench_price(runs: int) -> float:
    """Seconds per trivial run, amortised, through the full runner on one worker, sealed."""
    study = study_from_dict({
        "study": {"name": "price", "repeats": runs, "time_limit": 5.0, "sandbox": "required"},
        "problems": [{"problem": "nqueens", "sizes": [4]}],
        "solvers": [{"name": "mod12"}]})
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        run_study(study, Path(tmp) / "p.sqlite", workers=1, quiet=True)
        return (time.perf_counter() - t0) / runs


def puzzlebench_records(solver: str, runs: int, *extra: str) -> list[dict[str, object]]:
    """``runs`` records of ``compare`` (one worker) for ``solver``."""
    problem = ["sliding", "--sizes", "8", "--start", START] if not extra else list(extra)
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            [sys.executable, "-m", "puzzlebench", "compare", *problem, "--solvers", solver,
             "--repeats", str(runs), "--workers", "1", "--json", "--db", f"{tmp}/c.sqlite"],
            capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    logging.basicConfig(level=logging.ERROR)  # BenchExec's advice on home directories
    plain = RunExecutor(use_namespaces=False)
    container = RunExecutor(use_namespaces=True, network_access=False, dir_modes={
        "/": "read-only", "/tmp": "hidden", "/home": "hidden", "/run": "hidden"})
    benchexec_runs(plain, ["/bin/true"], 2)  # BenchExec's own first-call costs, untimed

    print(f"1. price per run, one at a time ({args.runs} runs each; median of BenchExec's calls)")
    true_plain = median([r["price"] for r in benchexec_runs(plain, ["/bin/true"], args.runs)])
    true_box = median([r["price"] for r in benchexec_runs(container, ["/bin/true"], args.runs)])
    ours = puzzlebench_price(max(args.runs, 50))
    print(f"   BenchExec, /bin/true, no container     {true_plain * 1e3:8.1f} ms")
    print(f"   BenchExec, /bin/true, container        {true_box * 1e3:8.1f} ms")
    print(f"   puzzlebench, mod12 on 4-queens, sealed {ours * 1e3:8.1f} ms "
          f"(a whole judged, stored run; BenchExec's container costs {true_box / ours:.1f}× it "
          "before any Python starts)")

    print(f"\n2. astar-manhattan on {START} (about 5 ms of search), {args.runs} runs each")
    solve = benchexec_runs(plain, [sys.executable, "-c", SOLVE_ONCE], args.runs)
    records = puzzlebench_records("astar-manhattan", args.runs)
    wall, cpu = median([r["walltime"] for r in solve]), median([r["cputime"] for r in solve])
    t, c = (median([float(r[k]) for r in records]) for k in ("time_s", "cpu_s"))  # type: ignore[arg-type]
    print(f"   BenchExec (the command: interpreter, imports, solve)  walltime {wall * 1e3:8.1f} ms"
          f"  cputime {cpu * 1e3:8.1f} ms  price per run {median([r['price'] for r in solve]) * 1e3:.0f} ms")
    print(f"   puzzlebench (the solve, warm)                        time_s   {t * 1e3:8.1f} ms"
          f"  cpu_s   {c * 1e3:8.1f} ms  ({records[0]['measured_by']})")
    print(f"   BenchExec's figure is {wall / t:.0f}× the solve's time: the interpreter's start-up "
          "and imports, which a command cannot leave out")

    print("\n3. a background grandchild burning 0.3 s of CPU after its parent has exited")
    tree = benchexec_runs(plain, ["sh", "-c", TREE + " sleep 0.6"], 3)
    forks = puzzlebench_records(f"{Path(__file__).parents[1]}/tests/measurement/timed_solvers.py"
                                ":ForksBusyChild", 3, "nqueens", "--sizes", "8")
    print(f"   BenchExec cputime {median([r['cputime'] for r in tree]):.3f} s; puzzlebench cpu_s "
          f"{median([float(r['cpu_s']) for r in forks]):.3f} s (median of 3 each)")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
