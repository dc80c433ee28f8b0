"""The fork server registers a project solver before forking its runs, so that a run finds
its solver by name without reading the entry points or the registry's index.

Since the references became entry points (issue 30), importing a reference's module no longer
registers it; a run then paid a registry look-up of its own (tens of milliseconds: a trivial
run's start-up went from 8 ms to 72 ms, ``benchmarks/harness_overhead.py``)."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
from puzzlebench.harness.run.forking.forkserver_main import _preload
from puzzlebench.solvers.registry import REGISTRY
assert not REGISTRY.known({name!r})
_preload({module!r}, {name!r})
assert REGISTRY.known({name!r}), "not registered in the server"
print("ok")
"""


def _preloads(module: str, name: str) -> str:
    done = subprocess.run([sys.executable, "-c", SCRIPT.format(module=module, name=name)],
                          capture_output=True, text=True, timeout=120)
    return done.stdout.strip() + done.stderr[-2000:]


def test_a_reference_is_registered_in_the_server() -> None:
    assert _preloads("puzzlebench_baselines.mod12", "mod12") == "ok"


def test_a_handwritten_solver_is_registered_in_the_server() -> None:
    assert _preloads("puzzlebench.search.queens.queens_search", "astar-h1") == "ok"
