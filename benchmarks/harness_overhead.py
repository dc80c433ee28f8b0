"""Benchmark: harness overhead per run with a trivial solver (the price of isolation).

Runs a study of N runs of a solver on nqueens n = 4 (microseconds of solving) through the full
runner — a fresh forked process per run, its hard limit, the proposal sent back as data,
validation in the harness, one SQLite transaction per run — and prints wall time per run
amortised over the study, beside the solver time itself. ``mod12`` is pure Python;
``first-choice-hc`` is compiled, so each run also loads its numba kernels (untimed warm-up).

    python benchmarks/harness_overhead.py [--runs 2000] [--workers 2] [--solver mod12]
                                          [--sandbox auto|required|off|both]

``--sandbox both`` runs the study sealed and unsealed, alternately in rounds, and prints the
price of the sandbox per run (its namespaces, mounts, two extra forks, and their teardown).
Each study is followed by a reference measured in the same invocation: a plain process that
has loaded what the lean fork server loads forks, and its child exits at once, reaped — the
least a fresh process per run can cost on this machine now. The per-run figure is printed as a
multiple of it too, so that figures taken on a busy host and on an idle one can be compared.

``--direct N`` measures the sealing alone, less exposed to a busy machine: N processes forked
from one that has loaded what the fork server loads, each sealed (or not) and ended at once;
the medians of fork → ready (what delays a run's start) and fork → reaped (what the machine
spends, teardown included).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from puzzlebench.harness.campaign.design.study_file import study_from_dict
from puzzlebench.harness.campaign.runner import run_study


def one(args: argparse.Namespace, sandbox: str, runs: int) -> float:
    """Run the study once with ``sandbox``; print and return the wall time per run (ms)."""
    study = study_from_dict({
        "study": {"name": "overhead", "repeats": runs, "time_limit": 5.0, "sandbox": sandbox},
        "problems": [{"problem": "nqueens", "sizes": [4]}],
        "solvers": [{"name": args.solver}],
    })
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        result = run_study(study, Path(tmp) / "o.sqlite", workers=args.workers, quiet=True)
        wall = time.perf_counter() - t0
    solver_time = sum(r.figures.time_s for r in result.new)
    warm = sum(r.figures.warmup_s for r in result.new)
    startup = sorted(r.figures.startup_s for r in result.new)
    sealed = {r.provenance.sandbox for r in result.new}
    per_run = wall / len(result.new) * 1000
    print(f"{args.solver} (sandbox {sandbox}: {', '.join(sorted(sealed))}): {len(result.new)} "
          f"runs on {args.workers} workers: {wall:.2f} s in total, {per_run:.2f} ms per run "
          f"amortised (solver time {solver_time / len(result.new) * 1e6:.1f} µs, untimed "
          f"warm-up {warm / len(result.new) * 1e3:.1f} ms, median start-up "
          f"{startup[len(startup) // 2] * 1e3:.1f} ms per run)")
    return per_run


#: The reference: fork, exit and reap of the lean run side's image, in a process of its own.
REFERENCE = """
import os, statistics, sys, time
import puzzlebench.harness.run.inside.child  # what the lean fork server holds (no numba)
times = []
for _ in range(int(sys.argv[1])):
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    times.append(time.perf_counter() - t0)
print(statistics.median(times) * 1e3)
"""


def reference(count: int = 200) -> float:
    """Median ms of a bare fork + exit + reap of the lean run side's image (see above)."""
    out = subprocess.run([sys.executable, "-c", REFERENCE, str(count)], capture_output=True,
                         text=True, check=True)
    return float(out.stdout)


def direct(count: int) -> None:
    """The sealing alone: fork → ready and fork → reaped, unsealed (``off``), sealed by the
    run itself (``keeper``: the spawned and harness-forked paths) and sealed in a PID namespace
    the fork server made (``server``: the local path, as root), alternated."""
    import os
    import signal
    import statistics

    import puzzlebench.harness.run.inside.child  # noqa: F401 - what a run's process holds, as forked
    from puzzlebench.harness.run.sealed.pid_namespace import enter_pid_namespace, leave_pid_namespace
    from puzzlebench.harness.run.sealed.sandbox import SandboxPlan, seal
    from puzzlebench.harness.run.sealed.sealed_view import plan_view
    from puzzlebench.host.cache_dir import cache_dir
    from puzzlebench.solvers.compiled_clock import prepare_jit

    prepare_jit()
    modes = ("off", "keeper", "server") if os.geteuid() == 0 else ("off", "keeper")
    times: dict[str, list[tuple[float, float]]] = {m: [] for m in modes}
    for i in range(len(modes) * count):
        mode = modes[i % len(modes)]
        read, write = os.pipe()
        t0 = time.perf_counter()
        init = enter_pid_namespace() if mode == "server" else None
        pid = os.fork()
        if pid == 0:
            try:
                os.close(read)
                view = None if mode == "off" else plan_view(  # what a run computes, then sees
                    "mod12", project=True, cache=str(cache_dir()))
                seal(SandboxPlan("off" if mode == "off" else "required", view=view),
                     in_pid_namespace=mode == "server")
                os.write(write, b"r")
            finally:
                os._exit(0)
        if init is not None:
            leave_pid_namespace()
        os.close(write)
        os.read(read, 1)
        ready = time.perf_counter() - t0
        os.close(read)
        os.waitpid(pid, 0)
        if init is not None:
            os.kill(init, signal.SIGKILL)
            os.waitpid(init, 0)
        times[mode].append((ready, time.perf_counter() - t0))
    base = [statistics.median(p[k] for p in times["off"]) for k in (0, 1)]
    for mode, pairs in times.items():
        ready, reaped = (statistics.median(p[k] for p in pairs) for k in (0, 1))
        print(f"{mode:6s}: fork → ready {ready * 1e3:.2f} ms, fork → reaped {reaped * 1e3:.2f} ms "
              f"(median of {len(pairs)}); price {(ready - base[0]) * 1e3:+.2f} ms before "
              f"ready, {(reaped - base[1]) * 1e3:+.2f} ms with teardown")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--solver", default="mod12")
    ap.add_argument("--sandbox", default="auto", choices=["auto", "required", "off", "both"])
    ap.add_argument("--rounds", type=int, default=3, help="With --sandbox both: rounds of each.")
    ap.add_argument("--direct", type=int, default=0, help="Measure the sealing alone, N times.")
    args = ap.parse_args()
    if args.direct:
        direct(args.direct)
        return
    if args.sandbox != "both":
        per_run = one(args, args.sandbox, args.runs)
        ref = reference()
        print(f"reference: a bare fork + exit + reap of the lean run side's image, {ref:.2f} ms "
              f"(median of 200, this invocation); the harness's price per run is {per_run / ref:.1f}× it")
        return
    sealed, open_, refs = [], [], []
    for _ in range(args.rounds):  # alternated, so that a busy spell of the machine hits both
        refs.append(reference())
        open_.append(one(args, "off", args.runs))
        sealed.append(one(args, "required", args.runs))
    refs.append(reference())
    best_open, best_sealed = min(open_), min(sealed)
    print(f"price of the sandbox: {best_sealed - best_open:+.2f} ms per run amortised "
          f"(best of {args.rounds}: {best_sealed:.2f} sealed, {best_open:.2f} unsealed; "
          f"medians {sorted(sealed)[len(sealed) // 2]:.2f} and {sorted(open_)[len(open_) // 2]:.2f})")
    ref = statistics.median(refs)
    print(f"reference: a bare fork + exit + reap of the lean run side's image, {ref:.2f} ms "
          f"(median over {len(refs)} measurements of 200, this invocation); per run, sealed "
          f"{best_sealed / ref:.1f}× it, unsealed {best_open / ref:.1f}×")


if __name__ == "__main__":
    main()
