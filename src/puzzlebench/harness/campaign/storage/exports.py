"""Exports of a store (CSV, Parquet), and the harness's one way to write a CSV file: every
cell through ``record.inert_table``, so a cell a spreadsheet would read as a formula
(``=HYPERLINK(…)`` in a solver's name, a counter's name or a crash reason) stays text (OWASP's
CSV injection); numbers stay numbers.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from puzzlebench.harness.campaign.storage.store import StoreError, load, load_traces
from puzzlebench.records.record import inert_table, json_default


def write_csv(frame: pd.DataFrame, out: str | Path | None = None) -> str | None:
    """Write ``frame`` as CSV (no index), neutralised; the text when ``out`` is None."""
    safe = inert_table(frame)
    if out is None:
        return str(safe.to_csv(index=False))
    safe.to_csv(out, index=False)
    return None


EXPORT_DROP = ("params", "counters", "budget", "instance", "versions", "machine")


def export_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A flat frame for CSV/Parquet: nested dicts as JSON text, answers as JSON text."""
    out = frame.copy()
    for col in (*EXPORT_DROP, "answer"):
        if col in out.columns:
            out[col] = [json.dumps(v, sort_keys=True, default=json_default) for v in out[col]]
    return out


def export_traces(db: str | Path, fmt: str, out: str | Path | None,
                  study: str | None = None) -> str | None:
    """Write the traces table (``store.load_traces``) as CSV or Parquet."""
    return _write_frame(load_traces(db, study), fmt, out)


def export(db: str | Path, fmt: str, out: str | Path | None) -> str | None:
    """Write the store as CSV or Parquet; CSV goes to the returned text when ``out`` is None.
    The runs are judged against each other first (``harness.judging.cross_run``), exactly as a
    report judges them: one verdict for one run, whichever command shows it."""
    return _write_frame(export_frame(load(db)), fmt, out)


def _write_frame(frame: pd.DataFrame, fmt: str, out: str | Path | None) -> str | None:
    if fmt not in ("csv", "parquet"):
        raise StoreError(f"export format must be csv, parquet or ioh, got {fmt!r}")
    if fmt == "csv":
        return write_csv(frame, out)
    if out is None:
        raise StoreError("parquet export needs --out FILE")
    frame.attrs = {}  # what reading the store found is said by a report, not kept in a file
    frame.to_parquet(out, index=False)
    return None
