"""Figures that hold up at twenty solvers and six decades of n, checked from the figure objects.

For every chart of a synthetic store (20 configurations × n = 4..10^6): no legend overlaps any
axes area, every configuration is named in a legend, the size axis is logarithmic, the PNG is
at least 1,200 px wide, and each configuration has one look across all figures."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
import pytest
from matplotlib.colors import to_hex

from puzzlebench.report.chart import MAX_SERIES, Series, axis_scale, facet
from puzzlebench.report.figures import problem_charts
from puzzlebench.report.png_render import draw
from puzzlebench.report.series_styles import SeriesStyles
from tests.report.synthetic import configurations, synthetic_store


@pytest.fixture(scope="module")
def frame(tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    return synthetic_store(tmp_path_factory.mktemp("synthetic") / "synthetic.sqlite")


@pytest.fixture(scope="module")
def styles(frame: pd.DataFrame) -> SeriesStyles:
    return SeriesStyles.from_frame(frame)


def test_twenty_configurations_get_short_distinct_labels(styles: SeriesStyles) -> None:
    labels = styles.labels
    assert len(labels) == len(configurations()) == 20
    assert len(set(labels)) == 20
    assert all("{" not in lab and len(lab) <= 20 for lab in labels)  # no parameter JSON
    assert {"astar-v0#1", "astar-v0#2"} <= set(labels)
    assert len({styles.of(lab).colour for lab in labels}) == 20
    legend = styles.legend_table()
    assert "rate=0.9" in legend.loc[legend["label"] == "astar-v0#2", "parameters"].iloc[0]


@pytest.mark.slow  # slow tier (docs/development.md); cover: test_figures_are_written_wide_enough
def test_every_figure_keeps_legends_off_the_axes(frame: pd.DataFrame,
                                                 styles: SeriesStyles) -> None:
    charts = problem_charts(styles.with_labels(frame), "nqueens", styles)
    assert [c.slug for c in charts] == [f"nqueens_{k}" for k in
                                        ("time", "effort", "success", "ecdf", "cactus", "quantile",
                                         "profile")]
    colours: dict[str, set[str]] = {}
    for chart in charts:
        fig = draw(chart, styles)
        try:
            fig.canvas.draw()
            renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
            assert fig.get_size_inches()[0] * fig.dpi >= 1200, chart.slug
            axes = [ax for ax in fig.axes if ax.get_visible()]
            assert len(axes) == len(chart.panels) > 1, chart.slug  # 20 series → small multiples
            named: set[str] = set()
            for ax in axes:
                legend = ax.get_legend()
                assert legend is not None, chart.slug
                box = legend.get_window_extent(renderer)
                for other in axes:
                    assert not box.overlaps(other.get_window_extent(renderer)), chart.slug
                assert box.x1 <= fig.bbox.x1 + 1 and box.y0 >= fig.bbox.y0 - 1, chart.slug
                named |= {t.get_text().split(" (")[0] for t in legend.get_texts()}
                assert len(legend.get_texts()) <= MAX_SERIES + 1, chart.slug
                for line, text in zip(legend.get_lines(), legend.get_texts(), strict=True):
                    colours.setdefault(text.get_text().split(" (")[0], set()).add(
                        to_hex(line.get_color()))
            assert set(styles.labels) <= named, (chart.slug, set(styles.labels) - named)
            if chart.xlabel == "size n":
                assert all(ax.get_xscale() == "log" for ax in axes), chart.slug
            if chart.slug in ("nqueens_time", "nqueens_effort", "nqueens_cactus"):
                assert all(ax.get_yscale() == "log" for ax in axes), chart.slug
        finally:
            plt.close(fig)
    for label in styles.labels:
        assert colours[label] == {styles.of(label).colour.lower()}, label  # one look everywhere


def test_a_series_with_nothing_to_draw_still_has_its_legend_entry(
        frame: pd.DataFrame, styles: SeriesStyles) -> None:
    never = configurations()[3][0]
    charts = problem_charts(styles.with_labels(frame), "nqueens", styles)
    time_chart = charts[0]
    texts = []
    fig = draw(time_chart, styles)
    for ax in fig.axes:
        texts += [t.get_text() for t in ax.get_legend().get_texts()]
    plt.close(fig)
    assert f"{never} (no solved runs)" in texts


def test_axis_scale_and_facets() -> None:
    assert axis_scale([4, 8, 16]) == "linear"
    assert axis_scale([4, 10**6]) == "log"
    assert axis_scale([0, 1, 1000]) == "linear"
    assert axis_scale([0, 1, 1000], symlog_zero=True) == "symlog"
    import numpy as np

    few = [Series(f"a-{i}", np.arange(2.0), np.arange(2.0)) for i in range(MAX_SERIES)]
    assert len(facet(few, lambda s: s.split("-")[0])) == 1
    many = [Series(f"{f}-{i}", np.arange(2.0), np.arange(2.0)) for f in "abc" for i in range(4)]
    panels = facet(many, lambda s: s.split("-")[0])
    assert [len(p.series) for p in panels] == [8, 4]
    assert sorted(s.label for p in panels for s in p.series) == sorted(s.label for s in many)


def test_figures_are_written_wide_enough(tmp_path: Path, frame: pd.DataFrame,
                                         styles: SeriesStyles) -> None:
    from matplotlib.image import imread

    from puzzlebench.report.png_render import write_png

    chart = problem_charts(styles.with_labels(frame), "nqueens", styles)[0]
    path = write_png(chart, styles, tmp_path)
    assert imread(path).shape[1] >= 1200


@pytest.mark.slow  # every chart drawn twice; test_figures_are_written_wide_enough keeps the PNG writer
def test_png_writer_draws_every_chart_the_same_in_workers_or_here(
        tmp_path: Path, frame: pd.DataFrame, styles: SeriesStyles) -> None:
    """From POOL_FROM charts on they are drawn by workers while the report goes on; fewer (or
    one worker) are drawn here at the end. Every chart is written, with the same bytes."""
    from puzzlebench.report.png_render import POOL_FROM, PngWriter

    charts = problem_charts(styles.with_labels(frame), "nqueens", styles)
    assert len(charts) >= POOL_FROM
    pooled, alone = tmp_path / "pooled", tmp_path / "alone"
    for out, workers in ((pooled, 2), (alone, 1)):
        out.mkdir()
        writer = PngWriter(styles, out, workers=workers)
        for chart in charts:
            writer.add(chart)
        assert (writer.pool is not None) == (workers == 2)
        assert sorted(p.name for p in writer.finish()) == sorted(f"{c.slug}.png" for c in charts)
    for chart in charts:
        name = f"{chart.slug}.png"
        assert (pooled / name).read_bytes() == (alone / name).read_bytes(), name
