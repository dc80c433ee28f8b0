"""Second adversarial sweep, §3: a solver's name is one solver, across every kind.

An external manifest named ``mod12`` was accepted (a Python plugin of that name was refused):
its wrong answers were stored under ``mod12``, the report showed ``mod12`` at 50 % and
``agree`` dropped it silently. A name taken by a registered solver, or by another solver of
the same command or study (a manifest, a Python plugin, a MiniZinc model), is refused with
both origins named.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzlebench.cli import main

PLUGINS = str(Path(__file__).with_name("sweep2.py"))


def ref(name: str) -> str:
    return f"{PLUGINS}:{name}"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, out + err
    return code, out, err


def manifest(folder: Path, name: str, column: int = 0) -> Path:
    folder.mkdir(parents=True)
    (folder / "answer.py").write_text(
        "import json, sys\njson.load(sys.stdin)\n"
        f'print(json.dumps({{"claim": "solved", "answer": [{column}] * 8}}))\n',
        encoding="utf-8")
    path = folder / "solver.toml"
    path.write_text(f'[solver]\nname = "{name}"\nproblems = ["nqueens"]\n'
                    'command = ["python3", "answer.py"]\n', encoding="utf-8")
    return path


def test_a_manifest_named_like_a_registered_solver_is_refused(capsys, tmp_path: Path) -> None:
    path = manifest(tmp_path / "m", "mod12")
    study = tmp_path / "s.toml"
    study.write_text(f'[study]\nname = "s"\n[[problems]]\nproblem = "nqueens"\nsizes = "8"\n'
                     f'[[solvers]]\nname = "{path}"\n', encoding="utf-8")
    for args in (["solve", "nqueens", "8", "--solver", str(path)],
                 ["count", "nqueens", "8", "--solver", str(path)],
                 ["compare", "nqueens", "--sizes", "8", "--solvers", str(path)],
                 ["compare", "nqueens", "--sizes", "8", "--solvers", f"{path},mod12"],
                 ["agree", "nqueens", "--sizes", "8", "--solver", str(path)],
                 ["run", str(study), "--db", str(tmp_path / "s.sqlite")]):
        code, _out, err = cli(capsys, *args)
        assert code == 2 and len(err.strip().splitlines()) == 1, (args, err)
        assert "mod12" in err and "solver.toml" in err and "baseline" in err, (args, err)
    assert not (tmp_path / "s.sqlite").exists()


def test_two_references_with_one_name_are_refused(capsys, tmp_path: Path) -> None:
    one, two = manifest(tmp_path / "one", "twin"), manifest(tmp_path / "two", "twin", 1)
    for args in (["compare", "nqueens", "--sizes", "8", "--solvers", f"{one},{two}"],
                 ["agree", "nqueens", "--sizes", "8", "--solver", str(one), "--solver",
                  str(two)]):
        code, _out, err = cli(capsys, *args)
        assert code == 2 and len(err.strip().splitlines()) == 1, (args, err)
        assert str(tmp_path / "one") in err and str(tmp_path / "two") in err, (args, err)


def test_a_plugin_named_like_a_registered_solver_is_refused(capsys) -> None:
    code, _out, err = cli(capsys, "solve", "nqueens", "8", "--solver", ref("NamedMod12"))
    assert code == 2 and "mod12" in err and len(err.strip().splitlines()) == 1, err
