"""The ladder of verification as the reports show it: the summary's ``verified by`` column,
the agreement matrix's marks and the completion study's certified instances."""

from __future__ import annotations

from puzzlebench.harness.campaign.storage.records_frame import records_to_frame
from puzzlebench.records.record import Outcome, RunRecord
from puzzlebench.report.statistics.agreement_matrix import agreement_matrix
from puzzlebench.report.summary import summary_table
from puzzlebench.studies.completion import per_size


def _run(solver: str, iid: str, outcome: Outcome, rung: str, **more: object) -> RunRecord:
    verified = True if rung else (False if outcome.success else None)
    return RunRecord.of(problem="nqueens-completion", size=20, instance_id=iid, solver=solver,
                     params={}, seed=0, outcome=outcome, claim=outcome.value, valid=None,
                     verified=verified, verified_by=rung, time_s=0.1, **more)  # type: ignore[arg-type]


RUNS = [
    _run("cpsat", "a", Outcome.SOLVED, "validator"),
    _run("cpsat", "b", Outcome.INFEASIBLE, "certificate", certify_s=0.25, certificate="proof"),
    _run("cpsat", "c", Outcome.INFEASIBLE, "agreement"),
    _run("cpsat", "d", Outcome.INFEASIBLE, ""),
    _run("bitboard", "b", Outcome.INFEASIBLE, "certificate", certify_s=0.25, certificate="proof"),
    _run("bitboard", "c", Outcome.INFEASIBLE, "agreement"),
]


def test_the_summary_counts_successes_by_rung() -> None:
    table = summary_table(records_to_frame(RUNS)).set_index("solver")
    assert table.loc["cpsat", "verified by"] == "validator 1 · certificate 1 · agreement 1"
    assert table.loc["cpsat", "unverified"] == 1
    assert table.loc["bitboard", "verified by"] == "certificate 1 · agreement 1"


def test_the_agreement_matrix_marks_how_infeasibility_was_verified() -> None:
    matrix = agreement_matrix(records_to_frame(RUNS)).set_index("instance")
    assert matrix.loc["b", "cpsat"] == "infeasible (certified)"
    assert matrix.loc["c", "cpsat"] == "infeasible (agreed)"
    assert matrix.loc["d", "cpsat"] == "infeasible (unverified)"
    assert matrix.loc["a", "cpsat"] == "solved"


def test_the_completion_study_counts_certified_instances() -> None:
    frame = records_to_frame(RUNS)
    row = per_size(frame).iloc[0]
    assert (row["infeasible (verified)"], row["of which certified"],
            row["of which by agreement"]) == (2, 1, 1)
    assert row["proof check s (max)"] == 0.25
