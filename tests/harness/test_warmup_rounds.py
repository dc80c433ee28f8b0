"""Compiled code is warmed before it is timed, however many kernels it compiles lazily.

On a fresh checkout numba's cache is cold. A hill climber's first warm-up round spent the
warm-up's 0.5 s compiling its start kernel and stopped at its time limit before the search
kernel was ever called; the search kernel then compiled inside the timed run (CI: 2-queens
"killed at the hard limit of 1.6 s", 3.25 s of work under a 0.3 s limit). The warm-up now goes
round by round until a round ends within its time or compiles nothing (a pure-Python search
that cannot finish the warm-up instance stops after one round: the last test), and the fork
server primes each project
solver once, unsealed, so that its kernels reach numba's cache for every sealed run after it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from puzzlebench.harness.execute import run_solve
from puzzlebench.harness.run.inside.warmup import WARMUP_ROUNDS
from puzzlebench.problems import get_problem
from puzzlebench.records.record import Outcome

PLUGINS = str(Path(__file__).with_name("lazy_compilers.py"))
COMPILE_S = 0.6


def test_a_solver_compiling_one_kernel_per_round_is_warm_when_timed() -> None:
    rec = run_solve(f"{PLUGINS}:TwoKernels", get_problem("nqueens").make(10))
    assert rec.verdict.outcome is Outcome.SOLVED, rec
    assert rec.figures.warmup_s >= 2 * COMPILE_S, rec.figures.warmup_s  # both kernels met in the warm-up
    assert rec.figures.time_s < COMPILE_S / 2, rec.figures.time_s  # and none in the timed run


def test_a_warm_up_that_never_ends_within_its_time_stops_after_its_rounds() -> None:
    rec = run_solve(f"{PLUGINS}:NeverWarm", get_problem("nqueens").make(10))
    assert rec.figures.warmup_s >= WARMUP_ROUNDS * COMPILE_S
    # its rounds, then the timed call: counted by the plugin, not read off a busy clock
    assert rec.figures.counters["calls"] == WARMUP_ROUNDS + 1, rec.figures.counters
    assert rec.figures.time_s >= COMPILE_S  # still slow when timed: nothing hidden, nothing lost


@pytest.mark.slow  # slow tier: see docs/development.md
def test_a_sealed_run_on_a_cold_numba_cache_compiles_nothing_while_timed(tmp_path) -> None:
    """The CI failure itself: first-choice-hc on 2-queens (infeasible) with a 1 s limit, numba's
    cache empty; the sealed run stops on its own cap in milliseconds, and the cache is filled."""
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-m", "puzzlebench", "solve", "nqueens", "2", "--solver",
         "first-choice-hc", "--time-limit", "1", "--json"],
        capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    rec = json.loads(done.stdout)
    assert rec["outcome"] == "budget", rec
    assert rec["time_s"] < 0.5, rec["time_s"]
    assert rec["warmup_s"] < 1.0, rec["warmup_s"]  # loaded from the cache the primer filled
    assert list(cache.rglob("*.nbi")), "no kernel reached numba's cache"


@pytest.mark.slow  # slow tier: see docs/development.md
def test_the_primer_is_skipped_only_when_every_kernel_is_on_disk(tmp_path) -> None:
    """On an empty cache the fork server sees kernels to compile (and primes); once a primer's
    solve has compiled them into the cache and noted them, it sees none (and forks the run at
    once). An index holding only other argument types: ``test_primed_kernels.py``."""
    script = (
        "import numpy as np\n"
        "from puzzlebench.harness.run.inside.numba_kernels import kernels_on_disk, noting_kernels\n"
        "from puzzlebench.local.hill_climbing import FirstChoiceHC\n"
        "from puzzlebench.contract import Budget\n"
        "from puzzlebench.problems import get_problem\n"
        "m, key = 'puzzlebench.local.hill_climbing', ('first-choice-hc', 'nqueens-8', '[]')\n"
        "before = kernels_on_disk(m, key)\n"
        "with noting_kernels(m, key):\n"
        "    FirstChoiceHC().solve(get_problem('nqueens').make(8), Budget(max_evaluations=10**5),"
        " np.random.default_rng(1))\n"
        "print(before, kernels_on_disk(m, key))\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=600)
    assert done.stdout.split() == ["False", "True"], done.stderr[-2000:]


def test_a_round_that_compiled_nothing_is_the_last() -> None:
    """A pure-Python search that cannot finish the warm-up instance in its round (A* with H2
    on 8-queens) is warmed once, not six times."""
    rec = run_solve("astar-h2", get_problem("nqueens").make(5))
    assert rec.verdict.outcome is Outcome.SOLVED, rec
    assert rec.figures.warmup_s < 3 * 0.5, rec.figures.warmup_s  # one 0.5 s round, not six
