"""Session set-up: build the shipped C example solver (examples/external/c) with the system cc,
so that the conformance suite and the agreement tests can run it like any other solver."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

C_EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "external" / "c"


def build_c_example() -> Path:
    """Compile nqueens.c when the binary is missing or older than its source. Each xdist
    worker starts a session too: the binary is built under a name of its own and renamed into
    place, so no worker ever runs a half-written file."""
    source, binary = C_EXAMPLE / "nqueens.c", C_EXAMPLE / "nqueens"
    if not binary.exists() or binary.stat().st_mtime < source.stat().st_mtime:
        compiler = shutil.which("cc") or shutil.which("gcc")
        if compiler is None:
            raise pytest.UsageError("the C example needs a C compiler (cc); .ci/run installs one")
        partial = binary.with_name(f".nqueens-{os.getpid()}")
        subprocess.run([compiler, "-O2", "-o", str(partial), str(source)], check=True)
        os.replace(partial, binary)
    return binary


def pytest_sessionstart(session: pytest.Session) -> None:
    build_c_example()


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (README's ``pytest``): one worker more than the cores this process may use.
    Many tests wait on the processes they start (sealed runs, fork servers, a browser), so
    with one worker per core the cores sat idle about 14 % of a fresh clone's default tier
    (1,164 CPU seconds in 674 s on 2 cores); a third worker fills that time."""
    return len(os.sched_getaffinity(0)) + 1


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    """A ``covers`` marker counts only for a test that runs: a covering test that is skipped
    fails unless every solver it covers (here: the one its parameters name, if any) is
    unavailable on this machine — the coverage check in the conformance suite reads the
    markers, so a skipped test must not stand in for a solver that could have been tested."""
    outcome = yield
    report = outcome.get_result()
    marker = item.get_closest_marker("covers")
    if marker is None or not report.skipped or hasattr(report, "wasxfail"):
        return
    why = uncovered(item, tuple(str(a) for a in marker.args))
    if why:
        report.outcome = "failed"
        report.longrepr = f"{item.nodeid}: skipped, but it is the covering test of {why}"


def uncovered(item: pytest.Item, names: tuple[str, ...]) -> str:
    """The covered solvers a skip leaves untested although they could run here ('' when the
    skip is legitimate: every one is unavailable)."""
    # imported on use: only a skipped covering test needs the registry
    from puzzlebench.harness.resolve import resolve_solver
    from puzzlebench.solvers.registry import RegistryError

    params = getattr(getattr(item, "callspec", None), "params", {})
    named = [n for n in names if n in params.values()] or list(names)
    missing = []
    for name in named:
        try:
            if not resolve_solver(name).unavailable:
                missing.append(f"{name} (available here)")
        except RegistryError:
            missing.append(f"{name} (no such solver)")
    return ", ".join(missing)
