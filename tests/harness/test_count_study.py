"""Studies that count: ``task = "count"`` (and ``unique``) on a [[problems]] table makes count
runs of the study's counting solvers — stored, resumable, judged against the known counts —
and the report fits their growth like any other runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzlebench.harness.campaign.design.study import StudyError
from puzzlebench.harness.campaign.design.study_file import study_from_dict
from puzzlebench.harness.campaign.runner import run_study
from puzzlebench.harness.campaign.storage.store import load


def counting(**problem: object) -> dict:
    return {"study": {"name": "counting", "time_limit": 20.0},
            "problems": [{"problem": "nqueens", "sizes": "4..8", "task": "count", **problem}],
            "solvers": [{"name": "bitboard"}, {"name": "constellations"}]}


def test_a_counting_table_makes_count_runs_of_counting_solvers_only() -> None:
    study = study_from_dict(counting(unique=True))
    runs = study.runs()
    assert {r.kind for r in runs} == {"count"} and all(r.unique for r in runs)
    assert len(runs) == 2 * 5
    # a solver that does not count is left out of the counting table (and said by run)
    data = counting()
    data["solvers"].append({"name": "min-conflicts", "problems": ["nqueens", "torus-queens"]})
    data["problems"].append({"problem": "torus-queens", "sizes": [5, 7]})
    mixed = study_from_dict(data)
    assert {r.name for r in mixed.runs() if r.problem == "nqueens"} == {"bitboard",
                                                                        "constellations"}
    assert {(r.name, r.kind) for r in mixed.runs() if r.problem == "torus-queens"} >= {
        ("min-conflicts", "solve")}
    from puzzlebench.cli.run import skipped_pairs
    assert any("min-conflicts) skips nqueens (it does not count its solutions)" in line
               for line in skipped_pairs(mixed))
    # the stored form of a solving study is unchanged: no task key
    assert "task" not in study_from_dict({**counting(), "problems": [
        {"problem": "nqueens", "sizes": "4..8"}]}).problems[0]


@pytest.mark.parametrize(("problem", "message"), [
    ({"task": "enumerate"}, r"\[\[problems\]\] #1\.task: one of solve, count"),
    ({"task": "solve", "unique": True}, r"\[\[problems\]\] #1\.unique: only a counting"),
    ({"unique": "yes"}, r"\[\[problems\]\] #1\.unique: must be true or false"),
])
def test_bad_counting_tables_are_refused_naming_the_key(problem: dict, message: str) -> None:
    with pytest.raises(StudyError, match=message):
        study_from_dict(counting(**problem))


def test_a_problem_can_be_solved_by_some_and_counted_by_others() -> None:
    data = counting()
    data["problems"].append({"problem": "nqueens", "sizes": [9]})
    data["solvers"].append({"name": "min-conflicts"})
    runs = study_from_dict(data).runs()
    assert {(r.name, r.kind) for r in runs} == {("bitboard", "count"), ("constellations", "count"),
                                                ("bitboard", "solve"), ("constellations", "solve"),
                                                ("min-conflicts", "solve")}
    assert not any(r.kind == "count" and r.size == 9 for r in runs)
    only_solvers = counting(unique=True)
    only_solvers["solvers"] = [{"name": "cpsat"}]  # counts, but not unique solutions
    with pytest.raises(StudyError, match="'cpsat' handles none of the study's problems"):
        study_from_dict(only_solvers)


def test_the_report_keeps_count_runs_apart_from_solve_runs_of_the_same_problem() -> None:
    import pandas as pd

    from puzzlebench.report.statistics.count_runs import separate_counts
    frame = pd.DataFrame({"problem": ["nqueens", "nqueens", "torus-queens"],
                          "task": ["solve", "count", "count"]})
    assert list(separate_counts(frame)["problem"]) == ["nqueens", "nqueens-count",
                                                       "torus-queens"]
    assert separate_counts(frame.iloc[1:]).equals(frame.iloc[1:])


def test_count_runs_are_stored_judged_against_known_counts_and_resumed(tmp_path: Path) -> None:
    study = study_from_dict({**counting(unique=True), "solvers": [{"name": "bitboard"}]})
    db = tmp_path / "c.sqlite"
    first = run_study(study, db, workers=1, quiet=True)
    assert len(first.new) == 5
    frame = load(db)
    assert set(frame["task"]) == {"count"} and frame["success"].all()
    assert dict(zip(frame["size"], frame["count"], strict=True)) == {4: 2, 5: 10, 6: 4, 7: 40,
                                                                     8: 92}
    again = run_study(study, db, workers=1, quiet=True)
    assert not again.new and len(load(db)) == 5
