"""Reading a store creates nothing beside it (issue 53, item 19: a read-only ``report`` left
``-wal`` and ``-shm`` files, where the docs say nothing is created).

The attack: a store made by a study, its side files gone; then ``report``, ``export`` and
``load``. The outcome: the folder holds exactly what it held, and the reads saw every run.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

import puzzlebench
from puzzlebench.cli import main
from puzzlebench.harness.campaign.storage.store import Store
from puzzlebench.harness.campaign.storage.store_modes import in_wal_mode_unattended

OLD_STORE = Path(__file__).resolve().parents[1] / "data" / "stores" / "release-0.1.0.sqlite"


def beside(db: Path) -> list[str]:
    return sorted(p.name for p in db.parent.iterdir())


def remove_side_files(db: Path) -> None:
    for suffix in ("-wal", "-shm", "-journal"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)


@pytest.fixture(scope="module")
def study_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("store") / "cmp.sqlite"
    assert main(["compare", "nqueens", "--sizes", "4..6", "--solvers", "mod12,backtracking",
                 "--db", str(db)]) == 0
    return db


def test_a_writer_leaves_no_side_files(study_store: Path) -> None:
    """The writer closes last: the log is checkpointed into the file and removed."""
    assert beside(study_store) == ["cmp.sqlite"]


@pytest.mark.parametrize("command", [
    # report: a whole report (slow tier); export keeps the mechanism in the default tier
    pytest.param(["report", "--db", "{db}", "--out", "{out}"], id="report",
                 marks=pytest.mark.slow),
    pytest.param(["export", "--db", "{db}", "--out", "{out}.csv"], id="export"),
])
def test_reading_commands_create_nothing_beside_the_store(
        command: list[str], study_store: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "store" / "cmp.sqlite"
    db.parent.mkdir()
    shutil.copy(study_store, db)
    remove_side_files(db)
    before = beside(db)
    out = tmp_path / "out"
    assert main([a.format(db=db, out=out) for a in command]) == 0, capsys.readouterr()
    assert beside(db) == before
    assert len(puzzlebench.load(str(db))) == 6
    assert beside(db) == before


def test_a_wal_mode_store_without_its_log_is_read_as_it_is(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    """A store left in WAL mode (by an older version, or copied without its log): no writer
    is active, so it is read without locks and without side files."""
    db = tmp_path / "store" / "old.sqlite"
    db.parent.mkdir()
    shutil.copy(OLD_STORE, db)
    assert in_wal_mode_unattended(db)
    stored = len(puzzlebench.load(str(db)))
    assert stored > 0 and beside(db) == ["old.sqlite"]
    # a reading command (export: a whole report of this store is the slow tier's)
    assert main(["export", "--db", str(db), "--out", str(tmp_path / "out.csv")]) == 0
    assert beside(db) == ["old.sqlite"]


def test_a_reader_beside_an_open_writer_sees_its_runs(study_store: Path, tmp_path: Path) -> None:
    """While a writer holds the store (WAL mode, its log in use), a read-only open reads what
    it committed; when the writer closes last, nothing is left beside the file."""
    db = tmp_path / "live.sqlite"
    shutil.copy(study_store, db)
    writer = Store(db)  # WAL mode again, its log open
    assert not in_wal_mode_unattended(db)
    writer.conn.execute("DELETE FROM runs WHERE rowid IN (SELECT rowid FROM runs LIMIT 1)")
    with Store(db, read_only=True) as reader:
        assert reader.count() == 5
    writer.close()
    assert beside(db) == ["live.sqlite"]
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    finally:
        conn.close()
