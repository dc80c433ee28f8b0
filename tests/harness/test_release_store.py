"""A store written by an earlier release loads unchanged and gives the same report (issue 39
§3: the record became a few small records, its stored form did not change).

``tests/data/stores/release-0.1.0.sqlite`` was made by ``puzzlebench compare nqueens --sizes
4..6 --solvers mod12,backtracking,min-conflicts`` before the change; beside it are its records
as loaded then (``rejudged=False``) and the report made from it then.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.harness.campaign.storage.store import load_records
from puzzlebench.records.record import RunRecord

DATA = Path(__file__).parents[1] / "data" / "stores"
STORE = DATA / "release-0.1.0.sqlite"


def _copy(tmp_path: Path) -> Path:
    db = tmp_path / "release.sqlite"
    shutil.copyfile(STORE, db)  # opening a store may write its WAL files beside it
    return db


def test_its_records_load_as_they_did(tmp_path: Path) -> None:
    records = load_records(_copy(tmp_path), rejudged=False)
    then = json.loads((DATA / "release-0.1.0-records.json").read_text())
    now = json.loads(json.dumps([r.to_dict() for r in records], sort_keys=True, default=str))
    assert now == then
    assert all(RunRecord.from_dict(r.to_dict()) == r for r in records)  # and round-trip


@pytest.mark.slow  # a whole report of the release store; test_its_records_load_as_they_did stays
def test_its_report_is_the_same(tmp_path: Path) -> None:
    db = _copy(tmp_path)
    out = tmp_path / "report"
    assert main(["report", "--db", str(db), "--out", str(out)]) == 0
    golden = DATA / "release-0.1.0-report"
    assert (out / "report.md").read_text() == (golden / "report.md").read_text()
    tables = sorted(p.name for p in (golden / "tables").iterdir())
    assert sorted(p.name for p in (out / "tables").iterdir()) == tables
    for name in tables:
        assert (out / "tables" / name).read_text() == (golden / "tables" / name).read_text(), name
