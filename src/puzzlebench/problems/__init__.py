"""The puzzle families: instances, independent validators, conflict counts and known facts.

Nothing here imports solver or harness code.
"""

from __future__ import annotations

from puzzlebench.problems.base import (
    ConformanceCases,
    Instance,
    InvalidAnswerError,
    InvalidInstanceError,
    Problem,
    PuzzlebenchError,
    Verdict,
)
from puzzlebench.problems.catalogue import PROBLEMS, get_problem, problem_of, register_problem
from puzzlebench.problems.nqueens import NQueens, QueensInstance
from puzzlebench.problems.options import ProblemOption
from puzzlebench.problems.queens_knights import QueensKnights, QueensKnightsInstance
from puzzlebench.problems.sliding import Sliding, SlidingInstance
from puzzlebench.problems.torus_queens import TorusQueens, TorusQueensInstance

__all__ = [
    "PROBLEMS",
    "ConformanceCases",
    "Instance",
    "InvalidAnswerError",
    "InvalidInstanceError",
    "NQueens",
    "Problem",
    "ProblemOption",
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
    "register_problem",
]
