"""Answers written in another ecosystem's convention, read as the problem's own encoding.

MiniZinc models and C or Rust programs naturally number rows and columns from 1, or draw the
board with ``Q`` and ``.``; the problems' encodings are 0-based (a column per row for the queens
problems, ``(kind, row, col)`` pieces for queens-knights). The functions here translate a
*declared* convention (a model's declared domain, a manifest's field); they never guess.
``convention_hint`` only names the likely convention of an undeclared answer, so that it can be
refused with a message that says what to change instead of being judged ``wrong``.
"""

from __future__ import annotations

from typing import Any

from puzzlebench.problems.base import PuzzlebenchError

#: The index bases an answer may be declared in.
BASES = (0, 1)
#: How a program may write its answer: the problem's encoding, or a drawn board.
ANSWER_FORMATS = ("encoding", "board")
QUEENS_PROBLEMS = frozenset({"nqueens", "nqueens-completion", "torus-queens"})


class ConventionError(PuzzlebenchError, ValueError):
    """An answer its declared convention cannot read (the message says what is wrong)."""


def _ints(values: Any) -> list[int] | None:
    """``values`` as a list of whole ints, or None when it is not one (bools excluded)."""
    if not isinstance(values, list | tuple):
        return None
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int):
            return None
        out.append(v)
    return out


def shift_base(problem: str, answer: Any, base: int) -> Any:
    """An answer numbered from ``base`` renumbered from 0: the columns of a queens answer, the
    rows and columns of queens-knights pieces. An answer of another shape is returned as it is,
    for the judge to refuse."""
    if base not in BASES:
        raise ConventionError(f"index base {base!r} is not one of {BASES}")
    if base == 0 or answer is None:
        return answer
    if problem in QUEENS_PROBLEMS:
        cols = _ints(answer)
        return answer if cols is None else [c - base for c in cols]
    if problem == "queens-knights" and isinstance(answer, list | tuple):
        out: list[Any] = []
        for piece in answer:
            if isinstance(piece, list | tuple) and len(piece) == 3 and _ints(piece[1:]) is not None:
                out.append([piece[0], piece[1] - base, piece[2] - base])
            else:
                out.append(piece)
        return out
    return answer


def board_rows(board: Any) -> list[str]:
    """The rows of a drawn board: a list of strings, or one string with a row per line (or
    rows separated by ``/``)."""
    if isinstance(board, str):
        sep = "\n" if "\n" in board else "/"
        rows = [row.strip() for row in board.strip().split(sep)]
    elif isinstance(board, list | tuple) and all(isinstance(r, str) for r in board):
        rows = [row.strip() for row in board]
    else:
        raise ConventionError("a board answer is a list of row strings (or one string with a "
                              f"row per line), got {type(board).__name__}")
    return [row.replace(" ", "") for row in rows]


def from_board(problem: str, n: int, board: Any) -> Any:
    """A board drawn with ``Q`` (queen), ``N`` (knight) and ``.`` (empty) as the problem's
    answer: columns per row for the queens problems (one queen a row), pieces for
    queens-knights. A board that is not n rows of n squares raises ConventionError."""
    rows = board_rows(board)
    if len(rows) != n:
        raise ConventionError(f"the board has {len(rows)} rows; an n = {n} board has {n}")
    for r, row in enumerate(rows):
        if len(row) != n or set(row.upper()) - set("QN."):
            raise ConventionError(f"board row {r} is {row[:80]!r}: {n} squares, each Q, N or .")
    if problem in QUEENS_PROBLEMS:
        cols = []
        for r, row in enumerate(rows):
            where = [c for c, square in enumerate(row.upper()) if square == "Q"]
            if len(where) != 1 or "N" in row.upper():
                raise ConventionError(f"board row {r} is {row!r}: a {problem} board holds "
                                      "exactly one Q a row and nothing else")
            cols.append(where[0])
        return cols
    if problem == "queens-knights":
        return [[square, r, c] for r, row in enumerate(rows)
                for c, square in enumerate(row.upper()) if square != "."]
    raise ConventionError(f"{problem} answers are not boards")


def convention_hint(problem: str, n: int, answer: Any) -> str:
    """The convention an undeclared answer appears to be written in — ``'board'``,
    ``'1-based'`` — or '' when it reads as the problem's 0-based encoding (right or wrong).

    An answer is called 1-based only when it cannot be a 0-based one: every number in 1..n and
    some equal to n, one past the last 0-based index."""
    if isinstance(answer, str) and problem != "sliding" and set(answer.upper()) & set("QN"):
        return "board"
    if isinstance(answer, list | tuple) and answer and all(isinstance(r, str) for r in answer):
        return "board" if problem != "sliding" else ""
    numbers: list[int] | None = None
    if problem in QUEENS_PROBLEMS:
        numbers = _ints(answer)
    elif problem == "queens-knights" and isinstance(answer, list | tuple):
        numbers = []
        for piece in answer:
            squares = _ints(piece[1:]) if isinstance(piece, list | tuple) and len(piece) == 3 else None
            if squares is None:
                return ""
            numbers += squares
    if numbers and min(numbers) >= 1 and max(numbers) == n:
        return "1-based"
    return ""
