"""What the figures are made of: each configuration's curves over its own runs, hover details
from the runs themselves, labels that never collide and number naturally."""

from __future__ import annotations

import json

import pandas as pd

from puzzlebench.report.figures import cactus_figure, ecdf_figure, effort_figure, profile_figure
from puzzlebench.report.series_styles import SeriesStyles


def _frame(rows: list[dict]) -> pd.DataFrame:
    base = {"problem": "nqueens", "params_key": "{}", "success": True, "repeat": 0}
    frame = pd.DataFrame([{**base, **r} for r in rows])
    return SeriesStyles.from_frame(frame).with_labels(frame)


def _runs(solver: str, instances: list[str], repeats: int, seed0: int = 0) -> list[dict]:
    return [{"solver": solver, "instance_id": i, "size": 8, "repeat": r, "seed": seed0 + r,
             "time_s": 0.01 * (r + 1)} for i in instances for r in range(repeats)]


def test_ecdf_and_cactus_use_each_configurations_own_runs() -> None:
    """One repeat beside ten, and instances only one configuration attempted: every curve still
    reaches 1 when all its runs were solved; no duplicate run is dropped."""
    frame = _frame(_runs("once", ["a", "b"], 1) + _runs("often", ["a", "b", "c"], 10))
    styles = SeriesStyles.from_frame(frame)
    ecdf = ecdf_figure(frame, "nqueens", styles)
    assert ecdf is not None
    curves = {s.label: s for s in ecdf.panels[0].series}
    assert curves["once"].y[-1] == 1.0 and curves["often"].y[-1] == 1.0
    assert len(curves["often"].x) == 30  # every run, none merged by repeat index
    cactus = cactus_figure(frame, "nqueens", styles)
    assert cactus is not None
    lines = {s.label: s for s in cactus.panels[0].series}
    assert lines["often"].x[-1] == 30 and lines["once"].x[-1] == 2
    # Repeats: runs and instances do not share an axis, so no virtual best (and it says so).
    assert "virtual best" not in lines and "no virtual best" in cactus.caption
    single = _frame(_runs("p", ["a", "b"], 1) + _runs("q", ["a", "b", "c"], 1))
    chart = cactus_figure(single, "nqueens", SeriesStyles.from_frame(single))
    assert chart is not None
    best = {s.label: s for s in chart.panels[0].series}["virtual best"]
    assert len(best.x) == 2  # only the instances both configurations attempted
    profile = profile_figure(frame, "nqueens", styles)
    assert profile is not None and "over the 2 instances" in profile.caption


def test_hover_shows_the_runs_own_seed_and_instance() -> None:
    big = 2**62 + 12345  # loses its low bits in a float pivot
    rows = _runs("a", ["x"], 1, seed0=big) + _runs("b", ["y"], 1)
    frame = _frame(rows)
    chart = ecdf_figure(frame, "nqueens", SeriesStyles.from_frame(frame))
    assert chart is not None
    hover = {s.label: s.hover for s in chart.panels[0].series}
    assert hover["a"][0]["seed"] == str(big) and hover["a"][0]["instance"] == "x"


def test_effort_figure_says_which_counter_is_missing() -> None:
    rows = [{**r, "counter.nodes": 10.0 * r["repeat"] + 1} for r in _runs("counts", ["a"], 3)]
    rows += _runs("silent", ["a"], 3)
    rows = [{**r, "size": 8 + k % 2} for k, r in enumerate(rows)]
    frame = _frame(rows)
    chart = effort_figure(frame, "nqueens", SeriesStyles.from_frame(frame))
    assert chart is not None
    notes = {s.label: (s.empty, s.note) for s in chart.panels[0].series}
    assert notes["silent"] == (True, "no nodes counter") and notes["counts"][0] is False


def test_labels_number_parameters_naturally_and_never_collide() -> None:
    keys = [json.dumps({"population_size": p}) for p in (200, 50, 100)]
    styles = SeriesStyles([("ga", k) for k in keys] + [("ga#1", "{}")])
    assert styles.label("ga", keys[1]) == "ga#1"  # 50 first
    assert styles.label("ga", keys[2]) == "ga#2" and styles.label("ga", keys[0]) == "ga#3"
    labels = styles.labels
    assert len(set(labels)) == len(labels) == 4 and "ga#1′" in labels
    looks = {(styles.of(lab).colour, styles.of(lab).marker, styles.of(lab).dash)
             for lab in labels}
    assert len(looks) == 4


def test_the_21st_configuration_does_not_look_like_the_first() -> None:
    styles = SeriesStyles([(f"s{i:02d}", "{}") for i in range(21)])
    first, twenty_first = styles.of("s00"), styles.of("s20")
    assert first.colour == twenty_first.colour
    assert first.marker != twenty_first.marker and first.dash != twenty_first.dash


def test_tables_list_labels_in_natural_order() -> None:
    from puzzlebench.report.series_styles import label_order
    from puzzlebench.report.summary import summary_table

    keys = [json.dumps({"population_size": p}) for p in range(1, 12)]
    rows = [{"solver": "ga", "params_key": k, "instance_id": "a", "size": 8, "seed": 0,
             "time_s": 0.1, "outcome": "solved", "unverified": False} for k in keys]
    frame = _frame(rows)
    assert list(summary_table(frame)["solver"]) == [f"ga#{k}" for k in range(1, 12)]
    assert sorted(["x#10", "x#2", "x", "x#1′"], key=label_order) == ["x", "x#1′", "x#2", "x#10"]


def test_large_stores_keep_the_figures_small() -> None:
    """Past MAX_RUN_POINTS runs no per-run points; curves keep at most MAX_CURVE_POINTS."""
    from puzzlebench.report.figures import MAX_CURVE_POINTS, MAX_RUN_POINTS, time_figure

    rows = [{"solver": "a", "instance_id": f"i{k}", "size": 8 + k % 2, "seed": k,
             "time_s": 0.001 * (k + 1)} for k in range(MAX_RUN_POINTS + 1)]
    frame = _frame(rows)
    styles = SeriesStyles.from_frame(frame)
    chart = time_figure(frame, "nqueens", styles)
    assert chart is not None and chart.panels[0].series[0].points is None
    ecdf = ecdf_figure(frame, "nqueens", styles)
    assert ecdf is not None
    curve = ecdf.panels[0].series[0]
    assert len(curve.x) <= MAX_CURVE_POINTS and curve.y[-1] == 1.0
    small = _frame(rows[:50])
    chart = time_figure(small, "nqueens", SeriesStyles.from_frame(small))
    assert chart is not None and chart.panels[0].series[0].points is not None


def test_html_figure_escapes_names_and_shares_axes_across_panels() -> None:
    from puzzlebench.report.plotly_render import figure

    rows = [r for i in range(10) for r in _runs(f"f{i}-<b>x</b>", ["a", "b"], 1)]
    frame = _frame(rows)
    styles = SeriesStyles.from_frame(frame)
    chart = ecdf_figure(frame, "nqueens", styles)
    assert chart is not None and len(chart.panels) > 1
    fig = figure(chart, styles)
    names = [t.name for t in fig.data if t.name]
    assert names and all("<b>" not in n and "&lt;b&gt;" in n for n in names)
    assert all("<b>x</b>" not in t for tr in fig.data for t in (tr.text or ()))
    assert fig.layout.yaxis2.matches == "y"


def test_run_span_says_when_and_where() -> None:
    from puzzlebench.report.summary import run_span

    rows = [{**r, "timestamp": f"2026-11-23T10:0{k}:00+00:00",
             "machine": {"cpu": "TestCPU", "cores": 2}}
            for k, r in enumerate(_runs("a", ["x"], 3))]
    text = run_span(_frame(rows))
    assert text.startswith("3 runs made between 2026-11-23 10:00:00 and 2026-11-23 10:02:00 UTC")
    assert "(2.0 min from the first record to the last) on TestCPU, 2 cores" in text
    assert "no time stamps" in run_span(_frame([{**r, "timestamp": ""} for r in _runs("a", ["x"], 1)]))


def test_html_figure_takes_many_panels() -> None:
    """Twenty panels (an anytime chart of twenty sizes): plotly refuses a fixed gap of 0.08
    of the height past thirteen; the gap shrinks with the panels instead."""
    from itertools import pairwise

    import numpy as np

    from puzzlebench.report.chart import Chart, Panel, Series
    from puzzlebench.report.plotly_render import figure

    frame = _frame(_runs("one", ["a"], 1))
    panels = tuple(Panel(f"n = {k}", (Series("one", np.array([1.0, 2.0]), np.array([3.0, 1.0])),))
                   for k in range(20))
    fig = figure(Chart("many", "twenty panels", "x", "y", panels), SeriesStyles.from_frame(frame))
    assert len(fig.data) == 20
    spans = sorted(fig.layout[f"yaxis{k}" if k > 1 else "yaxis"].domain for k in range(1, 21))
    assert all(lo[1] < hi[0] for lo, hi in pairwise(spans))  # a gap between every two panels
