"""Charts as PNG (matplotlib, Agg) for the Markdown report.

1,280 px wide at 11 pt, one row per panel, each panel's legend outside its axes on the right
(constrained layout keeps legend and axes apart). Saved with no time stamp in the metadata, so
the same data gives the same bytes."""

from __future__ import annotations

import io
import multiprocessing
import os
import textwrap
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from puzzlebench.report.chart import Chart, Series
from puzzlebench.report.out_folder import write_file
from puzzlebench.report.series_styles import SeriesStyles

WIDTH_IN, DPI, PANEL_HEIGHT_IN = 12.8, 100, 4.2
RC: dict[str, Any] = {"font.size": 11, "axes.titlesize": 12, "legend.fontsize": 10,
                      "svg.hashsalt": "puzzlebench", "axes.grid": True, "grid.alpha": 0.3}


def _draw_series(ax: plt.Axes, s: Series, styles: SeriesStyles) -> None:
    st = styles.of(s.label)
    kw: dict[str, Any] = {"color": st.colour, "linestyle": st.dash, "linewidth": 1.8}
    marker: dict[str, Any] = {"marker": st.marker, "markersize": 5} if st.marker else {}
    if s.points is not None and len(s.points[0]):
        ax.scatter(s.points[0], s.points[1], s=8, color=st.colour, alpha=0.25, linewidths=0,
                   marker=st.marker or "o")
    x, y = np.asarray(s.x, float), np.asarray(s.y, float)
    if s.empty:
        ax.plot([], [], label=f"{s.label} ({s.note or 'nothing to draw'})", **kw, **marker)
        return
    if len(x) > 20:
        marker["markevery"] = max(1, len(x) // 10)
    if s.markers_only:
        ax.plot(x, y, label=s.label, **{**kw, "linestyle": "none"},
                **{**marker, "marker": st.marker or "o", "markersize": 8})
    elif s.step:
        ax.step(x, y, where="post", label=s.label, **kw, **marker)
    else:
        ax.plot(x, y, label=s.label, **kw, **marker)
    if s.band is not None:
        ax.fill_between(x, s.band[0], s.band[1], color=st.colour, alpha=0.15, linewidth=0)


def _set_scale(ax: plt.Axes, which: str, scale: str) -> None:
    setter = ax.set_xscale if which == "x" else ax.set_yscale
    if scale == "symlog":
        setter("symlog", linthresh=1)
    else:
        setter(scale)


def draw(chart: Chart, styles: SeriesStyles) -> Figure:
    """The matplotlib figure of ``chart`` (call :func:`save` or close it)."""
    with plt.rc_context(RC):  # type: ignore[arg-type]
        fig, axes = plt.subplots(len(chart.panels), 1, squeeze=False, sharex=chart.share_axes,
                                 sharey=chart.share_y and chart.share_axes,
                                 figsize=(WIDTH_IN, PANEL_HEIGHT_IN * len(chart.panels) + 0.6),
                                 dpi=DPI, layout="constrained")
        for ax, panel in zip(axes[:, 0], chart.panels, strict=True):
            for s in panel.series:
                _draw_series(ax, s, styles)
            _set_scale(ax, "x", chart.xscale)
            _set_scale(ax, "y", chart.yscale)
            if chart.ylim is not None:
                ax.set_ylim(*chart.ylim)
            elif chart.yscale == "symlog":
                ax.set_ylim(bottom=0)  # symlog is used for counts, which are never negative
            if panel.title:
                ax.set_title(panel.title, loc="left")
            ax.set_ylabel(panel.ylabel or chart.ylabel)
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0,
                      frameon=False)
        if chart.invert_x:
            axes[0, 0].invert_xaxis()
        axes[-1, 0].set_xlabel(chart.xlabel)
        fig.suptitle(textwrap.fill(chart.caption, 150), fontsize=12, x=0.01, ha="left")
    return fig


def save(fig: Figure, path: Path) -> Path:
    buffer = io.BytesIO()  # written by name, never through a symlink (report.out_folder)
    fig.savefig(buffer, format="png", metadata={"Software": None})
    write_file(path.parent, path.name, buffer.getvalue())
    plt.close(fig)
    return path


def write_png(chart: Chart, styles: SeriesStyles, out: Path) -> Path:
    """Draw ``chart`` and save it as ``out/<slug>.png``."""
    return save(draw(chart, styles), out / f"{chart.slug}.png")


#: Below this many charts a report draws them in its own process (a pool costs more).
POOL_FROM = 6


def _pool_context() -> multiprocessing.context.BaseContext:
    """fork where this process runs one thread (the workers inherit matplotlib already
    imported); forkserver where it runs more (a browser driver, a web server): forking a
    process with other threads can copy a lock one of them held, and a worker then waits on it
    for ever."""
    import threading  # on use: only a report with a pool asks
    return multiprocessing.get_context("fork" if threading.active_count() == 1
                                       else "forkserver")


class PngWriter:
    """Draws a report's charts while the report goes on: from the POOL_FROM-th chart on, each
    is handed to worker processes as soon as it is made, so drawing (most of a report's
    time) overlaps with the tables and the HTML instead of following them. Fewer charts, or
    one core: drawn in this process by :meth:`finish`. The bytes are the same either way."""

    def __init__(self, styles: SeriesStyles, out: Path, workers: int | None = None) -> None:
        self.styles, self.out = styles, out
        self.workers = workers or os.cpu_count() or 1
        self.pending: list[Chart] = []
        self.pool: ProcessPoolExecutor | None = None
        self.futures: list[Future[Path]] = []

    def add(self, chart: Chart) -> None:
        self.pending.append(chart)
        if self.pool is None and (self.workers < 2 or len(self.pending) < POOL_FROM):
            return
        if self.pool is None:
            self.pool = ProcessPoolExecutor(self.workers, mp_context=_pool_context())
        self.futures += [self.pool.submit(write_png, c, self.styles, self.out)
                         for c in self.pending]
        self.pending = []

    def finish(self) -> list[Path]:
        """Every chart drawn (waits for the workers; raises what a drawing raised)."""
        drawn = [write_png(c, self.styles, self.out) for c in self.pending]
        if self.pool is not None:
            with self.pool:
                drawn = [f.result() for f in self.futures] + drawn
        return drawn


def write_pngs(charts: list[Chart], styles: SeriesStyles, out: Path,
               workers: int | None = None) -> list[Path]:
    """Draw every chart into ``out``, on all cores: a report's time goes mostly to laying out
    and rasterising its figures (``benchmarks/report_stages.py``), and each figure is
    independent. The bytes are the same whichever process draws them."""
    count = min(workers or os.cpu_count() or 1, len(charts))
    if count < 2 or len(charts) < POOL_FROM:
        return [write_png(c, styles, out) for c in charts]
    with ProcessPoolExecutor(count, mp_context=_pool_context()) as pool:
        return list(pool.map(write_png, charts, [styles] * len(charts), [out] * len(charts),
                             chunksize=max(1, len(charts) // (4 * count))))
