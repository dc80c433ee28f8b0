"""The conformance kit for a solver author's own pytest suite.

The same checks ``puzzlebench certify`` runs (``puzzlebench.conformance``), in two forms::

    import pytest
    from puzzlebench.testing import check_case, check_solver, conformance_cases

    SOLVER = "mysolver.py:RandomRestart"

    @pytest.mark.parametrize("case", conformance_cases(SOLVER))
    def test_conformance(case):          # one test per check and instance
        check_case(case)                  # FAIL → AssertionError, SKIP → pytest.skip

    def test_everything_at_once():
        check_solver(SOLVER)              # one AssertionError listing every failed check

``SOLVER`` is anything ``--solver`` takes. Every run is isolated and judged by the harness,
as in ``certify``; the ranking beside the baselines is left to ``certify``.
"""

from __future__ import annotations

from typing import Any

from puzzlebench.conformance.card import cases_of, certify, result_line
from puzzlebench.conformance.checks import Case, CheckFailed, CheckResult, Status, run_case
from puzzlebench.solvers.spec import SolverSpec

__all__ = ["Case", "CheckFailed", "CheckResult", "check_case", "check_solver",
           "conformance_cases"]


def conformance_cases(solver: str | SolverSpec, problems: list[str] | None = None) -> list[Any]:
    """One ``pytest.param`` per conformance case of ``solver`` (id ``solver-problem-check``),
    for ``@pytest.mark.parametrize("case", ...)``."""
    # imported on use: pytest is a test dependency, not the package's
    import pytest

    return [pytest.param(case, id=case.id) for case in cases_of(solver, problems)]


def check_case(case: Case) -> CheckResult:
    """Run one case: return its result when it passes, ``pytest.skip`` when it does not apply,
    raise :class:`CheckFailed` (an AssertionError) with the reason when it fails."""
    result = run_case(case)
    if result.status is Status.SKIP:
        # imported on use: pytest is a test dependency, not the package's
        import pytest

        pytest.skip(result.reason)
    if result.status is Status.FAIL:
        raise CheckFailed(result_line(result))
    return result


def check_solver(solver: str | SolverSpec, problems: list[str] | None = None) -> list[CheckResult]:
    """Run every conformance case of ``solver``; raise :class:`CheckFailed` listing every
    failed check, else return all results (skips included)."""
    card = certify(solver, problems=problems, ranking=False)
    if card.failed:
        lines = "\n".join(result_line(r) for r in card.failed)
        raise CheckFailed(f"{card.solver} failed {len(card.failed)} conformance "
                          f"check(s):\n{lines}")
    return list(card.results)
