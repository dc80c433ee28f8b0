"""The harness decides outcomes: wrong answers and false claims never count as solved."""

from __future__ import annotations

from typing import ClassVar

from puzzlebench.contract import Budget, Claim, Proposal, Solver
from puzzlebench.harness.execute import run_count, run_solve
from puzzlebench.records.record import Outcome, RunRecord
from puzzlebench.solvers.registry import spec_of
from tests.conformance.cases import make


def spec_returning(proposal: Proposal | Exception, **caps: object):  # type: ignore[no-untyped-def]
    class Fixed(Solver):
        name: ClassVar[str] = "fixed-test"
        problems: ClassVar[frozenset[str]] = frozenset({"nqueens", "sliding"})
        counts: ClassVar[bool] = True

        def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
            if isinstance(proposal, Exception):
                raise proposal
            return proposal

        def count(self, instance, budget, *, unique=False):  # type: ignore[no-untyped-def]
            return proposal

    for k, v in caps.items():
        setattr(Fixed, k, v)
    return spec_of(Fixed)


def test_invalid_answer_is_wrong_even_if_claimed_solved() -> None:
    rec = run_solve(spec_returning(Proposal(answer=[0, 1, 2, 3], claim=Claim.SOLVED)),
                    make("nqueens", 4))
    v = rec.verdict
    assert v.outcome is Outcome.WRONG and v.valid is False and "diagonal" in v.reason


def test_false_infeasible_claim_is_wrong() -> None:
    rec = run_solve(spec_returning(Proposal(claim=Claim.INFEASIBLE)), make("nqueens", 8))
    assert rec.verdict.outcome is Outcome.WRONG
    rec = run_solve(spec_returning(Proposal(claim=Claim.INFEASIBLE)), make("nqueens", 3))
    assert rec.verdict.outcome is Outcome.INFEASIBLE


def test_claimed_solved_without_answer_is_wrong_and_unknown_is_budget() -> None:
    assert run_solve(spec_returning(Proposal(claim=Claim.SOLVED)), make("nqueens", 5)).verdict.outcome \
        is Outcome.WRONG
    assert run_solve(spec_returning(Proposal()), make("nqueens", 5)).verdict.outcome is Outcome.BUDGET


def test_crash_recorded_with_text() -> None:
    rec = run_solve(spec_returning(RuntimeError("boom")), make("nqueens", 5))
    assert rec.verdict.outcome is Outcome.CRASH and "boom" in rec.verdict.error


def test_counts_checked_against_oeis() -> None:
    bad = run_count(spec_returning(Proposal(count=91)), make("nqueens", 8))
    assert bad.verdict.outcome is Outcome.WRONG and "92" in bad.verdict.reason
    good = run_count(spec_returning(Proposal(count=92, unique=12)), make("nqueens", 8), unique=True)
    assert good.verdict.outcome is Outcome.SOLVED
    bad_u = run_count(spec_returning(Proposal(count=92, unique=11)), make("nqueens", 8), unique=True)
    assert bad_u.verdict.outcome is Outcome.WRONG


def test_record_round_trip_and_stable_view() -> None:
    rec = run_solve(spec_returning(Proposal(answer=[1, 3, 0, 2], claim=Claim.SOLVED,
                                            counters={"nodes": 4})), make("nqueens", 4), seed=9,
                    budget=Budget(time_limit=3))
    assert rec.verdict.outcome is Outcome.SOLVED
    again = RunRecord.from_dict(rec.to_dict())
    assert again == rec
    assert "time_s" not in rec.stable() and rec.stable()["counters"] == {"nodes": 4}
    assert rec.provenance.versions["python"] and rec.provenance.machine["cores"] >= 1
