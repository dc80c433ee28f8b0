"""The fork server skips a solver's primer only when the cache entries the primer would write
are on disk: an index file that holds only other argument types does not count.

Numba keys each entry of a kernel's cache index by the argument types of the call. Tests call
the compact pattern-database kernels in-process with writable arrays; sealed runs pass read-only
memory maps (another numba type). The check used to ask only whether each kernel's index
existed and was fresh, so it skipped the primer, and every sealed ``idastar-pdb --param
partition=7-8`` run compiled in its warm-up (a batch of Korf runs: 107-115 s instead of 8.5 s).
Now each primer notes the entries its warm-up looked up (``noting_kernels``) and the check
asks for exactly those (``kernels_on_disk``).
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

KERNELS = """
import numba

@numba.njit(cache=True)
def total(a):
    return a.sum()
"""

CALL = """
import sys
import numpy as np
from puzzlebench.harness.run.inside.numba_kernels import kernels_on_disk, noting_kernels
import pb_kernels

KEY = ("pb-solver", "warm-up instance", "[]", "solve")
a = np.ones(3)
if sys.argv[1] == "primer":  # as a primer: the runs' read-only array, noted
    a.flags.writeable = False
    with noting_kernels("pb_kernels", KEY):
        pb_kernels.total(a)
else:  # as an in-process test: a writable array
    pb_kernels.total(a)
print(kernels_on_disk("pb_kernels", KEY))
"""


def _call(tmp_path: Path, role: str) -> str:
    """``pb_kernels.total`` called in a process of its own, as ``role`` (``test``: a writable
    array; ``primer``: a read-only one, under ``noting_kernels``); what ``kernels_on_disk``
    says after it."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
           "PYTHONPATH": os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH"))
                                         if p)}
    done = subprocess.run([sys.executable, "-c", CALL, role], capture_output=True, text=True,
                          env=env, timeout=300, cwd=tmp_path)
    return done.stdout.strip() or done.stderr[-2000:]


def test_a_kernel_whose_index_holds_only_other_argument_types_is_not_on_disk(tmp_path) -> None:
    (tmp_path / "pb_kernels.py").write_text(KERNELS)
    # an in-process call with a writable array: a fresh index, but not for the runs' types
    assert _call(tmp_path, "test") == "False"
    # the primer: the read-only signature compiled, saved and noted
    assert _call(tmp_path, "primer") == "True"
    indexes = list((tmp_path / "numba").rglob("*.nbi"))
    assert len(indexes) == 1 and list((tmp_path / "numba").rglob("puzzlebench-primed-*.json"))
    # numba's cache emptied and filled again by an in-process call alone: the note stays,
    # the index now holds only the writable signature, so the primer is due again
    for made in (tmp_path / "numba").rglob("*.nb[ic]"):
        made.unlink()
    assert _call(tmp_path, "test") == "False"
    assert _call(tmp_path, "primer") == "True"


FAKE_INDEXES = """
import sys
from numba import types
from numba.core.registry import CPUDispatcher
from puzzlebench.solvers.fingerprint import closure
import puzzlebench.local.hill_climbing

m = "puzzlebench.local.hill_climbing"
for name in closure(m) | {m}:
    for obj in list(vars(sys.modules[name]).values()):
        cache = getattr(getattr(obj, "_cache", None), "_cache_file", None)
        if isinstance(obj, CPUDispatcher) and cache is not None:
            key = obj._cache._index_key((types.int8,), obj.targetctx.codegen())
            cache._save_index({key: "none.nbc"})
            print(cache._index_path)
"""


@pytest.mark.slow  # slow tier: see docs/development.md
def test_a_primer_runs_when_every_kernel_index_holds_only_other_argument_types(tmp_path) -> None:
    """End to end: every cached kernel of first-choice-hc has a fresh index holding only an
    entry no run uses (int8). The fork server primes, so the run's entries reach the cache (a
    sealed run cannot write it: without the primer each index keeps its one entry, and the run
    compiled every kernel in its warm-up, 7 s)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    faked = subprocess.run([sys.executable, "-c", FAKE_INDEXES], capture_output=True,
                           text=True, env=env, timeout=300)
    indexes = faked.stdout.split()
    assert indexes, faked.stderr[-2000:]
    done = subprocess.run(
        [sys.executable, "-m", "puzzlebench", "solve", "nqueens", "8", "--solver",
         "first-choice-hc", "--time-limit", "5", "--json"],
        capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    assert json.loads(done.stdout)["outcome"] == "solved"
    # the server itself compiles the clock kernel at its start (unsealed): not the primer's
    grown = [p for p in indexes if "compiled_clock" not in p and _entries(p) > 1]
    assert grown, "no kernel index of the solver gained an entry: no primer ran"
    assert list(tmp_path.rglob("puzzlebench-primed-*.json"))


@pytest.mark.slow  # slow tier: see docs/development.md
def test_a_count_is_primed_after_a_solve_of_the_same_solver(tmp_path) -> None:
    """A ``solve`` primer of the bitboard solver warms its pure-Python first solution and
    notes none of its counting kernels; a later ``count`` must still be primed, or every sealed
    count compiles its kernel in memory (it cannot write the cache), on every run. Only a
    primer, unsealed, can write the counting kernel's index here."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    # both warm up on 8-queens (the same solver, warm-up instance and parameters)
    for argv in (["solve", "nqueens", "5", "--solver", "bitboard"], ["count", "nqueens", "5"]):
        done = subprocess.run([sys.executable, "-m", "puzzlebench", *argv, "--json"],
                              capture_output=True, text=True, env=env, timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
        assert json.loads(done.stdout)["outcome"] == "solved"
    notes = list(tmp_path.rglob("puzzlebench-primed-*.json"))
    assert len(notes) >= 2, notes  # one per method primed
    counting = [p for p in tmp_path.rglob("*count_task*.nbi") if _entries(str(p)) >= 1]
    assert counting, "the counting kernel never reached the cache: its primer did not run"


def test_the_primer_key_names_the_method_the_warm_up_calls() -> None:
    from puzzlebench.harness.run.forking.forkserver import prime_key
    from puzzlebench.harness.run_request import RunRequest
    from puzzlebench.problems.catalogue import get_problem

    warm = get_problem("nqueens").make(8)
    keys = {prime_key(RunRequest(kind=kind, solver="bitboard", instance=None, warmup_instance=warm,
                           unique=unique))
            for kind, unique in (("solve", False), ("count", False), ("count", True),
                                 ("enumerate", False))}
    assert len(keys) == 4 and None not in keys


def _entries(index: str) -> int:
    """How many entries a numba cache index holds (fresh or not)."""
    with open(index, "rb") as f:
        pickle.load(f)  # numba's version
        _stamp, overloads = pickle.loads(f.read())
    return len(overloads)


LOAD = """
import numpy as np
from numba.core import caching
from puzzlebench.harness.run.inside.numba_kernels import load_kernels
import pb_kernels

KEY = ("pb-solver", "warm-up instance", "[]", "solve")
loaded = load_kernels("pb_kernels", KEY)  # as the fork server, before it forks a run
lookups = []
load = caching.Cache.load_overload
caching.Cache.load_overload = lambda self, sig, ctx: lookups.append(sig) or load(self, sig, ctx)
a = np.ones(3)
a.flags.writeable = False
total = pb_kernels.total(a)  # as the run: the primer's (read-only) signature
b = np.ones(2)
other = pb_kernels.total(b)  # a signature the primer never noted: the run's own lookup
print(loaded, total, len(lookups), other)
"""


def test_the_server_loads_the_noted_kernels_once_and_a_run_looks_none_up(tmp_path) -> None:
    """``load_kernels`` (the fork server, before it forks runs) loads exactly the entries the
    primer noted: a run then finds its kernel in memory and looks nothing up in numba's cache;
    a signature the primer did not note is left to the run. Without a note, nothing loads."""
    (tmp_path / "pb_kernels.py").write_text(KERNELS)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
           "PYTHONPATH": os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH"))
                                         if p)}

    def load() -> str:
        done = subprocess.run([sys.executable, "-c", LOAD], capture_output=True, text=True,
                              env=env, timeout=300, cwd=tmp_path)
        return done.stdout.strip() or done.stderr[-2000:]

    assert _call(tmp_path, "test") == "False"  # a writable signature cached, nothing noted
    assert load() == "0 3.0 2 2.0"  # no note: the run looks up both signatures itself
    assert _call(tmp_path, "primer") == "True"  # the read-only signature noted
    assert load() == "1 3.0 1 2.0"  # loaded by the server; the run looks up only its other
