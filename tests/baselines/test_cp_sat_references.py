"""The wider reference panel: MiniZinc/Gecode, Choco and CaDiCaL agree with the facts."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from puzzlebench.contract import Budget
from puzzlebench.harness.execute import run_count, run_enumerate, run_solve
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.problems.nqueens import A000170
from puzzlebench.records.record import Outcome
from tests.conformance.cases import make

TORUS_COUNTS = {1: 1, 5: 10, 7: 28}  # OEIS A007705 (n coprime to 6)


@pytest.mark.covers("mzn-gecode", "choco", "sat-cadical")
@pytest.mark.parametrize("solver", ["mzn-gecode", "choco", "sat-cadical"])
def test_counts_claims_and_listings(solver: str) -> None:
    if resolve_solver(solver).unavailable:
        pytest.skip(f"{solver} is unavailable here: {resolve_solver(solver).unavailable}")
    for n in (1, 4, 6, 8):
        assert run_count(solver, make("nqueens", n)).verdict.count == A000170[n]
    for n, want in TORUS_COUNTS.items():
        assert run_count(solver, make("torus-queens", n)).verdict.count == want
    assert run_solve(solver, make("torus-queens", 6)).verdict.outcome is Outcome.INFEASIBLE
    # queens-knights: agree with CP-SAT on solvability for every A on a 6×6 board
    for a in range(7):
        inst = make("queens-knights", 6, queens=a)
        mine = run_solve(solver, inst, budget=Budget(time_limit=30))
        ref = run_solve("cpsat", inst, budget=Budget(time_limit=30))
        assert mine.verdict.outcome is ref.verdict.outcome, \
            (a, mine.verdict.outcome, ref.verdict.outcome, mine.verdict.reason)
    solutions, complete, error = run_enumerate(solver, make("nqueens", 6), budget=Budget(time_limit=30))
    assert complete and not error and len(solutions) == 4
    some, complete, _ = run_enumerate(solver, make("nqueens", 8), budget=Budget(time_limit=30),
                                      limit=5)
    assert len(some) == 5 and not complete


def test_sat_reports_the_encoding_size() -> None:
    rec = run_solve("sat-cadical", make("nqueens", 12))
    assert rec.verdict.outcome is Outcome.SOLVED
    assert rec.figures.counters["variables"] >= 144 and rec.figures.counters["clauses"] > 0
    assert resolve_solver("sat-cadical").honours == frozenset()  # stopped by the hard limit


@pytest.mark.skipif(shutil.which("minizinc") is None, reason="the minizinc executable is not installed")
def test_a_users_minizinc_model_is_a_solver(tmp_path: Path) -> None:
    model = tmp_path / "mine.mzn"
    model.write_text("include \"alldifferent.mzn\";\nint: n;\narray[0..n-1] of var 0..n-1: cols;\n"
                     "constraint alldifferent(cols);\n"
                     "constraint alldifferent([cols[i] + i | i in 0..n-1]);\n"
                     "constraint alldifferent([cols[i] - i | i in 0..n-1]);\nsolve satisfy;\n",
                     encoding="utf-8")
    spec = resolve_solver(str(model))
    assert spec.name == "mzn:mine" and spec.problems == {"nqueens", "torus-queens"}
    rec = run_solve(str(model), make("nqueens", 10), params={"answer": "cols"})
    assert rec.verdict.outcome is Outcome.SOLVED
    wrong = run_count(str(model), make("torus-queens", 7), params={"answer": "cols"})
    assert wrong.verdict.outcome is Outcome.WRONG  # a plain model on a torus board miscounts: judged so
