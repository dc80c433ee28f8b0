"""Conformance: the checks every solver is held to, and the ``certify`` report card.

Shared by the ``certify`` command, ``puzzlebench.testing`` (for a solver author's own test
suite) and the project's own conformance tests, so there is one source of truth.
"""

from puzzlebench.conformance.card import Card, cases_of, certify, write_card
from puzzlebench.conformance.checks import (
    CHECK_NAMES,
    Case,
    CheckFailed,
    CheckResult,
    Status,
    cases_for,
    run_case,
)
from puzzlebench.conformance.ranking import Standing, rank

__all__ = ["CHECK_NAMES", "Card", "Case", "CheckFailed", "CheckResult", "Standing", "Status",
           "cases_for", "cases_of", "certify", "rank", "run_case", "write_card"]
