"""How commands print: JSON objects for scripts, compact lines and rich tables for people."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

from puzzlebench.records.record import RunRecord, json_default

JSON_KEYS: tuple[str, ...] = (
    "problem", "size", "instance_id", "solver", "params", "seed", "outcome", "claim", "answer",
    "valid", "verified", "verified_by", "certificate", "certify_s", "reason", "counters",
    "time_s", "cpu_s", "warmup_s", "startup_s",
    "peak_rss_mb", "optimum", "answer_length", "isolated", "notes", "error",
    "span_s", "timed_by", "measured_by", "clock_resolution_s", "min_time", "repeats",
    "time_min_s", "repeats_agree", "core", "sandbox", "stopped_by",
)


def emit_json(obj: Any) -> None:
    """One JSON object on one line — always valid JSON (non-finite numbers become null)."""
    try:
        text = json.dumps(obj, default=_default, allow_nan=False)
    except ValueError:
        text = json.dumps(_finite(obj), default=_default, allow_nan=False)
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _finite(obj: Any) -> Any:
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_finite(v) for v in obj]
    return obj


def record_json(record: RunRecord) -> dict[str, Any]:
    """The design's --json shape for a run (at least problem, size, solver, params, seed,
    outcome, answer, valid, counters, time_s)."""
    d = record.to_dict()
    return {k: d[k] for k in JSON_KEYS}


def time_text(record: RunRecord) -> str:
    """The run's time at the precision it was measured: microseconds, and the repeats."""
    if record.figures.repeats > 1:
        return (f"{record.figures.time_s:.6f}s (median of {record.figures.repeats} repeats, "
                f"fastest {record.figures.time_min_s:.6f}s)")
    return f"{record.figures.time_s:.6f}s"


def measurement_text(record: RunRecord) -> str:
    """What measured the run: the clock, CPU/memory source, pinning, the harness's span."""
    parts = [f"time by {record.figures.timed_by or 'harness'} stamps "
             f"(harness span {record.figures.span_s:.6f}s)",
             f"cpu {record.figures.cpu_s:.6f}s and peak memory {record.figures.peak_rss_mb:.1f} MB by "
             f"{record.figures.measured_by or 'unknown'}"]
    if record.figures.core is not None:
        parts.append(f"pinned to core {record.figures.core}")
    # the run's priority (machine.nice in --json) is the harness's business: it keeps the
    # run ahead of the harness's own work, and says nothing about the figures
    if record.provenance.isolated:
        parts.append("sealed in namespaces of its own" if record.provenance.sandbox == "namespaces"
                     else "not sealed (sandbox: none)")
    return "; ".join(parts)


def counters_text(counters: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in counters.items())


def print_runs(records: list[RunRecord], title: str = "", *, wide: bool = False) -> None:
    """Solver, size, outcome, time, counters and note (a failure's first reason), one row per
    run, fitted to the terminal (``cli.tables``), with the legend of its outcomes."""
    # imported on use: the fitting module and the legend
    from puzzlebench.cli.legend import legend
    from puzzlebench.cli.tables import Column, show

    rows = []
    for r in records:
        v = r.verdict
        outcome = v.outcome.value + (" (unverified)" if v.outcome.success and v.verified is False
                                     else f" ({v.verified_by})" if v.outcome.success else "")
        rows.append([r.key.solver, str(r.key.size), outcome, f"{r.figures.time_s:.4f}",
                     counters_text(r.figures.counters), (v.reason or v.error)[:80]])
    show([Column("solver", key=True), Column("size", right=True), Column("outcome"),
          Column("time (s)", right=True), Column("counters"), Column("note")], rows,
         title=title or None, wide=wide, legend=legend(row[2] for row in rows))


def _default(obj: Any) -> Any:
    """Printing is lenient where storing is strict: what records cannot hold prints as text."""
    try:
        return json_default(obj)
    except TypeError:
        return str(obj)
