"""What a C or Rust author naturally prints — 1-based rows and columns, a board drawn with Q
and . — is read through a declared manifest field (``base = 1``, ``answer_format = "board"``);
undeclared, it is refused with the field to declare, never judged ``wrong``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from puzzlebench.cli import main
from puzzlebench.harness.execute import run_solve
from puzzlebench.problems import get_problem
from puzzlebench.problems.conventions import (
    ConventionError,
    convention_hint,
    from_board,
    shift_base,
)
from puzzlebench.records.record import Outcome

#: A valid 8-queens answer (0-based) and a valid 5 × 5 board with 2 queens and 3 knights.
EIGHT = [0, 4, 7, 5, 2, 6, 1, 3]
PIECES = [["Q", 0, 3], ["N", 1, 0], ["N", 2, 0], ["Q", 3, 4], ["N", 4, 0]]


def board_of(problem: str, n: int) -> list[str]:
    rows = [["."] * n for _ in range(n)]
    if problem == "nqueens":
        for r, c in enumerate(EIGHT):
            rows[r][c] = "Q"
    else:
        for kind, r, c in PIECES:
            rows[r][c] = str(kind)
    return ["".join(row) for row in rows]


def program(tmp_path: Path, answer: Any, problem: str = "nqueens", **fields: object) -> str:
    """A manifest whose program prints ``answer`` as its result."""
    script = tmp_path / "prog.py"
    script.write_text("import json, sys\njson.load(sys.stdin)\n"
                      f"print(json.dumps({{'claim': 'solved', 'answer': {answer!r}}}))\n",
                      encoding="utf-8")
    lines = "".join(f"{k} = {json.dumps(v)}\n" for k, v in fields.items())
    path = tmp_path / "solver.toml"
    path.write_text(f"[solver]\nname = \"mine\"\nproblems = [\"{problem}\"]\n"
                    f"command = [{json.dumps(sys.executable)}, \"prog.py\"]\n{lines}",
                    encoding="utf-8")
    return str(path)


def make(problem: str) -> Any:
    return get_problem(problem).make(5, queens=2) if problem == "queens-knights" else \
        get_problem(problem).make(8)


ONE_BASED = {"nqueens": [c + 1 for c in EIGHT],
             "queens-knights": [[k, r + 1, c + 1] for k, r, c in PIECES]}


@pytest.mark.parametrize("problem", ["nqueens", "queens-knights"])
def test_declared_conventions_are_read(tmp_path: Path, problem: str) -> None:
    rec = run_solve(program(tmp_path, ONE_BASED[problem], problem, base=1), make(problem))
    v = rec.verdict
    assert v.outcome is Outcome.SOLVED and v.verified, (v.reason, v.error)
    rec = run_solve(program(tmp_path, board_of(problem, rec.key.size), problem,
                            answer_format="board"), make(problem))
    v = rec.verdict
    assert v.outcome is Outcome.SOLVED and v.verified, (v.reason, v.error)


@pytest.mark.parametrize(("problem", "answer", "says"), [
    ("nqueens", ONE_BASED["nqueens"], "declare base = 1 under [solver] in solver.toml"),
    ("queens-knights", ONE_BASED["queens-knights"], "declare base = 1"),
    ("nqueens", board_of("nqueens", 8), 'declare answer_format = "board"'),
    ("nqueens", "\n".join(board_of("nqueens", 8)), 'declare answer_format = "board"'),
])
def test_an_undeclared_convention_is_refused_with_the_field_to_declare(
        tmp_path: Path, problem: str, answer: Any, says: str) -> None:
    rec = run_solve(program(tmp_path, answer, problem), make(problem))
    v = rec.verdict
    assert v.outcome is Outcome.CRASH and says in v.error, (v.outcome, v.error)


def test_a_declared_convention_still_judges_a_wrong_answer_wrong(tmp_path: Path) -> None:
    rec = run_solve(program(tmp_path, [1] * 8, base=1), make("nqueens"))
    assert rec.verdict.outcome is Outcome.WRONG and "share a" in rec.verdict.reason
    board = board_of("nqueens", 8)
    board[1] = "." * 8  # row 1 left empty: no column to give it
    rec = run_solve(program(tmp_path, board, answer_format="board"), make("nqueens"))
    assert rec.verdict.outcome is Outcome.CRASH and "row 1" in rec.verdict.error


@pytest.mark.parametrize(("field", "says"), [
    ("base = 2", "[solver].base: 0 or 1"), ("base = true", "[solver].base"),
    ('answer_format = "grid"', "[solver].answer_format"),
])
def test_a_bad_convention_field_is_one_line_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, says: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(f"[solver]\nname = 'x'\nproblems = ['nqueens']\ncommand = ['a']\n{field}\n",
                    encoding="utf-8")
    assert main(["solve", "nqueens", "8", "--solver", str(path)]) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1


def test_the_conventions_translate_exactly() -> None:
    assert shift_base("nqueens", [1, 3], 1) == [0, 2]
    assert shift_base("queens-knights", [["Q", 1, 2]], 1) == [["Q", 0, 1]]
    assert shift_base("nqueens", "abc", 1) == "abc"  # not the encoding: left for the judge
    assert from_board("torus-queens", 2, "Q.\n.Q") == [0, 1]
    assert from_board("queens-knights", 2, "Q./.n") == [["Q", 0, 0], ["N", 1, 1]]
    for bad in (["Q.", "QQ"], ["Q."], ["Q.", "x."], 5):
        with pytest.raises(ConventionError):
            from_board("nqueens", 2, bad)
    assert convention_hint("nqueens", 4, [1, 3, 0, 2]) == ""  # a 0-based answer, right or wrong
    assert convention_hint("nqueens", 4, [4, 4, 4, 4]) == "1-based"
    assert convention_hint("nqueens", 4, [5, 1, 2, 3]) == ""  # off the board either way
    assert convention_hint("sliding", 4, "UDLR") == ""
