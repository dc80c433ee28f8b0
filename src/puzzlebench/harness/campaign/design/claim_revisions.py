"""A study's claims as stated, revision by revision, so none can be rewritten after the runs.

The claims in force when a study's runs are first stored are its first revision: their text
(canonical JSON, in a fixed order) and its sha256, the time, and how many of the study's runs
were stored already (0: stated before the runs). Running the study again with a different set
of claims keeps that set as a new revision, with the number of runs stored before it; nothing
is replaced. The report tests every claim of every revision, each labelled with when it was
stated ("stated before the runs", "stated after 8 runs"), so a claim reversed after reading
the results stands beside the original instead of replacing it.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from puzzlebench.harness.campaign.storage.store import Store
from puzzlebench.records.claims import AnyClaim, claim_from_dict


@dataclass(frozen=True)
class ClaimRevision:
    """One set of claims as stated: its number (from 1), the claims, their sha256, when it was
    stated and how many runs the study had stored then (None: not recorded — a store made
    before revisions were kept)."""

    revision: int
    claims: tuple[dict[str, Any], ...]
    sha256: str
    stated_at: str
    runs_before: int | None

    @property
    def when(self) -> str:
        if self.runs_before is None:
            return "stated before revisions were kept (when is not recorded)"
        if self.runs_before == 0:
            return "stated before the runs"
        return f"stated after {self.runs_before} run{'s' if self.runs_before != 1 else ''}"


def canonical(claims: Sequence[dict[str, Any]]) -> tuple[str, str]:
    """The claims as canonical JSON (each sorted by key, the set in a fixed order) and its
    sha256: the same set gives the same text whatever its order in the file."""
    items = sorted(json.dumps(dict(c), sort_keys=True, separators=(",", ":")) for c in claims)
    text = "[" + ",".join(items) + "]"
    return text, hashlib.sha256(text.encode()).hexdigest()


def _history(conn: sqlite3.Connection, study: str) -> list[ClaimRevision]:
    has = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                       "AND name = 'claim_revisions'").fetchone()
    if not has:
        return []
    rows = conn.execute("SELECT revision, claims, sha256, stated_at, runs_before FROM "
                        "claim_revisions WHERE study = ? ORDER BY revision", (study,)).fetchall()
    return [ClaimRevision(int(r), tuple(json.loads(text)), digest, at,
                          None if before is None else int(before))
            for r, text, digest, at, before in rows]


def state_claims(conn: sqlite3.Connection, study: str,
                 claims: Sequence[dict[str, Any]]) -> ClaimRevision | None:
    """Keep ``claims`` as the study's next revision when they differ from its latest (the
    first, when it has none); the revision added, or None. A study whose store kept its
    claims before revisions existed gets those as revision 1, when not recorded."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        history = _history(conn, study)
        runs = int(conn.execute("SELECT COUNT(*) FROM runs WHERE study = ?",
                                (study,)).fetchone()[0])
        if not history and runs:
            row = conn.execute("SELECT definition FROM studies WHERE study = ?",
                               (study,)).fetchone()
            if row is not None:  # kept by an older puzzlebench: revision 1, time unknown
                _add(conn, study, 1, json.loads(row[0]).get("claims", []), None)
                history = _history(conn, study)
        digest = canonical(claims)[1]
        added = None
        if not history or history[-1].sha256 != digest:
            _add(conn, study, len(history) + 1, claims, runs)
            added = _history(conn, study)[-1]
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return added


def _add(conn: sqlite3.Connection, study: str, revision: int,
         claims: Sequence[dict[str, Any]], runs_before: int | None) -> None:
    text, digest = canonical(claims)
    conn.execute("INSERT INTO claim_revisions (study, revision, claims, sha256, runs_before) "
                 "VALUES (?, ?, ?, ?, ?)", (study, revision, text, digest, runs_before))


def claim_history(conn: sqlite3.Connection, study: str) -> list[ClaimRevision]:
    """The study's revisions, oldest first (none for a store made before they were kept)."""
    return _history(conn, study)


def stated_claims(db: str | Path, study: str) -> list[ClaimRevision]:
    """The study's claims as stated in the store ``db``, revision by revision (read-only)."""
    with Store(db, read_only=True) as store, store.reading():
        return claim_history(store.conn, study)


def labelled_claims(history: Sequence[ClaimRevision]) -> tuple[list[AnyClaim], list[str]]:
    """Every claim any revision stated, once; and the sentences a report opens with. When the
    claims were revised, or not stated before the runs, each claim's sentence is followed by
    when it was first stated (and withdrawn, if a later revision dropped it) and the opening
    sentence lists the revisions; one set stated before the runs is said as written."""
    seen: dict[str, tuple[ClaimRevision, dict[str, Any]]] = {}
    for rev in history:
        for claim in rev.claims:
            seen.setdefault(json.dumps(claim, sort_keys=True), (rev, claim))
    latest = {json.dumps(c, sort_keys=True) for c in history[-1].claims} if history else set()
    revised = len(history) > 1 or bool(history and history[0].runs_before != 0)
    claims = []
    for key, (rev, claim) in seen.items():
        if not revised:  # one set, stated before the runs: pre-registered, said as written
            claims.append(claim_from_dict(claim))
            continue
        label = rev.when
        if key not in latest:
            label += f"; withdrawn in revision {history[-1].revision}"
        claims.append(claim_from_dict({**claim, "says": f"{claim.get('says', '')} ({label})"}))
    sentences = []
    if revised:
        parts = [f"revision {r.revision} ({len(r.claims)} claims, sha256 {r.sha256[:12]}, "
                 f"{r.stated_at}) {r.when}" for r in history]
        sentences.append("The study's claims were not all stated before its runs: "
                         + "; ".join(parts) + ". Each claim is tested below with when it was "
                         "first stated; only those stated before the runs were pre-registered.")
    return claims, sentences
