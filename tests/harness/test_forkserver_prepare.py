"""The fork server lets a project solver load, once, what its runs read before their search
(``Solver.prepare_runs``), so that every run forked after it inherits it (issue 41).

``idastar-pdb --param partition=7-8``: each run used to map its 550 MiB of tables and load its
kernels from numba's cache in its own warm-up, 20-25 ms of every run's start-up (a batch of
Korf's 100 on 2 workers: 2.6 s of warm-ups). The server now maps the tables and loads the
kernels once; each run still makes its own untimed warm-up, sealed in its own process.

What is checked here: what the server is handed (``prepare_blob``: a project solver's
parameters and warm-up instance, nothing for a plugin's solver or a plugin's problem); that the
hook loads the cached tables and the kernel in the server's process; that it never builds a
table the cache lacks (the runs do, each within its start-up limit); and that the server calls
it once per (parameters, warm-up instance), before the run is forked.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from puzzlebench.harness.run.forking import forkserver_main
from puzzlebench.harness.run.starting import prepare_blob
from puzzlebench.harness.run_request import RunRequest
from puzzlebench.problems import get_problem


def _task(**fields: Any) -> RunRequest:
    sliding = get_problem("sliding")
    instance = sliding.make(8, start="125408367")
    fields.setdefault("warmup_instance", sliding.warmup_like(instance))
    return RunRequest(kind="solve", solver="idastar-pdb", instance=instance, **fields).sealed()


def test_a_project_solver_gets_its_parameters_and_warmup_instance() -> None:
    task = _task(params={"partition": "6-6-3"}, project_module="puzzlebench.search.sliding.idastar_pdb")
    blob = prepare_blob(task)
    assert blob is not None
    params, instance = pickle.loads(blob)
    assert params == {"partition": "6-6-3"}
    assert instance.instance_id == task.warmup_instance.instance_id  # type: ignore[union-attr]
    assert prepare_blob(task) == blob  # the server's key: one preparation per batch


def test_a_plugin_solver_or_an_unwarmed_run_gets_nothing() -> None:
    assert prepare_blob(_task()) is None  # no project module: a plugin's solver
    assert prepare_blob(_task(project_module="puzzlebench.search.sliding.idastar_pdb", warmup=False)) is None


@dataclass(frozen=True)
class ForeignInstance:  # a problem family that is not the project's (this test module's)
    instance_id: str = "foreign"


def test_a_plugin_problem_is_never_unpickled_in_the_server() -> None:
    task = RunRequest(kind="solve", solver="idastar-pdb", warmup_instance=ForeignInstance(),  # type: ignore[arg-type]
                project_module="puzzlebench.search.sliding.idastar_pdb")
    assert prepare_blob(task) is None


def test_the_server_prepares_once_per_blob_before_forking(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str | None, bytes]] = []
    monkeypatch.setattr(forkserver_main, "_prepare_runs", lambda s, b: calls.append((s, b)))

    class ForkedError(Exception):
        pass

    def no_fork(*_: Any) -> None:
        raise ForkedError  # stop at the namespace, before any fork
    monkeypatch.setattr(forkserver_main, "_pid_namespace", no_fork)
    server = forkserver_main._Server.__new__(forkserver_main._Server)
    server.prepared = set()
    own = {k: v for k, v in os.environ.items() if k.startswith("PUZZLEBENCH_")}
    other = {**own, "PUZZLEBENCH_CACHE": "/elsewhere"}
    for blob, env in ((b"a", own), (b"a", own), (b"c", other), (b"b", own), (None, own)):
        with pytest.raises(ForkedError):
            server._fork_run({"prepare": blob, "solver": "idastar-pdb", "sandbox": None,
                              "env": env}, [])
    # a run asked for with other settings (another cache directory) is not prepared for: what
    # the server loaded would stand in for what that run must read from its own cache
    assert calls == [("idastar-pdb", b"a"), ("idastar-pdb", b"b")]


HOOK = """
import pickle, sys
from puzzlebench.harness.run.forking.forkserver_main import _prepare_runs, _preload
from puzzlebench.problems import get_problem
from puzzlebench.search.pattern_databases import pdb_lookup
from puzzlebench.search.sliding import idastar_pdb

sliding = get_problem("sliding")
warm = sliding.warmup_like(sliding.make(8, start="125408367"))
if sys.argv[1] == "build":  # a run on a cold cache: builds and caches the tables
    import numpy as np
    from puzzlebench.contract import Budget
    idastar_pdb.IDAStarPDB().solve(warm, Budget(time_limit=5), np.random.default_rng(0))
    print("built")
else:  # the server
    _preload("puzzlebench.search.sliding.idastar_pdb", "idastar-pdb")
    _prepare_runs("idastar-pdb", pickle.dumps(({}, warm)))
    print(len(pdb_lookup._LOADED), len(idastar_pdb.idastar_pdb_kernel.signatures))
"""


def _hook(cache: Path, role: str) -> str:
    env = {**os.environ, "PUZZLEBENCH_CACHE": str(cache)}
    done = subprocess.run([sys.executable, "-c", HOOK, role], capture_output=True, text=True,
                          env=env, timeout=300)
    return done.stdout.strip() or done.stderr[-2000:]


def test_the_hook_loads_cached_tables_and_kernels_and_never_builds(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert _hook(cache, "server") == "0 0"  # a cold cache: nothing loaded, nothing run
    assert not list(cache.glob("pdb/*.pdb"))  # and nothing built in the server
    assert _hook(cache, "build") == "built"
    tables, signatures = (int(x) for x in _hook(cache, "server").split())
    assert tables >= 1 and signatures == 1  # the runs inherit the tables and the kernel
