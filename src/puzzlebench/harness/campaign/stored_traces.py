"""Stored anytime traces as one table (``load_traces``), beside the runs they belong to; a
run whose row fails its check (``seals``) brings no trace."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pandas as pd

TRACE_KEY_COLUMNS = ("study", "problem", "size", "instance_id", "solver", "params", "seed", "repeat")


def load_traces(db: str | Path, study: str | None = None, *,
                rejudged: bool = True) -> pd.DataFrame:
    """Every stored trace point (read-only): the run's identifying columns (``key``, study,
    problem, size, instance_id, solver, params as JSON text, seed, repeat, the code fingerprint,
    budget as JSON text, hard and memory limits — everything in the run key — and outcome, as
    the runs judged against each other say unless ``rejudged=False``), its whole
    effort (``run_evaluations`` — the solver's ``evaluations`` counter, empty when it has none —
    and ``run_time_s``) beside ``evaluations``, ``time_s`` and ``best``; one row per
    improvement, in order."""
    columns = ["key", *TRACE_KEY_COLUMNS, "fingerprint", "budget", "hard_limit", "memory_limit_mb",
               "outcome", "run_evaluations", "run_time_s", "point", "evaluations", "time_s", "best"]
    # imported on use: the store imports this module for its callers
    from puzzlebench.harness.campaign.store import Store, StoreError, _rejudged

    with Store(db, read_only=True) as store:
        try:
            rows = store.conn.execute(
                "SELECT t.key, r.record, t.point, t.evaluations, t.time_s, t.best FROM traces t "
                "JOIN runs r ON r.key = t.key" + (" WHERE r.study = ?" if study else "")
                + " ORDER BY r.rowid, t.point", (study,) if study else ()).fetchall()
        except sqlite3.OperationalError:  # a store made before traces existed
            rows = []
        except sqlite3.DatabaseError as exc:
            store._abandon()
            raise StoreError(f"cannot read {str(db)!r}: {exc}") from None
        keyed = store.keyed_records(study) if rows else []  # rows that fail their seal: out
    admitted = {key for key, _ in keyed}
    verdict = {key: r.outcome.value for (key, _), r in
               zip(keyed, _rejudged([r for _, r in keyed]), strict=True)} if rejudged else {}
    out = []
    records: dict[str, dict] = {}
    for key, text, point, evaluations, time_s, best in rows:
        if key not in admitted:
            continue
        if key not in records:
            records[key] = json.loads(text)
        rec = records[key]
        out.append([key, rec.get("study", ""), rec["problem"], rec["size"], rec["instance_id"],
                    rec["solver"], json.dumps(rec.get("params", {}), sort_keys=True), rec["seed"],
                    rec.get("repeat", 0), rec.get("fingerprint", ""),
                    json.dumps(rec.get("budget", {}), sort_keys=True), rec.get("hard_limit"),
                    rec.get("memory_limit_mb"), verdict.get(key, rec["outcome"]),
                    (rec.get("counters") or {}).get("evaluations"),
                    rec["time_s"], point, evaluations, time_s, best])
    return pd.DataFrame(out, columns=columns)
