"""The comparison figures of one problem, as :class:`~puzzlebench.report.chart.Chart` data:
time, effort and success against size; runtime ECDF; cactus with the virtual best solver;
Dolan–Moré performance profiles. One function per figure; each returns None when the data
cannot support it. Success is the frame's ``success`` column (accepted and verified) in every
figure, as in the tables."""

from __future__ import annotations

import numpy as np
import pandas as pd

from puzzlebench.report.chart import Chart, Series, axis_scale, facet
from puzzlebench.report.scores import per_instance_times, performance_profile
from puzzlebench.report.series_styles import SeriesStyles
from puzzlebench.report.summary import counter_columns

EFFORT_COUNTERS = ("counter.nodes_expanded", "counter.nodes", "counter.evaluations",
                   "counter.iterations")


def _slug(problem: str) -> str:
    return problem.replace("-", "_")


#: Above this many runs in a chart, per-run points are not overlaid (the medians still are).
MAX_RUN_POINTS = 5_000
#: Curves over runs (ECDF, cactus) keep at most this many points per series, evenly by rank
#: and always the first and last, so the HTML of a 10^5-run store stays small.
MAX_CURVE_POINTS = 1_000


def _run_hover(rows: pd.DataFrame, value: str, name: str) -> tuple[dict[str, str], ...]:
    return tuple({"instance": str(i), "seed": str(int(sd)), name: f"{float(v):.6g}"}
                 for i, sd, v in zip(rows["instance_id"], rows["seed"], rows[value], strict=True))


def _thin(col: pd.Series) -> pd.Series:
    if len(col) <= MAX_CURVE_POINTS:
        return col
    keep = np.unique(np.linspace(0, len(col) - 1, MAX_CURVE_POINTS).round().astype(int))
    return col.iloc[keep]


def _against_size(frame: pd.DataFrame, styles: SeriesStyles, value: str, *, slug: str,
                  caption: str, ylabel: str, name: str, runs: pd.DataFrame) -> Chart:
    """Median of ``value`` per size over ``runs`` (one line per label, every run as a point)."""
    series = []
    overlay = len(runs) <= MAX_RUN_POINTS
    for lab in sorted(frame["label"].unique()):
        mine = runs[runs["label"] == lab].dropna(subset=[value])
        total = frame[frame["label"] == lab].groupby("size").size()
        med = mine.groupby("size")[value].median().sort_index()
        hover = tuple({"size": str(n), f"median {name}": f"{v:.6g}",
                       "runs": f"{int((mine['size'] == n).sum())} of {int(total.get(n, 0))}"}
                      for n, v in med.items())
        series.append(Series(lab, med.index.to_numpy(float), med.to_numpy(float), hover,
                             points=(mine["size"].to_numpy(float), mine[value].to_numpy(float),
                                     _run_hover(mine, value, name)) if overlay else None,
                             note="no solved runs"))
    sizes = frame["size"].to_numpy(float)
    values = runs[value].to_numpy(float)
    if overlay:
        caption += " (each run a faint point)"
    return Chart(slug, caption, "size n", ylabel, facet(series, lambda s: styles.of(s).family),
                 xscale=axis_scale(sizes), yscale=axis_scale(values), value_name=name)


def time_figure(frame: pd.DataFrame, problem: str, styles: SeriesStyles) -> Chart | None:
    solved = frame[frame["success"]]
    if frame["size"].nunique() < 2 or solved.empty:
        return None
    return _against_size(frame, styles, "time_s", slug=f"{_slug(problem)}_time",
                         caption=f"{problem}: median wall time of verified solved runs against "
                                 "size",
                         ylabel="median wall time (s)", name="time s", runs=solved)


def effort_figure(frame: pd.DataFrame, problem: str, styles: SeriesStyles) -> Chart | None:
    solved = frame[frame["success"]]
    if frame["size"].nunique() < 2 or solved.empty:
        return None
    present = [c for c in counter_columns(solved) if solved[c].notna().any()]
    main = next((c for c in EFFORT_COUNTERS if c in present), present[0] if present else None)
    if main is None:
        return None
    name = main.removeprefix("counter.")
    runs = solved.assign(**{main: solved[main].clip(lower=1)})
    return _against_size(frame, styles, main, slug=f"{_slug(problem)}_effort",
                         caption=f"{problem}: median {name} of verified solved runs against size",
                         ylabel=f"median {name}", name=name, runs=runs)


def success_figure(frame: pd.DataFrame, problem: str, styles: SeriesStyles) -> Chart | None:
    if frame["size"].nunique() < 2:
        return None
    series = []
    for lab in sorted(frame["label"].unique()):
        mine = frame[frame["label"] == lab]
        rate = mine.groupby("size")["success"].agg(["mean", "sum", "size"]).sort_index()
        hover = tuple({"size": str(n), "solved": f"{int(r['sum'])} of {int(r['size'])}"}
                      for n, r in rate.iterrows())
        series.append(Series(lab, rate.index.to_numpy(float), rate["mean"].to_numpy(float),
                             hover))
    return Chart(f"{_slug(problem)}_success",
                 f"{problem}: share of runs verified solved (or verified infeasible) per size",
                 "size n", "success rate", facet(series, lambda s: styles.of(s).family),
                 xscale=axis_scale(frame["size"].to_numpy(float)), ylim=(-0.05, 1.05),
                 value_name="success rate")


def _solved_curves(frame: pd.DataFrame
                   ) -> tuple[int, list[tuple[str, np.ndarray, np.ndarray, tuple]]]:
    """(number of (instance, repeat) pairs, per label: its solved times in increasing order
    (thinned), their ranks 1.. and per-point hover), from the per-instance time table."""
    times = per_instance_times(frame)
    seeds = frame.pivot_table(index=["instance_id", "repeat"], columns="label", values="seed",
                              aggfunc="first").reindex_like(times)
    curves = []
    for lab in times.columns:
        col = times[lab].dropna().sort_values(kind="stable")
        rank = pd.Series(np.arange(1, len(col) + 1, dtype=float), index=col.index)
        col = _thin(col)
        hover = tuple({"instance": str(i), "seed": str(int(seeds.at[(i, r), lab])),
                       "time s": f"{t:.6g}"} for (i, r), t in col.items())
        curves.append((lab, col.to_numpy(float), rank.loc[col.index].to_numpy(float), hover))
    return len(times), curves


def ecdf_figure(frame: pd.DataFrame, problem: str, styles: SeriesStyles) -> Chart | None:
    total, curves = _solved_curves(frame)
    if not total or not frame["success"].any():  # nothing solved: the chart would be empty
        return None
    series = [Series(lab, t, rank / total, hover, step=True, note="no solved runs")
              for lab, t, rank, hover in curves]
    return Chart(f"{_slug(problem)}_ecdf",
                 f"{problem}: runtime ECDF — share of (instance, repeat) pairs verified solved "
                 "within a time", "wall time (s)", "fraction of runs solved",
                 facet(series, lambda s: styles.of(s).family),
                 xscale="log", ylim=(-0.02, 1.02), value_name="fraction solved")


def cactus_figure(frame: pd.DataFrame, problem: str, styles: SeriesStyles) -> Chart | None:
    total, curves = _solved_curves(frame)
    if not total or not frame["success"].any():  # nothing solved: the chart would be empty
        return None
    series = [Series(lab, rank, t, hover, note="no solved runs") for lab, t, rank, hover in curves]
    vbs = per_instance_times(frame).min(axis=1).dropna().sort_values(kind="stable")
    rank = pd.Series(np.arange(1, len(vbs) + 1, dtype=float), index=vbs.index)
    vbs = _thin(vbs)
    best = Series("virtual best", rank.loc[vbs.index].to_numpy(float), vbs.to_numpy(float),
                  tuple({"instance": str(i), "time s": f"{t:.6g}"} for (i, _r), t in vbs.items()),
                  reference=True)
    return Chart(f"{_slug(problem)}_cactus",
                 f"{problem}: cactus plot — runs solved against time, with the virtual best "
                 "solver (dashed grey)", "instances solved", "time (s)",
                 facet(series, lambda s: styles.of(s).family, (best,)),
                 yscale="log", value_name="time s")


def profile_figure(frame: pd.DataFrame, problem: str, styles: SeriesStyles) -> Chart | None:
    times = per_instance_times(frame)
    if times.empty or not frame["success"].any():
        return None
    taus = np.logspace(0, 3, 60)
    profile = performance_profile(times, taus)
    series = [Series(lab, taus, profile[lab].to_numpy(float),
                     tuple({"τ": f"{t:.3g}", "share": f"{v:.3f}"}
                           for t, v in zip(taus, profile[lab], strict=True)), step=True)
              for lab in profile.columns]
    return Chart(f"{_slug(problem)}_profile",
                 f"{problem}: Dolan–Moré performance profile — share of instances solved within "
                 "τ × the best solver's time", "τ (time ratio to the best solver)",
                 "fraction of instances", facet(series, lambda s: styles.of(s).family),
                 xscale="log", ylim=(-0.02, 1.02), value_name="share")


FIGURES = (time_figure, effort_figure, success_figure, ecdf_figure, cactus_figure,
           profile_figure)


def problem_charts(frame: pd.DataFrame, problem: str, styles: SeriesStyles) -> list[Chart]:
    """Every figure of one problem, in a fixed order (``frame`` carries the report's labels)."""
    frame = frame[frame["problem"] == problem]
    charts = [make(frame, problem, styles) for make in FIGURES]
    return [c for c in charts if c is not None]
