"""ERT against size with bootstrap intervals (report/ert_size.py), and the report's figures:
one ERT figure per problem with two or more sizes, one anytime figure per problem."""

from __future__ import annotations

import math

import numpy as np

from puzzlebench.harness.campaign.records_frame import records_to_frame
from puzzlebench.record import Outcome, RunRecord
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
