"""Exports of a store, and the one way every CSV the suite writes is made (exports, report
tables): cells a spreadsheet would read as a formula are neutralised (OWASP's CSV injection).

A text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return (after any
spaces) gets a leading ``'``, so ``=HYPERLINK(…)`` in a solver's name, a counter's name or a
crash reason stays text in a spreadsheet; numbers stay numbers (a numeric column is never
touched, and a text cell that is a plain number, such as ``-0.5``, or a lone ``-`` is no
formula).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pandas as pd

from puzzlebench.record import json_default

#: What makes a spreadsheet read a cell as a formula (OWASP, CSV injection).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")


def inert_cell(value: Any) -> Any:
    """``value``, with a leading ``'`` if it is text a spreadsheet would run as a formula."""
    if not isinstance(value, str) or value == "-" or _NUMBER.fullmatch(value.strip()):
        return value
    if value.lstrip(" ").startswith(FORMULA_START):
        return "'" + value
    return value


def inert_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells and column names are neutralised."""
    out = frame.copy()
    for col in out.columns:
        if not pd.api.types.is_numeric_dtype(out[col]) and not pd.api.types.is_bool_dtype(out[col]):
            out[col] = out[col].map(inert_cell)
    out.columns = [inert_cell(c) for c in out.columns]
    return out


def write_csv(frame: pd.DataFrame, out: str | Path | None = None) -> str | None:
    """Write ``frame`` as CSV (no index), neutralised; the text when ``out`` is None."""
    safe = inert_frame(frame)
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
    from puzzlebench.harness.campaign.store import load_traces  # the store imports this module

    return _write_frame(load_traces(db, study), fmt, out)


def export(db: str | Path, fmt: str, out: str | Path | None) -> str | None:
    """Write the store as CSV or Parquet; CSV goes to the returned text when ``out`` is None.
    The runs are judged against each other first (``harness.judging.cross_run``), exactly as a
    report judges them: one verdict for one run, whichever command shows it."""
    from puzzlebench.harness.campaign.store import load  # the store imports this module

    return _write_frame(export_frame(load(db)), fmt, out)


def _write_frame(frame: pd.DataFrame, fmt: str, out: str | Path | None) -> str | None:
    from puzzlebench.harness.campaign.store import StoreError

    if fmt not in ("csv", "parquet"):
        raise StoreError(f"export format must be csv, parquet or ioh, got {fmt!r}")
    if fmt == "csv":
        return write_csv(frame, out)
    if out is None:
        raise StoreError("parquet export needs --out FILE")
    frame.to_parquet(out, index=False)
    return None
