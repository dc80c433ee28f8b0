"""Scores across solvers: PAR-2, virtual best solver, performance profiles, pairwise tests."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from puzzlebench.report.bootstrap import median_ci, median_difference_ci
from puzzlebench.report.series_styles import label_order
from puzzlebench.report.summary import by_label, with_labels


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
    for (problem, lab), g in by_label(frame):
        limit = time_limit_of(g)
        rows.append({"problem": problem, "solver": lab, "cut-off s": limit,
                     "PAR-2 s": round(float(run_time_or_penalty(g, 2 * limit).mean()), 6)})
    return pd.DataFrame(rows)


def per_instance_times(frame: pd.DataFrame) -> pd.DataFrame:
    """Instances × configurations: the median over a configuration's runs on the instance of
    its time when verified solved, ∞ when not (so a configuration that solved at most half its
    repeats there counts as unsolved). Only instances every configuration attempted, so no
    configuration is charged for runs it never made; a configuration that solved nothing keeps
    its (all-∞) column."""
    frame = with_labels(frame)
    data = frame.assign(t=frame["time_s"].where(frame["success"], np.inf))
    table = data.groupby(["instance_id", "label"])["t"].median().unstack("label")
    table = table.reindex(columns=sorted(frame["label"].unique(), key=label_order))
    return table.dropna(axis=0, how="any").sort_index(axis=0)


def performance_profile(times: pd.DataFrame, taus: np.ndarray) -> pd.DataFrame:
    """Dolan–Moré: fraction of instances each solver solves within τ × the best time (times:
    ``per_instance_times``, ∞ = unsolved; an instance nobody solved counts against everyone)."""
    best = times.min(axis=1)
    ratios = times.div(best.replace(0, 1e-9), axis=0)
    out = {col: [(ratios[col] <= tau).mean() for tau in taus] for col in times.columns}
    return pd.DataFrame(out, index=taus)


MIN_PAIRS = 5
PAIRWISE_COLUMNS = ["problem", "A", "B", "test", "n A", "n B", "non-zero pairs", "median A s",
                    "median B s", "median A−B s", "95% CI A−B s", "rank-biserial", "p", "note", "p (Holm)"]


def pairwise_tests(frame: pd.DataFrame, *, seed: int = 0) -> pd.DataFrame:
    """Every pair of configurations of a problem on their shared instances, scored by time with
    unsolved runs at 2 × the limit.

    Paired (Wilcoxon signed-rank by instance, matched-pairs rank-biserial effect) when both
    ran exactly once per instance — deterministic solvers, or one seed per instance. Unpaired
    (Mann–Whitney U, rank-biserial effect) when either has several runs per instance: repeats
    of a stochastic solver are independent draws, and pairing them by repeat index would
    invent a pairing. Both give a bootstrap 95% CI (``seed`` seeds its generator) of the median
    difference. Pairs below MIN_PAIRS observations (for the paired test: non-zero
    differences, since ties such as two timeouts carry no information) are listed with "not
    enough data" and no p-value; p-values are Holm-corrected over the tests made."""
    frame = with_labels(frame)
    rng = np.random.default_rng(seed)
    rows = []
    for problem, g in sorted(frame.groupby("problem"), key=lambda kv: kv[0]):
        limit = time_limit_of(g)
        g = g.assign(score=run_time_or_penalty(g, 2 * limit))
        for a, b in itertools.combinations(sorted(g["label"].unique(), key=label_order), 2):
            ga, gb = g[g["label"] == a], g[g["label"] == b]
            shared = set(ga["instance_id"]) & set(gb["instance_id"])
            if not shared:
                continue
            ga, gb = ga[ga["instance_id"].isin(shared)], gb[gb["instance_id"].isin(shared)]
            paired = (ga["instance_id"].value_counts().max() == 1
                      and gb["instance_id"].value_counts().max() == 1)
            rows.append({"problem": problem, "A": a, "B": b,
                         **(_paired(ga, gb, rng) if paired else _unpaired(ga, gb, rng))})
    out = pd.DataFrame(rows, columns=PAIRWISE_COLUMNS[:-1])
    if out.empty:
        return out
    tested = out["p"].notna()
    out["p (Holm)"] = np.nan
    out.loc[tested, "p (Holm)"] = holm(out.loc[tested, "p"].to_numpy())
    return out


def _paired(ga: pd.DataFrame, gb: pd.DataFrame, rng: np.random.Generator) -> dict[str, object]:
    from scipy import stats  # on use: 0.5-1 s to import, and listing the studies tests nothing
    pair = pd.concat([ga.set_index("instance_id")["score"].rename("a"),
                      gb.set_index("instance_id")["score"].rename("b")], axis=1).dropna()
    diff = (pair["a"] - pair["b"]).to_numpy(float)
    row: dict[str, object] = {"test": "Wilcoxon signed-rank (paired by instance)",
                              "n A": len(pair), "n B": len(pair),
                              "median A s": float(pair["a"].median()),
                              "median B s": float(pair["b"].median()),
                              "median A−B s": float(np.median(diff)) if len(diff) else np.nan}
    nz = diff[diff != 0]  # ties (e.g. both out of time) carry no information for the test
    row["non-zero pairs"] = len(nz)
    if len(pair) >= MIN_PAIRS:
        lo, hi = median_ci(diff, rng)
        row["95% CI A−B s"] = f"[{lo:.4g}, {hi:.4g}]"
    if len(nz) < MIN_PAIRS:
        why = "identical scores" if len(pair) >= MIN_PAIRS and not len(nz) else (
            f"not enough data ({len(nz)} non-zero differences < {MIN_PAIRS})")
        return {**row, "note": why, "p": np.nan}
    res = stats.wilcoxon(pair["a"], pair["b"], zero_method="wilcox")
    ranks = stats.rankdata(np.abs(nz))
    effect = (ranks[nz > 0].sum() - ranks[nz < 0].sum()) / ranks.sum()
    return {**row, "p": float(res.pvalue), "rank-biserial": round(float(effect), 3), "note": ""}


def _unpaired(ga: pd.DataFrame, gb: pd.DataFrame, rng: np.random.Generator) -> dict[str, object]:
    from scipy import stats  # on use: 0.5-1 s to import, and listing the studies tests nothing
    a, b = ga["score"].to_numpy(float), gb["score"].to_numpy(float)
    row: dict[str, object] = {"test": "Mann–Whitney U (unpaired runs)", "n A": len(a),
                              "n B": len(b), "median A s": float(np.median(a)),
                              "median B s": float(np.median(b)),
                              "median A−B s": float(np.median(a) - np.median(b))}
    if min(len(a), len(b)) < MIN_PAIRS:
        return {**row, "note": f"not enough data (n < {MIN_PAIRS})", "p": np.nan}
    lo, hi = median_difference_ci(a, b, rng)
    row["95% CI A−B s"] = f"[{lo:.4g}, {hi:.4g}]"
    if np.all(a == a[0]) and np.all(b == a[0]):
        return {**row, "note": "identical scores", "p": np.nan}
    res = stats.mannwhitneyu(a, b, alternative="two-sided")
    effect = 2 * float(res.statistic) / (len(a) * len(b)) - 1  # >0: A tends to score higher
    return {**row, "p": float(res.pvalue), "rank-biserial": round(effect, 3), "note": ""}


def holm(p: np.ndarray) -> np.ndarray:
    """Holm–Bonferroni adjusted p-values (a NaN p stays NaN and counts as no test)."""
    p = np.asarray(p, float)
    adjusted = np.full(p.shape, np.nan)
    tested = np.flatnonzero(np.isfinite(p))
    m = len(tested)
    order = tested[np.argsort(p[tested], kind="stable")]
    running = 0.0
    for rank, idx in enumerate(order):
        running = max(running, (m - rank) * p[idx])
        adjusted[idx] = min(1.0, running)
    return adjusted
