"""One judging pipeline (issue 39 §2): the live path and re-judging a stored run reach the same
verdict through ``judging.verdict``, and what the validator learned comes back with its result."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from puzzlebench.contract import Budget, Claim
from puzzlebench.harness.execute import run_solve
from puzzlebench.harness.judging.verdict import RunContext, judge_stored, verdict
from puzzlebench.harness.run.protocol.payload import ProposalData
from puzzlebench.problems import get_problem, sliding_distances
from puzzlebench.records.record import Outcome

QUEENS = get_problem("nqueens")
SLIDING = get_problem("sliding")


def test_an_answer_after_the_time_limit_is_a_timeout_live_and_stored() -> None:
    instance = QUEENS.make(4)
    proposal = ProposalData(claim=Claim.SOLVED, answer=[1, 3, 0, 2])
    within = verdict(QUEENS, instance, proposal, RunContext("solve", time_s=0.5, time_limit=1.0))
    late = verdict(QUEENS, instance, proposal, RunContext("solve", time_s=1.5, time_limit=1.0))
    assert within.outcome is Outcome.SOLVED and within.verified
    assert late.outcome is Outcome.TIMEOUT and late.verified is None and late.verified_by == ""
    assert "past its time limit of 1 s" in late.reason


def test_a_stored_run_judged_again_meets_the_same_rules(tmp_path: Path) -> None:
    record = run_solve("mod12", QUEENS.make(8), budget=Budget(time_limit=5.0), isolate=False)
    assert record.verdict.outcome is Outcome.SOLVED
    # the same proposal, stored by an older judge with a time past its limit: judged again,
    # the time-limit rule applies as it does live
    late = record.with_(judge_version="an older judge", time_s=6.0)
    again = judge_stored(late)
    assert again.verdict.outcome is Outcome.TIMEOUT and "past its time limit" in again.verdict.reason
    assert "judged again by judge" in again.provenance.notes
    assert judge_stored(record) is record  # the current judge's verdict stands


@pytest.fixture()
def poisoned_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PUZZLEBENCH_CACHE", str(tmp_path))
    sliding_distances.table.cache_clear()
    path = sliding_distances.cache_path(8)
    path.parent.mkdir(parents=True, exist_ok=True)
    codes = np.arange(sliding_distances.STATES, dtype=np.int64)
    np.savez(path, codes=codes, dists=np.zeros(sliding_distances.STATES, dtype=np.int8))
    yield path
    sliding_distances.table.cache_clear()


def test_a_refused_judge_table_is_noted_in_the_judgement_it_served(poisoned_cache: Path) -> None:
    instance = SLIDING.make(8, start="125408367")
    record = run_solve("astar-manhattan", instance, isolate=False)
    v = record.verdict
    assert v.outcome is Outcome.SOLVED and v.verified and v.optimum is not None
    assert "failed its digest check and was rebuilt" in record.provenance.notes  # the poisoned cache
    # the answer, judged again with the rebuilt table: optimal, and nothing left to say
    proposal = ProposalData(claim=Claim.SOLVED, answer=record.verdict.answer, optimal=True)
    judged = verdict(SLIDING, instance, proposal, RunContext("solve", exact=True, certify=False))
    assert judged.outcome is Outcome.SOLVED and judged.optimum == record.verdict.optimum
    assert judged.notes == ()
    sliding_distances.table.cache_clear()  # poisoned again: the verdict itself carries the note
    np.savez(poisoned_cache, codes=np.arange(sliding_distances.STATES, dtype=np.int64),
             dists=np.zeros(sliding_distances.STATES, dtype=np.int8))
    again = verdict(SLIDING, instance, proposal, RunContext("solve", exact=True, certify=False))
    assert again.outcome is Outcome.SOLVED and len(again.notes) == 1
    assert "failed its digest check" in again.notes[0]
