"""Summary tables: per problem, solver and parameter set — outcomes, time and effort."""

from __future__ import annotations

import numpy as np
import pandas as pd

from puzzlebench.records.record import FAILURE_VALUES, NOISE_FLOOR_S, RUNGS, Outcome
from puzzlebench.report.series_styles import SeriesStyles, label_order
from puzzlebench.report.statistics.agreement_matrix import natural_key
from puzzlebench.report.statistics.bootstrap import median_ci

OUTCOMES = tuple(o.value for o in Outcome)


def counter_columns(frame: pd.DataFrame) -> list[str]:
    """Numeric native counters present in the frame, sorted."""
    cols = []
    for col in sorted(c for c in frame.columns if c.startswith("counter.")):
        if pd.api.types.is_numeric_dtype(frame[col]):
            cols.append(col)
    return cols


def with_labels(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with the report's short ``label`` per configuration (kept when already there,
    so every table and figure of a report uses the labels computed once over all its runs)."""
    if "label" in frame:
        return frame
    return SeriesStyles.from_frame(frame).with_labels(frame)


def by_label(frame: pd.DataFrame) -> list[tuple[tuple[str, str], pd.DataFrame]]:
    """The frame's (problem, label) groups in report order (labels by ``label_order``)."""
    return sorted(frame.groupby(["problem", "label"]),
                  key=lambda kv: (kv[0][0], label_order(kv[0][1])))


def _iqr(values: pd.Series) -> str:
    v = values.dropna().astype(float)
    if v.empty:
        return ""
    q1, med, q3 = np.percentile(v, [25, 50, 75])
    return f"{med:.4g} [{q1:.4g}, {q3:.4g}]"


def below_floor(frame: pd.DataFrame) -> pd.Series:
    """Runs whose time is below the noise floor and was taken once (not repeated to a
    minimum time, or repeated but given its first solve's time because the repeats were
    measurably cheaper: ``harness.run.measure``): such a time says little on a shared
    machine."""
    repeats = frame["repeats"] if "repeats" in frame else pd.Series(1, index=frame.index)
    notes = frame["notes"] if "notes" in frame else pd.Series("", index=frame.index)
    first_solve = notes.fillna("").astype(str).str.contains("the first solve took", regex=False)
    return (frame["time_s"] < NOISE_FLOOR_S) & ((repeats.fillna(1) <= 1) | first_solve)


def rung_counts(group: pd.DataFrame) -> str:
    """How a group's verified successes were verified, strongest rung first (``record.RUNGS``):
    e.g. ``validator 40 · certificate 5``; empty where nothing was verified or the frame holds
    no ``verified_by`` (records made before the ladder)."""
    if "verified_by" not in group:
        return ""
    rungs = group.loc[group["success"], "verified_by"].value_counts()
    return " · ".join(f"{r} {int(rungs[r])}" for r in RUNGS if r in rungs)


def summary_table(frame: pd.DataFrame, *, seed: int = 0) -> pd.DataFrame:
    """One row per (problem, label), at most 12 columns: runs, success % (verified successes
    only), unverified successes apart, the rungs that verified the successes (``verified
    by``), the outcomes that occurred (``solved 28 · timeout 2``), median [IQR] of time and CPU
    time, a bootstrap 95% CI of the median time (``seed`` seeds its generator) and the runs
    below the noise floor. A median time marked † lies below the noise floor of single-shot
    runs (``NOISE_FLOOR_S``). The native counters are in ``counter_table``."""
    rng = np.random.default_rng(seed)
    frame = with_labels(frame)
    rows = []
    for (problem, lab), group in by_label(frame):
        row: dict[str, object] = {"problem": problem, "solver": lab, "runs": len(group)}
        counts = group["outcome"].value_counts()
        row["success %"] = round(100.0 * int(group["success"].sum()) / len(group), 1)
        row["unverified"] = int(group["unverified"].sum())
        row["verified by"] = rung_counts(group)
        row["outcomes"] = " · ".join(f"{o} {int(counts[o])}" for o in OUTCOMES if o in counts)
        low = below_floor(group)
        row["time s median [IQR]"] = _iqr(group["time_s"]) + (
            " †" if low.any() and group["time_s"].median() < NOISE_FLOOR_S else "")
        lo, hi = median_ci(group["time_s"].to_numpy(float), rng)
        row["time s median 95% CI"] = f"[{lo:.4g}, {hi:.4g}]"
        row["below floor"] = int(low.sum())
        if "cpu_s" in group:
            row["cpu s median [IQR]"] = _iqr(group["cpu_s"])
        rows.append(row)
    return pd.DataFrame(rows)


def counter_table(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per (problem, label): median [IQR] of each native counter the label's runs
    report (the details beside ``summary_table``; as wide as the solvers' counters)."""
    frame = with_labels(frame)
    rows = []
    for (problem, lab), group in by_label(frame):
        row: dict[str, object] = {"problem": problem, "solver": lab}
        for col in counter_columns(group):
            if group[col].notna().any():
                row[col.removeprefix("counter.") + " median [IQR]"] = _iqr(group[col])
        rows.append(row)
    return pd.DataFrame(rows)


def wrong_runs(frame: pd.DataFrame) -> pd.DataFrame:
    """Every run judged wrong or crashed, with its reason."""
    bad = frame[frame["outcome"].isin(FAILURE_VALUES)]
    cols = ["problem", "instance_id", "solver", "seed", "outcome", "reason", "error"]
    return bad[cols].sort_values(["problem", "instance_id", "solver", "seed"],
                                 key=_natural_column).reset_index(drop=True)


def _natural_column(column: pd.Series) -> pd.Series:
    """Instances in natural order (``nqueens-8`` before ``nqueens-10``); other columns as
    they are."""
    if column.name != "instance_id":
        return column
    return column.map(lambda text: tuple(natural_key(str(text))))


def run_span(frame: pd.DataFrame) -> str:
    """When and where the runs were made: first and last record time stamps (UTC), the span
    between them (the study's wall time when it ran in one go; it includes any pause between
    resumed invocations), the machine, and the sum of the timed phases."""
    stamps = pd.to_datetime(frame["timestamp"].replace("", None), utc=True, errors="coerce")
    stamps = stamps.dropna()
    if stamps.empty:
        return f"{len(frame)} runs; no time stamps recorded."
    span = (stamps.max() - stamps.min()).total_seconds()
    machines = sorted({f"{m.get('cpu', '?')}, {m.get('cores', '?')} cores"
                       for m in frame["machine"] if isinstance(m, dict) and m})
    return (f"{len(frame)} runs made between {stamps.min():%Y-%m-%d %H:%M:%S} and "
            f"{stamps.max():%Y-%m-%d %H:%M:%S} UTC ({span / 60:.1f} min from the first record to the "
            f"last) on {'; '.join(machines) or 'an unrecorded machine'}; the timed phases sum "
            f"to {frame['time_s'].sum():.1f} s.")
