"""Solvers in any language: programs described by a TOML manifest, spoken to in JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.contract import Budget
from puzzlebench.harness.execute import run_count, run_solve
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.problems import get_problem
from puzzlebench.records.record import Outcome

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "external"
C = str(EXAMPLES / "c" / "solver.toml")
PY = str(EXAMPLES / "python" / "solver.toml")


@pytest.mark.covers("c-bitboard", "python-min-conflicts")
def test_the_shipped_examples_solve_and_count() -> None:
    q = get_problem("nqueens")
    rec = run_solve(C, q.make(12))
    assert rec.verdict.outcome is Outcome.SOLVED and rec.verdict.verified
    assert rec.figures.counters["nodes"] > 0
    assert "c-solver: n=12" in rec.provenance.log  # what the program printed besides its result
    assert run_count(C, q.make(10)).verdict.count == 724
    assert run_solve(C, q.make(3)).verdict.outcome is Outcome.INFEASIBLE
    rec = run_solve(PY, get_problem("torus-queens").make(7), seed=4)
    assert rec.verdict.outcome is Outcome.SOLVED and rec.key.params == {"max_steps": 100000}
    again = run_solve(PY, get_problem("torus-queens").make(7), seed=4)
    assert again.verdict.answer == rec.verdict.answer  # the seed reaches the program


def test_solvers_lists_a_manifest_and_params_override(capsys) -> None:  # type: ignore[no-untyped-def]
    spec = resolve_solver(PY)
    assert spec.name == "python-min-conflicts" and spec.factory is None and spec.fingerprint
    assert main(["solve", "nqueens", "8", "--solver", PY, "--param", "max_steps=0", "--json"]) == 1
    row = json.loads(capsys.readouterr().out)
    assert row["outcome"] == "budget" and row["params"] == {"max_steps": 0}


@pytest.mark.slow  # slow tier: see docs/development.md
def test_agree_runs_both_examples_beside_every_baseline(capsys) -> None:  # type: ignore[no-untyped-def]
    code = main(["agree", "nqueens", "--sizes", "4..8", "--solver", C, "--solver", PY, "--json",
                 "--time-limit", "30"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["agreed"], report["disagreements"]
    assert {"c-bitboard", "python-min-conflicts", "mzn-gecode", "choco", "sat-cadical"} <= set(
        report["matrix"]) | set(report["skipped"])


def manifest(tmp_path: Path, script: str, **flags: object) -> str:
    program = tmp_path / "prog.py"
    program.write_text(script, encoding="utf-8")
    lines = [f"{k} = {json.dumps(v)}" for k, v in flags.items()]
    path = tmp_path / "solver.toml"
    path.write_text("[solver]\nname = \"broken\"\nproblems = [\"nqueens\"]\n"
                    f"command = [{json.dumps(sys.executable)}, \"prog.py\"]\n" + "\n".join(lines),
                    encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(("script", "outcome", "why"), [
    ("print('[0, 0, 0, 0, 0, 0, 0, 0]')", "crash", "not a JSON object"),
    ("print('garbage')", "crash", "not JSON"),
    ("pass", "crash", "no result line"),
    ("import sys; print('dying', file=sys.stderr); sys.exit(3)", "crash", "status 3: dying"),
    ("import os, signal; os.kill(os.getpid(), signal.SIGKILL)", "crash", "signal 9"),
    ("print('{\"claim\": \"solved\", \"answer\": [0,0,0,0,0,0,0,0]}')", "wrong", "share a"),
    ("print('{\"claim\": \"solved\", \"answer\": \"abc\"}')", "wrong", "sequence"),
    ("print('{\"claim\": \"maybe\"}')", "crash", "malformed proposal"),
    ("print('{\"claim\": \"unknown\", \"counters\": {\"n\": \"x\"}}')", "crash", "malformed proposal"),
    ("import time; time.sleep(30)", "timeout", "hard limit"),
])
def test_a_broken_program_is_wrong_or_a_crash_with_a_reason(tmp_path: Path, script: str,
                                                             outcome: str, why: str) -> None:
    rec = run_solve(manifest(tmp_path, script), get_problem("nqueens").make(8),
                    budget=Budget(time_limit=0.5))
    v = rec.verdict
    assert v.outcome.value == outcome and why in (v.error or v.reason), (v.error, v.reason)


@pytest.mark.parametrize(("text", "why"), [
    ("[solver]\nname = 'x'\nproblems = ['nqueens']\n", "command"),
    ("[solver]\nname = 'x'\nproblems = ['chess']\ncommand = ['a']\n", "problems"),
    ("[solver]\nname = 'x'\nproblems = ['nqueens']\ncommand = ['a']\ncolour = 1\n", "colour"),
    ("nonsense = [", "TOML"),
])
def test_a_bad_manifest_is_one_line_and_exit_2(tmp_path: Path, capsys, text: str, why: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["solve", "nqueens", "8", "--solver", str(path)]) == 2
    err = capsys.readouterr().err
    assert why in err and len(err.strip().splitlines()) == 1
