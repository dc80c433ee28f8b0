"""Fair comparisons: a study that tunes its solvers first (``[study] tune``, ``[[solvers]]
tune``), each with the same budget on training sizes the study never compares on, then runs
the tuned configurations beside the defaults; the report's manifest says what was tuned."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from puzzlebench.cli import main
from puzzlebench.harness.campaign.design.study import StudyError
from puzzlebench.harness.campaign.design.study_file import study_from_dict
from puzzlebench.harness.campaign.storage.store import study_definition

STUDY = """
[study]
name = "fair"
time_limit = 5.0
max_evaluations = 20000
tune = { budget = 8, train = "8,10", objective = "evaluations" }

[[problems]]
problem = "queens-knights"
sizes = "12"
queens = 4

[[solvers]]
name = "first-choice-hc"

[[solvers]]
name = "stochastic-hc"
tune = false

[[solvers]]
name = "backtracking"
"""


def _study(head: dict[str, Any], *solvers: dict[str, Any]) -> dict[str, Any]:
    return {"study": {"name": "s", **head},
            "problems": [{"problem": "nqueens", "sizes": [12]}], "solvers": list(solvers)}


def test_the_study_tunes_first_and_runs_the_tuned_beside_the_defaults(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    toml = tmp_path / "fair.toml"
    toml.write_text(STUDY)
    db = tmp_path / "fair.sqlite"
    assert main(["run", str(toml), "--db", str(db), "--workers", "2"]) == 0
    out, err = capsys.readouterr()
    assert "tunes first-choice-hc on queens-knights sizes 8, 10 with 8 runs" in err
    assert "tunes stochastic-hc" not in err and "tunes backtracking" not in err
    assert "4 runs made" in out  # backtracking, stochastic-hc, first-choice-hc default and tuned
    assert (tmp_path / "fair.tune.sqlite").exists()  # the tuning's runs, apart from the study's
    tuned = study_definition(db, "fair")["tuned"]
    assert [t["solver"] for t in tuned] == ["first-choice-hc"]  # type: ignore[index]
    assert tuned[0]["budget"] == 8 and tuned[0]["train"] == [8, 10]  # type: ignore[index]
    assert main(["report", "--db", str(db), "--out", str(tmp_path / "rep")]) == 0
    manifest = (tmp_path / "rep" / "tables" / "manifest.csv").read_text()
    assert "tuned configuration" in manifest and "compared with the defaults in this study" in (
        manifest)


@pytest.mark.parametrize(("data", "says"), [
    (_study({}, {"name": "first-choice-hc", "tune": True}), "needs \\[study\\] tune"),
    (_study({"tune": {"budget": 4, "train": [12]}}, {"name": "first-choice-hc"}),
     "also the study's"),
    (_study({"tune": {"budget": 4, "train": [8]}}, {"name": "mod12", "tune": True}),
     "declares no param_space"),
    (_study({"tune": {"budget": 4, "train": [8]}}, {"name": "mod12"}),
     "none of the study's solvers"),
    (_study({"tune": {"budget": 4}}, {"name": "first-choice-hc"}), "train is required"),
    (_study({"tune": {"budget": 4, "train": [8], "objective": "speed"}},
            {"name": "first-choice-hc"}), "objective"),
    (_study({"tune": {"budget": 4, "train": [8], "budgets": 2}}, {"name": "first-choice-hc"}),
     "unknown key 'budgets'"),
    (_study({"tune": {"budget": 4, "train": [8]}},
            {"name": "first-choice-hc", "params": {"max_iter": 5}}), "params come from"),
])
def test_a_tuning_study_that_cannot_run_names_the_key(data: dict[str, Any], says: str) -> None:
    with pytest.raises(StudyError, match=says):
        study_from_dict(data)
