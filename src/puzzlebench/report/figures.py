"""The comparison figures of one problem, as :class:`~puzzlebench.report.chart.Chart` data:
time, effort and success against size; runtime ECDF; cactus with the virtual best solver; the
score-based quantile plot; Dolan–Moré performance profiles. One function per figure; each
returns None when the data cannot support it. Success is the frame's ``success`` column
(accepted and verified) in every figure, as in the tables."""

from __future__ import annotations

import numpy as np
import pandas as pd

from puzzlebench.report.chart import Chart, Series, axis_scale, facet
from puzzlebench.report.series_styles import SeriesStyles, label_order
from puzzlebench.report.statistics.borda import run_points
from puzzlebench.report.statistics.scores import per_instance_times, performance_profile
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


def _against_size(frame: pd.DataFrame, styles: SeriesStyles, value: str, *, slug: str,
                  caption: str, ylabel: str, name: str, runs: pd.DataFrame) -> Chart:
    """Median of ``value`` per size over ``runs`` (one line per label, every run as a point)."""
    series = []
    overlay = len(runs) <= MAX_RUN_POINTS
    for lab in sorted(frame["label"].unique(), key=label_order):
        solved = runs[runs["label"] == lab]
        mine = solved.dropna(subset=[value])
        note = f"no {name} counter" if len(solved) else "no solved runs"
        total = frame[frame["label"] == lab].groupby("size").size()
        med = mine.groupby("size")[value].median().sort_index()
        hover = tuple({"size": str(n), f"median {name}": f"{v:.6g}",
                       "runs": f"{int((mine['size'] == n).sum())} of {int(total.get(n, 0))}"}
                      for n, v in med.items())
        series.append(Series(lab, med.index.to_numpy(float), med.to_numpy(float), hover,
                             points=(mine["size"].to_numpy(float), mine[value].to_numpy(float),
                                     _run_hover(mine, value, name)) if overlay else None,
                             note=note))
    sizes = frame["size"].to_numpy(float)
    values = runs[value].to_numpy(float)
    if overlay:
        caption += " (each run a faint point)"
    return Chart(slug, caption, "size n", ylabel, facet(series, styles.family),
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
    for lab in sorted(frame["label"].unique(), key=label_order):
        mine = frame[frame["label"] == lab]
        rate = mine.groupby("size")["success"].agg(["mean", "sum", "size"]).sort_index()
        hover = tuple({"size": str(n), "solved": f"{int(r['sum'])} of {int(r['size'])}"}
                      for n, r in rate.iterrows())
        series.append(Series(lab, rate.index.to_numpy(float), rate["mean"].to_numpy(float),
                             hover))
    return Chart(f"{_slug(problem)}_success",
                 f"{problem}: share of runs verified solved (or verified infeasible) per size",
                 "size n", "success rate", facet(series, styles.family),
                 xscale=axis_scale(frame["size"].to_numpy(float)), ylim=(-0.05, 1.05),
                 value_name="success rate")


def _solved_runs(frame: pd.DataFrame, lab: str) -> tuple[int, pd.DataFrame]:
    """(runs of ``lab``, its verified solved runs by increasing time, thinned for drawing, with
    each run's rank among them)."""
    mine = frame[frame["label"] == lab]
    ok = mine[mine["success"]].sort_values(["time_s", "instance_id", "seed"], kind="stable")
    ok = ok.assign(rank=np.arange(1, len(ok) + 1, dtype=float))
    if len(ok) > MAX_CURVE_POINTS:
        keep = np.unique(np.linspace(0, len(ok) - 1, MAX_CURVE_POINTS).round().astype(int))
        ok = ok.iloc[keep]
    return len(mine), ok


def ecdf_figure(frame: pd.DataFrame, problem: str, styles: SeriesStyles) -> Chart | None:
    if not frame["success"].any():  # nothing solved: the chart would be empty
        return None
    series = []
    for lab in sorted(frame["label"].unique(), key=label_order):
        total, ok = _solved_runs(frame, lab)
        series.append(Series(lab, ok["time_s"].to_numpy(float), ok["rank"].to_numpy() / total,
                             _run_hover(ok, "time_s", "time s"), step=True,
                             note="no solved runs"))
    return Chart(f"{_slug(problem)}_ecdf",
                 f"{problem}: runtime ECDF — share of each configuration's own runs verified "
                 "solved within a time", "wall time (s)", "fraction of its runs solved",
                 facet(series, styles.family),
                 xscale="log", ylim=(-0.02, 1.02), value_name="fraction solved")


def cactus_figure(frame: pd.DataFrame, problem: str, styles: SeriesStyles) -> Chart | None:
    if not frame["success"].any():
        return None
    series = []
    for lab in sorted(frame["label"].unique(), key=label_order):
        _, ok = _solved_runs(frame, lab)
        series.append(Series(lab, ok["rank"].to_numpy(), ok["time_s"].to_numpy(float),
                             _run_hover(ok, "time_s", "time s"), note="no solved runs"))
    # The virtual best is per instance; it shares the x axis (runs solved) with the
    # configurations only when each ran once per instance, so it is drawn only then.
    once = bool(frame.groupby(["label", "instance_id"]).size().max() == 1)
    times = per_instance_times(frame)
    vbs = times.min(axis=1)
    vbs = vbs[np.isfinite(vbs)].sort_values(kind="stable")
    refs: tuple[Series, ...] = ()
    if once and len(vbs):
        refs = (Series("virtual best", np.arange(1, len(vbs) + 1, dtype=float),
                       vbs.to_numpy(float), tuple({"instance": str(i), "time s": f"{t:.6g}"}
                                                   for i, t in vbs.items()), reference=True),)
    vbs_note = ("dashed grey: the virtual best solver (per instance every configuration attempted, "
                "the best time)" if refs else "no virtual best: configurations ran several times "
                "per instance, so runs and instances do not share an axis")
    return Chart(f"{_slug(problem)}_cactus",
                 f"{problem}: cactus plot — each configuration's verified solved runs against "
                 f"time; {vbs_note}", "runs solved", "time (s)",
                 facet(series, styles.family, refs),
                 yscale="log", value_name="time s")


def quantile_figure(frame: pd.DataFrame, problem: str, styles: SeriesStyles) -> Chart | None:
    """BenchExec's score-based quantile plot, scored by the complete Borda score: each
    configuration's verified solved runs by increasing time, x the score accumulated up to
    and including the run, y its time. A run adds its Borda points over its configuration's
    runs on the instance (``borda.run_points``). Points an unsolved run earned (from a wrong
    opponent) shift the curve's start to the right, as BenchExec shifts it by the wrong
    results' penalties; so a curve ends at the configuration's score in the Borda table."""
    if not frame["success"].any():
        return None
    points = run_points(frame)
    scored = frame.assign(score=(points["complete"] * points["weight"]).to_numpy())
    series = []
    for lab in sorted(frame["label"].unique(), key=label_order):
        own = scored[scored["label"] == lab]
        mine = own[own["success"]].sort_values(["time_s", "instance_id", "seed"], kind="stable")
        start = float(own.loc[~own["success"], "score"].sum())
        mine = mine.assign(accumulated=start + mine["score"].cumsum())
        if len(mine) > MAX_CURVE_POINTS:
            keep = np.unique(np.linspace(0, len(mine) - 1, MAX_CURVE_POINTS).round().astype(int))
            mine = mine.iloc[keep]
        hover = tuple({"instance": str(i), "seed": str(int(sd)), "time s": f"{t:.6g}",
                       "run's points": f"{p:.4g}", "score so far": f"{a:.4g}"}
                      for i, sd, t, p, a in zip(mine["instance_id"], mine["seed"], mine["time_s"],
                                                mine["score"], mine["accumulated"], strict=True))
        series.append(Series(lab, mine["accumulated"].to_numpy(float),
                             mine["time_s"].to_numpy(float), hover, note="no solved runs"))
    return Chart(f"{_slug(problem)}_quantile",
                 f"{problem}: score-based quantile plot (BenchExec) — verified solved runs by "
                 "time against the Borda score (complete, MiniZinc Challenge rules) accumulated "
                 "so far; a curve starts at what unsolved runs earned from wrong opponents and "
                 "ends at the configuration's Borda score", "accumulated Borda score (complete)", "time (s)",
                 facet(series, styles.family), yscale="log", value_name="time s")


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
                 f"{problem}: Dolan–Moré performance profile over the {len(times)} instances every "
                 "configuration attempted — share solved within τ × the best median time",
                 "τ (time ratio to the best solver)",
                 "fraction of instances", facet(series, styles.family),
                 xscale="log", ylim=(-0.02, 1.02), value_name="share")


FIGURES = (time_figure, effort_figure, success_figure, ecdf_figure, cactus_figure,
           quantile_figure, profile_figure)


def problem_charts(frame: pd.DataFrame, problem: str, styles: SeriesStyles) -> list[Chart]:
    """Every figure of one problem, in a fixed order (``frame`` carries the report's labels)."""
    frame = frame[frame["problem"] == problem]
    charts = [make(frame, problem, styles) for make in FIGURES]
    return [c for c in charts if c is not None]
