"""The per-instance table (report/per_instance.py) and the answer-quality table
(report/statistics/quality.py), on frames made here: the columns, the best marked, the noise floor, the
censored runs left out of the medians, the excess over the optimum computed right."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from puzzlebench.harness.campaign.storage.records_frame import records_to_frame
from puzzlebench.records.record import Outcome, RunRecord
from puzzlebench.report import write_report
from puzzlebench.report.per_instance import BEST, COLUMNS, FLOOR, per_instance_table
from puzzlebench.report.statistics.quality import BEST_EXACT, KNOWN, quality_table


def run(solver: str, n: int, t: float, *, rep: int = 0, problem: str = "nqueens",
        solved: bool = True, counters: dict | None = None, instance: str = "",
        length: int | None = None, optimum: int | None = None, exact: bool = False,
        notes: str = "") -> RunRecord:
    return RunRecord.of(problem=problem, size=n, instance_id=instance or f"{problem}-{n}",
                        solver=solver, params={}, seed=rep, repeat=rep,
                        outcome=Outcome.SOLVED if solved else Outcome.BUDGET,
                        claim="solved" if solved else "", valid=True if solved else None,
                        verified=True if solved else None, time_s=t,
                        counters=counters or {}, budget={"time_limit": 2.0}, study="t",
                        answer_length=length if solved else None, optimum=optimum,
                        exact=exact, notes=notes)


def queens_runs() -> list[RunRecord]:
    out = []
    for rep in range(3):
        out.append(run("fast", 8, 0.01 + rep * 1e-3, rep=rep, counters={"evaluations": 100}))
        # slow solves 2 of 3; its budget run (2 s, 10^9 evaluations) is censored
        solved = rep < 2
        out.append(run("slow", 8, 0.5 if solved else 2.0, rep=rep, solved=solved,
                       counters={"evaluations": 300 if solved else 10**9}))
        out.append(run("cp", 8, 0.2, rep=rep, counters={"branches": 7}))
        # on n = 12 two solvers below the noise floor tie: both are marked best
        out.append(run("fast", 12, 0.0004, rep=rep, counters={"evaluations": 50}))
        out.append(run("cp", 12, 0.0002, rep=rep, counters={"branches": 5}))
        out.append(run("slow", 12, 0.003, rep=rep, counters={"evaluations": 60}))
    return out


def test_per_instance_rows_columns_and_the_best() -> None:
    table = per_instance_table(records_to_frame(queens_runs()))
    assert list(table.columns) == COLUMNS
    assert list(table["instance"]) == ["nqueens-8"] * 3 + ["nqueens-12"] * 3  # natural order
    rows = table.set_index(["instance", "solver"])
    slow = rows.loc[("nqueens-8", "slow")]
    assert slow["solved"] == "2/3"
    assert slow["median time s"] == "0.5"  # the censored 2 s run is not an observed time
    assert slow["median effort"] == 300 and slow["effort counter"] == "evaluations"
    assert rows.loc[("nqueens-8", "cp"), "effort counter"] == "branches"  # native counter
    assert [s for (i, s), b in rows["best"].items() if b == BEST] == ["fast", "cp", "fast"]
    assert rows.loc[("nqueens-12", "cp"), "median time s"].endswith(FLOOR)
    assert rows.loc[("nqueens-12", "slow"), "best"] == ""
    assert not rows.loc[("nqueens-8", "fast"), "median time s"].endswith(FLOOR)


def test_an_unsolved_instance_marks_no_best() -> None:
    runs = [run("a", 8, 2.0, solved=False), run("b", 8, 2.0, solved=False)]
    table = per_instance_table(records_to_frame(runs))
    assert set(table["best"]) == {""} and set(table["solved"]) == {"0/1"}


def sliding_runs() -> list[RunRecord]:
    """Two 8-puzzle instances: one with a known optimum (20), one without (the exact solver's
    22 is the reference); greedy is faster with longer answers."""
    out = []
    for rep in range(2):
        out.append(run("astar", 8, 0.01, rep=rep, problem="sliding", instance="s-a", length=20,
                       optimum=20, exact=True))
        out.append(run("greedy", 8, 0.001, rep=rep, problem="sliding", instance="s-a",
                       length=30 + rep * 10))
        out.append(run("astar", 8, 0.02, rep=rep, problem="sliding", instance="s-b", length=22,
                       exact=True))
        out.append(run("greedy", 8, 0.002, rep=rep, problem="sliding", instance="s-b", length=22))
    return out


def test_quality_excess_over_the_known_optimum_or_the_best_exact_answer() -> None:
    table = quality_table(records_to_frame(sliding_runs())).set_index("solver")
    assert table.loc["astar", "optimal %"] == 100.0 and table.loc["astar", "mean excess"] == 0
    greedy = table.loc["greedy"]
    assert greedy["solved runs"] == 4
    assert greedy["optimal %"] == 50.0  # s-b: 22 = the exact solver's best
    assert greedy["mean excess"] == (10 + 20 + 0 + 0) / 4
    assert greedy["max excess"] == 20
    assert greedy["mean excess %"] == round(100 * (10 / 20 + 20 / 20) / 4, 1)
    assert greedy["reference"] == f"{BEST_EXACT} and {KNOWN}"
    assert greedy["instances without a reference"] == 0


def test_quality_needs_an_objective_and_a_reference() -> None:
    assert quality_table(records_to_frame(queens_runs())).empty  # satisfaction problems
    no_ref = [run("greedy", 8, 0.001, problem="sliding", instance="s-c", length=30)]
    table = quality_table(records_to_frame(no_ref))
    assert table.loc[0, "solved runs"] == 0 and table.loc[0, "instances without a reference"] == 1


def test_best_on_an_objective_problem_weighs_the_answer_before_the_time() -> None:
    table = per_instance_table(records_to_frame(sliding_runs())).set_index(["instance", "solver"])
    assert table.loc[("s-a", "astar"), "best"] == BEST  # 20 moves beat greedy's faster 35
    assert table.loc[("s-a", "greedy"), "best"] == ""
    assert table.loc[("s-b", "greedy"), "best"] == BEST  # same length: the faster one
    assert table.loc[("s-a", "greedy"), "median objective"] == 35


@pytest.mark.slow  # slow tier: see docs/development.md
def test_the_report_holds_both_tables(tmp_path: Path) -> None:
    frame = records_to_frame(queens_runs() + sliding_runs())
    write_report(frame, tmp_path)
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert md.index("## The answer") < md.index("## Per instance") < md.index("## Details")
    assert "### Answer quality" in md and "tables/quality.csv" in md
    assert "<h2>Per instance</h2>" in html and "<h3>Answer quality</h3>" in html
    written = pd.read_csv(tmp_path / "tables" / "per_instance.csv")
    assert list(written.columns) == COLUMNS and len(written) == 10
    quality = pd.read_csv(tmp_path / "tables" / "quality.csv")
    assert list(quality["solver"]) == ["astar", "greedy"]
