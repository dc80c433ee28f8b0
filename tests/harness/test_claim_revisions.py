"""Issue 53 item 7: claims rewritten after the runs. The claims in force when a study's first
run is stored are kept (text, sha256, time); a different set stated later is kept as a new
revision with the number of runs stored before it, and the report shows both."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.harness.campaign.design.claim_revisions import canonical, stated_claims

FORWARD = ('says = "mod12 is faster than backtracking"\nbetter = "mod12"\n'
           'than = "backtracking"\n')
REVERSED = ('says = "backtracking is faster than mod12"\nbetter = "backtracking"\n'
            'than = "mod12"\n')


def study_file(path: Path, claim: str) -> Path:
    path.write_text('[study]\nname = "c"\n[[problems]]\nproblem = "nqueens"\nsizes = "6"\n'
                    '[[solvers]]\nname = "mod12"\n[[solvers]]\nname = "backtracking"\n'
                    f"[[claims]]\n{claim}", encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], study: Path, db: Path) -> str:
    assert main(["run", str(study), "--db", str(db), "--workers", "1"]) == 0
    return capsys.readouterr().err


def test_a_claim_reversed_after_the_runs_stands_beside_the_original(capsys,
                                                                     tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    study = study_file(tmp_path / "c.toml", FORWARD)
    run(capsys, study, db)
    run(capsys, study, db)  # the same claims again: no new revision
    assert [r.runs_before for r in stated_claims(db, "c")] == [0]
    err = run(capsys, study_file(study, REVERSED), db)  # 0 runs made: only the claim changed
    assert "kept as revision 2, stated after 2 runs" in err
    first, second = stated_claims(db, "c")
    assert first.claims[0]["better"] == "mod12" and second.claims[0]["better"] == "backtracking"
    assert first.sha256 == canonical(list(first.claims))[1] != second.sha256
    assert first.stated_at <= second.stated_at and second.runs_before == 2
    out = tmp_path / "rep"
    assert main(["report", "--db", str(db), "--out", str(out)]) == 0
    md = (out / "report.md").read_text(encoding="utf-8")
    answer = md.split("## Details")[0]
    assert "mod12 is faster than backtracking (stated before the runs; withdrawn in revision 2)" \
        in answer
    assert "backtracking is faster than mod12 (stated after 2 runs)" in answer
    assert "not all stated before its runs" in answer and first.sha256[:12] in answer


def test_a_store_that_kept_claims_before_revisions(capsys, tmp_path: Path) -> None:
    """A store an older puzzlebench wrote (its claims in the studies table only) loads; the
    claims it kept become revision 1, when they were stated not recorded."""
    db = tmp_path / "c.sqlite"
    study = study_file(tmp_path / "c.toml", FORWARD)
    run(capsys, study, db)
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("DROP TABLE claim_revisions")
    conn.execute("PRAGMA user_version=4")  # as the previous release wrote it
    conn.close()
    assert stated_claims(db, "c") == []  # read-only: nothing to show, nothing made
    run(capsys, study, db)  # the same claims: revision 1 only, its time not recorded
    (only,) = stated_claims(db, "c")
    assert only.runs_before is None and "not recorded" in only.when


def test_the_claims_hash_ignores_their_order() -> None:
    a, b = {"says": "x", "better": "p", "than": "q"}, {"says": "y", "better": "q", "than": "p"}
    assert canonical([a, b]) == canonical([b, a]) and canonical([a])[1] != canonical([b])[1]
