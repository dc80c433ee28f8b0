"""n-queens split by edge-queen constellations: one part of a count too big for one run.

Every n-queens solution has exactly one queen in each edge line — row 0, row n-1, column 0,
column n-1 — and these four queens are its *constellation* ``(top, bottom, left, right)``:
row 0's column, row n-1's column, column 0's row, column n-1's row. The eight symmetries of
the square move solutions and their constellations together, so each solution belongs to one
constellation *class*, named by its smallest image (the representative). This family splits
the solutions of the n × n board by class:

* **Instance** — n and ``part`` ``I/K`` (CLI ``--part``, study key ``part``): the solutions
  whose class is the I-th of every K, counting the representatives in increasing
  ``(top, bottom, left, right)`` order from 1 (representative j, 0-based, is in part
  ``j mod K + 1``: neighbouring classes, and so the heavy corner ones, are dealt to different
  parts). The K parts of a board are disjoint and hold all its solutions, so their counts sum
  to the board's (OEIS A000170), and their unique counts — the classes of solutions under the
  eight symmetries — to A002562 (a solution class has one constellation class).
* **Answer** — like nqueens, a column per row; valid when it is an n-queens solution whose
  constellation's class is in the part.
* **Facts** — for n ≤ ``EXACT_UP_TO`` this module enumerates the solutions itself (its own
  row-by-row search, independent of every solver) and knows every part's counts; above it a
  part's count is unverified on its own, and ``harness.campaign.split_count`` checks the sum.

Why a family and not a solver parameter: a part is a question with its own answer — a run's
key names it, its count is judged against what is known about it, and a stored part of a
count is a stored run like any other. ``problems.count_splits`` lists the parts of a split.
NQueensFAF's CPU solver splits its counts by the same constellations (the baseline
``constellations`` counts these parts).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from puzzlebench.problems.base import ConformanceCases, InvalidInstanceError, Verdict
from puzzlebench.problems.nqueens import NQueens, QueensInstance
from puzzlebench.problems.options import ProblemOption

#: Largest n whose solutions this module enumerates itself (every part's counts known).
EXACT_UP_TO = 10
#: Largest board whose representatives are listed (n⁴ candidate constellations).
MAX_N = 32

#: The most parts a board's constellation classes may be split into: each part is a run, and
#: ``count --split`` makes them all at once (``constellations:1000000000`` allocated for a
#: minute, then ran out of memory); parts beyond the board's classes would be empty anyway.
MAX_PARTS = 10_000

_PART = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")


def parse_part(value: Any) -> str:
    """The canonical ``I/K`` text of a part given as text or ``[I, K]``; raises
    InvalidInstanceError when malformed (1 ≤ I ≤ K)."""
    if isinstance(value, list | tuple) and len(value) == 2:
        value = f"{value[0]}/{value[1]}"
    match = _PART.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        raise InvalidInstanceError(f"a part is I/K (the I-th of K parts, e.g. 3/64), got {value!r}")
    part, parts = int(match[1]), int(match[2])
    if not 1 <= part <= parts:
        raise InvalidInstanceError(f"a part I/K needs 1 ≤ I ≤ K, got {part}/{parts}")
    return f"{part}/{parts}"


@dataclass(frozen=True, slots=True)
class SplitInstance(QueensInstance):
    """The n × n board's solutions whose constellation class is part ``part`` of ``parts``."""

    part: int = 1
    parts: int = 1
    problem: ClassVar[str] = "nqueens-split"

    def __post_init__(self) -> None:
        QueensInstance.__post_init__(self)
        if self.n > MAX_N:
            raise InvalidInstanceError(f"nqueens-split lists constellations for n ≤ {MAX_N}")
        if self.parts > MAX_PARTS:
            raise InvalidInstanceError(f"at most {MAX_PARTS:,} parts, got {self.parts:,}")
        if not 1 <= self.part <= self.parts:
            raise InvalidInstanceError(f"a part I/K needs 1 ≤ I ≤ K, got {self.part}/{self.parts}")

    @property
    def instance_id(self) -> str:
        return f"{self.problem}-{self.n}-{self.part}of{self.parts}"

    def describe(self) -> dict[str, Any]:
        return {"n": self.n, "part": f"{self.part}/{self.parts}"}


class NQueensSplit(NQueens):
    """The n-queens solutions of one part of the board's constellation classes."""

    id: ClassVar[str] = "nqueens-split"
    summary: ClassVar[str] = "n-queens solutions in one part of the edge-constellation classes"
    ioh_function: ClassVar[int | None] = None
    instance_type: ClassVar[type[QueensInstance]] = SplitInstance
    options: ClassVar[tuple[ProblemOption, ...]] = (
        ProblemOption("part", "nqueens-split: the part I/K (compare: several, ','-separated)",
                      parse_part, many=True, required=True),
    )
    compare_sizes: ClassVar[str] = "8..12"
    agree_sizes: ClassVar[str] = "4..10"

    def make(self, size: int, **options: Any) -> SplitInstance:
        unknown = set(options) - {"part"}
        if unknown:
            raise InvalidInstanceError(f"{self.id} options are 'part', got {sorted(unknown)}")
        if options.get("part") is None:
            raise InvalidInstanceError(f"{self.id} needs the part (--part I/K)")
        part, parts = (int(v) for v in parse_part(options["part"]).split("/"))
        return SplitInstance(size, part, parts)

    def options_of(self, instance: QueensInstance) -> dict[str, Any]:
        assert isinstance(instance, SplitInstance)
        return {"part": f"{instance.part}/{instance.parts}"}

    def validate(self, instance: QueensInstance, answer: Any) -> Verdict:
        verdict = super().validate(instance, answer)
        if not verdict.valid:
            return verdict
        assert isinstance(instance, SplitInstance)
        cols = [int(c) for c in self.columns(instance, answer)]
        index = class_index(instance.n, cols)
        if index % instance.parts + 1 != instance.part:
            return Verdict(False, f"the solution's constellation class (number {index + 1}) is "
                                  f"in part {index % instance.parts + 1}, not {instance.part}")
        return verdict

    def is_solvable(self, instance: QueensInstance) -> bool | None:
        count = self.known_count(instance)
        return None if count is None else count > 0

    def known_count(self, instance: QueensInstance, unique: bool = False) -> int | None:
        assert isinstance(instance, SplitInstance)
        if instance.n > EXACT_UP_TO:
            return None
        total, classes = _part_counts(instance.n, instance.parts)
        return (classes if unique else total)[instance.part - 1]

    def warmup_instance(self) -> SplitInstance:
        return self.make(8, part="1/4")

    def conformance_cases(self) -> ConformanceCases:
        return ConformanceCases(
            solvable=[self.make(1, part="1/1"), self.make(6, part="1/1"),
                      self.make(8, part="2/3")],
            # n = 3 has no solution; the one solution class of n = 4 and of n = 6 is in part 2/2
            infeasible=[self.make(3, part="1/1"), self.make(4, part="1/2"),
                        self.make(6, part="1/2")],
            hard=self.make(24, part="1/2"), capped=self.make(14, part="1/2"),
            reproducible=self.make(8, part="1/2"),
        )


def constellation(n: int, cols: list[int]) -> tuple[int, int, int, int]:
    """The edge queens (top, bottom, left, right) of a solution given as a column per row."""
    return cols[0], cols[n - 1], cols.index(0), cols.index(n - 1)


def images(n: int, key: tuple[int, int, int, int]) -> list[tuple[int, int, int, int]]:
    """The eight images of a constellation under the symmetries of the square (a symmetry
    moves each edge queen to the edge line its square lands on)."""
    t, b, le, r = key
    m = n - 1
    return [(t, b, le, r), (m - t, m - b, r, le), (b, t, m - le, m - r),
            (m - b, m - t, m - r, m - le), (le, r, t, b), (m - le, m - r, b, t),
            (r, le, m - t, m - b), (m - r, m - le, m - b, m - t)]


@lru_cache(maxsize=8)
def representatives(n: int) -> tuple[tuple[int, int, int, int], ...]:
    """Each constellation class's smallest member, in increasing order: four edge queens,
    no two attacking (a corner queen is named by both its lines, as one queen)."""
    m = n - 1
    out = []
    for t in range(n):
        for b in range(n):
            if not _peaceful({(0, t), (m, b)}):
                continue
            for le in range(n):
                if not _peaceful({(0, t), (m, b), (le, 0)}):
                    continue
                for r in range(n):
                    key = (t, b, le, r)
                    if _peaceful({(0, t), (m, b), (le, 0), (r, m)}) and key == min(images(n, key)):
                        out.append(key)
    return tuple(out)


def _peaceful(queens: set[tuple[int, int]]) -> bool:
    """No two of the queens (distinct squares) share a line."""
    squares = sorted(queens)
    return not any(r1 == r2 or c1 == c2 or abs(r1 - r2) == abs(c1 - c2)
                   for i, (r1, c1) in enumerate(squares) for r2, c2 in squares[i + 1:])


def class_index(n: int, cols: list[int]) -> int:
    """The 0-based position of a solution's constellation class among ``representatives``."""
    reps = representatives(n)
    key = min(images(n, constellation(n, cols)))
    return reps.index(key)


@lru_cache(maxsize=16)
def _part_counts(n: int, parts: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(solutions, solution classes) of each part, from this module's own enumeration."""
    total = [0] * parts
    classes: list[set[tuple[int, ...]]] = [set() for _ in range(parts)]
    for cols in _solutions(n):
        part = class_index(n, cols) % parts
        total[part] += 1
        classes[part].add(_canonical(n, cols))
    return tuple(total), tuple(len(c) for c in classes)


def _canonical(n: int, cols: list[int]) -> tuple[int, ...]:
    """A solution's smallest image under the eight symmetries (rows and columns swap under
    the transpose: a solution is a permutation, so its inverse)."""
    m = n - 1
    inverse = [0] * n
    for row, col in enumerate(cols):
        inverse[col] = row
    forms = []
    for p in (cols, inverse):
        forms += [tuple(p), tuple(m - c for c in p), tuple(p[::-1]), tuple(m - c for c in p[::-1])]
    return min(forms)


def _solutions(n: int) -> list[list[int]]:
    """Every n-queens solution, by plain row-by-row search (the judge's own code)."""
    out: list[list[int]] = []
    cols: list[int] = []

    def place(row: int) -> None:
        if row == n:
            out.append(list(cols))
            return
        for c in range(n):
            if all(c != q and abs(c - q) != row - r for r, q in enumerate(cols)):
                cols.append(c)
                place(row + 1)
                cols.pop()

    place(0)
    return out
