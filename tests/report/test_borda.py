"""The MiniZinc-style Borda score (report/statistics/borda.py) against hand-computed examples."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from puzzlebench.report.series_styles import SeriesStyles
from puzzlebench.report.statistics.borda import borda_overall, borda_table, run_points


def _run(solver: str, instance: str, outcome: str, time_s: float, *, length: int | None = None,
         optimum: int | None = None, verified: bool | None = True, problem: str = "sliding",
         seed: int = 0) -> dict:
    success = outcome in ("solved", "infeasible") and verified is True
    return {"problem": problem, "size": 8, "instance_id": instance, "solver": solver,
            "params_key": "{}", "seed": seed, "repeat": seed, "outcome": outcome,
            "success": success, "unverified": outcome in ("solved", "infeasible") and not success,
            "time_s": time_s, "answer_length": length, "optimum": optimum, "task": "solve",
            "budget": {"time_limit": 10.0}, "instance": {}, "params": {}}


def _frame(rows: list[dict]) -> pd.DataFrame:
    frame = pd.DataFrame(rows)
    return SeriesStyles.from_frame(frame).with_labels(frame)


def _scores(frame: pd.DataFrame) -> dict[str, tuple[float, float]]:
    table = borda_table(frame)
    return {r["configuration"]: (r["Borda (complete)"], r["Borda (incomplete)"])
            for _, r in table.iterrows()}


def hand_example() -> pd.DataFrame:
    """Three sliding configurations on three instances.

    ``exact`` proves optimality (the record holds the optimum and its answer has that length),
    ``greedy`` and ``local`` do not.

    ===== ================================ ================================ =======================
          exact                            greedy                           local
    ===== ================================ ================================ =======================
    i1    10 moves = optimum 10, 2 s       10 moves, 1 s                    timeout, 5 s
    i2    20 moves = optimum 20, 4 s       24 moves, 1 s                    20 moves, 4 s
    i3    timeout, 10 s                    wrong, 0.5 s                     30 moves, 3 s
    ===== ================================ ================================ =======================

    Complete (proof beats no proof, then fewer moves, then time):

    * i1: exact–greedy: exact proved → 1 : 0; exact–local 1 : 0; greedy–local 1 : 0.
      exact 2, greedy 1, local 0.
    * i2: exact–greedy 1 : 0 (proof); exact–local 1 : 0 (proof); greedy–local 0 : 1 (24 > 20
      moves). exact 2, greedy 0, local 1.
    * i3: greedy is wrong → exact 1, local 1 from it, greedy 0; exact (unsolved) – local 0 : 1.
      exact 1, greedy 0, local 2.
    * totals: exact 5, greedy 1, local 3 (9 points: one per pair and instance).

    Incomplete (no proof step):

    * i1: exact–greedy same length → time split: exact 1/(2+1) = 1/3, greedy 2/3;
      both beat local. exact 4/3, greedy 5/3, local 0.
    * i2: exact–greedy 1 : 0 (20 < 24 moves); exact–local same length and time: 4/8 = 0.5 each;
      greedy–local 0 : 1. exact 1.5, greedy 0, local 1.5.
    * i3: as complete: exact 1, greedy 0, local 2.
    * totals: exact 23/6 = 3.8333, greedy 5/3 = 1.6667, local 3.5.

    Ranks (by the complete score): exact 1, local 2, greedy 3.
    """
    return _frame([
        _run("exact", "i1", "solved", 2.0, length=10, optimum=10),
        _run("greedy", "i1", "solved", 1.0, length=10),
        _run("local", "i1", "timeout", 5.0, verified=None),
        _run("exact", "i2", "solved", 4.0, length=20, optimum=20),
        _run("greedy", "i2", "solved", 1.0, length=24),
        _run("local", "i2", "solved", 4.0, length=20),
        _run("exact", "i3", "timeout", 10.0, verified=None),
        _run("greedy", "i3", "wrong", 0.5, length=12, verified=None),
        _run("local", "i3", "solved", 3.0, length=30),
    ])


def test_hand_computed_example() -> None:
    table = borda_table(hand_example())
    assert list(table["configuration"]) == ["exact", "local", "greedy"]
    assert list(table["rank"]) == [1, 2, 3]
    assert list(table["instances"]) == [3, 3, 3]
    scores = _scores(hand_example())
    assert scores["exact"] == (5.0, pytest.approx(23 / 6, abs=1e-4))
    assert scores["greedy"] == (1.0, pytest.approx(5 / 3, abs=1e-4))
    assert scores["local"] == (3.0, 3.5)
    assert math.isclose(table["Borda (complete)"].sum(), 9.0)
    assert math.isclose(table["Borda (incomplete)"].sum(), 9.0, abs_tol=1e-3)


def test_scores_do_not_depend_on_row_order() -> None:
    frame = hand_example()
    shuffled = frame.sample(frac=1.0, random_state=5)
    pd.testing.assert_frame_equal(borda_table(frame), borda_table(shuffled))
    points = run_points(shuffled)
    assert list(points.index) == list(shuffled.index)  # aligned with the frame given


def test_ties_split_by_time_and_zero_times_split_evenly() -> None:
    frame = _frame([_run("a", "x", "solved", 1.0, length=5, problem="nqueens"),
                    _run("b", "x", "solved", 3.0, length=5, problem="nqueens"),
                    _run("a", "y", "solved", 0.0, length=5, problem="nqueens"),
                    _run("b", "y", "solved", 0.0, length=5, problem="nqueens")])
    # x: a gets 3 / (1 + 3) = 0.75, b 0.25; y: both 0 s, 0.5 each.
    assert _scores(frame) == {"a": (1.25, 1.25), "b": (0.75, 0.75)}


def test_unsolved_against_unsolved_scores_nothing() -> None:
    frame = _frame([_run("a", "x", "timeout", 10.0, verified=None, problem="nqueens"),
                    _run("b", "x", "crash", 0.1, verified=None, problem="nqueens")])
    assert _scores(frame) == {"a": (0.0, 0.0), "b": (0.0, 0.0)}


def test_wrong_answers_score_nothing_and_give_every_opponent_a_point() -> None:
    frame = _frame([_run("liar", "x", "wrong", 0.001, problem="nqueens", verified=None),
                    _run("slow", "x", "timeout", 10.0, problem="nqueens", verified=None),
                    _run("good", "x", "solved", 5.0, problem="nqueens"),
                    _run("liar2", "x", "wrong", 0.001, problem="nqueens", verified=None)])
    scores = _scores(frame)
    assert scores["liar"] == scores["liar2"] == (0.0, 0.0)  # two wrong runs: 0 each
    assert scores["slow"] == (2.0, 2.0)  # a point from each liar, none against "good"
    assert scores["good"] == (3.0, 3.0)


def test_unverified_claims_count_as_unsolved() -> None:
    """An infeasible claim nothing could check is not a success: it scores like no answer."""
    frame = _frame([
        _run("claims", "x", "infeasible", 0.1, verified=False, problem="queens-knights"),
        _run("quiet", "x", "budget", 1.0, verified=None, problem="queens-knights"),
        _run("claims", "y", "infeasible", 0.1, verified=False, problem="queens-knights"),
        _run("quiet", "y", "solved", 1.0, problem="queens-knights")])
    assert _scores(frame) == {"quiet": (1.0, 1.0), "claims": (0.0, 0.0)}


def test_a_verified_infeasibility_is_a_proof_only_in_the_complete_score() -> None:
    """Satisfaction problems: a verified ``infeasible`` claim beats a mere solution in the
    complete score; without the proof step the two tie and split by time."""
    frame = _frame([_run("prover", "x", "infeasible", 3.0, problem="nqueens"),
                    _run("finder", "x", "solved", 1.0, problem="nqueens")])
    assert _scores(frame) == {"prover": (1.0, 0.25), "finder": (0.0, 0.75)}


def test_repeats_are_averaged_over_pairs_of_runs() -> None:
    """``r`` ran twice (1 s solved, timeout), ``s`` once (1 s solved): r's pairs score 0.5 and
    0, mean 0.25; s's pairs 0.5 and 1, mean 0.75. Repeats add no points."""
    frame = _frame([_run("r", "x", "solved", 1.0, problem="nqueens", seed=0),
                    _run("r", "x", "timeout", 10.0, problem="nqueens", seed=1, verified=None),
                    _run("s", "x", "solved", 1.0, problem="nqueens")])
    assert _scores(frame) == {"s": (0.75, 0.75), "r": (0.25, 0.25)}
    points = run_points(frame)
    assert list(points["weight"]) == [0.5, 0.5, 1.0]


def test_many_repeats_keep_their_share_of_outcomes() -> None:
    """Above MAX_OPPONENT_RUNS runs of one instance opponents are thinned to order statistics;
    the score stays close to the exact mean over all pairs."""
    rows = [_run("r", "x", "solved" if k % 4 else "timeout", 1.0 + k % 7, problem="nqueens",
                 seed=k, verified=True if k % 4 else None) for k in range(2_400)]
    rows += [_run("s", "x", "solved", 2.0, problem="nqueens", seed=k) for k in range(600)]
    scores = _scores(_frame(rows))
    assert scores["r"][0] + scores["s"][0] == pytest.approx(1.0, abs=0.01)
    # exact: r solves 3/4 of its runs at mean split E[2 / (t + 2)], s all
    t = [1.0 + k % 7 for k in range(2_400) if k % 4]
    exact_r = sum(2 / (x + 2) for x in t) / 2_400
    assert scores["r"][0] == pytest.approx(exact_r, abs=0.01)


def test_overall_sums_problems_and_ranks_again() -> None:
    frame = pd.concat([hand_example(), _frame([
        _run("local", "q", "solved", 1.0, problem="nqueens"),
        _run("greedy", "q", "solved", 1.0, problem="nqueens")])], ignore_index=True)
    frame = SeriesStyles.from_frame(frame.drop(columns="label")).with_labels(
        frame.drop(columns="label"))
    overall = borda_overall(borda_table(frame))
    got = {r["configuration"]: (r["Borda (complete)"], r["instances"], r["rank"])
           for _, r in overall.iterrows()}
    # "exact" did not run nqueens: a sum over problems it never attempted would rank it by
    # what it attempted, so the overall table holds only the configurations that ran both
    assert got == {"local": (3.5, 4, 1), "greedy": (1.5, 4, 2)}
    assert set(overall["problem"]) == {"all"}


def test_report_writes_and_shows_the_borda_table(tmp_path: Path) -> None:
    from puzzlebench.harness.campaign.storage.records_frame import records_to_frame
    from puzzlebench.records.record import Outcome, RunRecord
    from puzzlebench.report import write_report

    records = [RunRecord.of(problem=r["problem"], size=8, instance_id=r["instance_id"],
                         solver=r["solver"], params={}, seed=0, outcome=Outcome(r["outcome"]),
                         claim="", valid=None, time_s=r["time_s"],
                         answer_length=None if pd.isna(r["answer_length"]) else int(r["answer_length"]),
                         optimum=None if pd.isna(r["optimum"]) else int(r["optimum"]),
                         verified=r["success"] or None, budget={"time_limit": 10.0}, study="t")
               for _, r in hand_example().iterrows()]
    paths = write_report(records_to_frame(records), tmp_path, title="borda")
    table = pd.read_csv(tmp_path / "tables" / "sliding_borda.csv")
    assert list(table["configuration"]) == ["exact", "local", "greedy"]
    assert list(table["Borda (complete)"]) == [5.0, 3.0, 1.0]
    md, html = paths["markdown"].read_text(), paths["html"].read_text()
    for page in (md, html):
        assert "Borda scores (MiniZinc Challenge)" in page
    assert "| sliding | exact | 5 | 3.8333 | 3 | 1 |" in md
    assert "Borda (incomplete)" in html and "3.8333" in html
    assert (tmp_path / "figures" / "sliding_quantile.png").exists()
    assert not (tmp_path / "tables" / "borda.csv").exists()  # one problem: no overall table


def test_quantile_figure_accumulates_each_runs_points() -> None:
    """Score-based quantile plot of the hand example (complete points, solved runs by time):

    * exact: its timed-out i3 run earned 1 point from the wrong greedy run, so the curve starts
      at 1; then i1 (2 s, 2 points) → 3 and i2 (4 s, 2 points) → 5, its Borda score;
    * greedy: i1 (1 s, 1 point) → 1, i2 (1 s, 0 points) → 1;
    * local: i3 (3 s, 2 points) → 2, i2 (4 s, 1 point) → 3.
    """
    from puzzlebench.report.figures import quantile_figure

    frame = hand_example()
    chart = quantile_figure(frame, "sliding", SeriesStyles.from_frame(frame))
    assert chart is not None and chart.slug == "sliding_quantile"
    lines = {s.label: s for s in chart.panels[0].series}
    assert list(lines["exact"].x) == [3.0, 5.0] and list(lines["exact"].y) == [2.0, 4.0]
    assert list(lines["greedy"].x) == [1.0, 1.0] and list(lines["greedy"].y) == [1.0, 1.0]
    assert list(lines["local"].x) == [2.0, 3.0] and list(lines["local"].y) == [3.0, 4.0]
    assert lines["local"].hover[0]["instance"] == "i3"
    table = borda_table(frame).set_index("configuration")["Borda (complete)"]
    assert {lab: s.x[-1] for lab, s in lines.items()} == table.to_dict()


@pytest.mark.slow  # a whole report; the overall sum and the per-problem table stay in the default tier
def test_report_over_two_problems_has_an_overall_table(tmp_path: Path) -> None:
    from puzzlebench.report import write_report
    from tests.report.test_report import sample_frame

    frame = sample_frame()
    extra = frame[frame["problem"] == "nqueens"].assign(problem="torus-queens")
    paths = write_report(pd.concat([frame, extra], ignore_index=True), tmp_path)
    overall = pd.read_csv(tmp_path / "tables" / "borda.csv")
    per = pd.concat([pd.read_csv(tmp_path / "tables" / f"{p}_borda.csv")
                     for p in ("nqueens", "torus_queens")])
    sums = per.groupby("configuration")["Borda (complete)"].sum().round(4)
    assert overall.set_index("configuration")["Borda (complete)"].to_dict() == sums.to_dict()
    assert "Borda scores over all problems" in paths["markdown"].read_text()


def test_compare_summary_has_a_borda_column() -> None:
    """``compare`` prints each solver's complete Borda score beside its outcomes."""
    from rich.console import Console

    from puzzlebench.cli.compare import borda_scores
    from puzzlebench.contract import Budget
    from puzzlebench.harness.campaign.progress import summary_table
    from puzzlebench.harness.execute import run_solve
    from tests.conformance.cases import make

    records = [run_solve(s, make("nqueens", n), seed=0, budget=Budget(time_limit=5))
               for s in ("mod12", "backtracking") for n in (4, 5)]
    scores = borda_scores(records)
    assert scores is not None and set(scores) == {"mod12", "backtracking"}
    assert sum(scores.values()) == pytest.approx(2.0)  # one point per instance, split by time
    console = Console(width=200, record=True)
    console.print(summary_table(records, scores))
    text = console.export_text()
    assert "Borda" in text and f"{scores['mod12']:.2f}" in text
    console.print(summary_table(records))
    assert console.export_text().count("Borda") == 0  # export_text cleared the first table
