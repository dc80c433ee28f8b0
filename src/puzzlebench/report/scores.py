"""Scores across solvers: PAR-2, virtual best solver, performance profiles, pairwise tests."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
from scipy import stats

from puzzlebench.report.summary import with_labels


def run_time_or_penalty(frame: pd.DataFrame, penalty: float) -> pd.Series:
    """Wall time for solved (or correctly infeasible) runs; ``penalty`` otherwise."""
    ok = frame["success"]
    return frame["time_s"].where(ok, penalty)


def time_limit_of(frame: pd.DataFrame) -> float:
    """The largest per-run budget in the frame (the cut-off for PAR-2), 1 s if none."""
    limits = [float(b["time_limit"]) for b in frame["budget"]
              if isinstance(b, dict) and b.get("time_limit")]
    return max(limits) if limits else max(1.0, float(frame["time_s"].max()))


def par2(frame: pd.DataFrame) -> pd.DataFrame:
    """PAR-2 per (problem, solver): mean time with unsolved runs counted as 2 × the limit."""
    frame = with_labels(frame)
    rows = []
    for (problem, lab), g in sorted(frame.groupby(["problem", "label"]), key=lambda kv: kv[0]):
        limit = time_limit_of(g)
        rows.append({"problem": problem, "solver": lab, "cut-off s": limit,
                     "PAR-2 s": round(float(run_time_or_penalty(g, 2 * limit).mean()), 6)})
    return pd.DataFrame(rows)


def per_instance_times(frame: pd.DataFrame) -> pd.DataFrame:
    """Instances (instance_id, repeat) × solvers: time, or NaN when not solved."""
    frame = with_labels(frame)
    ok = frame["success"]
    data = frame.assign(t=frame["time_s"].where(ok))
    table = data.pivot_table(index=["instance_id", "repeat"], columns="label", values="t",
                             aggfunc="first")
    return table.sort_index(axis=0).sort_index(axis=1)


def performance_profile(times: pd.DataFrame, taus: np.ndarray) -> pd.DataFrame:
    """Dolan–Moré: fraction of instances each solver solves within τ × the best time."""
    best = times.min(axis=1)
    ratios = times.div(best.replace(0, np.nan).fillna(1e-9), axis=0)
    out = {col: [(ratios[col] <= tau).mean() for tau in taus] for col in times.columns}
    return pd.DataFrame(out, index=taus)


def pairwise_tests(frame: pd.DataFrame) -> pd.DataFrame:
    """Wilcoxon signed-rank on paired instances (time, unsolved = 2 × limit), Holm-corrected,
    with the matched-pairs rank-biserial correlation as effect size."""
    frame = with_labels(frame)
    rows = []
    for problem, g in sorted(frame.groupby("problem"), key=lambda kv: kv[0]):
        limit = time_limit_of(g)
        g = g.assign(score=run_time_or_penalty(g, 2 * limit))
        table = g.pivot_table(index=["instance_id", "repeat"], columns="label", values="score",
                              aggfunc="first")
        for a, b in itertools.combinations(sorted(table.columns), 2):
            pair = table[[a, b]].dropna()
            diff = pair[a] - pair[b]
            if len(pair) < 5 or (diff == 0).all():
                continue
            res = stats.wilcoxon(pair[a], pair[b], zero_method="wilcox")
            nz = diff[diff != 0]
            ranks = stats.rankdata(nz.abs())
            effect = (ranks[nz > 0].sum() - ranks[nz < 0].sum()) / ranks.sum()
            rows.append({"problem": problem, "A": a, "B": b, "pairs": len(pair),
                         "median A−B s": float(diff.median()), "p": float(res.pvalue),
                         "rank-biserial": round(float(effect), 3)})
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    out["p (Holm)"] = holm(out["p"].to_numpy())
    return out


def holm(p: np.ndarray) -> np.ndarray:
    """Holm–Bonferroni adjusted p-values."""
    m = len(p)
    order = np.argsort(p, kind="stable")
    adjusted = np.empty(m)
    running = 0.0
    for rank, idx in enumerate(order):
        running = max(running, (m - rank) * p[idx])
        adjusted[idx] = min(1.0, running)
    return adjusted
