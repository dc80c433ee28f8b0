"""The puzzle families: instances, independent validators, conflict counts and known facts.

Nothing here imports solver or harness code.
"""

from __future__ import annotations

from puzzlebench.problems.base import (
    Instance,
    InvalidAnswerError,
    InvalidInstanceError,
    Problem,
    PuzzlebenchError,
    Verdict,
)
from puzzlebench.problems.nqueens import NQueens, QueensInstance
from puzzlebench.problems.queens_knights import QueensKnights, QueensKnightsInstance
from puzzlebench.problems.sliding import Sliding, SlidingInstance
from puzzlebench.problems.torus_queens import TorusQueens, TorusQueensInstance

PROBLEMS: dict[str, Problem] = {p.id: p for p in (NQueens(), TorusQueens(), QueensKnights(), Sliding())}


def get_problem(problem_id: str) -> Problem:
    """The problem object for an id, or InvalidInstanceError naming the known ids."""
    try:
        return PROBLEMS[problem_id]
    except KeyError:
        raise InvalidInstanceError(
            f"unknown problem {problem_id!r}; known: {', '.join(PROBLEMS)}"
        ) from None


def problem_of(instance: Instance) -> Problem:
    """The problem an instance belongs to."""
    return PROBLEMS[instance.problem]


__all__ = [
    "PROBLEMS",
    "Instance",
    "InvalidAnswerError",
    "InvalidInstanceError",
    "NQueens",
    "Problem",
    "PuzzlebenchError",
    "QueensInstance",
    "QueensKnights",
    "QueensKnightsInstance",
    "Sliding",
    "SlidingInstance",
    "TorusQueens",
    "TorusQueensInstance",
    "Verdict",
    "get_problem",
    "problem_of",
]
