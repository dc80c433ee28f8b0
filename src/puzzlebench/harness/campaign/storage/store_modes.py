"""How a store file is opened to read and left after writing, so that reading it creates
nothing beside it (issue 53: a read-only ``report`` left ``-wal`` and ``-shm`` files).

A store is written in SQLite's WAL mode (concurrent readers, one transaction per run). A WAL
database opened read-only (``?mode=ro``) still makes its ``-wal`` and ``-shm`` files when they
are missing, and a read-only connection can neither checkpoint nor remove them. So:

* a writer that closes the store last switches it back to rollback mode
  (``journal_mode=DELETE``, ``leave_after_writing``): SQLite checkpoints the log into the file
  and removes both side files, and a later read-only open of a rollback-mode file takes a
  shared lock and creates nothing. While another connection is open the switch is refused at
  once (no wait), and the file stays in WAL mode for that connection to leave;
* a reader (``open_to_read``) opens ``?mode=ro``, except a WAL-mode file with neither side
  file (one left by an older version, or copied): no writer is active then (an active WAL
  writer holds both files), and it is read ``?immutable=1``, without locks or side files.
  A writer that starts during such a read writes to a new log, which the read does not see;
* a file on read-only media is read ``?immutable=1`` as before.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

#: Bytes 18 and 19 of an SQLite file's header: 2 in WAL mode, 1 in rollback mode.
_WAL_VERSION = b"\x02\x02"


def in_wal_mode_unattended(path: Path) -> bool:
    """Whether ``path`` is a WAL-mode file with no ``-wal`` or ``-shm`` beside it (no writer
    is active: reading it ``immutable`` sees all of it and creates nothing)."""
    if any(Path(f"{path}{suffix}").exists() for suffix in ("-wal", "-shm")):
        return False
    try:
        with path.open("rb") as f:
            header = f.read(20)
    except OSError:
        return False
    return header.startswith(b"SQLite format 3\x00") and header[18:20] == _WAL_VERSION


def open_to_read(path: Path) -> sqlite3.Connection:
    """A read-only connection that leaves nothing beside the file (module docstring)."""
    uri = path.resolve().as_uri()
    if in_wal_mode_unattended(path):
        return sqlite3.connect(f"{uri}?immutable=1", uri=True, isolation_level=None)
    conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=30, isolation_level=None)
    try:
        conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
    except sqlite3.OperationalError:  # read-only media: no lock can be taken
        conn.close()
        conn = sqlite3.connect(f"{uri}?immutable=1", uri=True, isolation_level=None)
    return conn


def leave_after_writing(conn: sqlite3.Connection) -> None:
    """Before a writer's connection closes: back to rollback mode when it is the store's last
    connection (the log checkpointed into the file, the side files removed); at once and
    without error otherwise (another connection keeps WAL mode)."""
    with contextlib.suppress(sqlite3.Error):
        conn.execute("PRAGMA busy_timeout=0")
        conn.execute("PRAGMA journal_mode=DELETE").fetchall()
