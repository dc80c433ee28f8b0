"""Second adversarial sweep, §3/§4: solver names.

A name is checked wherever it is declared (a solver class, a Python plugin's description, a
TOML manifest, a MiniZinc model's file name): 1-64 characters, letters, digits and ``._:+=-``,
starting with a letter or digit. Every path built from a name stays inside its folder
(``export --format ioh``). Names are unique across every kind of solver: a manifest or plugin
that takes a registered solver's name is refused with both origins named.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.harness.execute import run_solve
from puzzlebench.problems import get_problem

PLUGINS = str(Path(__file__).with_name("sweep2.py"))


def ref(name: str) -> str:
    return f"{PLUGINS}:{name}"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, out + err
    return code, out, err


# -- names --------------------------------------------------------------------------------------

def _manifest(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    program = folder / "answer.py"
    program.write_text("import json, sys\njson.load(sys.stdin)\n"
                       'print(json.dumps({"claim": "solved", "answer": [0] * 8}))\n',
                       encoding="utf-8")
    manifest = folder / "solver.toml"
    manifest.write_text(f'[solver]\nname = {json.dumps(name)}\nproblems = ["nqueens"]\n'
                        f'command = ["python3", "answer.py"]\n', encoding="utf-8")
    return manifest


@pytest.mark.parametrize("name", ["..", ".", "a/b", "a\\b", "-rf", "", " x", "x" * 200,
                                  "nul\x00", "new\nline", "tab\there"])
def test_a_manifest_with_a_bad_name_is_refused(capsys, tmp_path: Path, name: str) -> None:
    manifest = _manifest(tmp_path / "m", name)
    code, out, err = cli(capsys, "solve", "nqueens", "8", "--solver", str(manifest))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "name" in err


@pytest.mark.parametrize("name", ["..", "."])
def test_export_ioh_writes_nothing_outside_its_folder(capsys, tmp_path: Path, name: str) -> None:
    from puzzlebench.harness.campaign.storage.ioh_export import export_ioh
    from puzzlebench.harness.campaign.storage.store import Store, load_traces

    record = run_solve("min-conflicts", get_problem("nqueens").make(30))
    assert record.figures.trace, "min-conflicts records a trace"
    db = tmp_path / "s.sqlite"
    with Store(db) as store:
        store.add("k1", record.with_(solver=name))
    out = tmp_path / "deep" / "ioh"
    before = set(tmp_path.rglob("*"))
    with pytest.raises(ValueError, match="name"):
        export_ioh(load_traces(db), out)
    code, _, err = cli(capsys, "export", "--db", str(db), "--format", "ioh", "--out", str(out))
    assert code == 2 and "name" in err and len(err.strip().splitlines()) == 1, err
    made = {p for p in set(tmp_path.rglob("*")) - before
            if not p.name.startswith(db.name)}  # SQLite's reader files beside the store
    assert all(p in out.parents or p == out or out in p.parents for p in made), sorted(made)
    assert not (out / "IOHprofiler_f1_nqueens.json").exists()


@pytest.mark.parametrize("plugin", ["DotDotName", "SlashName"])
def test_a_plugin_with_a_bad_name_is_refused(capsys, plugin: str) -> None:
    code, out, err = cli(capsys, "solve", "nqueens", "8", "--solver", ref(plugin))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "name" in err


def test_a_minizinc_model_with_a_bad_name_is_refused(capsys, tmp_path: Path) -> None:
    model = tmp_path / "bad name!.mzn"
    model.write_text("int: n;\narray[0..n-1] of var 0..n-1: q;\nsolve satisfy;\n",
                     encoding="utf-8")
    code, out, err = cli(capsys, "solve", "nqueens", "8", "--solver", str(model))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "name" in err


def test_a_problem_family_with_a_path_for_an_id_is_refused() -> None:
    from puzzlebench.problems import NQueens, register_problem

    for bad in ("..", "../x", "a/b", "", "x" * 65):
        family = type("Bad", (NQueens,), {"id": bad})
        with pytest.raises(ValueError, match="id"):
            register_problem(family)


def test_a_report_makes_no_file_of_a_forged_problem_id(capsys, tmp_path: Path) -> None:
    from puzzlebench.harness.campaign.storage.store import Store

    record = run_solve("mod12", get_problem("nqueens").make(8))
    db = tmp_path / "forged.sqlite"
    with Store(db) as store:
        store.add("k", record.with_(problem="../../escape", study="s"))
    out = tmp_path / "a" / "rep"
    code, _, err = cli(capsys, "report", "--db", str(db), "--out", str(out))
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert not list(tmp_path.rglob("escape*"))
