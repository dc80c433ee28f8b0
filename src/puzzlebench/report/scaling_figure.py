"""The scaling figures of one problem (``report.scaling``), as chart data: the statistic per
size against size on log axes, one panel per configuration, the fitted models as lines with
their bootstrap bands, the fitted sizes joined and the held-out sizes marked apart. One figure
for time (panels share the axis) and one for each configuration's machine-independent counter
(each panel its own counter)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from puzzlebench.records.claims import ScalingClaim
from puzzlebench.report.chart import Chart, Panel, Series
from puzzlebench.report.render import table_rows
from puzzlebench.report.series_styles import SeriesStyles
from puzzlebench.report.statistics.scaling import (
    ScalingVerdict,
    number,
    scaling_fits,
    scaling_shown,
    scaling_table,
    scaling_verdicts,
    sentence,
)
from puzzlebench.report.statistics.scaling_models import MODELS, ScalingFit

#: The counters preferred for the effort figure, in order.
PREFERRED = ("nodes_expanded", "nodes_generated", "nodes", "evaluations", "iterations")
#: Panels in one figure at most (every fit is in ``tables/scaling.csv``).
MAX_PANELS = 12
#: A model's line is drawn at most this many decades beyond the observed statistics.
CLIP_DECADES = 2.0
OBSERVED, HELD_OUT = "observed (fitted sizes)", "held out (observed)"


def scaling_styles() -> SeriesStyles:
    """One look per series kind of the scaling figures, the same in every panel."""
    return SeriesStyles([(name, "{}") for name in (OBSERVED, HELD_OUT, *MODELS)])


def _panel(fit: ScalingFit) -> Panel:
    stat = {s.size: s.value for s in fit.sizes}
    fx = np.array(fit.fitted, float)
    hx = np.array(fit.held_out, float)
    series = [Series(OBSERVED, fx, np.array([stat[int(n)] for n in fx]),
                     tuple({"size": str(int(n)), "median": number(stat[int(n)])} for n in fx)),
              Series(HELD_OUT, hx, np.array([stat[int(n)] for n in hx]),
                     tuple({"size": str(int(n)), "median": number(stat[int(n)])} for n in hx),
                     markers_only=True, note="no held-out size")]
    observed = np.log10([v for v in stat.values() if math.isfinite(v)] or [1.0])
    low, high = observed.min() - CLIP_DECADES, observed.max() + CLIP_DECADES
    sizes = [s.size for s in fit.sizes]
    grid = np.unique(np.geomspace(min(sizes), max(sizes), 40))
    for m in fit.models:
        point, lo, hi = (np.clip(v, low, high) for v in m.predict_log10(grid))
        band = None if np.isnan(lo).any() else (10 ** lo, 10 ** hi)
        hover = tuple({"size": f"{n:.4g}", "predicted": number(10 ** p), "verdict": m.verdict}
                      for n, p in zip(grid, point, strict=True))
        series.append(Series(m.model, grid, 10 ** point, hover, band=band))
    missing = [name for name in MODELS if fit.model(name) is None]
    series += [Series(name, np.array([]), np.array([]), note=fit.note) for name in missing]
    title = f"{fit.label}: {fit.measure}"
    if fit.censored:
        title += f" (n = {', '.join(map(str, fit.censored))}: no median)"
    return Panel(title, tuple(series))


def _primary(fits: list[ScalingFit]) -> ScalingFit | None:
    counters = [f for f in fits if f.measure != "time"]
    for name in PREFERRED:
        hit = next((f for f in counters if f.measure == name and f.models), None)
        if hit is not None:
            return hit
    return next((f for f in counters if f.models), None)


def scaling_charts(fits: list[ScalingFit], problem: str) -> list[Chart]:
    """The time figure and the effort figure of ``problem`` (None of either without a fit)."""
    mine = [f for f in fits if f.problem == problem]
    slug = problem.replace("-", "_")
    charts = []
    timed = [f for f in mine if f.measure == "time"][:MAX_PANELS]
    if any(f.models for f in timed):
        charts.append(Chart(
            f"{slug}_scaling_time", f"{problem}: median wall time of verified solved runs "
            "against size, the three scaling models fitted to the smaller sizes with their "
            "95 % bootstrap bands, the held-out largest sizes marked apart", "size n",
            "median wall time (s)", tuple(_panel(f) for f in timed), xscale="log",
            yscale="log", value_name="time s"))
    labels = list(dict.fromkeys(f.label for f in mine))
    effort = [p for p in (_primary([f for f in mine if f.label == lab]) for lab in labels)
              if p is not None][:MAX_PANELS]
    if effort:
        charts.append(Chart(
            f"{slug}_scaling_effort", f"{problem}: median of each configuration's "
            "machine-independent counter against size, the scaling models fitted to the "
            "smaller sizes with their 95 % bootstrap bands, the held-out sizes marked apart",
            "size n", "median count", tuple(_panel(f) for f in effort), xscale="log",
            yscale="log", value_name="count", share_axes=False))
    return charts


def scaling_section(frame: pd.DataFrame, claims: Sequence[object],
                    write_csv: Callable[[pd.DataFrame, str], str],
                    html: Callable[[Chart, SeriesStyles], str]
                    ) -> tuple[dict[str, Any], list[ScalingVerdict], list[Chart]]:
    """The report's scaling section (sentences, table, figures with their HTML), the verdicts
    of the study's scaling claims among ``claims``, and the charts to draw as PNG with
    :func:`scaling_styles`."""
    mine = [c for c in claims if isinstance(c, ScalingClaim)]
    fits = scaling_fits(frame, claims=mine)
    verdicts = scaling_verdicts(fits, mine)
    charts = [c for p in sorted(frame["problem"].unique()) for c in scaling_charts(fits, p)]
    styles = scaling_styles()
    table = scaling_table(fits)
    context = {"sentences": [sentence(f) for f in fits], "table": table_rows(scaling_shown(fits)),
               "csv": write_csv(table, "scaling") if fits else "",
               "figures": [{"caption": c.caption, "file": f"figures/{c.slug}.png",
                            "html": html(c, styles)} for c in charts]}
    return context, verdicts, charts
