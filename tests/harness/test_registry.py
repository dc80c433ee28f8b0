"""The registry: discovery, capabilities as data, duplicate names refused, plugins by reference."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import ClassVar

import pytest

from puzzlebench.contract import Claim, Proposal, Solver, SolverConfigError
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.solvers.locators.python_plugin import load_reference
from puzzlebench.solvers.registry import REGISTRY, Registry, RegistryError


class Dummy(Solver):
    name: ClassVar[str] = "dummy-test"
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens"})
    params: ClassVar[dict[str, object]] = {"k": 3, "rate": 0.5, "flag": False}

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(claim=Claim.UNKNOWN)


def test_discovery_finds_the_first_baselines() -> None:
    names = {s.name for s in REGISTRY.all()}
    assert {"mod12", "backtracking", "bitboard"} <= names
    assert resolve_solver("mod12").origin == "baseline"
    assert [s.name for s in REGISTRY.all("sliding")] == sorted(s.name for s in REGISTRY.all("sliding"))


def test_duplicate_names_refused() -> None:
    reg = Registry()
    reg.add(Dummy)
    reg.add(Dummy)  # the same class twice is harmless

    class Other(Dummy):
        pass

    with pytest.raises(RegistryError, match="duplicate"):
        reg.add(Other)


def test_bad_declarations_refused() -> None:
    class NoProblems(Dummy):
        problems: ClassVar[frozenset[str]] = frozenset({"chess"})

    with pytest.raises(RegistryError):
        Registry().add(NoProblems)
    with pytest.raises(RegistryError):
        Registry().add(int)  # type: ignore[arg-type]


def test_parameters_coerced_and_checked() -> None:
    solver = Dummy(k="7", rate="0.25", flag="yes")
    assert solver.config == {"k": 7, "rate": 0.25, "flag": True}
    with pytest.raises(SolverConfigError):
        Dummy(nope=1)
    with pytest.raises(SolverConfigError):
        Dummy(k="seven")
    with pytest.raises(SolverConfigError):
        Dummy(k="2.5")


def test_plugin_from_file_and_module(tmp_path: Path) -> None:
    plugin = tmp_path / "my_solver.py"
    plugin.write_text(textwrap.dedent('''
        from puzzlebench.contract import Claim, Proposal, Solver

        class Mine(Solver):
            name = "mine-from-file"
            problems = frozenset({"nqueens"})

            def solve(self, instance, budget, rng):
                return Proposal(answer=[0] * instance.n, claim=Claim.SOLVED)
    '''))
    cls = load_reference(f"{plugin}:Mine")
    assert cls.name == "mine-from-file"
    spec = resolve_solver(f"{plugin}:Mine")
    assert spec.origin == "plugin"
    assert load_reference("tests.harness.test_registry:Dummy") is Dummy
    with pytest.raises(RegistryError):
        load_reference(f"{tmp_path}/absent.py:Mine")
    with pytest.raises(RegistryError):
        load_reference("puzzlebench.contract:Budget")
    with pytest.raises(RegistryError):
        resolve_solver("no-such-solver")


def test_entry_point_plugins_are_discovered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "ep_plugin_mod.py").write_text(textwrap.dedent('''
        from puzzlebench.contract import Claim, Proposal, Solver

        class EpSolver(Solver):
            name = "ep-solver"
            problems = frozenset({"torus-queens"})

            def solve(self, instance, budget, rng):
                return Proposal(claim=Claim.UNKNOWN)
    '''))
    dist = tmp_path / "ep_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: ep-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[puzzlebench.solvers]\nep = ep_plugin_mod:EpSolver\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    reg = Registry()
    reg.discover()
    spec = reg.load("ep-solver")
    assert spec.origin == "plugin" and spec.problems == frozenset({"torus-queens"})


def _fresh_python(code: str, cache: Path) -> str:
    import os
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PUZZLEBENCH_CACHE": str(cache)}, timeout=300,
                          check=True)
    return proc.stdout.strip()


LOOKUP = ("import sys; from puzzlebench.solvers.registry import REGISTRY; "
          "spec = REGISTRY.load('mod12'); "
          "print(spec.name, 'puzzlebench_baselines.deap_ga' in sys.modules, len(REGISTRY.all()))")


def test_index_lets_one_lookup_import_one_module(tmp_path: Path) -> None:
    first = _fresh_python(LOOKUP, tmp_path).split()
    assert first[:2] == ["mod12", "True"]  # no index yet: a full discovery, which writes one
    assert len(list((tmp_path / "registry").glob("*.json"))) == 1
    second = _fresh_python(LOOKUP, tmp_path).split()
    assert second[:2] == ["mod12", "False"]  # only puzzlebench_baselines.mod12 was imported for the lookup
    assert second[2] == first[2]  # listing still discovers every solver


@pytest.mark.slow  # slow tier (docs/development.md); cover: the index tests of test_registry.py
def test_broken_or_wrong_index_falls_back_to_discovery(tmp_path: Path) -> None:
    _fresh_python(LOOKUP, tmp_path)
    (index,) = (tmp_path / "registry").glob("*.json")
    index.write_text('{"mod12": "puzzlebench_baselines.backtracking"}')  # names the wrong module
    assert _fresh_python(LOOKUP, tmp_path).split()[:2] == ["mod12", "True"]
    index.write_text("not json")
    assert _fresh_python(LOOKUP, tmp_path).split()[:2] == ["mod12", "True"]


def test_index_fingerprint_covers_entry_points(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from puzzlebench.solvers.index import modules_fingerprint
    from puzzlebench.solvers.registry import ENTRY_POINT_GROUP, SOLVER_PACKAGES

    def _modules_fingerprint() -> str | None:
        return modules_fingerprint(SOLVER_PACKAGES, ENTRY_POINT_GROUP)

    before = _modules_fingerprint()
    dist = tmp_path / "fp_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: fp-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[puzzlebench.solvers]\nfp = fp_mod:FpSolver\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert before is not None and _modules_fingerprint() not in (None, before)


PLUGIN_IN_A_FRESH_PROCESS = '''
import sys
from puzzlebench.solvers.locators import load_solver
from puzzlebench.solvers.registry import REGISTRY, RegistryError
try:
    load_solver(sys.argv[1])
    print("loaded", "numba" in sys.modules, REGISTRY._discovered)
except RegistryError as exc:
    print("refused", exc)
'''


@pytest.mark.parametrize("name, expected", [
    ("mod12", "refused duplicate solver name 'mod12'"),  # a reference solver's name
    ("qs4", "refused duplicate solver name 'qs4'"),  # a handwritten solver's name
    ("mine-not-taken", "loaded False False"),  # no discovery of every solver, no numba
])
def test_a_plugin_run_checks_its_name_through_the_index(tmp_path: Path, name: str,
                                                          expected: str) -> None:
    """In a run's process (a fresh one), a plugin named like a built-in solver is refused, and
    one that is not is loaded without importing every solver module (nor numba through
    them): the check goes through the registry's index."""
    import subprocess
    import sys

    plugin = tmp_path / "named.py"
    plugin.write_text(textwrap.dedent(f'''
        from puzzlebench.contract import Claim, Proposal, Solver

        class Named(Solver):
            name = "{name}"
            problems = frozenset({{"nqueens"}})

            def solve(self, instance, budget, rng):
                return Proposal(claim=Claim.UNKNOWN)
    '''))
    REGISTRY.all()  # a discovery here writes the index the fresh process reads
    out = subprocess.run([sys.executable, "-c", PLUGIN_IN_A_FRESH_PROCESS, f"{plugin}:Named"],
                         capture_output=True, text=True, check=True).stdout
    assert out.startswith(expected), out
