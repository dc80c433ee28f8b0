"""A user's MiniZinc model is read in its own terms: 1-based arrays and domains (MiniZinc's
usual style), 0-based ones, named sets, enums for queens-knights squares, an output item that
draws a board — all solve unchanged; a declaration that does not say is refused with what to
do, never judged ``wrong``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.harness.execute import run_solve
from puzzlebench.problems import get_problem
from puzzlebench.records.record import Outcome
from puzzlebench_baselines.minizinc_user import ModelFileError, declared_base

MODELS = Path(__file__).resolve().parent / "models"
needs_minizinc = pytest.mark.skipif(shutil.which("minizinc") is None,
                                    reason="the minizinc executable is not installed")


@pytest.mark.parametrize(("text", "array", "base"), [
    ("int: n;\narray [1..n] of var 1..n: q;", "q", 1),
    ("int: n;\narray[0..n-1] of var 0..n-1: cols;", "cols", 0),
    ("array [1..n, 1..n] of var 0..2: piece;", "piece", 0),
    ("array [1..n, 1..n] of var 1..3: piece;", "piece", 1),
    ("int: lo = 1;\nset of int: R = lo..n;\nset of int: C = R;\narray [R] of var C: q;", "q", 1),
    ("% array [1..n] of var 1..n: q;\narray [0..n-1] of var (0..n-1): q :: output;", "q", 0),
    ("/* array [1..n] of var 1..n: q; */ array [0..n-1] of var 0..n-1: q;", "q", 0),
    ("enum Square = {E, Q, N};\narray [1..n, 1..n] of var Square: board;", "board", 1),
])
def test_the_base_is_the_declared_domains_lower_bound(text: str, array: str, base: int) -> None:
    assert declared_base(text, array)[0] == base


@pytest.mark.parametrize(("text", "array", "says"), [
    ("array [1..n] of var int: q;", "q", "--param base=0 or --param base=1"),
    ("array [1..n] of var lo..n: q;", "q", "cannot tell"),
    ("array [1..n] of var 2..n+1: q;", "q", "counted from 2"),
    ("array [1..n] of var 1..n: q;", "cols", "--param answer=NAME"),
])
def test_an_unreadable_declaration_says_what_to_do(text: str, array: str, says: str) -> None:
    with pytest.raises(ModelFileError) as err:
        declared_base(text, array)
    assert says in str(err.value)


@needs_minizinc
def test_the_handbooks_one_based_model_solves_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    model = str(MODELS / "queens.mzn")
    assert main(["solve", "nqueens", "8", "--solver", model, "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["outcome"] == "solved" and row["verified"] and row["params"]["base"] == "auto"
    assert sorted(row["answer"]) == list(range(8))
    assert "'q' read 1-based (declared 'array [1..n] of var 1..n: q')" in row["notes"]  # --json
    assert main(["solve", "nqueens", "8", "--solver", model]) == 0
    assert "note: the solver says: queens.mzn: answer array 'q' read 1-based" in \
        capsys.readouterr().out  # on the user's screen
    rec = run_solve(model, get_problem("nqueens").make(8))
    assert "'q' read 1-based (declared 'array [1..n] of var 1..n: q')" in rec.provenance.log
    forced = run_solve(model, get_problem("nqueens").make(8), params={"base": "0"})
    assert forced.verdict.outcome is Outcome.WRONG  # read 0-based, the same model's answer is off the board
    assert "read 0-based (--param base)" in forced.provenance.log


@pytest.mark.slow  # slow tier: see docs/development.md
@needs_minizinc
def test_agree_holds_the_one_based_model_beside_every_baseline(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["agree", "nqueens", "--sizes", "4..7", "--solver", str(MODELS / "queens.mzn"),
                 "--solver", "mod12", "--json", "--time-limit", "30"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["agreed"], report["disagreements"]
    assert "mzn:queens" in report["matrix"]


@needs_minizinc
@pytest.mark.parametrize(("model", "problem", "options", "params"), [
    ("queens_0based.mzn", "nqueens", {}, {"answer": "cols"}),
    ("torus_queens.mzn", "torus-queens", {}, {}),
    ("queens_knights_enum.mzn", "queens-knights", {"queens": 2}, {"answer": "board"}),
    ("queens_knights_1based.mzn", "queens-knights", {"queens": 2}, {}),
    ("queens_unbounded.mzn", "nqueens", {}, {"base": "1"}),
])
def test_models_in_either_style_solve(model: str, problem: str, options: dict[str, int],
                                      params: dict[str, str]) -> None:
    rec = run_solve(str(MODELS / model), get_problem(problem).make(7, **options), params=params)
    v = rec.verdict
    assert v.outcome is Outcome.SOLVED and v.verified, (v.reason, v.error)


@needs_minizinc
def test_an_undeclared_base_is_refused_not_judged_wrong() -> None:
    rec = run_solve(str(MODELS / "queens_unbounded.mzn"), get_problem("nqueens").make(8))
    assert rec.verdict.outcome is Outcome.CRASH and "--param base=0 or --param base=1" in rec.verdict.error
