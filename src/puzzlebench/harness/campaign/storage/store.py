"""The store: one SQLite file, in WAL mode while it is written, one transaction per finished run.

Each run is one row keyed by its run key (study, instance, solver, parameters, seed, repeat),
so a study that is started again skips what is stored and repeats nothing. The full record is
kept as JSON beside a few indexed columns; ``load`` returns the records as the one DataFrame
shape of ``harness.campaign.records_frame``. Exports: CSV and Parquet.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path

import pandas as pd

from puzzlebench.harness.campaign.storage.records_frame import records_to_frame
from puzzlebench.harness.campaign.storage.seals import (
    CheckedRecords,
    StoreCheck,
    checked_rows,
    row_digest,
    seal_from_now,
)
from puzzlebench.harness.campaign.storage.store_modes import leave_after_writing, open_to_read
from puzzlebench.harness.judging.pipeline import judge_stored_runs
from puzzlebench.problems.base import PuzzlebenchError
from puzzlebench.records.record import RunRecord, json_default

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
    stored_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    digest     TEXT
);
CREATE INDEX IF NOT EXISTS runs_study ON runs (study);
CREATE TABLE IF NOT EXISTS traces (
    key          TEXT NOT NULL REFERENCES runs (key),
    point        INTEGER NOT NULL,
    evaluations  INTEGER NOT NULL,
    time_s       REAL NOT NULL,
    best         INTEGER NOT NULL,
    PRIMARY KEY (key, point)
);
CREATE TABLE IF NOT EXISTS facts (
    name       TEXT PRIMARY KEY,
    value      TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS claim_revisions (
    study       TEXT NOT NULL,
    revision    INTEGER NOT NULL,
    claims      TEXT NOT NULL,
    sha256      TEXT NOT NULL,
    stated_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    runs_before INTEGER,
    PRIMARY KEY (study, revision)
);
CREATE TABLE IF NOT EXISTS studies (
    study      TEXT PRIMARY KEY,
    definition TEXT NOT NULL,
    stored_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
"""
#: Bumped when the stored shape changes; older puzzlebench stores are migrated on open for
#: writing (their runs stay readable; their keys predate the full run key, so a resumed study
#: makes its runs anew), anything else is refused.
SCHEMA_VERSION = 6  # 3: the traces table (anytime traces, one row per improvement);
#                     4: the studies table (a study's description and claims, for its report);
#                     5: each run's digest (``seals``) and the facts table (where sealing began);
#                     6: claim_revisions (each set of claims as stated, ``claim_revisions``)
RUN_COLUMNS = {"key", "study", "problem", "size", "solver", "outcome", "time_s", "record",
               "stored_at"}
SEALED_RUN_COLUMNS = RUN_COLUMNS | {"digest"}


class StoreError(PuzzlebenchError, ValueError):
    """A store file that cannot be opened or is not a puzzlebench store."""


class Store:
    """A study database; safe to open from several processes (WAL, busy timeout).

    ``read_only`` opens an existing store without writing anything (export, report, load):
    read-only shared files work, and nothing is created. A file that is not a puzzlebench
    store (another application's database, an empty file, a folder) is refused, never altered.
    """

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = Path(path)
        self.check = StoreCheck()  # what the last read found of refused and unsealed rows
        self.read_only = read_only
        where = str(self.path)
        if self.path.is_dir():
            raise StoreError(f"{where!r} is a folder, not a store file")
        if read_only and not self.path.exists():
            raise StoreError(f"store {where!r} does not exist")
        if self.path.exists() and self.path.stat().st_size == 0:
            raise StoreError(f"{where!r} is an empty file, not a puzzlebench store")
        if not self.path.exists() and not self.path.parent.is_dir():
            raise StoreError(f"folder {str(self.path.parent)!r} does not exist")
        side = [Path(f"{self.path}{suffix}") for suffix in ("-wal", "-shm", "-journal")]
        self._absent = [p for p in side if not p.exists()]  # side files this Store may make
        try:
            if read_only:
                self.conn = open_to_read(self.path)
                self._check_schema(migrate=False)
            else:
                fresh = not self.path.exists()
                self.conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
                if not fresh:
                    self._check_schema(migrate=False)
                    self._check_intact()  # nothing is written into a damaged file
                    self._check_schema(migrate=True)
                self.conn.execute("PRAGMA journal_mode=WAL")
                self.conn.execute("PRAGMA synchronous=NORMAL")
                self.conn.executescript(SCHEMA)
                seal_from_now(self.conn)
                self.conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except (sqlite3.DatabaseError, StoreError) as exc:
            self._abandon()
            if isinstance(exc, StoreError):
                raise
            raise StoreError(f"cannot use {where!r} as a store: {exc}") from None

    def _abandon(self) -> None:
        """Close a file found unusable and remove the side files opening it made (an empty
        write-ahead log and its index), so that a refused file is left exactly as it was."""
        with contextlib.suppress(AttributeError, sqlite3.Error):
            self.conn.close()
        wal = Path(f"{self.path}-wal")
        if wal in self._absent and wal.exists() and wal.stat().st_size > 0:
            return  # something was written since: not this Store's to remove
        for p in self._absent:
            with contextlib.suppress(OSError):
                p.unlink()

    def _check_intact(self) -> None:
        """Refuse a damaged file (SQLite's quick check: pages, records, free list) before
        anything is written into it."""
        problems = [row[0] for row in self.conn.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            raise StoreError(f"{str(self.path)!r} is a damaged SQLite file "
                             f"({'; '.join(problems)[:200]}); refusing to use it")

    def _check_schema(self, *, migrate: bool) -> None:
        version = int(self.conn.execute("PRAGMA user_version").fetchone()[0])
        columns = {row[1] for row in self.conn.execute("PRAGMA table_info(runs)")}
        if columns not in (RUN_COLUMNS, SEALED_RUN_COLUMNS) or version > SCHEMA_VERSION:
            self.conn.close()
            what = ("made by a newer puzzlebench" if columns in (RUN_COLUMNS, SEALED_RUN_COLUMNS)
                    else "not a puzzlebench store")
            raise StoreError(f"{str(self.path)!r} is {what}; refusing to use it")
        if version < SCHEMA_VERSION and migrate:
            self.conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def close(self) -> None:
        if not self.read_only:  # a reader then creates nothing beside the file
            leave_after_writing(self.conn)
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add(self, key: str, record: RunRecord) -> bool:
        """Store one finished run — its record and its trace — in one transaction; False if
        the key was stored already."""
        text = json.dumps(record.to_dict(), sort_keys=True, default=json_default, allow_nan=False)
        columns = (key, record.key.study, record.key.problem, record.key.size, record.key.solver,
                   record.verdict.outcome.value, record.figures.time_s, text)
        with self.reading():
            self.conn.execute("BEGIN IMMEDIATE")
        try:
            cur = self.conn.execute(
                "INSERT OR IGNORE INTO runs (key, study, problem, size, solver, outcome, time_s, "
                "record, digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*columns, row_digest(*columns)))
            added = cur.rowcount == 1
            if added and record.figures.trace:
                self.conn.executemany(
                    "INSERT INTO traces (key, point, evaluations, time_s, best) VALUES (?, ?, ?, ?, ?)",
                    [(key, i, int(e), float(t), int(b)) for i, (e, b, t) in enumerate(record.figures.trace)])
            self.conn.execute("COMMIT")
        except BaseException as exc:
            with contextlib.suppress(sqlite3.Error):
                self.conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.DatabaseError):
                raise StoreError(f"cannot write to {str(self.path)!r}: {exc}") from None
            raise
        return added

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Turn SQLite's complaint about a damaged file into a StoreError naming it."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            self._abandon()
            raise StoreError(f"cannot read {str(self.path)!r}: {exc}") from None

    def keys(self, study: str | None = None) -> set[str]:
        """Run keys already stored (for one study, if given)."""
        with self.reading():
            if study is None:
                rows = self.conn.execute("SELECT key FROM runs")
            else:
                rows = self.conn.execute("SELECT key FROM runs WHERE study = ?", (study,))
            return {r[0] for r in rows}

    def records(self, study: str | None = None) -> Iterator[RunRecord]:
        """Stored records in insertion order (rows that fail their check left out, ``check``)."""
        for _, record in self.keyed_records(study):
            yield record

    def keyed_records(self, study: str | None = None) -> list[tuple[str, RunRecord]]:
        """(run key, record) of every stored run (of one study, if given), in insertion order;
        each row checked against its seal and re-judged (``seals``): the refused are left out
        and named in ``self.check``."""
        return self._checked(" WHERE study = ?" if study else "", (study,) if study else ())

    def records_for(self, keys: Iterable[str]) -> list[RunRecord]:
        """The stored records of the given run keys (those stored and admitted by their check,
        ``self.check``), in key order given."""
        wanted = list(keys)
        found = dict(self._checked(" WHERE key IN (SELECT value FROM json_each(?))",
                                   (json.dumps(wanted),)))
        return [found[k] for k in wanted if k in found]

    def _checked(self, where: str, params: tuple[object, ...]) -> list[tuple[str, RunRecord]]:
        """The rows ``where`` selects, each admitted or refused by ``seals.checked_rows``."""
        with self.reading():
            out, self.check = checked_rows(self.conn, where, params)
        return out

    def drop_false_crashes(self, study: str, error_prefix: str) -> int:
        """Delete the runs of ``study`` stored as crashes whose error starts with
        ``error_prefix`` — machine faults an earlier puzzlebench stored as the solver's
        outcome — so that resuming runs them again; how many were deleted."""
        with self.reading():
            rows = self.conn.execute(
                "SELECT key, record FROM runs WHERE study = ? AND outcome = 'crash'",
                (study,)).fetchall()
            keys = [k for k, text in rows
                    if str(json.loads(text).get("error", "")).startswith(error_prefix)]
            if keys:
                self.conn.execute("BEGIN IMMEDIATE")
                for key in keys:
                    self.conn.execute("DELETE FROM traces WHERE key = ?", (key,))
                    self.conn.execute("DELETE FROM runs WHERE key = ?", (key,))
                self.conn.execute("COMMIT")
        return len(keys)

    def save_study(self, study: str, definition: dict[str, object]) -> None:
        """Keep what a study's report needs beyond its runs (its description and its claims),
        replacing what an earlier run of the same study stored."""
        text = json.dumps(definition, sort_keys=True)
        with self.reading():
            self.conn.execute("INSERT OR REPLACE INTO studies (study, definition) VALUES (?, ?)",
                              (study, text))
            self.conn.commit()

    def definitions(self, prefix: str = "") -> dict[str, dict[str, object]]:
        """What ``save_study`` kept, by study, for studies whose name starts with ``prefix``."""
        with self.reading():
            rows = self.conn.execute("SELECT study, definition FROM studies").fetchall()
        return {name: dict(json.loads(text)) for name, text in rows if name.startswith(prefix)}

    def count(self) -> int:
        with self.reading():
            return int(self.conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0])


def load_records(db: str | Path, study: str | None = None, *, keys: Iterable[str] | None = None,
                 exact_solvers: Iterable[str] = (), complete_solvers: Iterable[str] = (),
                 rejudged: bool = True) -> list[RunRecord]:
    """The stored runs (read-only) — of one study, or exactly those with the given run keys (a
    study's current definition, not runs made earlier under other conditions) — judged against
    each other (``harness.judging.cross_run``; exact and complete solvers: the registered ones and those
    named in ``exact_solvers``/``complete_solvers``)
    unless ``rejudged=False`` asks for them exactly as stored."""
    with Store(db, read_only=True) as store:
        records = store.records_for(keys) if keys is not None else list(store.records(study))
        check = store.check
    out = CheckedRecords(records if not rejudged
                         else _rejudged(records, exact_solvers, complete_solvers))
    out.check = check  # what a report says of refused and unsealed rows
    return out


def _rejudged(records: list[RunRecord], exact_solvers: Iterable[str] = (),
              complete_solvers: Iterable[str] = ()) -> list[RunRecord]:
    """``records`` judged against each other, with the registered solvers' capabilities."""
    # imported on use: only re-judging needs the solvers' capabilities (start-up time)
    from puzzlebench.solvers.registry import REGISTRY

    specs = REGISTRY.all()
    exact = {s.name for s in specs if s.exact} | set(exact_solvers)
    complete = {s.name for s in specs if s.complete} | set(complete_solvers)
    return judge_stored_runs(records, exact_solvers=exact, complete_solvers=complete)


def load(db: str | Path, study: str | None = None, *, rejudged: bool = True) -> pd.DataFrame:
    """The stored runs as a pandas DataFrame (one row per run; see harness.campaign.records_frame)."""
    return records_to_frame(load_records(db, study, rejudged=rejudged))


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
    verdict = {key: r.verdict.outcome.value for (key, _), r in
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


def study_definition(db: str | Path, study: str) -> dict[str, object]:
    """What ``run`` kept of a study beyond its runs (description, claims); empty for a study
    run before stores kept it, or made by ``compare``/``certify``."""
    store = Store(db, read_only=True)
    try:
        with store.reading():
            has = store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                     "AND name = 'studies'").fetchone()
            row = store.conn.execute("SELECT definition FROM studies WHERE study = ?",
                                     (study,)).fetchone() if has else None
    finally:
        store.close()
    return dict(json.loads(row[0])) if row else {}


def studies(db: str | Path) -> list[str]:
    """The study names a store holds."""
    with Store(db, read_only=True) as store, store.reading():
        return [r[0] for r in store.conn.execute("SELECT DISTINCT study FROM runs ORDER BY study")]
