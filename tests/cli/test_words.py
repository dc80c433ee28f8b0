"""Words a reader understands (issue 38): the narrow ``solvers`` table and its ``--wide``,
``compare`` saying where its runs went, no harness-internal phrase in ``solve``'s output, the
first run saying why it is slow, and ``--help`` not loading numba."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.cli.first_run import kernels_cold, say_if_first_run


def header(text: str) -> list[str]:
    return next(line for line in text.splitlines() if line.strip().startswith("name")).split()


def test_solvers_is_narrow_by_default_and_wide_on_request(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    assert main(["solvers"]) == 0
    assert header(capsys.readouterr().out) == ["name", "problems", "is", "params"]
    assert main(["solvers", "--wide"]) == 0
    wide = header(capsys.readouterr().out)
    assert {"origin", "params", "honours", "effort"} <= set(wide)
    assert main(["solvers", "--problem", "sliding", "--wide"]) == 0
    assert "effort" not in header(capsys.readouterr().out)  # empty in every row: dropped


def test_compare_says_where_its_runs_went(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    args = ["compare", "nqueens", "--sizes", "4..5", "--solvers", "mod12"]
    assert main(args) == 0
    assert "2 runs not kept (--db FILE stores them" in capsys.readouterr().out
    db = tmp_path / "c.sqlite"
    assert main([*args, "--db", str(db)]) == 0
    assert f"2 runs stored in {db}" in capsys.readouterr().out


def test_solve_speaks_of_the_figures_not_the_harness(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "nqueens", "8", "--solver", "mod12"]) == 0
    out = capsys.readouterr().out
    assert "measured:" in out and "nice" not in out


def test_the_first_run_says_the_kernels_are_being_built(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert kernels_cold(tmp_path)
    say_if_first_run(tmp_path)
    assert "building the compiled kernels once" in capsys.readouterr().err
    cache = tmp_path / "search" / "__pycache__"
    cache.mkdir(parents=True)
    (cache / "kernel.py311.nbi").write_bytes(b"")
    assert not kernels_cold(tmp_path)
    say_if_first_run(tmp_path)
    assert capsys.readouterr().err == ""


def test_help_does_not_load_numba() -> None:
    probe = ("import sys; import puzzlebench.cli as c; c.load_commands(); "
             "print('numba' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"
