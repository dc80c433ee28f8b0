"""Declines are an outcome of their own, and every record says what stopped its run."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from puzzlebench.contract import Budget, Claim, Proposal, Solver
from puzzlebench.harness.campaign.agreement import SYMBOL
from puzzlebench.harness.execute import run_solve
from puzzlebench.harness.judging.rules import judge_solution
from puzzlebench.harness.run.protocol.payload import ProposalData
from puzzlebench.problems import NQueens, QueensInstance, SlidingInstance
from puzzlebench.records.record import Outcome, RunRecord, infer_stopped_by
from puzzlebench.report.statistics.anytime_statistics import binding_budget
from puzzlebench.solvers.registry import spec_of


def test_idastar_declines_a_board_beyond_its_cells() -> None:
    start = (*range(1, 24), 0, 24)  # one move from the 5x5 goal
    record = run_solve("idastar-linear-conflict", SlidingInstance(5, 5, start), isolate=False)
    assert record.verdict.outcome is Outcome.DECLINED
    assert record.verdict.claim == "declined"
    assert record.verdict.stopped_by == "declined"
    assert "at most 16 cells" in record.verdict.reason
    assert not record.verdict.outcome.success and not record.verdict.outcome.failure


def test_judge_maps_a_decline_and_still_validates_an_answer() -> None:
    problem, instance = NQueens(), QueensInstance(8)
    declined = judge_solution(problem, instance, ProposalData(claim=Claim.DECLINED, note="too big"))
    assert declined.outcome is Outcome.DECLINED and declined.reason == "too big"
    wrong = judge_solution(problem, instance, ProposalData(claim=Claim.DECLINED, answer=[0] * 8))
    assert wrong.outcome is Outcome.WRONG


class _Stops(Solver):
    """Stops without an answer after spending what its parameters say."""

    name: ClassVar[str] = "test-stops"
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens"})
    honours: ClassVar[frozenset[str]] = frozenset({"max_evaluations"})
    params: ClassVar[dict[str, Any]] = {"evaluations": 10, "say": ""}

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
        return Proposal(counters={"evaluations": int(self.config["evaluations"])},
                        stopped_by=str(self.config["say"]))


def test_stopped_by_from_the_solver_else_from_counters_and_budget() -> None:
    spec = spec_of(_Stops)
    instance = QueensInstance(8)
    capped = run_solve(spec, instance, budget=Budget(max_evaluations=10), isolate=False)
    assert capped.verdict.outcome is Outcome.BUDGET and capped.verdict.stopped_by == "max_evaluations"
    said = run_solve(spec, instance, params={"say": "param:evaluations"},
                     budget=Budget(max_evaluations=10), isolate=False)
    assert said.verdict.stopped_by == "param:evaluations"
    unknown = run_solve(spec, instance, params={"evaluations": 3},
                        budget=Budget(max_evaluations=10), isolate=False)
    assert unknown.verdict.stopped_by == ""
    solved = run_solve("mod12", instance, isolate=False)
    assert solved.verdict.outcome is Outcome.SOLVED and solved.verdict.stopped_by == "answer"


def test_infer_stopped_by() -> None:
    assert infer_stopped_by({"generations": 5}, {"max_iterations": 5}, 0.1) == "max_iterations"
    assert infer_stopped_by({"nodes_generated": 9}, {"max_nodes": 10, "time_limit": 1.0},
                            0.99) == "time_limit"
    assert infer_stopped_by({"evaluations": 9}, {"max_evaluations": 10}, 5.0) == ""


def test_binding_budget_prefers_the_recorded_stop() -> None:
    counters, budget = {"evaluations": 100}, {"max_evaluations": 100, "time_limit": 1.0}
    assert binding_budget("budget", counters, budget, 0.2) == "evaluations"  # inferred
    assert binding_budget("budget", counters, budget, 0.2, "time_limit") == "time"
    assert binding_budget("budget", counters, budget, 0.2, "param:max_repairs") == \
        "solver's own limit"
    assert binding_budget("solved", counters, budget, 0.2, "answer") == "-"


def test_stopped_by_survives_the_store_round_trip_and_old_records_read_empty() -> None:
    record = run_solve("mod12", QueensInstance(8), isolate=False)
    back = RunRecord.from_dict(record.to_dict())
    assert back.verdict.stopped_by == "answer"
    old = {k: v for k, v in record.to_dict().items() if k != "stopped_by"}
    assert RunRecord.from_dict(old).verdict.stopped_by == ""


def test_every_outcome_has_a_cell_in_the_agreement_matrix() -> None:
    """A new outcome (a decline) must not crash ``agree``'s matrix on a KeyError."""
    assert set(SYMBOL) == set(Outcome)
