"""Seals: a stored row checked against what the judge recorded before any statistic uses it.

When the harness stores a run it keeps a digest beside the row: sha256 over the canonical JSON
of every stored column (key, study, problem, size, solver, outcome, time, the record). Reading
rows for statistics (``store.load_records`` and everything built on it: reports, exports,
split counts), each row is checked: a digest that no longer matches (the row was edited), a row
stored after sealing began without one (its digest was removed), or a success whose stored
answer or count the judge version it names rejects (re-judged cheaply: the validator and the
known facts, never a table build or a proof check) is refused and named. A row another judge
version decided is judged again on reading instead (``judging.pipeline.judge_stored``), as
before. Rows of a store made before rows were sealed load as *unsealed*: their answers are
re-judged the same way, but an edit to their other fields cannot be seen, and the report says
how many there are.

A digest is not a signature: someone who recomputes it can forge a row (what any file on the
user's own disk allows); re-judging the answer catches a false success whatever the digest.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from puzzlebench.harness.judging.pipeline import RunContext, as_judged_then, judge_proposal
from puzzlebench.harness.judging.rules import judge_version
from puzzlebench.harness.run.protocol.payload import ProposalData
from puzzlebench.problems import get_problem
from puzzlebench.problems.base import PuzzlebenchError
from puzzlebench.records.record import RunRecord
from puzzlebench.solvers.contract import Claim

#: The columns a digest covers, in order (``runs`` table).
SEALED_COLUMNS = ("key", "study", "problem", "size", "solver", "outcome", "time_s", "record")


def row_digest(key: str, study: str, problem: str, size: int, solver: str, outcome: str,
               time_s: float, record_text: str) -> str:
    """The seal of one stored row: sha256 over the canonical JSON of its columns."""
    payload = json.dumps([key, study, problem, int(size), solver, outcome, float(time_s),
                          json.loads(record_text)], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()


@dataclass(frozen=True)
class StoreCheck:
    """What checking stored rows found: the rows refused (one line each, naming the row) and
    how many rows carry no seal (a store made before rows were sealed)."""

    refused: tuple[str, ...] = ()
    unsealed: int = 0

    def sentences(self) -> list[str]:
        """What a report says of it (nothing when every row is sealed and intact)."""
        out = []
        if self.refused:
            shown = "; ".join(self.refused[:5])
            more = f"; and {len(self.refused) - 5} more" if len(self.refused) > 5 else ""
            out.append(f"{len(self.refused)} stored run{'s' if len(self.refused) != 1 else ''} "
                       "refused from every statistic of this report (a row edited after it "
                       f"was stored, or a success the judge rejects): {shown}{more}.")
        if self.unsealed:
            out.append(f"{self.unsealed} runs are unsealed rows (stored before puzzlebench "
                       "sealed each row with a digest): their answers were judged again, but an "
                       "edit to their other fields cannot be detected.")
        return out


def seal_from_now(conn: sqlite3.Connection) -> None:
    """Give an older store its digest column, and note the first row stored sealed (rows
    before it are unsealed: an older puzzlebench stored them)."""
    if "digest" not in {row[1] for row in conn.execute("PRAGMA table_info(runs)")}:
        with contextlib.suppress(sqlite3.OperationalError):  # another process just did
            conn.execute("ALTER TABLE runs ADD COLUMN digest TEXT")
    conn.execute("INSERT OR IGNORE INTO facts (name, value) SELECT 'sealed_from', "
                 "COALESCE(MAX(rowid), 0) + 1 FROM runs")


def checked_rows(conn: sqlite3.Connection, where: str, params: tuple[object, ...]
                 ) -> tuple[list[tuple[str, RunRecord]], StoreCheck]:
    """(run key, record) of the rows ``where`` selects that pass their check, in insertion
    order, and what the check found (a store made before sealing: every row unsealed)."""
    names = {row[1] for row in conn.execute("PRAGMA table_info(runs)")}
    digest = "digest" if "digest" in names else "NULL"
    rows = conn.execute(f"SELECT rowid, {', '.join(SEALED_COLUMNS)}, {digest} "
                        f"FROM runs{where} ORDER BY rowid", params).fetchall()
    facts = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                         "AND name = 'facts'").fetchone()
    start = conn.execute("SELECT value FROM facts WHERE name = 'sealed_from'"
                         ).fetchone() if facts else None
    checker = RowChecker(int(start[0]) if start else None)
    out = [(row[1], rec) for row in rows if (rec := checker.admit(row)) is not None]
    return out, checker.result()


class CheckedRecords(list[RunRecord]):
    """Records read for statistics, with the check that admitted them (``check``)."""

    check: StoreCheck = StoreCheck()


@dataclass
class RowChecker:
    """Checks rows one by one (``admit``) and keeps what it refused."""

    sealed_from: int | None  # rows from this rowid on were stored sealed; None: no sealing yet
    refused: list[str] = field(default_factory=list)
    unsealed: int = 0

    def admit(self, row: tuple[Any, ...]) -> RunRecord | None:
        """The row's record, or None (refused and named) — ``row`` is (rowid, *SEALED_COLUMNS,
        digest)."""
        rowid, key, *columns, digest = row
        text = columns[-1]
        record = RunRecord.from_dict(as_judged_then(json.loads(text)))
        why = ""
        if digest is None:
            if self.sealed_from is not None and rowid >= self.sealed_from:
                why = "its seal was removed"
            else:
                self.unsealed += 1
        elif digest != row_digest(key, *columns):
            why = "the row was edited after it was stored (its digest does not match)"
        why = why or rejudged_failure(record)
        if not why:
            return record
        self.refused.append(f"row {rowid} ({record.key.solver} on {record.key.instance_id}, seed "
                            f"{record.key.seed}, repeat {record.key.repeat}): {why}")
        return None

    def result(self) -> StoreCheck:
        return StoreCheck(tuple(self.refused), self.unsealed)


def rejudged_failure(record: RunRecord) -> str:
    """Why a row stored as a success by today's judge is not one by that same judge, re-judged
    cheaply from its stored answer or count (the validator, the known counts and rules; no
    optimality table, no proof check): the judge that stored it would have said so, so the row
    was made some other way. Empty when it is a success, when another judge version decided
    it (``judge_stored`` judges it again on reading, as it always has), or when it cannot be
    judged here."""
    if not record.verdict.outcome.success or record.key.task not in ("solve", "count"):
        return ""
    try:
        problem = get_problem(record.key.problem)
        if record.verdict.judge_version != judge_version(problem):
            return ""  # another judge decided it: judged again on reading (judge_stored)
        instance = problem.from_description(record.key.instance)
        if instance.instance_id != record.key.instance_id:
            return f"its instance is {instance.instance_id}, not {record.key.instance_id}"
        proposal = ProposalData(claim=Claim(record.verdict.claim), answer=record.verdict.answer,
                                count=record.verdict.count, unique=record.verdict.unique)
        judged = judge_proposal(problem, instance, proposal, RunContext(
            kind=record.key.task, unique=record.verdict.unique is not None, time_s=record.figures.time_s,
            time_limit=record.key.budget.get("time_limit"), prove=False))
    except (PuzzlebenchError, ValueError, TypeError, KeyError):
        return ""  # a family not loaded here, a record of another shape: kept as stored
    if judged.outcome.success:
        return ""
    return (f"stored as {record.verdict.outcome.value}, but the judge finds it {judged.outcome.value}"
            f" ({judged.reason or 'no reason'})")
