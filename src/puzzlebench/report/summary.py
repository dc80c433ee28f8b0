"""Summary tables: per problem, solver and parameter set — outcomes, time and effort."""

from __future__ import annotations

import numpy as np
import pandas as pd

OUTCOMES = ("solved", "infeasible", "wrong", "budget", "timeout", "memout", "crash")


def counter_columns(frame: pd.DataFrame) -> list[str]:
    """Numeric native counters present in the frame, sorted."""
    cols = []
    for col in sorted(c for c in frame.columns if c.startswith("counter.")):
        if pd.api.types.is_numeric_dtype(frame[col]):
            cols.append(col)
    return cols


def label(solver: str, params_key: str) -> str:
    """A solver's display name with its parameters (none when default-free)."""
    return solver if params_key in ("{}", "") else f"{solver} {params_key}"


def with_labels(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    out["label"] = [label(s, p) for s, p in zip(out["solver"], out["params_key"], strict=True)]
    return out


def _iqr(values: pd.Series) -> str:
    v = values.dropna().astype(float)
    if v.empty:
        return ""
    q1, med, q3 = np.percentile(v, [25, 50, 75])
    return f"{med:.4g} [{q1:.4g}, {q3:.4g}]"


def summary_table(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per (problem, label): runs, success % (verified successes only), unverified
    successes apart, outcome counts, median [IQR] of wall time and each counter over all runs."""
    frame = with_labels(frame)
    rows = []
    for (problem, lab), group in sorted(frame.groupby(["problem", "label"]), key=lambda kv: kv[0]):
        row: dict[str, object] = {"problem": problem, "solver": lab, "runs": len(group)}
        counts = group["outcome"].value_counts()
        row["success %"] = round(100.0 * int(group["success"].sum()) / len(group), 1)
        row["unverified"] = int(group["unverified"].sum())
        for outcome in OUTCOMES:
            row[outcome] = int(counts.get(outcome, 0))
        row["time s median [IQR]"] = _iqr(group["time_s"])
        for col in counter_columns(group):
            if group[col].notna().any():
                row[col.removeprefix("counter.") + " median [IQR]"] = _iqr(group[col])
        rows.append(row)
    return pd.DataFrame(rows)


def wrong_runs(frame: pd.DataFrame) -> pd.DataFrame:
    """Every run judged wrong or crashed, with its reason."""
    bad = frame[frame["outcome"].isin(["wrong", "crash", "memout", "timeout"])]
    cols = ["problem", "instance_id", "solver", "seed", "outcome", "reason", "error"]
    return bad[cols].sort_values(["problem", "instance_id", "solver", "seed"]).reset_index(drop=True)
