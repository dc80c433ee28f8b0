"""Issue 53 item 8: a hand-edited store row is not rewarded. Each stored row is sealed with a
digest; reading rows for statistics re-checks the seal and re-judges each stored success, and
the report names what it refused; older stores load as unsealed rows."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from puzzlebench.cli import main
from puzzlebench.harness.campaign.storage.seals import row_digest
from puzzlebench.harness.campaign.storage.store import Store, load_records

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "tests" / "harness" / "misbehaving_solvers.py"
RELEASE = ROOT / "tests" / "data" / "stores" / "release-0.1.0.sqlite"


@pytest.fixture(scope="module")
def study_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """mod12 and backtracking beside a plugin that answers every board wrongly, nqueens 6 and
    8, two seeds."""
    folder = tmp_path_factory.mktemp("seals")
    study = folder / "s.toml"
    study.write_text(f'[study]\nname = "s"\nrepeats = 2\n[[problems]]\nproblem = "nqueens"\n'
                     f'sizes = "6,8"\n[[solvers]]\nname = "mod12"\n[[solvers]]\nname = "backtracking"\n'
                     f'[[solvers]]\n'
                     f'name = "{PLUGIN}:InvalidAnswers"\n', encoding="utf-8")
    db = folder / "s.sqlite"
    assert main(["run", str(study), "--db", str(db), "--workers", "1", "--quiet"]) in (0, 1)
    return db


def forge(db: Path, *, reseal: bool) -> list[int]:
    """Rewrite every wrong row as a fast verified success, the digest recomputed or not."""
    conn = sqlite3.connect(db, isolation_level=None)
    rows = conn.execute("SELECT rowid, key, study, problem, size, solver, outcome, time_s, record "
                        "FROM runs WHERE outcome = 'wrong'").fetchall()
    for rowid, key, study, problem, size, solver, _, _, text in rows:
        record = json.loads(text)
        record.update(outcome="solved", valid=True, verified=True, verified_by="validator",
                      reason="", time_s=1e-5)
        text = json.dumps(record, sort_keys=True)
        digest = row_digest(key, study, problem, size, solver, "solved", 1e-5, text)
        conn.execute("UPDATE runs SET outcome = 'solved', time_s = 1e-5, record = ?"
                     + (", digest = ?" if reseal else "") + " WHERE rowid = ?",
                     (text, digest, rowid) if reseal else (text, rowid))
    conn.close()
    return [r[0] for r in rows]


@pytest.mark.parametrize("reseal", [False, pytest.param(True, marks=pytest.mark.slow)],
                         ids=["edited", "edited-and-resealed"])  # resealed: the slow tier
def test_a_forged_success_is_refused_and_named(capsys, study_store: Path, tmp_path: Path,
                                               reseal: bool) -> None:
    db = tmp_path / "s.sqlite"
    shutil.copyfile(study_store, db)
    forged = forge(db, reseal=reseal)
    assert len(forged) == 4  # two sizes, two seeds: every run of the wrong plugin
    out = tmp_path / "rep"
    assert main(["report", "--db", str(db), "--out", str(out)]) == 0
    md = (out / "report.md").read_text(encoding="utf-8")
    answer = md.split("## Details")[0]
    assert "4 stored runs refused from every statistic" in answer
    for rowid in forged:
        assert f"row {rowid} (" in answer
    why = "the judge finds it wrong" if reseal else "its digest does not match"
    assert why in answer and "invalid-answers on nqueens-" in answer
    assert "Best on nqueens by mean rank:" in answer and "rank: invalid-answers" not in answer
    ranking = pd.read_csv(out / "tables" / "ranking.csv")
    assert not ranking.astype(str).apply(lambda c: c.str.contains("invalid-answers")).any().any()
    records = load_records(db)
    assert {r.key.solver for r in records} == {"mod12", "backtracking"}
    assert len(records.check.refused) == 4


def test_a_removed_seal_is_refused(study_store: Path, tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    shutil.copyfile(study_store, db)
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("UPDATE runs SET digest = NULL WHERE solver = 'mod12'")
    conn.close()
    records = load_records(db)
    assert {r.key.solver for r in records} == {"invalid-answers", "backtracking"}
    assert all("its seal was removed" in line for line in records.check.refused)


@pytest.mark.slow  # slow tier (docs/development.md); cover: test_release_store.py loads as it did
def test_an_older_store_loads_as_unsealed_rows(tmp_path: Path) -> None:
    """A store made before rows were sealed: every row loads, said unsealed; once opened for
    writing, new rows are sealed and its old ones stay unsealed."""
    db = tmp_path / "old.sqlite"
    shutil.copyfile(RELEASE, db)
    records = load_records(db)
    assert len(records) == 9 and records.check.unsealed == 9 and not records.check.refused
    out = tmp_path / "rep"
    assert main(["report", "--db", str(db), "--out", str(out)]) == 0
    assert "9 runs are unsealed rows" in (out / "report.md").read_text(encoding="utf-8")
    with Store(db) as store:  # opened for writing: sealed from here on
        store.add("new", records[0].with_(seed=99))
    again = load_records(db)
    assert len(again) == 10 and again.check.unsealed == 9
