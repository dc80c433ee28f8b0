"""Queens and knights (seed 004): n pieces on an n × n board, A queens and n − A knights.

A queen may share no row, column or diagonal with any other piece; no knight may attack any
piece; no two pieces stand on one square. Lines are not blocked by pieces in between.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from puzzlebench.problems.base import (
    ConformanceCases,
    Instance,
    InvalidAnswerError,
    InvalidInstanceError,
    Problem,
    Verdict,
)
from puzzlebench.problems.known_counts import oeis
from puzzlebench.problems.nqueens import check_size
from puzzlebench.problems.options import ProblemOption, count

Piece = tuple[str, int, int]


def _whole(value: Any) -> bool:
    """A whole number (int, or an integral float; numpy's too), never a bool or text."""
    if isinstance(value, bool | np.bool_) or not isinstance(
            value, int | float | np.integer | np.floating):
        return False
    return float(value).is_integer()
KNIGHT_STEPS: tuple[tuple[int, int], ...] = (
    (2, 1), (2, -1), (-2, 1), (-2, -1), (1, 2), (1, -2), (-1, 2), (-1, -2),
)


@dataclass(frozen=True, slots=True)
class QueensKnightsInstance(Instance):
    """An n × n board holding ``queens`` queens and n − queens knights."""

    n: int
    queens: int
    problem: ClassVar[str] = "queens-knights"

    def __post_init__(self) -> None:
        check_size(self.n)
        if isinstance(self.queens, bool) or not isinstance(self.queens, int):
            raise InvalidInstanceError(f"queens A must be an integer, got {self.queens!r}")
        if not 0 <= self.queens <= self.n:
            raise InvalidInstanceError(f"queens A must be in 0..n = 0..{self.n}, got {self.queens}")

    @property
    def size(self) -> int:
        return self.n

    @property
    def knights(self) -> int:
        return self.n - self.queens

    @property
    def instance_id(self) -> str:
        return f"{self.problem}-{self.n}-A{self.queens}"

    def describe(self) -> dict[str, Any]:
        return {"n": self.n, "queens": self.queens}


def as_pieces(instance: QueensKnightsInstance, answer: Any) -> list[Piece]:
    """Coerce an answer to a list of (kind, row, col), or raise InvalidAnswerError."""
    if isinstance(answer, str | bytes) or answer is None:
        raise InvalidAnswerError("a queens-knights answer is a list of (kind, row, col)")
    pieces: list[Piece] = []
    try:
        items = list(answer)
    except TypeError:
        raise InvalidAnswerError("a queens-knights answer is a list of (kind, row, col)") from None
    n = instance.n
    if len(items) != n:
        raise InvalidAnswerError(f"expected {n} pieces, got {len(items)}")
    for i, item in enumerate(items):
        try:
            kind, row, col = item
        except (TypeError, ValueError):
            raise InvalidAnswerError(f"piece {i} is not a (kind, row, col) triple: {item!r}") from None
        kind = str(kind).upper()
        if kind not in ("Q", "N"):
            raise InvalidAnswerError(f"piece {i} has kind {kind!r}; kinds are Q and N")
        if isinstance(row, bool) or isinstance(col, bool):
            raise InvalidAnswerError(f"piece {i} has a non-integer square")
        try:
            r, c = int(row), int(col)
            integral = r == row and c == col
        except (TypeError, ValueError, OverflowError):
            integral = False
        if not integral:
            raise InvalidAnswerError(f"piece {i} has a non-integer square {item!r}")
        if r != row or c != col:
            raise InvalidAnswerError(f"piece {i} has a non-integer square {item!r}")
        if not (0 <= r < n and 0 <= c < n):
            raise InvalidAnswerError(f"piece {i} at ({r}, {c}) is off the {n}×{n} board")
        pieces.append((kind, r, c))
    q = sum(1 for p in pieces if p[0] == "Q")
    if q != instance.queens:
        raise InvalidAnswerError(f"expected {instance.queens} queens, got {q}")
    return pieces


def conflict_pairs(pieces: list[Piece], n: int, *, first_only: bool = False) -> list[tuple[int, int]]:
    """Unordered index pairs (i, j), i < j, where one piece attacks the other or they share a
    square. Vectorised over pieces with numpy (O(k²) memory for k pieces, fine for boards a
    local search handles)."""
    if not pieces:
        return []
    kinds = np.array([p[0] == "Q" for p in pieces])
    r = np.array([p[1] for p in pieces], dtype=np.int64)
    c = np.array([p[2] for p in pieces], dtype=np.int64)
    dr = np.abs(r[:, None] - r[None, :])
    dc = np.abs(c[:, None] - c[None, :])
    same_square = (dr == 0) & (dc == 0)
    line = (dr == 0) | (dc == 0) | (dr == dc)
    knight = ((dr == 1) & (dc == 2)) | ((dr == 2) & (dc == 1))
    queen_any = kinds[:, None] | kinds[None, :]
    knight_any = ~kinds[:, None] | ~kinds[None, :]
    bad: npt.NDArray[np.bool_] = same_square | (line & queen_any) | (knight & knight_any)
    bad = np.triu(bad, k=1)
    idx = np.argwhere(bad)
    if first_only:
        idx = idx[:1]
    return [(int(i), int(j)) for i, j in idx]


class QueensKnights(Problem):
    """Seed 004's mixed board. Facts: A = n is nqueens; A = 0 is always solvable (all knights
    on one colour never attack); other A are decided only by complete solvers."""

    id: ClassVar[str] = "queens-knights"
    summary: ClassVar[str] = "A queens and n−A knights on an n×n board, no piece attacked"
    ioh_function: ClassVar[int | None] = 2
    options: ClassVar[tuple[ProblemOption, ...]] = (
        ProblemOption("queens", "queens-knights: queens A (compare/agree: a list, 0,2,4 or 0..4)",
                      count, many=True, required=True, ranges=True),
    )

    def options_of(self, instance: QueensKnightsInstance) -> dict[str, Any]:
        return {"queens": instance.queens}

    def make(self, size: int, **options: Any) -> QueensKnightsInstance:
        unknown = set(options) - {"queens"}
        if unknown:
            raise InvalidInstanceError(f"{self.id} options are 'queens', got {sorted(unknown)}")
        if options.get("queens") is None:
            raise InvalidInstanceError(f"{self.id} needs the number of queens A (--queens)")
        return QueensKnightsInstance(size, options["queens"])

    def validate(self, instance: QueensKnightsInstance, answer: Any) -> Verdict:
        try:
            pieces = as_pieces(instance, answer)
        except InvalidAnswerError as exc:
            return Verdict(False, str(exc))
        pairs = conflict_pairs(pieces, instance.n, first_only=True)
        if pairs:
            i, j = pairs[0]
            a, b = pieces[i], pieces[j]
            if a[1:] == b[1:]:
                why = "stand on the same square"
            else:
                why = "attack each other" if a[0] == b[0] else "are in conflict"
            return Verdict(
                False,
                f"{_name(a[0])} at ({a[1]}, {a[2]}) and {_name(b[0])} at ({b[1]}, {b[2]}) {why}",
            )
        return Verdict(True)

    def conflicts(self, instance: QueensKnightsInstance, answer: Any) -> int:
        """Unordered pairs of pieces in conflict (one attacks the other, or a shared square)."""
        return len(conflict_pairs(as_pieces(instance, answer), instance.n))

    def pieces_in_conflict(self, instance: QueensKnightsInstance, answer: Any) -> int:
        """Pieces involved in at least one conflict (seed 004's heuristic)."""
        involved: set[int] = set()
        for i, j in conflict_pairs(as_pieces(instance, answer), instance.n):
            involved.update((i, j))
        return len(involved)

    def parse_answer(self, instance: QueensKnightsInstance, text: str) -> list[Piece]:
        """``Q:0:1,N:2:3`` or ``Q0,1 ...`` — accepted form: comma-separated ``KIND:ROW:COL``."""
        pieces: list[Piece] = []
        for tok in [t for t in text.replace(" ", ",").split(",") if t]:
            parts = tok.split(":")
            if len(parts) != 3:
                raise InvalidAnswerError(f"piece {tok!r} is not KIND:ROW:COL (e.g. Q:0:1)")
            try:
                pieces.append((parts[0].upper(), int(parts[1]), int(parts[2])))
            except ValueError:
                raise InvalidAnswerError(f"piece {tok!r} has a non-integer square") from None
        as_pieces(instance, pieces)
        return pieces

    def answer_to_json(self, answer: Any) -> list[list[Any]]:
        """The pieces as ``[kind, row, col]``; refuses (InvalidAnswerError) what is not a list
        of such triples with a text kind and whole-number squares (text is never read as a
        number, and a one-shot iterator is never consumed)."""
        items = answer.tolist() if hasattr(answer, "tolist") else answer
        if isinstance(items, str | bytes | bytearray) or not isinstance(items, Sequence):
            raise InvalidAnswerError("a queens-knights answer is a list of [kind, row, col], "
                                     f"not {type(answer).__name__}")
        out: list[list[Any]] = []
        for i, item in enumerate(items):
            if isinstance(item, str | bytes | bytearray) or not isinstance(item, Sequence) \
                    or len(item) != 3:
                raise InvalidAnswerError(f"piece {i} is not a [kind, row, col] triple")
            kind, row, col = item
            if not isinstance(kind, str) or not all(_whole(v) for v in (row, col)):
                raise InvalidAnswerError(f"piece {i} is not a text kind on whole-number "
                                         "squares")
            out.append([kind, int(row), int(col)])
        return out

    def canonical_answer(self, instance: QueensKnightsInstance, answer: Any) -> list[list[Any]]:
        return self.answer_to_json(as_pieces(instance, answer))

    def answer_from_json(self, data: Any) -> list[Piece]:
        return [(str(k), int(r), int(c)) for k, r, c in data]

    def in_grid(self, size: int, options: Mapping[str, Any]) -> bool:
        """A > n is not an instance: grids over A skip it."""
        return int(options.get("queens", 0)) <= size

    def answer_key(self, data: Any) -> str:
        """Pieces in any order are the same answer."""
        return super().answer_key(sorted(data) if isinstance(data, list) else data)

    def agreement_instances(self, size: int, entry: Mapping[str, Any]) -> list[Instance]:
        """Every A in 0..n unless ``queens`` names some (the grid: those ≤ n)."""
        if entry.get("queens") is not None:
            return super().agreement_instances(size, entry)
        return [self.make(size, queens=a) for a in range(size + 1)]

    def conformance_cases(self) -> ConformanceCases:
        return ConformanceCases(
            solvable=[self.make(5, queens=0), self.make(6, queens=2), self.make(8, queens=8)],
            infeasible=[self.make(2, queens=1), self.make(3, queens=3)],
            hard=self.make(12, queens=7),
            capped=self.make(10, queens=6),
            reproducible=self.make(6, queens=2),
        )

    def warmup_instance(self) -> QueensKnightsInstance:
        return self.make(8, queens=2)

    def is_solvable(self, instance: QueensKnightsInstance) -> bool | None:
        if instance.queens == instance.n:
            return instance.n == 1 or instance.n >= 4
        if instance.queens == 0:
            return True
        return None

    def known_count(self, instance: QueensKnightsInstance, unique: bool = False) -> int | None:
        if instance.queens == instance.n:
            table = oeis("A002562" if unique else "A000170")
            return table[instance.n] if instance.n < len(table) else None
        return None

    def render(self, instance: QueensKnightsInstance, answer: Any) -> str:
        pieces = as_pieces(instance, answer)
        grid = [["."] * instance.n for _ in range(instance.n)]
        for kind, r, c in pieces:
            grid[r][c] = kind
        return "\n".join(" ".join(row) for row in grid)


def _name(kind: str) -> str:
    return "queen" if kind == "Q" else "knight"
