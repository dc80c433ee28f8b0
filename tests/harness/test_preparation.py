"""Preparation is never a verdict (issue 53 §20): what a study's solver needs built before it
can start (idastar-pdb's pattern databases) is built once before the first run, with its time
said, or the study is refused with the one command that builds it — never built inside a
timed run, never stored as a timeout."""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.harness.campaign.design.study_file import study_from_dict
from puzzlebench.harness.campaign.preparation import PreparationError, needed
from puzzlebench.harness.campaign.runner import run_study
from puzzlebench.harness.campaign.storage.store import load_records
from puzzlebench.records.record import Outcome

SEVEN_EIGHT = {
    "study": {"name": "seven-eight", "time_limit": 2.0},
    "problems": [{"problem": "sliding", "sizes": [15], "starts": ["korf:1", "korf:2"]}],
    "solvers": [{"name": "idastar-pdb", "params": {"partition": "7-8"}}],
}


@pytest.fixture
def empty_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("PUZZLEBENCH_CACHE", str(cache))
    return cache


def test_a_study_whose_tables_are_not_built_is_refused_with_the_command(
        empty_cache: Path, tmp_path: Path) -> None:
    """A fresh cache and partition 7-8 (518 s to build): refused before any run, naming the
    one command; no run stored, nothing built."""
    study = study_from_dict(SEVEN_EIGHT)
    db = tmp_path / "s.sqlite"
    with pytest.raises(PreparationError, match="`puzzlebench pdb build --shape 4x4 --partition "
                                               "7-8 --goal 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15`"):
        run_study(study, db, workers=1, quiet=True)
    assert not db.exists() or load_records(db) == []
    assert not (empty_cache / "pdb").exists() or not list((empty_cache / "pdb").glob("*.pdb"))


def test_the_command_line_refuses_it_in_one_line(empty_cache: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "s.toml").write_text(
        '[study]\nname = "seven-eight"\ntime_limit = 2.0\n'
        '[[problems]]\nproblem = "sliding"\nsizes = [15]\nstarts = ["korf:1"]\n'
        '[[solvers]]\nname = "idastar-pdb"\nparams = { partition = "7-8" }\n')
    code = main(["run", str(tmp_path / "s.toml"), "--db", str(tmp_path / "s.sqlite")])
    _, err = capsys.readouterr()
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "puzzlebench pdb build --shape 4x4 --partition 7-8" in err


def test_a_short_preparation_is_made_once_before_the_first_run(
        empty_cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The 8-puzzle's tables (seconds to build): built before the first run, said, then every
    run reads them; none is a timeout, and the next call finds nothing to prepare."""
    study = study_from_dict({
        "study": {"name": "eight", "time_limit": 5.0},
        "problems": [{"problem": "sliding", "sizes": [8], "starts": ["125408367", "876543210"]}],
        "solvers": [{"name": "idastar-pdb"}],
    })
    assert [p.command for p in needed(study.runs())] == [
        "puzzlebench pdb build --shape 3x3 --partition 6-6-3"]
    result = run_study(study, tmp_path / "e.sqlite", workers=1)
    err = capsys.readouterr().err
    assert "preparing idastar-pdb's 6-6-3 pattern databases for 3x3" in err
    assert "prepared idastar-pdb's" in err  # with its time
    assert list((empty_cache / "pdb").glob("3x3-*.pdb"))
    assert {r.verdict.outcome for r in result.new} == {Outcome.SOLVED}
    assert needed(study.runs()) == []
