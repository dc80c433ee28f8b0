"""Expected running time against size, with bootstrap intervals: the view a paper shows.

ERT (Hansen et al., COCO) of a configuration at a size = the total time of all its runs there,
censored ones included (a run the budget or the limit ended adds the time it ran), divided by
its verified successes; ∞ when none succeeded. The same for evaluations (the common unit,
``contract.EFFORT_UNIT``) over the configurations that count them; a run with no count (a crash)
adds its time but no evaluations. The 95 % interval resamples the cell's runs with
replacement (percentile bootstrap, a seeded generator): a resample without a success has an
infinite ERT, so an upper bound may be ∞ (the band then stops at the line). One figure per
problem with two or more sizes: ERT in seconds above, in evaluations below, log scale."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from puzzlebench.report.chart import Chart, Panel, Series, axis_scale
from puzzlebench.report.series_styles import label_order
from puzzlebench.report.summary import with_labels

REPS = 1000
LEVEL = 0.95
EVALUATIONS = "counter.evaluations"
COLUMNS = ["problem", "solver", "size", "runs", "successes", "ERT s", "ERT s low",
           "ERT s high", "ERT evaluations", "ERT evaluations low", "ERT evaluations high"]


def ert_interval(effort: np.ndarray, success: np.ndarray, rng: np.random.Generator,
                 reps: int = REPS) -> tuple[float, float, float]:
    """(ERT, low, high): total ``effort`` over the number of ``success``es, and the percentile
    bootstrap interval of it over runs resampled with replacement."""
    e = np.asarray(effort, float)
    s = np.asarray(success, bool)
    n = len(e)
    if n == 0:
        return math.nan, math.nan, math.nan
    point = float(e.sum() / s.sum()) if s.any() else math.inf
    idx = rng.integers(0, n, size=(reps, n))
    hits = s[idx].sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        boot = np.where(hits > 0, e[idx].sum(axis=1) / np.maximum(hits, 1), np.inf)
    boot.sort()
    lo = float(boot[math.floor((1 - LEVEL) / 2 * (reps - 1))])
    hi = float(boot[math.ceil((1 + LEVEL) / 2 * (reps - 1))])
    return point, lo, hi


def ert_by_size(frame: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """One row per (problem, configuration, size): runs, successes and ERT in seconds and in
    evaluations (NaN for a configuration that does not count them) with their intervals."""
    rng = np.random.default_rng(seed)
    frame = with_labels(frame)
    rows = []
    for (problem, lab), runs in sorted(frame.groupby(["problem", "label"]),
                                       key=lambda kv: (kv[0][0], label_order(kv[0][1]))):
        counts = EVALUATIONS in runs and runs[EVALUATIONS].notna().any()
        for size, cell in runs.groupby("size", sort=True):
            ok = cell["success"].to_numpy(bool)
            row = {"problem": problem, "solver": lab, "size": int(size), "runs": len(cell),
                   "successes": int(ok.sum())}
            row.update(zip(COLUMNS[5:8], ert_interval(cell["time_s"].to_numpy(float), ok, rng),
                           strict=True))
            evals = (cell[EVALUATIONS].fillna(0).to_numpy(float) if counts
                     else np.full(len(cell), np.nan))
            row.update(zip(COLUMNS[8:], ert_interval(evals, ok, rng) if counts
                           else (math.nan,) * 3, strict=True))
            rows.append(row)
    return pd.DataFrame(rows, columns=COLUMNS)


def _series(lab: str, cells: pd.DataFrame, column: str, unit: str, note: str) -> Series:
    finite = cells[np.isfinite(cells[column])]
    high = finite[f"{column} high"].to_numpy(float)
    hover = tuple({"size": str(r["size"]), f"ERT {unit}": f"{r[column]:.4g}",
                   "95% interval": f"[{r[f'{column} low']:.4g}, {r[f'{column} high']:.4g}]",
                   "successes": f"{r['successes']} of {r['runs']} runs"}
                  for _, r in finite.iterrows())
    return Series(lab, finite["size"].to_numpy(float), finite[column].to_numpy(float), hover,
                  band=(finite[f"{column} low"].to_numpy(float),
                        np.where(np.isfinite(high), high, finite[column].to_numpy(float))),
                  note=note)


def ert_figure(table: pd.DataFrame, problem: str) -> Chart | None:
    """The ERT-against-size figure of one problem from ``ert_by_size`` rows (None with fewer
    than two sizes)."""
    rows = table[table["problem"] == problem]
    if rows["size"].nunique() < 2:
        return None
    time_series, eval_series = [], []
    for lab in sorted(rows["solver"].unique(), key=label_order):
        cells = rows[rows["solver"] == lab]
        time_series.append(_series(lab, cells, "ERT s", "s", "no verified success"))
        note = ("no evaluations counter" if cells["ERT evaluations"].isna().all()
                else "no verified success")
        eval_series.append(_series(lab, cells, "ERT evaluations", "evaluations", note))
    slug = problem.replace("-", "_")
    values = np.concatenate([rows["ERT s"].to_numpy(float), rows["ERT evaluations"].to_numpy(float)])
    return Chart(f"{slug}_ert", f"{problem}: expected running time (ERT) against size — the "
                 "time (above) and evaluations (below) of all runs, censored ones included, per "
                 "verified success, with a bootstrap 95% interval shaded; a missing point: no "
                 "success at that size", "size n", "ERT",
                 (Panel("ERT in seconds", tuple(time_series), "ERT (s)"),
                  Panel("ERT in evaluations", tuple(eval_series), "ERT (evaluations)")),
                 xscale=axis_scale(rows["size"].to_numpy(float)),
                 yscale="log" if (values[np.isfinite(values)] > 0).any() else "linear",
                 value_name="ERT", share_y=False)
