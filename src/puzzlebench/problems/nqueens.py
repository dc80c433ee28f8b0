"""The classic n-queens problem: n queens, one per row, no shared column or diagonal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import puzzlebench.problems.queens_lines as ql
from puzzlebench.problems.base import (
    ConformanceCases,
    Instance,
    InvalidAnswerError,
    InvalidInstanceError,
    Problem,
    Verdict,
)
from puzzlebench.problems.known_counts import oeis

#: The judge's published counts (OEIS A000170, A002562) are read on use from a file that sealed
#: runs cannot see (``problems.known_counts``); these names stay for the judge's and the
#: tests' imports (``from puzzlebench.problems.nqueens import A000170``).
JUDGE_TABLES = ("A000170", "A002562")


def __getattr__(name: str) -> tuple[int, ...]:
    if name in JUDGE_TABLES:
        return oeis(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def check_size(n: Any, what: str = "board size n") -> int:
    """Accept a positive int (bool excluded) or raise InvalidInstanceError."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise InvalidInstanceError(f"{what} must be an integer, got {n!r}")
    if n <= 0:
        raise InvalidInstanceError(f"{what} must be at least 1, got {n}")
    return n


@dataclass(frozen=True, slots=True)
class QueensInstance(Instance):
    """n queens on an n × n board."""

    n: int
    problem: ClassVar[str] = "nqueens"
    #: Capability flag for solvers: diagonals wrap around the board (torus-queens).
    wraps: ClassVar[bool] = False

    def __post_init__(self) -> None:
        check_size(self.n)

    @property
    def fixed(self) -> tuple[tuple[int, int], ...]:
        """Queens every answer must keep, as (row, col) sorted by row (none here; see
        nqueens-completion). Solvers read this flag, never the problem's id."""
        return ()

    @property
    def size(self) -> int:
        return self.n

    @property
    def instance_id(self) -> str:
        return f"{self.problem}-{self.n}"

    def describe(self) -> dict[str, Any]:
        return {"n": self.n}


class NQueens(Problem):
    """Queens attack along rows, columns and both diagonals; lines are not blocked."""

    id: ClassVar[str] = "nqueens"
    summary: ClassVar[str] = "n non-attacking queens on an n×n board"
    ioh_function: ClassVar[int | None] = 1
    torus: ClassVar[bool] = False
    instance_type: ClassVar[type[QueensInstance]] = QueensInstance

    def make(self, size: int, **options: Any) -> QueensInstance:
        if options:
            raise InvalidInstanceError(f"{self.id} takes no options, got {sorted(options)}")
        return self.instance_type(size)

    def columns(self, instance: QueensInstance, answer: Any) -> ql.IntArray:
        """The answer as a checked int64 array (raises InvalidAnswerError when malformed)."""
        return ql.as_columns(answer, instance.n)

    def validate(self, instance: QueensInstance, answer: Any) -> Verdict:
        try:
            cols = self.columns(instance, answer)
        except InvalidAnswerError as exc:
            return Verdict(False, str(exc))
        return ql.judge(cols, self.torus)

    def conflicts(self, instance: QueensInstance, answer: Any) -> int:
        """Unordered pairs of attacking queens (seed 000's H1)."""
        return ql.attacking_pairs(self.columns(instance, answer), self.torus)

    def parse_answer(self, instance: QueensInstance, text: str) -> list[int]:
        cols = ql.parse_columns(text)
        self.columns(instance, cols)
        return cols

    def answer_to_json(self, answer: Any) -> list[int]:
        """The columns as ints; refuses (InvalidAnswerError) what is not a list of numbers or
        holds numbers that are not whole (text is never read as a number)."""
        cols = ql.column_list(answer)
        if not all(float(c).is_integer() for c in cols if not isinstance(c, int)):
            raise InvalidAnswerError("column numbers must be integers")
        return [int(c) for c in cols]

    def canonical_answer(self, instance: QueensInstance, answer: Any) -> list[int]:
        return self.answer_to_json(self.columns(instance, answer))

    def answer_from_json(self, data: Any) -> list[int]:
        return [int(c) for c in data]

    def is_solvable(self, instance: QueensInstance) -> bool | None:
        return instance.n == 1 or instance.n >= 4

    def known_count(self, instance: QueensInstance, unique: bool = False) -> int | None:
        table = oeis("A002562" if unique else "A000170")
        return table[instance.n] if instance.n < len(table) else None

    def render(self, instance: QueensInstance, answer: Any) -> str:
        return ql.draw(self.columns(instance, answer))

    def conformance_cases(self) -> ConformanceCases:
        return ConformanceCases(
            solvable=[self.make(1), self.make(5), self.make(8)],
            infeasible=[self.make(2), self.make(3)],
            hard=self.make(200), capped=self.make(30), reproducible=self.make(8),
            large=self.make(10_000),
        )
