"""Budgets in either currency (issue 27 §2): a study's solver entries may carry their own
budget (a block with equal evaluations, one with equal time); the anytime analysis shows and
ranks each block apart, on evaluations and on seconds, and every run says which budget
stopped it."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from puzzlebench.harness.campaign.design.study import StudyError
from puzzlebench.harness.campaign.design.study_file import study_from_dict
from puzzlebench.harness.campaign.runner import run_study
from puzzlebench.harness.campaign.storage.records_frame import records_to_frame
from puzzlebench.harness.campaign.storage.store import load_records, load_traces
from puzzlebench.report import write_report
from puzzlebench.report.statistics.anytime_statistics import binding_budget, budget_block
from puzzlebench.studies.anytime import binding_table, narrative, success_rates

BLOCKS = {
    "study": {"name": "blocks", "repeats": 5, "time_limit": 5.0, "master_seed": 3},
    "problems": [{"problem": "torus-queens", "sizes": [11]}],
    "solvers": [{"name": "min-conflicts", "max_evaluations": 400},
                {"name": "min-conflicts", "time_limit": 0.2},
                {"name": "qs4", "max_evaluations": 400},
                {"name": "qs4", "time_limit": 0.2}],
}


def test_solver_entries_carry_their_own_budget() -> None:
    study = study_from_dict(BLOCKS, "test")
    runs = study.runs()
    budgets = {(r.solver, r.budget["max_evaluations"], r.budget["time_limit"], r.hard_limit)
               for r in runs}
    assert budgets == {("min-conflicts", 400, 5.0, 6.0), ("min-conflicts", None, 0.2, 0.72),
                       ("qs4", 400, 5.0, 6.0), ("qs4", None, 0.2, 0.72)}
    assert len({r.key for r in runs}) == len(runs) == 20
    # both blocks run the same seeds: the same search, stopped by another budget
    seeds = {b: sorted(r.seed for r in runs if r.solver == "qs4" and
                       (r.budget["max_evaluations"] is None) == b) for b in (True, False)}
    assert seeds[True] == seeds[False]
    with pytest.raises(StudyError, match="hard_limit"):
        study_from_dict({**BLOCKS, "study": {**BLOCKS["study"], "hard_limit": 5.0},
                         "solvers": [{"name": "qs4", "time_limit": 9.0}]}, "test")


def test_binding_budget_reads_the_record() -> None:
    cap = {"max_evaluations": 100, "time_limit": 5.0}
    assert binding_budget("budget", {"evaluations": 100}, cap, 0.1) == "evaluations"
    assert binding_budget("budget", {"evaluations": 40}, cap, 4.99) == "time"
    assert binding_budget("budget", {"evaluations": 40}, cap, 0.1) == "solver's own limit"
    assert binding_budget("timeout", {}, cap, 6.0) == "time"
    assert binding_budget("solved", {"evaluations": 100}, cap, 0.1) == "-"
    assert binding_budget("budget", {"generations": 7}, {"max_iterations": 7}, 0.0) == "iterations"
    assert budget_block(cap) == "100 evaluations, 5 s"
    assert budget_block({"time_limit": 0.2, "max_evaluations": None}) == "0.2 s"


@pytest.mark.slow  # slow tier (docs/development.md); cover: the fold and block tests of test_budget_blocks.py
def test_blocks_are_ranked_apart_on_both_axes(tmp_path: Path) -> None:
    db = tmp_path / "b.sqlite"
    run_study(study_from_dict(BLOCKS, "test"), db, workers=2, quiet=True)
    frame = records_to_frame(load_records(db))
    stops = binding_table(frame).set_index(["budget_block", "solver"])
    capped = stops.loc[("400 evaluations, 5 s", "qs4")]
    assert capped.get("evaluations", 0) + capped.get("-", 0) == 5
    assert capped.get("evaluations", 0) > 0  # 400 evaluations do not solve torus n = 11 every time
    said = narrative(frame)
    assert "candidate state whose conflict count was computed" in said[0]
    assert any(line.startswith("Block '400 evaluations, 5 s': 10 runs") for line in said)
    assert any(line.startswith("Block '0.2 s': 10 runs") for line in said)
    assert sorted(success_rates(frame)["budget_block"]) == ["0.2 s", "400 evaluations, 5 s"]
    # a loaded machine may cut a warm-up short, and the report leaves such a run out
    # (report/statistics/distorted.py, tested in test_distorted.py): not what this test is about
    write_report(frame.assign(notes=""), tmp_path / "r", traces=load_traces(db))
    md = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    key = md.split("### Key figure", 1)[1].split("\n## ", 1)[0]
    assert "](figures/anytime_" in key  # a traced study's key figure is a convergence view
    assert "torus-queens, n = 11, budget 400 evaluations, 5 s" in md
    assert "torus-queens, n = 11, budget 0.2 s" in md
    headline = pd.read_csv(tmp_path / "r" / "tables" / "anytime_headline.csv")
    assert sorted(headline["budget"]) == ["0.2 s", "400 evaluations, 5 s"]
    assert {"fewest evaluations to 0 conflicts (ERT in the common unit)",
            "shortest time to 0 conflicts (ERT in seconds)"} <= set(headline.columns)
    # one convergence figure for the problem, a panel per budget block (no figure per group)
    assert [p.name for p in (tmp_path / "r" / "figures").glob("anytime_*")] == [
        "anytime_torus_queens.png"]
    assert "n = 11, budget 400 evaluations, 5 s" in key or "anytime_torus_queens" in key
    # the HTML page's first screen: one panel of that convergence view beside the answer
    html = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    top = html[html.index('class="answer-top with-figure"'):html.index("<h3>Anytime at a glance")]
    assert 'id="key-figure"' in top and 'id="chart-anytime_torus_queens-key"' in top
