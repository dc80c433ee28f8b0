"""The one-run commands' head start: the fork server their run will ask for is started from
the command line alone, before the command-line code loads, and the run then uses it."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from puzzlebench.harness.execute import make_request, run_judged
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.harness.run.forking import early_server, forkserver
from puzzlebench.problems import get_problem
from puzzlebench.records.record import Outcome
from puzzlebench.solvers.registry import REGISTRY


@pytest.fixture(scope="module", autouse=True)
def solver_index() -> None:
    """The on-disk index of solver modules the head start reads, fresh for the code as it is
    (a fresh checkout, or an edited solver file, has none until a discovery writes it)."""
    REGISTRY.discover()


@pytest.fixture
def servers(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[bool, forkserver.ForkServer]]:
    """This test's own fork servers, closed after it."""
    table: dict[bool, forkserver.ForkServer] = {}
    monkeypatch.setattr(forkserver, "SERVERS", table)
    yield table
    for server in list(table.values()):
        server.close()


@pytest.mark.parametrize(("argv", "name"), [
    (["count", "nqueens", "4"], "bitboard"),
    (["count", "nqueens", "12", "--solver", "backtracking"], "backtracking"),
    (["solve", "nqueens", "8", "-s", "mod12"], "mod12"),
    (["solve", "nqueens", "8", "--solver=min-conflicts", "--json"], "min-conflicts"),
    (["solve", "nqueens", "8"], None),                                  # no solver named
    (["solve", "nqueens", "8", "--solver", "examples/mysolver.py:MySolver"], None),
    (["solve", "nqueens", "8", "--solver", "queens.mzn"], None),
    (["count", "nqueens", "4", "--help"], None),
    (["compare", "nqueens", "--sizes", "4..6"], None),                  # many runs
    ([], None),
])
def test_the_solver_is_read_from_the_command_line(argv: list[str], name: str | None) -> None:
    assert early_server.solver_named(argv) == name


def test_a_compiled_solver_gets_the_compiler_server_and_its_run_uses_it(
        servers: dict[bool, forkserver.ForkServer]) -> None:
    assert early_server.start_for(["count", "nqueens", "6"])
    assert list(servers) == [True]  # bitboard's module imports numba
    started = servers[True]
    spec = resolve_solver("bitboard")
    record = run_judged(spec, make_request(spec, get_problem("nqueens").make(6), "count"))
    assert record.verdict.outcome is Outcome.SOLVED and record.verdict.count == 4
    assert servers[True] is started and started.proc.poll() is None  # the same server ran it


@pytest.mark.parametrize("solver", ["mod12", "backtracking", "ga-seed002"])
def test_a_pure_python_solver_gets_the_lean_server(
        servers: dict[bool, forkserver.ForkServer], solver: str) -> None:
    # the solver-side helpers (trace, queens keys, iterative) load no numba: only kernels do
    assert early_server.start_for(["solve", "nqueens", "8", "--solver", solver])
    assert list(servers) == [False]


@pytest.mark.parametrize("solver", ["ga-seed002"])
def test_a_pure_python_run_never_loads_numba_into_its_server(
        servers: dict[bool, forkserver.ForkServer], solver: str) -> None:
    assert early_server.start_for(["solve", "nqueens", "8", "--solver", solver])
    spec = resolve_solver(solver)
    record = run_judged(spec, make_request(spec, get_problem("nqueens").make(8), "solve"))
    assert record.verdict.outcome is Outcome.SOLVED and record.verdict.verified
    server = servers[False]
    assert server.proc.poll() is None
    # the server preloaded the solver's module to fork its run: numba's compiler library is
    # not in its memory (one-shot start-up: no numba, issue 38 §5)
    maps = Path(f"/proc/{server.proc.pid}/maps").read_text()
    assert "llvmlite" not in maps and "numba" not in maps


def test_an_unknown_solver_starts_nothing(servers: dict[bool, forkserver.ForkServer]) -> None:
    assert not early_server.start_for(["solve", "nqueens", "8", "--solver", "no-such-solver"])
    assert servers == {}


def test_a_fork_server_loads_what_a_project_solver_imports_on_first_use(
        servers: dict[bool, forkserver.ForkServer]) -> None:
    # CP-SAT's module keeps OR-Tools out of its own import (every command would pay 0.3 s);
    # the server imports it (``Solver.run_imports``) before forking, so no run's warm-up does
    code = ("import sys, puzzlebench_baselines.cpsat; "
            "assert 'ortools.sat.python.cp_model' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
    spec = resolve_solver("cpsat")
    assert spec.factory is not None and spec.factory.run_imports
    record = run_judged(spec, make_request(spec, get_problem("nqueens").make(8), "solve"))
    assert record.verdict.outcome is Outcome.SOLVED and record.verdict.verified
    (server,) = servers.values()
    assert "ortools" in Path(f"/proc/{server.proc.pid}/maps").read_text()


def test_a_study_starts_the_servers_its_solvers_will_ask_for(
        servers: dict[bool, forkserver.ForkServer]) -> None:
    """``start_for_solvers`` (the runner's head start): one server per kind the registered
    solvers need; files and references are left to their runs."""
    assert early_server.start_for_solvers(["examples/mysolver.py:MySolver", "queens.mzn"]) == 0
    assert servers == {}
    assert early_server.start_for_solvers(["mod12", "backtracking"]) == 1
    assert list(servers) == [False]  # pure Python: the lean server only
    assert early_server.start_for_solvers(["bitboard", "mod12"]) == 2
    assert sorted(servers) == [False, True]


@pytest.mark.parametrize(("argv", "names"), [
    (["compare", "nqueens", "--solvers", "mod12,bitboard"], ["mod12", "bitboard"]),
    (["compare", "nqueens", "--sizes", "4..6", "--solvers=mod12"], ["mod12"]),
    (["compare", "nqueens", "--help"], None),
    (["solve", "nqueens", "8", "--solver", "mod12"], None),  # a one-run command: solver_named
    ([], None),
])
def test_a_compare_names_the_solvers_it_will_run(argv: list[str], names: list[str] | None) -> None:
    assert early_server.compared_solvers(argv) == names


def test_a_compare_of_every_solver_starts_both_servers(
        servers: dict[bool, forkserver.ForkServer]) -> None:
    """README's first command names no solver: every indexed solver runs, the compiled ones on
    the compiler's server and the pure-Python ones on the lean one, so both start at once."""
    every = early_server.compared_solvers(["compare", "nqueens", "--sizes", "4..10"])
    assert every is not None and {"bitboard", "mod12", "astar-h3"} <= set(every)
    assert early_server.start_for(["compare", "nqueens", "--sizes", "4..10"])
    assert sorted(servers) == [False, True]
    assert not early_server.start_for(["compare", "nqueens", "--solvers", "no-such-solver"])
