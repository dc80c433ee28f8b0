"""Second adversarial sweep, §4: a store that is not (sound) SQLite breaks no command.

A text file, random bytes, a truncated store or a store with damaged pages given as ``--db``
is one line on stderr and exit status 2 from ``run``, ``compare``, ``report`` and ``export``,
the file untouched (nothing is written into a damaged file); the Python API raises StoreError.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.harness.execute import run_solve
from puzzlebench.problems import get_problem

EIGHT = get_problem("nqueens").make(8)


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, out + err
    return code, out, err


# -- a store that is not SQLite -----------------------------------------------------------------

STORE_KINDS = ("text", "garbage", "truncated", "damaged")


def _real_store(tmp_path: Path) -> bytes:
    from puzzlebench.harness.campaign.storage.store import Store

    real = tmp_path / "real" / "real.sqlite"
    real.parent.mkdir()
    record = run_solve("mod12", EIGHT)
    with Store(real) as store:
        for i in range(300):
            store.add(f"k{i}", record.with_(study="s"))
    return real.read_bytes()


def _bad_store(tmp_path: Path, kind: str) -> Path:
    """A file that is not a (sound) SQLite store: text, random bytes, the first 1000 bytes of
    a real store, or a real store with 20 kB of random bytes in its middle."""
    path = tmp_path / f"{kind}.sqlite"
    if kind == "text":
        data = b"this is not a database\n" * 50
    elif kind == "garbage":
        data = bytes(range(256)) * 64
    else:
        real = bytearray(_real_store(tmp_path))
        if kind == "truncated":
            data = bytes(real[:1000])
        else:
            mid = len(real) // 2
            real[mid:mid + 20_000] = random.Random(7).randbytes(20_000)
            data = bytes(real)
    path.write_bytes(data)
    return path


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("kind", STORE_KINDS)
def test_a_malformed_store_is_one_line_and_status_2(capsys, tmp_path: Path, kind: str) -> None:
    db = _bad_store(tmp_path, kind)
    before = _digest(db)
    study = tmp_path / "s.toml"
    study.write_text('[study]\nname = "s"\n[[problems]]\nproblem = "nqueens"\nsizes = "6"\n'
                     '[[solvers]]\nname = "mod12"\n', encoding="utf-8")
    commands: list[list[str]] = [
        ["run", str(study), "--db", str(db), "--quiet"],
        ["compare", "nqueens", "--sizes", "6", "--solvers", "mod12", "--db", str(db)],
        ["report", "--db", str(db), "--out", str(tmp_path / "rep")],
        ["export", "--db", str(db), "--format", "csv", "--out", str(tmp_path / "x.csv")],
    ]
    for args in commands:
        code, out, err = cli(capsys, *args)
        assert code == 2, (args, code, out, err)
        assert len(err.strip().splitlines()) == 1 and str(db.name) in err, (args, err)
        assert _digest(db) == before, args
    # nothing written beside it either: a reader of a WAL file may leave SQLite's (empty) log
    wal = tmp_path / f"{db.name}-wal"
    assert not wal.exists() or wal.stat().st_size == 0


@pytest.mark.parametrize("kind", STORE_KINDS)
def test_the_api_raises_store_error(tmp_path: Path, kind: str) -> None:
    from puzzlebench.harness.campaign.storage.exports import export
    from puzzlebench.harness.campaign.storage.store import Store, StoreError, load, load_records

    db = _bad_store(tmp_path, kind)
    before = _digest(db)
    for read in (load, load_records):
        with pytest.raises(StoreError):
            read(db)
    with pytest.raises(StoreError):
        export(db, "csv", None)
    with pytest.raises(StoreError), Store(db) as store:  # opened for writing: refused
        store.add("k", run_solve("mod12", EIGHT))
    assert _digest(db) == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(db.name)) == [db.name]
