"""Conformance: every registered solver, on every problem it declares, keeps the contract.

A thin user of the kit every solver author gets (``puzzlebench.testing``, the checks in
``puzzlebench.conformance``): one source of truth for what the contract means. Parametrised
from the registry, so a solver filed later is tested with no edit here. The harness (not the
solver) decides each outcome.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzlebench.conformance.checks import CAP_COUNTERS, Case, cases_for
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.solvers.registry import REGISTRY, SolverSpec
from puzzlebench.testing import check_case
from tests.conformance.cases import SOLVABLE

#: The shipped examples run through the same suite: the external programs (examples/external)
#: and README's own plugin solver (examples/mysolver.py).
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "external"
SPECS: list[SolverSpec] = [*REGISTRY.all(), resolve_solver(str(EXAMPLES / "c" / "solver.toml")),
                           resolve_solver(str(EXAMPLES / "python" / "solver.toml")),
                           resolve_solver(f"{EXAMPLES.parent / 'mysolver.py'}:MySolver")]
PAIRS = [(s, p) for s in SPECS for p in sorted(s.problems)]


#: Every case of every solver: the kit's own list (``puzzlebench.conformance``), so a check
#: added there is run here with no edit. A check that does not apply to what a solver
#: declares is not a test (the card lists it as SKIP); a solver that cannot run here (e.g.
#: MiniZinc absent) is skipped, and the skip says why — never silently.
#: Cases in the slow tier (docs/development.md says why): a library's counting that takes
#: 40 s or more here; the default tier keeps the solver's other cases and the counts of others.
SLOW_CASES = frozenset({"constraint-backtracking-queens-knights-counts"})
CASES = [pytest.param(case, id=case.id,
                      marks=[pytest.mark.slow] if case.id in SLOW_CASES else [])
         for spec in SPECS for case in cases_for(spec) if not case.skip or spec.unavailable]


@pytest.mark.parametrize("case", CASES)
def test_conformance(case: Case) -> None:
    check_case(case)


def test_every_cap_case_is_reached() -> None:
    """Every declared cap has a case above (so a new declaration is tested with no edit), and
    every declared cap is one the kit knows how to read."""
    declared = {(s.name, cap) for s in SPECS for cap in s.honours - {"time_limit"}}
    reached = {(c.values[0].spec.name, c.values[0].check.split(":", 1)[1]) for c in CASES
               if c.values[0].check.startswith("cap:")}
    assert declared == reached
    assert all(s.honours <= {"time_limit", *CAP_COUNTERS} for s in SPECS)


def test_every_declared_check_is_reached() -> None:
    """What a solver declares brings its checks: counts, exact and traces each have a case for
    every solver that declares them, and every solver meets each of the kit's checks."""
    names = {c.values[0].check for c in CASES}
    assert {"solves", "infeasible", "time-limit", "same-seed", "no-mutation"} <= names
    for flag, check in (("counts", "counts"), ("exact", "exact"), ("traces", "traces")):
        wanted = {s.name for s in SPECS if getattr(s, flag)}
        got = {c.values[0].spec.name for c in CASES if c.values[0].check == check}
        assert wanted == got, (flag, wanted ^ got)


def test_every_registered_solver_is_reached() -> None:
    """Coverage: each solver meets a conformance instance on each declared problem, and is
    named by an explicit ``@pytest.mark.covers("name")`` on a dedicated test elsewhere."""
    import ast
    import pathlib

    assert SPECS, "the registry is empty"
    missing_case = [(s.name, p) for s, p in PAIRS if not SOLVABLE.get(p)]
    assert not missing_case
    covered: set[str] = set()
    tests_dir = pathlib.Path(__file__).resolve().parents[1]
    for path in tests_dir.rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "covers":
                covered.update(a.value for a in node.args if isinstance(a, ast.Constant))
    untested = [s.name for s in SPECS if s.name not in covered]
    assert not untested, f"registered solvers without a dedicated test: {untested}"
