"""The store: one SQLite file in WAL mode, one transaction per finished run.

Each run is one row keyed by its run key (study, instance, solver, parameters, seed, repeat),
so a study that is started again skips what is stored and repeats nothing. The full record is
kept as JSON beside a few indexed columns; ``load`` returns the records as the one DataFrame
shape of ``harness.frame``. Exports: CSV and Parquet.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path

import pandas as pd

from puzzlebench.harness.frame import records_to_frame
from puzzlebench.harness.outcome import RunRecord, _json_default
from puzzlebench.problems.base import PuzzlebenchError

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    key        TEXT PRIMARY KEY,
    study      TEXT NOT NULL,
    problem    TEXT NOT NULL,
    size       INTEGER NOT NULL,
    solver     TEXT NOT NULL,
    outcome    TEXT NOT NULL,
    time_s     REAL NOT NULL,
    record     TEXT NOT NULL,
    stored_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX IF NOT EXISTS runs_study ON runs (study);
"""


class StoreError(PuzzlebenchError, ValueError):
    """A store file that cannot be opened or is not a puzzlebench store."""


class Store:
    """A study database; safe to open from several processes (WAL, busy timeout)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot use {str(self.path)!r} as a store: {exc}") from None

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add(self, key: str, record: RunRecord) -> bool:
        """Store one finished run in its own transaction; False if the key was stored already."""
        text = json.dumps(record.to_dict(), sort_keys=True, default=_json_default)
        cur = self.conn.execute(
            "INSERT OR IGNORE INTO runs (key, study, problem, size, solver, outcome, time_s, record)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (key, record.study, record.problem, record.size, record.solver,
             record.outcome.value, record.time_s, text),
        )
        return cur.rowcount == 1

    def keys(self, study: str | None = None) -> set[str]:
        """Run keys already stored (for one study, if given)."""
        if study is None:
            rows = self.conn.execute("SELECT key FROM runs")
        else:
            rows = self.conn.execute("SELECT key FROM runs WHERE study = ?", (study,))
        return {r[0] for r in rows}

    def records(self, study: str | None = None) -> Iterator[RunRecord]:
        """Stored records in insertion order."""
        query = "SELECT record FROM runs" + (" WHERE study = ?" if study else "") + " ORDER BY rowid"
        for (text,) in self.conn.execute(query, (study,) if study else ()):
            yield RunRecord.from_dict(json.loads(text))

    def records_for(self, keys: Iterable[str]) -> list[RunRecord]:
        """The stored records of the given run keys (those stored), in key order given."""
        out = []
        for key in keys:
            row = self.conn.execute("SELECT record FROM runs WHERE key = ?", (key,)).fetchone()
            if row is not None:
                out.append(RunRecord.from_dict(json.loads(row[0])))
        return out

    def count(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0])


def load(db: str | Path, study: str | None = None) -> pd.DataFrame:
    """The stored runs as a pandas DataFrame (one row per run; see harness.frame)."""
    path = Path(db)
    if not path.exists():
        raise StoreError(f"store {str(path)!r} does not exist")
    with Store(path) as store:
        return records_to_frame(store.records(study))


EXPORT_DROP = ("params", "counters", "budget", "instance", "versions", "machine")


def export_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A flat frame for CSV/Parquet: nested dicts as JSON text, answers as JSON text."""
    out = frame.copy()
    for col in (*EXPORT_DROP, "answer"):
        if col in out.columns:
            out[col] = [json.dumps(v, sort_keys=True, default=_json_default) for v in out[col]]
    return out


def export(db: str | Path, fmt: str, out: str | Path | None) -> str | None:
    """Write the store as CSV or Parquet; CSV goes to the returned text when ``out`` is None."""
    if fmt not in ("csv", "parquet"):
        raise StoreError(f"export format must be csv or parquet, got {fmt!r}")
    frame = export_frame(load(db))
    if fmt == "csv":
        if out is None:
            return str(frame.to_csv(index=False))
        frame.to_csv(out, index=False)
        return None
    if out is None:
        raise StoreError("parquet export needs --out FILE")
    frame.to_parquet(out, index=False)
    return None

