"""One judging pipeline (issue 39 §2, issue 56): the live path, re-judging a stored run, reading
an old stored row and ``puzzlebench check`` reach the same judgement through
``judging.pipeline``, and what the validator learned comes back with its result."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from puzzlebench.cli import main
from puzzlebench.contract import Budget, Claim, Proposal
from puzzlebench.harness.campaign.storage.store import load_records
from puzzlebench.harness.execute import make_request, run_solve
from puzzlebench.harness.judging.pipeline import (
    RunContext,
    as_judged_then,
    judge_proposal,
    judge_run,
    judge_stored,
    kept_trace,
)
from puzzlebench.harness.judging.run_record import make_record
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.harness.run.child_report import ChildReport
from puzzlebench.harness.run.protocol.payload import ProposalData, to_payload
from puzzlebench.problems import get_problem, sliding_distances
from puzzlebench.records.record import Outcome, RunFigures, RunRecord

QUEENS = get_problem("nqueens")
SLIDING = get_problem("sliding")


def test_an_answer_after_the_time_limit_is_a_timeout_live_and_stored() -> None:
    instance = QUEENS.make(4)
    proposal = ProposalData(claim=Claim.SOLVED, answer=[1, 3, 0, 2])
    within = judge_proposal(QUEENS, instance, proposal, RunContext("solve", time_s=0.5, time_limit=1.0))
    late = judge_proposal(QUEENS, instance, proposal, RunContext("solve", time_s=1.5, time_limit=1.0))
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
    judged = judge_proposal(SLIDING, instance, proposal, RunContext("solve", exact=True, prove=False))
    assert judged.outcome is Outcome.SOLVED and judged.optimum == record.verdict.optimum
    assert judged.notes == ()
    sliding_distances.table.cache_clear()  # poisoned again: the verdict itself carries the note
    np.savez(poisoned_cache, codes=np.arange(sliding_distances.STATES, dtype=np.int64),
             dists=np.zeros(sliding_distances.STATES, dtype=np.int8))
    again = judge_proposal(SLIDING, instance, proposal, RunContext("solve", exact=True, prove=False))
    assert again.outcome is Outcome.SOLVED and len(again.notes) == 1
    assert "failed its digest check" in again.notes[0]


def _judged_live(solver: str, instance: Any, proposal: Proposal) -> RunRecord:
    """The record ``solve`` makes of ``proposal``, as if ``solver``'s process had sent it."""
    spec = resolve_solver(solver)
    data, raw = to_payload(get_problem(instance.problem), proposal)
    task = make_request(spec, instance, "solve", budget=Budget(time_limit=5.0))
    report = ChildReport(status="done", data=data, raw=raw, figures=RunFigures(time_s=0.01))
    return make_record(spec, task, report)


@pytest.mark.parametrize(("solver", "problem", "size", "options", "answer"), [
    ("min-conflicts", "nqueens", 8, {}, "0,4,7,5,2,6,1,3"),        # valid
    ("min-conflicts", "nqueens", 8, {}, "0,1,2,3,4,5,6,7"),        # a diagonal attack
    ("greedy-manhattan", "sliding", 8, {"start": "123456708"}, "R"),   # reaches the goal
    ("greedy-manhattan", "sliding", 8, {"start": "123456708"}, "L"),   # does not
    ("min-conflicts", "nqueens-completion", 8, {"placed": "0:0"}, "3,1,6,2,5,7,4,0"),  # moved
])
def test_check_and_solve_judge_the_same_answer_alike(capsys: pytest.CaptureFixture[str],
                                                     solver: str, problem: str, size: int,
                                                     options: dict[str, str], answer: str) -> None:
    family = get_problem(problem)
    instance = family.make(size, **options)
    record = _judged_live(solver, instance,
                          Proposal(claim=Claim.SOLVED, answer=family.parse_answer(instance, answer)))
    flags = [a for k, v in options.items() for a in (f"--{k}", v)]
    code = main(["check", problem, str(size), *flags, "--answer", answer, "--json"])
    row = json.loads(capsys.readouterr().out)
    assert (row["outcome"], row["reason"], row["verified_by"]) == (
        record.verdict.outcome.value, record.verdict.reason, record.verdict.verified_by)
    assert row["valid"] is record.verdict.outcome.success and code == (0 if row["valid"] else 1)


def test_check_and_solve_judge_an_infeasible_claim_alike(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    """A false ``infeasible`` claim is ``wrong`` either way; a true one with no rule to decide
    it is proved by the same checked proof (``check`` asks for the proof outright)."""
    queens = get_problem("nqueens").make(8)
    record = _judged_live("min-conflicts", queens, Proposal(claim=Claim.INFEASIBLE))
    assert main(["check", "nqueens", "8", "--infeasible", "--json"]) == 1
    row = json.loads(capsys.readouterr().out)
    assert record.verdict.outcome is Outcome.WRONG and row["outcome"] == "wrong"
    completion = get_problem("nqueens-completion")
    infeasible = completion.agreement_instances(12, {})[1]
    record = _judged_live("min-conflicts", infeasible, Proposal(claim=Claim.INFEASIBLE))
    placed = completion.options_of(infeasible)["placed"]
    assert main(["check", "nqueens-completion", "12", "--placed", placed, "--infeasible",
                 "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert record.verdict.outcome is Outcome.INFEASIBLE and record.verdict.verified_by == "certificate"
    assert row["outcome"] == "infeasible" and row["certified"]


@pytest.mark.parametrize(("ended", "outcome"), [
    ("timeout", Outcome.TIMEOUT), ("startup", Outcome.TIMEOUT), ("memout", Outcome.MEMOUT),
    ("crash", Outcome.CRASH), ("done", Outcome.CRASH)])  # done, but no readable proposal
def test_a_run_without_a_proposal_is_judged_by_how_it_ended(ended: str, outcome: Outcome) -> None:
    got = judge_run(QUEENS, QUEENS.make(4), None, RunContext("solve"), ended=ended, error="why")
    assert got.outcome is outcome and got.reason == "why" and got.valid is None


def test_an_unknown_ending_is_refused() -> None:
    with pytest.raises(ValueError, match="not 'exploded'"):
        judge_run(QUEENS, QUEENS.make(4), None, RunContext("solve"), ended="exploded")


def test_a_trace_that_contradicts_its_run_is_dropped() -> None:
    solved = judge_proposal(QUEENS, QUEENS.make(4), ProposalData(claim=Claim.SOLVED,
                                                                answer=[1, 3, 0, 2]),
                            RunContext("solve", prove=False))
    trace: list[list[float]] = [[1, 2, 0.0], [5, 0, 0.001]]
    assert kept_trace(None, solved, wall_s=1.0, evaluations=5) == (None, "")
    assert kept_trace(trace, solved, wall_s=1.0, evaluations=5) == (trace, "")
    dropped, why = kept_trace(trace, solved, wall_s=1.0, evaluations=2)  # more than it made
    assert dropped is None and why


def test_an_old_store_without_the_ladder_reads_as_it_was_judged_then(tmp_path: Path) -> None:
    """The release-0.1.0 store's rows with ``verified`` and ``verified_by`` taken out (as a
    store from before the ladder holds them) load with the rung they were judged by then."""
    root = Path(__file__).resolve().parents[1] / "data" / "stores"
    db = tmp_path / "old.sqlite"
    shutil.copyfile(root / "release-0.1.0.sqlite", db)
    conn = sqlite3.connect(db, isolation_level=None)
    for rowid, text in conn.execute("SELECT rowid, record FROM runs").fetchall():
        record = json.loads(text)
        del record["verified"], record["verified_by"]
        conn.execute("UPDATE runs SET record = ? WHERE rowid = ?", (json.dumps(record), rowid))
    conn.close()
    then = json.loads((root / "release-0.1.0-records.json").read_text())
    now = load_records(db, rejudged=False)
    assert [(r.verdict.verified, r.verdict.verified_by) for r in now] == [
        (r["verified"], r["verified_by"]) for r in then]
    assert {r.verdict.verified_by for r in now} == {"validator"}


def test_the_rung_of_a_record_before_the_ladder() -> None:
    base = {"outcome": "infeasible", "task": "solve", "verified": True}
    assert as_judged_then({**base, "reason": "infeasibility agreed by complete solvers a, b"}
                          )["verified_by"] == "agreement"
    assert as_judged_then({**base, "reason": ""})["verified_by"] == "rule"
    assert as_judged_then({"outcome": "infeasible", "reason": "not verified"})["verified"] is False
    assert as_judged_then({"outcome": "solved", "task": "count"})["verified_by"] == "rule"
    assert as_judged_then({"outcome": "wrong"})["verified_by"] == ""
    stored = {"outcome": "solved", "verified": True, "verified_by": "validator"}
    assert as_judged_then(stored) is stored  # a record of the ladder is read as it is
