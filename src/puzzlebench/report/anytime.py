"""Anytime analysis of stored traces: fixed-target (ERT), fixed-budget and run-length ECDFs.

Definitions (COCO / IOHprofiler conventions, minimisation of the conflict count):

* A run *hits* target t at the first trace point whose best is ≤ t (evaluations and seconds
  read from that point). A run that never hits t spent its whole effort: its final evaluation
  count (the ``evaluations`` counter, or its last trace point) and its run time.
* ERT(t) = (effort of all runs until they hit t or ended) / (number of runs that hit t) —
  Hansen et al.'s expected running time; ∞ when no run hit t.
* Fixed budget: the best-so-far value of each run at an evaluation budget (median and IQR over
  runs; a run not yet evaluated at that budget has no value).
* ECDF: the fraction of (run, target) pairs hit within a budget (COCO's aggregated run-length
  distribution), over targets from the best start value of the group down to 0. Its area on
  a log₁₀ budget axis, normalised to [0, 1] over the plotted budget range, is the anytime
  score: 1 = every target hit at the smallest budget.

Groups are (problem, size); within a group one curve per solver and parameter set.
"""

from __future__ import annotations

import json
import math
import statistics
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from puzzlebench.report.chart import Chart, Series, facet
from puzzlebench.report.findings import MIN_SAMPLE
from puzzlebench.report.series_styles import SeriesStyles, label_order
from puzzlebench.report.summary import with_labels

MAX_TARGETS = 40


@dataclass(frozen=True)
class RunTrace:
    """One run's improvements and its total effort."""

    config: str
    evals: np.ndarray
    best: np.ndarray
    times: np.ndarray
    total_evals: float
    total_time: float

    def hit(self, target: float) -> tuple[float, float] | None:
        """(evaluations, seconds) at which the run first reached ``target``, or None."""
        idx = np.flatnonzero(self.best <= target)
        if idx.size == 0:
            return None
        return float(self.evals[idx[0]]), float(self.times[idx[0]])

    def value_at(self, budget: float) -> float:
        idx = np.flatnonzero(self.evals <= budget)
        return float(self.best[idx[-1]]) if idx.size else math.nan


def _limit(value: Any) -> str:
    return "-" if value is None or (isinstance(value, float) and math.isnan(value)) else repr(float(value))


def _join_key(r: Any, params: Any, budget: Any) -> tuple:
    """Everything in a run's key, from a frame row or a ``load_traces`` row."""
    return (str(r["study"] or ""), str(r["solver"]), str(params), str(r["instance_id"]), int(r["seed"]),
            int(r["repeat"]), str(r["fingerprint"] or ""), str(budget), _limit(r["hard_limit"]),
            _limit(r["memory_limit_mb"]))


def group_runs(traces: pd.DataFrame, frame: pd.DataFrame) -> dict[tuple[str, int], list[RunTrace]]:
    """Every traced run of ``frame`` (the report's rejudged runs) by (problem, size), with its
    trace points from ``traces`` (``load_traces`` rows). A run of a tracing solver that recorded
    no point (or whose trace the harness dropped) is kept as never reaching any target, with its
    whole effort; a run the rejudge no longer counts as a success loses a final 0-point."""
    points = {}
    for _, t in traces.groupby("key", sort=False):
        first = t.iloc[0]
        points[_join_key(first, first["params"], first["budget"])] = t.sort_values("point")
    frame = with_labels(frame)
    out: dict[tuple[str, int], list[RunTrace]] = {}
    for _, r in frame.iterrows():
        key = _join_key(r, r["params_key"], json.dumps(r["budget"], sort_keys=True))
        t = points.get(key)
        traced = r.get("traced", False) is True or t is not None
        if not traced:
            continue
        evals = np.zeros(0) if t is None else t["evaluations"].to_numpy(float)
        best = np.zeros(0) if t is None else t["best"].to_numpy(float)
        times = np.zeros(0) if t is None else t["time_s"].to_numpy(float)
        if not r["success"] and best.size and best[-1] == 0:
            evals, best, times = evals[:-1], best[:-1], times[:-1]
        total_e = (r["counters"] or {}).get("evaluations")
        run = RunTrace(r["label"], evals, best, times,
                       float(max(total_e or 0, evals[-1] if evals.size else 0, 1)),
                       max(float(r["time_s"]), float(times[-1]) if times.size else 0.0))
        out.setdefault((r["problem"], int(r["size"])), []).append(run)
    return out


def targets_of(runs: list[RunTrace]) -> list[int]:
    """Targets from the best start value of the group down to 0 (at most MAX_TARGETS, spread
    evenly on a log scale of t + 1, always including 0 and 1). Start values are the first
    points of traces that begin above 0 (a trace whose only point is its solution says nothing
    about where the run started)."""
    starts = [r.best[0] for r in runs if r.best.size and r.best[0] > 0]
    start = int(min(starts)) if starts else 0
    if start + 1 <= MAX_TARGETS:
        return list(range(start, -1, -1))
    grid = np.unique(np.round(np.geomspace(1, start + 1, MAX_TARGETS)).astype(int) - 1)
    return sorted({*grid.tolist(), 0, 1}, reverse=True)


def ert_table(runs: list[RunTrace], targets: list[int]) -> pd.DataFrame:
    """ERT in evaluations and seconds per configuration and target (∞ shown as 'inf')."""
    rows = []
    for config in sorted({r.config for r in runs}, key=label_order):
        mine = [r for r in runs if r.config == config]
        for t in targets:
            hits = [r.hit(t) for r in mine]
            n_hit = sum(h is not None for h in hits)
            effort_e = sum(h[0] if h else r.total_evals for h, r in zip(hits, mine, strict=True))
            effort_s = sum(h[1] if h else r.total_time for h, r in zip(hits, mine, strict=True))
            rows.append({"solver": config, "target": t, "runs": len(mine), "hits": n_hit,
                         "ERT evaluations": effort_e / n_hit if n_hit else math.inf,
                         "ERT s": effort_s / n_hit if n_hit else math.inf})
    return pd.DataFrame(rows)


def budgets_of(runs: list[RunTrace]) -> np.ndarray:
    hi = max(max(r.total_evals, 1.0) for r in runs)
    return np.unique(np.geomspace(1, hi, 60))


def ecdf(runs: list[RunTrace], targets: list[int], budgets: np.ndarray, *,
         seconds: bool = False) -> np.ndarray:
    """Fraction of (run, target) pairs hit within each budget."""
    hits = []
    for r in runs:
        for t in targets:
            h = r.hit(t)
            hits.append(math.inf if h is None else h[1 if seconds else 0])
    arr = np.sort(np.asarray(hits))
    return np.searchsorted(arr, budgets, side="right") / max(len(arr), 1)


def auc(values: np.ndarray, budgets: np.ndarray) -> float:
    """Area under an ECDF (a step function: each value holds until the next budget) on a log
    budget axis, normalised to [0, 1]."""
    x = np.log10(budgets)
    if x[-1] <= x[0]:
        return float(values[-1])
    return float(np.sum(values[:-1] * np.diff(x)) / (x[-1] - x[0]))


def anytime_scores(runs: list[RunTrace], targets: list[int]) -> pd.DataFrame:
    """Per configuration: the ECDF area (anytime score), its rank, and the share of
    (run, target) pairs ever hit."""
    budgets = budgets_of(runs)
    rows = []
    for config in sorted({r.config for r in runs}, key=label_order):
        mine = [r for r in runs if r.config == config]
        curve = ecdf(mine, targets, budgets)
        rows.append({"solver": config, "runs": len(mine),
                     "anytime score (ECDF area)": round(auc(curve, budgets), 4),
                     "pairs hit": round(float(curve[-1]), 4),
                     "solved": sum(bool(r.best.size) and r.best[-1] == 0 for r in mine)})
    table = pd.DataFrame(rows).sort_values("anytime score (ECDF area)", ascending=False, kind="stable")
    table.insert(0, "rank", range(1, len(table) + 1))
    return table.reset_index(drop=True)


def _series(label: str, x: np.ndarray, y: np.ndarray, empty: str, *, step: bool = False,
            band: tuple[np.ndarray, np.ndarray] | None = None) -> Series:
    keep = np.isfinite(y)
    return Series(label, x[keep], y[keep], step=step, note=empty,
                  band=None if band is None else (band[0][keep], band[1][keep]))


def charts(runs: list[RunTrace], targets: list[int], problem: str, size: int,
           styles: SeriesStyles) -> list[Chart]:
    """The fixed-target, fixed-budget and ECDF charts of one group."""
    configs = sorted({r.config for r in runs}, key=label_order)
    budgets = budgets_of(runs)
    slug = f"anytime_{problem.replace('-', '_')}_{size}"

    table = ert_table(runs, targets)
    ert = []
    for config in configs:
        sub = table[(table["solver"] == config) & np.isfinite(table["ERT evaluations"])]
        ert.append(_series(config, sub["target"].to_numpy(float),
                           sub["ERT evaluations"].to_numpy(float), "never reached a target"))
    made = [Chart(f"{slug}_ert",
                  f"{problem} n={size} — fixed target: ERT in evaluations per target (lower is "
                  "better; a missing point means no run reached that target).",
                  "target (conflicts, ≤)", "ERT (evaluations)", facet(ert, styles.family),
                  yscale="log", invert_x=True, value_name="ERT evaluations")]

    fixed = []
    for config in configs:
        mine = [r for r in runs if r.config == config]
        vals = np.array([[r.value_at(b) for b in budgets] for r in mine])
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns before a run starts
            med = np.nanmedian(vals, axis=0)
            lo, hi = np.nanpercentile(vals, 25, axis=0), np.nanpercentile(vals, 75, axis=0)
        fixed.append(_series(config, budgets, med, "no value recorded", band=(lo, hi)))
    made.append(Chart(f"{slug}_budget",
                      f"{problem} n={size} — fixed budget: median best conflict count after each "
                      "number of evaluations, with the interquartile range shaded.",
                      "evaluations", "best conflicts so far", facet(fixed, styles.family),
                      xscale="log", yscale="symlog", value_name="median best"))

    times = np.unique(np.geomspace(
        max(min((float(r.times[0]) for r in runs if r.times.size), default=1e-5), 1e-5),
        max(max(r.total_time for r in runs), 1e-4), 60))
    by_evals, by_time = [], []
    for config in configs:
        mine = [r for r in runs if r.config == config]
        curve = ecdf(mine, targets, budgets)
        note = "never reached a target"
        by_evals.append(_series(config, budgets, curve if curve[-1] > 0 else curve * np.nan,
                                note, step=True))
        tc = ecdf(mine, targets, times, seconds=True)
        by_time.append(_series(config, times, tc if tc[-1] > 0 else tc * np.nan, note,
                               step=True))
    ylabel = "fraction of (run, target) pairs hit"
    made.append(Chart(f"{slug}_ecdf",
                      f"{problem} n={size} — ECDF over {len(targets)} targets: the share of "
                      "(run, target) pairs reached within a budget of evaluations; higher and "
                      "further left is better.", "evaluations", ylabel, facet(by_evals, styles.family),
                      xscale="log", ylim=(-0.02, 1.02), value_name="share hit"))
    made.append(Chart(f"{slug}_ecdf_time",
                      f"{problem} n={size} — the same ECDF against seconds.", "seconds", ylabel,
                      facet(by_time, styles.family), xscale="log", ylim=(-0.02, 1.02),
                      value_name="share hit"))
    return made


def ert_display(table: pd.DataFrame, targets: list[int]) -> pd.DataFrame:
    """The ERT table as the report shows it: one row per solver, one column per shown target."""
    shown = sorted({targets[0], *[t for t in targets if t in (0, 1, 2, 5, 10, 20, 50, 100)]},
                   reverse=True)
    out = table[table["target"].isin(shown)].copy()
    out["ERT evaluations"] = out.apply(
        lambda r: "inf" if not math.isfinite(r["ERT evaluations"]) else
        f"{r['ERT evaluations']:,.0f} ({r['ERT s']:.3g} s, {r['hits']}/{r['runs']})", axis=1)
    wide = out.pivot(index="solver", columns="target", values="ERT evaluations")
    wide = wide[sorted(wide.columns, reverse=True)]
    wide.columns = [f"≤ {c}" for c in wide.columns]
    return wide.reset_index()


def headline(runs: list[RunTrace], problem: str, size: int) -> list[str]:
    """Generated sentences: who reaches 0 with the fewest evaluations; who stalls."""
    table = ert_table(runs, [0])
    finite = table[np.isfinite(table["ERT evaluations"])].sort_values("ERT evaluations")
    lines = []
    if len(finite):
        best = finite.iloc[0]
        runner = (f"; next {finite.iloc[1]['solver']} (ERT "
                  f"{finite.iloc[1]['ERT evaluations']:,.0f}, {finite.iloc[1]['hits']} of "
                  f"{finite.iloc[1]['runs']} runs)" if len(finite) > 1 else "")
        lines.append(f"{problem} n={size}: {best['solver']} reaches 0 conflicts with the fewest "
                     f"evaluations (ERT {best['ERT evaluations']:,.0f}, {best['hits']} of "
                     f"{best['runs']} runs){runner} — an ordering of ERTs, not a significance "
                     "test.")
    for _, r in table[table["hits"] == 0].iterrows():
        mine = [x for x in runs if x.config == r["solver"]]
        final = sorted(int(x.best[-1]) for x in mine if x.best.size)
        if final:
            missing = len(mine) - len(final)
            seen = (f"final best: median {statistics.median(final):g}, range {final[0]}–{final[-1]}"
                    + (f"; {missing} runs recorded no value" if missing else ""))
        else:
            seen = "its traces record no intermediate values"
        lines.append(f"{problem} n={size}: {r['solver']} stalls — none of its {len(mine)} runs "
                     f"reached 0 conflicts ({seen}).")
    return lines


def anytime_sections(traces: pd.DataFrame, frame: pd.DataFrame, styles: SeriesStyles
                     ) -> tuple[list[dict], list[tuple[str, pd.DataFrame]], list[str]]:
    """Per (problem, size) with traced runs of ``frame``: (section data for the templates,
    tables to write as CSV, headline sentences). Groups where some configuration has fewer
    than MIN_SAMPLE runs get no ranking sentence, only one line per problem saying so."""
    sections: list[dict] = []
    tables: list[tuple[str, pd.DataFrame]] = []
    sentences: list[str] = []
    thin: dict[str, list[int]] = {}
    for (problem, size), runs in sorted(group_runs(traces, frame).items()):
        targets = targets_of(runs)
        ert = ert_table(runs, targets)
        scores = anytime_scores(runs, targets)
        name = f"{problem.replace('-', '_')}_{size}"
        tables += [(f"anytime_{name}_ert", ert), (f"anytime_{name}_scores", scores)]
        sections.append({
            "title": f"{problem}, n = {size}",
            "targets": f"{len(targets)} targets from {targets[0]} down to 0 conflicts",
            "ert": ert_display(ert, targets), "scores": scores,
            "charts": charts(runs, targets, problem, size, styles)})
        fewest = min(sum(r.config == c for r in runs) for c in {r.config for r in runs})
        if fewest < MIN_SAMPLE:
            thin.setdefault(problem, []).append(size)
        else:
            sentences += headline(runs, problem, size)
    for problem, sizes in thin.items():
        sentences.append(f"{problem} n = {', '.join(map(str, sizes))}: fewer than {MIN_SAMPLE} "
                         "traced runs per configuration — not enough data to rank anytime "
                         "performance; the ERT tables and figures list the runs as they are.")
    return sections, tables, sentences
