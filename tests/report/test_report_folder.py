"""Issue 53 items 13-15: ``report --out`` never replaces a user's own files, never writes
through a symlink out of its folder, and never writes into ``/``, a system or a home folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.harness.campaign.storage.records_frame import records_to_frame
from puzzlebench.harness.campaign.storage.store import Store
from puzzlebench.harness.execute import run_solve
from puzzlebench.problems import get_problem
from puzzlebench.report import write_report
from puzzlebench.report.out_folder import MARKER, ReportFolderError


@pytest.fixture(scope="module")
def runs() -> list:
    return [run_solve(s, get_problem("nqueens").make(n), seed=0, study="s")
            for s in ("mod12", "backtracking") for n in (4, 5, 6)]


@pytest.fixture
def db(tmp_path: Path, runs: list) -> Path:
    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        for i, record in enumerate(runs):
            store.add(f"k{i}", record)
    return path


def report(capsys: pytest.CaptureFixture[str], db: Path, out: Path | str,
           *extra: str) -> tuple[int, str]:
    code = main(["report", "--db", str(db), "--out", str(out), *extra])
    return code, capsys.readouterr().err


def test_a_users_folder_is_refused_unless_forced(capsys, db: Path, tmp_path: Path) -> None:
    """Item 13: the user's own report.md survives; --force replaces it; the suite's own
    folder is written again and again."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "report.md").write_text("my own notes\n")
    code, err = report(capsys, db, mine)
    assert code == 2 and len(err.strip().splitlines()) == 1 and MARKER in err, err
    assert (mine / "report.md").read_text() == "my own notes\n"
    assert sorted(p.name for p in mine.iterdir()) == ["report.md"]
    with pytest.raises(ReportFolderError, match="did not write"):
        write_report(records_to_frame([]), mine)
    assert report(capsys, db, mine, "--force")[0] == 0
    assert "my own notes" not in (mine / "report.md").read_text() and (mine / MARKER).is_file()
    assert report(capsys, db, mine)[0] == 0  # now the suite's: written again without --force


def test_no_file_is_written_through_a_symlink(capsys, db: Path, tmp_path: Path) -> None:
    """Item 14: symlinks planted in a report folder (to a file, to a folder) are replaced by
    the report's own files; their targets are untouched."""
    out, outside = tmp_path / "rep", tmp_path / "outside"
    outside.mkdir()
    (outside / "precious.txt").write_text("keep\n")
    assert report(capsys, db, out)[0] == 0
    (out / "report.md").unlink()
    (out / "report.md").symlink_to(outside / "precious.txt")
    (out / "report.html").unlink()
    (out / "report.html").symlink_to(outside / "new.html")  # a dangling link: not created
    csv = next((out / "tables").glob("*.csv"))
    csv.unlink()
    csv.symlink_to(outside / "precious.txt")
    for sub in ("figures",):
        for f in (out / sub).iterdir():
            f.unlink()
        (out / sub).rmdir()
        (out / sub).symlink_to(outside)
    assert report(capsys, db, out)[0] == 0
    assert (outside / "precious.txt").read_text() == "keep\n"
    assert sorted(p.name for p in outside.iterdir()) == ["precious.txt"]
    for path in (out / "report.md", out / "report.html", csv, out / "figures"):
        assert not path.is_symlink(), path
    assert "# Study" in (out / "report.md").read_text()
    assert list((out / "figures").glob("*.png"))


@pytest.mark.parametrize("where", ["/", "/etc", "/usr/share/x", "/tmp", "HOME", "/home/someone"])
def test_root_system_and_home_folders_are_refused(capsys, db: Path, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  where: str) -> None:
    """Item 15: refused before anything is written, with --force too."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    target = str(home) if where == "HOME" else where
    code, err = report(capsys, db, target, "--force")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "refusing" in err, err
    assert not Path(target, MARKER).exists() and not Path("/usr/share/x").exists()
    assert list(home.iterdir()) == []
    with pytest.raises(ReportFolderError):
        write_report(records_to_frame([]), target, force=True)
    link = tmp_path / "innocent"
    if where == "/":
        link.symlink_to("/")  # a link to the root is the root
        assert report(capsys, db, link)[0] == 2


def test_compare_checks_its_report_folder_before_any_run(capsys, tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine\n")
    base = ["compare", "nqueens", "--sizes", "5", "--solvers", "mod12", "--report"]
    assert main([*base, str(mine), "--db", str(tmp_path / "c.sqlite")]) == 2
    assert "did not write" in capsys.readouterr().err
    assert not (tmp_path / "c.sqlite").exists()  # refused before any run was made
    assert main([*base, str(mine), "--force"]) == 0
    assert (mine / "report.md").is_file() and (mine / "notes.txt").read_text() == "mine\n"


def test_a_report_folder_an_earlier_version_wrote_is_written_again(tmp_path: Path) -> None:
    """Exactly a report's files (and a study's store), no marker: an earlier puzzlebench's
    folder, written again; one file of the user's beside them and it is the user's."""
    from puzzlebench.report.out_folder import prepare_report_folder

    old = tmp_path / "old"
    for name in ("report.md", "report.html", "figures/a.png", "tables/a.csv", "s.sqlite"):
        (old / name).parent.mkdir(parents=True, exist_ok=True)
        (old / name).write_text("x")
    assert prepare_report_folder(old) == old.resolve() and (old / MARKER).is_file()
    (old / MARKER).unlink()
    (old / "tables" / "mine.txt").write_text("mine")
    with pytest.raises(ReportFolderError):
        prepare_report_folder(old)
