"""The anytime statistics of stored traces, as numbers: runs grouped per (problem, size) and
curve, targets, ERT per target, fixed-budget values, run-length ECDFs and their area (the
anytime score). Definitions in ``report.anytime``; the figures and sentences are there too."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from puzzlebench.records.record import infer_stopped_by
from puzzlebench.report.series_styles import label_order
from puzzlebench.report.summary import with_labels

MAX_TARGETS = 40


#: The axes the anytime figures and rankings read effort on: the common unit
#: (``contract.EFFORT_UNIT``: candidate states whose conflict count was computed) and seconds.
AXES: dict[str, str] = {"evaluations": "evaluations (candidate states scored, the common unit)",
                        "seconds": "seconds (the run's own time)"}


@dataclass(frozen=True)
class RunTrace:
    """One run's improvements and its total effort; ``block`` names its budget when a report
    holds runs under different budgets (``budget_block``)."""

    config: str
    evals: np.ndarray
    best: np.ndarray
    times: np.ndarray
    total_evals: float
    total_time: float
    block: str = ""

    def hit(self, target: float) -> tuple[float, float] | None:
        """(evaluations, seconds) at which the run first reached ``target``, or None."""
        idx = np.flatnonzero(self.best <= target)
        if idx.size == 0:
            return None
        return float(self.evals[idx[0]]), float(self.times[idx[0]])

    def value_at(self, budget: float, *, seconds: bool = False) -> float:
        """The best-so-far value within ``budget`` evaluations (or seconds); NaN before the
        run's first point."""
        idx = np.flatnonzero((self.times if seconds else self.evals) <= budget)
        return float(self.best[idx[-1]]) if idx.size else math.nan


def budget_block(budget: Any) -> str:
    """A run's budget in words ('20,000 evaluations, 10 s'), naming the block it belongs to
    when one study gives some runs a budget in evaluations and others one in time."""
    if not isinstance(budget, dict):
        return ""
    parts = [f"{int(budget[k]):,} {word}" for k, word in (
        ("max_evaluations", "evaluations"), ("max_iterations", "iterations"),
        ("max_nodes", "nodes")) if budget.get(k) is not None]
    if budget.get("time_limit") is not None:
        parts.append(f"{float(budget['time_limit']):g} s")
    return ", ".join(parts) or "no budget"


def binding_budget(outcome: str, counters: Any, budget: Any, time_s: float,
                   stopped_by: Any = "") -> str:
    """Which budget stopped a run: ``evaluations`` (its ``evaluations`` counter reached
    ``max_evaluations``), ``iterations``, ``nodes``, ``time`` (its time reached the limit, or the
    harness killed it), ``solver's own limit`` (a parameter such as ``max_iter`` or
    ``max_kicks``), or ``-`` for a run that ended with an answer or a claim. The record's
    ``stopped_by`` (what the harness recorded) decides where it is set; otherwise it is read
    from the record's counters and budget, so any stored run can be asked."""
    if outcome == "timeout":
        return "time"
    if outcome != "budget":
        return "-"
    said = stopped_by if isinstance(stopped_by, str) else ""
    if not said:
        said = infer_stopped_by(counters, budget, time_s) or "param:"
    if said.startswith("param:"):
        return "solver's own limit"
    return {"max_evaluations": "evaluations", "max_iterations": "iterations", "max_nodes": "nodes",
            "time_limit": "time", "killed": "time"}.get(said, "solver's own limit")


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
        if r["success"] and best.size and best[-1] == 0:
            # the solution point is the run's answer: reached when the harness saw the run end
            # (its checked time) after all the effort the run reports, whatever the trace says
            # (a trace stamped at 0 s and 1 evaluation once ranked a 2.2 s run first)
            evals, times = evals.copy(), times.copy()
            times[-1] = max(times[-1], float(r["time_s"]))
            evals[-1] = max(evals[-1], float(total_e or 0))
        run = RunTrace(r["label"], evals, best, times,
                       float(max(total_e or 0, evals[-1] if evals.size else 0, 1)),
                       max(float(r["time_s"]), float(times[-1]) if times.size else 0.0),
                       budget_block(r["budget"]))
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


def budgets_of(runs: list[RunTrace], *, seconds: bool = False) -> np.ndarray:
    """60 log-spaced budgets up to the largest run's whole effort, in evaluations or seconds
    (from the earliest trace point, at least 10 µs)."""
    if not seconds:
        hi = max(max(r.total_evals, 1.0) for r in runs)
        return np.unique(np.geomspace(1, hi, 60))
    lo = max(min((float(r.times[0]) for r in runs if r.times.size), default=1e-5), 1e-5)
    return np.unique(np.geomspace(lo, max(max(r.total_time for r in runs), 2 * lo), 60))


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


SCORE = "anytime score (ECDF area, evaluations)"
SCORE_S = "anytime score (ECDF area, seconds)"


def anytime_scores(runs: list[RunTrace], targets: list[int]) -> pd.DataFrame:
    """Per configuration: the ECDF area (anytime score) on the evaluations axis — the rank is
    on it — and on the seconds axis with its own rank, and the share of (run, target) pairs
    ever hit."""
    budgets, seconds = budgets_of(runs), budgets_of(runs, seconds=True)
    rows = []
    for config in sorted({r.config for r in runs}, key=label_order):
        mine = [r for r in runs if r.config == config]
        curve = ecdf(mine, targets, budgets)
        rows.append({"solver": config, "runs": len(mine),
                     SCORE: round(auc(curve, budgets), 4),
                     SCORE_S: round(auc(ecdf(mine, targets, seconds, seconds=True), seconds), 4),
                     "pairs hit": round(float(curve[-1]), 4),
                     "solved": sum(bool(r.best.size) and r.best[-1] == 0 for r in mine)})
    table = pd.DataFrame(rows).sort_values(SCORE, ascending=False, kind="stable")
    table.insert(0, "rank (evaluations)", range(1, len(table) + 1))
    table.insert(1, "rank (seconds)", table[SCORE_S].rank(ascending=False, method="min").astype(int))
    return table.reset_index(drop=True)
