"""Study validation (errors name the key), seed derivation, the store and its exports."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import puzzlebench
from puzzlebench.cli import main
from puzzlebench.harness.campaign.design.study import StudyError
from puzzlebench.harness.campaign.design.study_file import load_study, study_from_dict
from puzzlebench.harness.campaign.runner import run_study
from puzzlebench.harness.campaign.storage.exports import export
from puzzlebench.harness.campaign.storage.store import Store, StoreError

ROOT = Path(__file__).resolve().parents[2]
BASE = {
    "study": {"name": "t", "master_seed": 3, "repeats": 2, "time_limit": 2.0},
    "problems": [{"problem": "nqueens", "sizes": "4..6"}],
    "solvers": [{"name": "mod12"}, {"name": "greedy-h3"}],
}


def with_(path: tuple[str, ...], value: object) -> dict:
    data = json.loads(json.dumps(BASE))
    target = data
    for part in path[:-1]:
        target = target[int(part)] if isinstance(target, list) else target[part]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize(("path", "value", "needle"), [
    (("study", "repeat"), 3, "unknown key 'repeat' (did you mean 'repeats'?)"),
    (("study", "repeats"), 0, "repeats"),
    (("study", "time_limit"), -1, "time_limit"),
    (("problems", "0", "sizes"), "9..4", "empty"),
    (("problems", "0", "sizes"), "a..b", "sizes"),
    (("problems", "0", "problem"), "chess", "unknown problem"),
    (("solvers", "0", "name"), "no-such", "[[solvers]] #1.name"),
    (("solvers", "1", "params"), {"nope": 1}, "[[solvers]] #2.params"),
    (("solvers", "0", "problems"), ["sliding"], "handles none"),
    (("solvers", "0", "repeats"), 0, "[[solvers]] #1.repeats"),
])
def test_validation_names_the_key(path: tuple[str, ...], value: object, needle: str) -> None:
    with pytest.raises(StudyError, match=None) as info:
        study_from_dict(with_(path, value))
    assert needle in str(info.value)


def test_grid_and_seeds() -> None:
    study = study_from_dict(BASE)
    runs = study.runs()
    assert len(runs) == 3 * 2 * 2
    assert len({r.key for r in runs}) == len(runs)
    assert len({r.seed for r in runs}) == len(runs)
    # Seeds depend on identity, not order: reversing the solvers keeps each run's seed.
    swapped = with_(("solvers",), list(reversed(BASE["solvers"])))
    again = {r.key: r.seed for r in study_from_dict(swapped).runs()}
    assert again == {r.key: r.seed for r in runs}
    other = study_from_dict(with_(("study", "master_seed"), 4)).runs()
    assert {r.seed for r in other}.isdisjoint({r.seed for r in runs})
    grid = study_from_dict(with_(("solvers",), [{"name": "greedy-h3"}, {
        "name": "backtracking", "problems": ["nqueens"]}]))
    assert {r.solver for r in grid.runs()} == {"greedy-h3", "backtracking"}


def test_a_solver_entry_takes_its_own_repeats() -> None:
    """One entry's ``repeats`` replaces the study's for its runs only; the others keep the
    study's, and each run keeps the seed it has with the study's repeats."""
    base = {r.key: r for r in study_from_dict(BASE).runs()}
    study = study_from_dict(with_(("solvers", "1", "repeats"), 5))
    runs = study.runs()
    per = {name: sorted({r.repeat for r in runs if r.name == name}) for name in ("mod12",
                                                                                 "greedy-h3")}
    assert per == {"mod12": [0, 1], "greedy-h3": [0, 1, 2, 3, 4]}
    assert len(runs) == 3 * 2 + 3 * 5 == study.most_runs()
    assert all(base[r.key].seed == r.seed for r in runs if r.key in base)
    assert len({r.seed for r in runs}) == len(runs)


def test_example_study_file_is_valid() -> None:
    study = load_study(ROOT / "studies" / "example.toml")
    assert study.name == "example" and study.memory_limit_mb == 1024
    assert len(study.runs()) == 52


def test_store_resume_load_and_export(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    study = study_from_dict(BASE)
    first = run_study(study, db, workers=1, quiet=True)
    assert len(first.new) == 12 and first.skipped == 0
    second = run_study(study, db, workers=1, quiet=True)
    assert len(second.new) == 0 and second.skipped == 12
    with Store(db) as store:
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.count() == 12
    frame = puzzlebench.load(db)
    assert len(frame) == 12 and set(frame["solver"]) == {"mod12", "greedy-h3"}
    assert "counter.steps" in frame.columns and frame["outcome"].eq("solved").all()
    text = export(db, "csv", None)
    assert text is not None and len(pd.read_csv(pd.io.common.StringIO(text))) == 12
    export(db, "parquet", tmp_path / "s.parquet")
    assert len(pd.read_parquet(tmp_path / "s.parquet")) == 12
    with pytest.raises(StoreError):
        puzzlebench.load(tmp_path / "absent.sqlite")
    with pytest.raises(StoreError):
        export(db, "xlsx", None)


def test_cli_run_and_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    study = tmp_path / "s.toml"
    study.write_text('[study]\nname = "cli"\n[[problems]]\nproblem = "nqueens"\nsizes = [4, 5]\n'
                     '[[solvers]]\nname = "mod12"\n')
    db = tmp_path / "cli.sqlite"
    assert main(["run", str(study), "--db", str(db), "--workers", "1", "--quiet"]) == 0
    assert "2 runs made" in capsys.readouterr().out
    assert main(["export", "--db", str(db)]) == 0
    assert capsys.readouterr().out.count("nqueens-") == 2
    bad = tmp_path / "bad.toml"
    bad.write_text('[study]\nname = "x"\nrepats = 2\n')
    for args in (["run", str(bad)], ["run", str(study), "--workers", "0"],
                 ["export", "--db", str(tmp_path / "none.sqlite")],
                 ["export", "--db", str(db), "--format", "xml"]):
        assert main(args) == 2
        err = capsys.readouterr().err.strip().splitlines()
        if args[1] == str(bad):  # three mistakes, every one named: one line each, then a count
            assert len(err) == 4 and err[-1] == "puzzlebench: 3 mistakes, nothing run"
            err = err[:1]
        assert len(err) == 1 and err[0].startswith("puzzlebench: error:")
