"""Scores across solvers: PAR-2, virtual best solver, performance profiles, pairwise tests."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pandas as pd

from puzzlebench.records.record import NOISE_FLOOR_S
from puzzlebench.report.series_styles import label_order
from puzzlebench.report.statistics.stratified import compare_strata, runs_of
from puzzlebench.report.summary import below_floor, by_label, with_labels


def run_time_or_penalty(frame: pd.DataFrame, penalty: float) -> pd.Series:
    """Wall time for solved (or correctly infeasible) runs; ``penalty`` otherwise."""
    ok = frame["success"]
    return frame["time_s"].where(ok, penalty)


def largest_budget(frame: pd.DataFrame, field: str) -> float | None:
    """The largest value of one budget field (``time_limit``, ``max_nodes``, ...) over the
    runs' budgets; None when no run set it."""
    values = [float(b[field]) for b in frame["budget"] if isinstance(b, dict) and b.get(field)]
    return max(values) if values else None


def time_limit_of(frame: pd.DataFrame) -> float:
    """The largest per-run budget in the frame (the cut-off for PAR-2), 1 s if none."""
    limit = largest_budget(frame, "time_limit")
    return limit if limit is not None else max(1.0, float(frame["time_s"].max()))


def par2(frame: pd.DataFrame) -> pd.DataFrame:
    """PAR-2 per (problem, solver): the mean of ``run_scores`` over its runs — the same score,
    limit and noise floor as the ranking (whose PAR-2 averages repeats per instance first and
    keeps only the instances every configuration ran, so the two agree when every
    configuration ran every instance equally often)."""
    frame = with_labels(frame)
    rows = []
    for problem, sub in frame.groupby("problem"):
        scored = sub.assign(score=run_scores(sub))  # one limit per problem, as the ranking's
        for (_, lab), g in by_label(scored):
            rows.append({"problem": problem, "solver": lab, "cut-off s": time_limit_of(sub),
                         "PAR-2 s": round(float(g["score"].mean()), 6)})
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


PAIRWISE_COLUMNS = ["problem", "A", "B", "test", "instances", "runs A", "runs B",
                    "A better on", "B better on", "PAR-2 ratio A/B", "95% CI ratio", "A beats B",
                    "95% CI A beats B", "p", "p (Holm)", "note"]


def run_scores(frame: pd.DataFrame) -> pd.Series:
    """Each run's PAR-2 score, the one every time comparison of a report uses: its time when
    verified solved (a single-shot time below the noise floor scored *at* the floor, so no
    comparison rests on a difference nothing can measure), 2 × the time limit otherwise."""
    solved = frame["success"].astype(bool)
    floored = solved & below_floor(frame)
    timed = frame.assign(time_s=frame["time_s"].where(~floored, NOISE_FLOOR_S))
    return run_time_or_penalty(timed, 2 * time_limit_of(frame))


def pairwise_comparisons(frame: pd.DataFrame, labels: list[str]) -> dict[tuple[str, str], Any]:
    """Every pair (A, B) of ``labels`` (A before B) compared on the runs' PAR-2 scores by the
    report's one inference (``report.stratified``: van Elteren's test stratified by instance,
    Vargha–Delaney's A), on the instances both ran."""
    scored = frame.assign(score=run_scores(frame))
    runs = {key: runs_of(g, "score") for key, g in scored.groupby(["instance_id", "label"])}
    instances = sorted(scored["instance_id"].unique())
    out = {}
    for a, b in itertools.combinations(labels, 2):
        strata = {}
        for iid in instances:
            ra, rb = runs.get((iid, a)), runs.get((iid, b))
            if ra is not None and rb is not None:
                strata[str(iid)] = (ra, rb)
        out[(a, b)] = compare_strata(strata, effect="ratio")
    return out


def pairwise_tests(frame: pd.DataFrame) -> pd.DataFrame:
    """Every pair of configurations of a problem, on the instances every configuration of it
    ran (the instances the ranking ranks), by the test the ranking uses: the table and the
    answer's sentences come from the same comparisons and cannot disagree. p-values are
    Holm-adjusted over the pairs of the problem: an exploratory family of its own, apart from
    the study's claims."""
    frame = with_labels(frame)
    rows = []
    for problem, g in sorted(frame.groupby("problem"), key=lambda kv: kv[0]):
        labels = sorted(g["label"].unique(), key=label_order)
        ran = g.groupby("instance_id")["label"].nunique()
        g = g[g["instance_id"].isin(ran[ran == len(labels)].index)]
        comparisons = pairwise_comparisons(g, labels)
        adjusted = holm(np.array([np.nan if c.p is None else c.p
                                  for c in comparisons.values()], float))
        for ((a, b), c), p_adj in zip(comparisons.items(), adjusted, strict=True):
            rows.append(pairwise_row(problem, a, b, c, p_adj))
    return pd.DataFrame(rows, columns=PAIRWISE_COLUMNS)


def pairwise_row(problem: str, a: str, b: str, c: Any, p_adj: float) -> dict[str, object]:
    """One row of the pairwise table."""
    finite = np.isfinite(c.effect_ci[0]) and np.isfinite(c.effect_ci[1])
    return {"problem": problem, "A": a, "B": b,
            "test": f"van Elteren by instance ({c.method})", "instances": c.instances,
            "runs A": c.runs_a, "runs B": c.runs_b, "A better on": c.wins_a,
            "B better on": c.wins_b,
            "PAR-2 ratio A/B": round(c.effect, 4) if np.isfinite(c.effect) else np.nan,
            "95% CI ratio": f"[{c.effect_ci[0]:.3g}, {c.effect_ci[1]:.3g}]" if finite else "",
            "A beats B": round(c.a12, 3) if np.isfinite(c.a12) else np.nan,
            "95% CI A beats B": (f"[{c.a12_ci[0]:.2f}, {c.a12_ci[1]:.2f}]"
                                 if np.isfinite(c.a12) else ""),
            "p": c.p if c.p is not None else np.nan,
            "p (Holm)": p_adj, "note": "" if c.p is not None else c.method}


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
