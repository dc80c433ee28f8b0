"""ERT against size with bootstrap intervals (report/ert_size.py), and the report's figures:
one ERT figure per problem with two or more sizes, one anytime figure per problem."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from puzzlebench.harness.campaign.storage.records_frame import records_to_frame
from puzzlebench.records.record import Outcome, RunRecord
from puzzlebench.report import write_report
from puzzlebench.report.ert_size import ert_by_size, ert_figure, ert_interval


def run(solver: str, n: int, t: float, *, rep: int = 0, solved: bool = True,
        evaluations: int | None = None) -> RunRecord:
    return RunRecord.of(problem="nqueens", size=n, instance_id=f"nqueens-{n}", solver=solver,
                        params={}, seed=rep, repeat=rep,
                        outcome=Outcome.SOLVED if solved else Outcome.BUDGET,
                        claim="solved" if solved else "", valid=True if solved else None,
                        verified=True if solved else None, time_s=t,
                        counters={} if evaluations is None else {"evaluations": evaluations},
                        budget={"time_limit": 2.0}, study="t")


def runs() -> list[RunRecord]:
    out = []
    for n in (8, 16, 32):
        for rep in range(4):
            # hc solves 3 of 4 runs per size; the censored one ran its whole 2 s
            solved = rep < 3
            out.append(run("hc", n, 0.1 * n / 8 if solved else 2.0, rep=rep, solved=solved,
                           evaluations=1000 * n if solved else 50_000))
            out.append(run("cp", n, 0.01, rep=rep))  # counts no evaluations
        out.append(run("never", n, 2.0, solved=False, evaluations=10))
    return out


def test_ert_counts_censored_runs_and_divides_by_successes() -> None:
    table = ert_by_size(records_to_frame(runs())).set_index(["solver", "size"])
    hc = table.loc[("hc", 16)]
    assert hc["runs"] == 4 and hc["successes"] == 3
    assert math.isclose(hc["ERT s"], (3 * 0.2 + 2.0) / 3)
    assert math.isclose(hc["ERT evaluations"], (3 * 16_000 + 50_000) / 3)
    assert hc["ERT s low"] <= hc["ERT s"] <= hc["ERT s high"]
    assert math.isnan(table.loc[("cp", 8), "ERT evaluations"])  # no counter, no number
    assert math.isinf(table.loc[("never", 8), "ERT s"])


def test_interval_is_seeded_and_may_be_unbounded() -> None:
    effort, ok = np.array([1.0, 1.0, 5.0]), np.array([True, False, False])
    first = ert_interval(effort, ok, np.random.default_rng(3))
    assert first == ert_interval(effort, ok, np.random.default_rng(3))
    assert first[0] == 7.0 and math.isinf(first[2])  # some resamples have no success
    same = ert_interval(np.ones(5), np.ones(5, bool), np.random.default_rng(0))
    assert same == (1.0, 1.0, 1.0)


def test_figure_has_a_time_and_an_evaluations_panel_on_log_axes() -> None:
    chart = ert_figure(ert_by_size(records_to_frame(runs())), "nqueens")
    assert chart is not None and chart.yscale == "log" and not chart.share_y
    time_panel, eval_panel = chart.panels
    assert [s.label for s in time_panel.series] == ["cp", "hc", "never"]
    notes = {s.label: s.note for s in eval_panel.series if s.empty}
    assert notes == {"cp": "no evaluations counter", "never": "no verified success"}
    hc = next(s for s in time_panel.series if s.label == "hc")
    assert list(hc.x) == [8, 16, 32] and hc.band is not None
    one_size = ert_by_size(records_to_frame([run("a", 8, 0.1)]))
    assert ert_figure(one_size, "nqueens") is None


def traced(solver: str, n: int, rep: int) -> tuple[RunRecord, list[dict]]:
    rec = run(solver, n, 0.01 * (rep + 1), rep=rep, evaluations=40).with_(traced=True)
    points = [(0, 10, 5, 0.001), (1, 3, 20, 0.005), (2, 0, 40, 0.01 * (rep + 1))]
    return rec, [{"point": p, "best": b, "evaluations": e, "time_s": s} for p, b, e, s in points]


@pytest.mark.slow  # a whole traced report; test_budget_blocks checks the fold too
def test_anytime_figures_fold_into_one_per_problem(tmp_path: Path) -> None:
    """Four sizes × two solvers × five traced runs: one convergence figure with four panels
    (it once drew six figures per size); a size with too few runs per solver gets no panel."""
    records, rows = [], []
    for n in (8, 10, 12, 14, 16):
        for solver in ("hc", "mc"):
            for rep in range(5 if n < 16 else 2):
                rec, points = traced(solver, n, rep)
                records.append(rec)
                for p in points:
                    rows.append({**{k: rec.to_dict()[k] for k in (
                        "study", "solver", "instance_id", "seed", "repeat", "fingerprint",
                        "hard_limit", "memory_limit_mb", "problem", "size")},
                        "params": "{}", "budget": '{"time_limit": 2.0}', "key": str(id(rec)), **p})
    frame = records_to_frame(records)
    write_report(frame, tmp_path, traces=pd.DataFrame(rows))
    figures = sorted(p.name for p in (tmp_path / "figures").glob("*.png"))
    assert [f for f in figures if f.startswith("anytime_")] == ["anytime_nqueens.png"]
    assert "nqueens_ert.png" in figures
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert md.count("figures/anytime_nqueens.png") == 2  # the key figure and its section
    assert "nqueens n = 16: fewer than 5 traced runs" in md
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    for n in (8, 10, 12, 14):
        assert f"n = {n}" in html
