"""n-queens completion: some queens already stand on the board; place the rest.

Unlike plain n-queens (which a closed form solves for every n ≥ 4), completion is NP-complete
and #P-complete (Gent, Jefferson & Nightingale, "Complexity of n-Queens Completion", JAIR 59,
2017), which is why CP and SAT benchmarks use it.

* **Instance** — n and the pre-placed queens, written ``ROW:COL,...`` (0-based, e.g.
  ``0:3,5:7``; CLI ``--placed``, study key ``placed``, a list makes a grid). Two placed queens
  on one square, or two in one row, is malformed; placed queens that attack each other make
  an instance with no solution (the one rule that decides solvability).
* **Answer** — like nqueens, a column per row; it must keep every placed queen.
* **Facts** — no rule decides solvability in general. For n ≤ ``EXACT_UP_TO`` this module
  enumerates the completions itself (its own small backtracking, independent of every
  solver), so answers, ``infeasible`` claims and counts are checked there. Above it an
  ``infeasible`` claim is *unverified* unless two different solvers make it and no run finds a
  solution (``harness.judging.cross_run``); any valid answer found by another run makes it ``wrong``.
* **Generator** — ``generate`` (``compare --generate K``, study key ``generate = K``) follows
  the paper's natural generator: queens are placed one at a time, each on a square chosen
  uniformly among those no placed queen attacks, until ``round(PLACED_FRACTION · n)`` stand
  (a dead end, where no free square is left, starts over). The paper reports that this
  generator does not make consistently hard instances. ``PLACED_FRACTION`` = 0.5 puts the
  generated instances at the solvability threshold on the sizes this project runs, measured by
  ``benchmarks/completion_hardness.py`` (20 instances per point, CP-SAT deciding): at n = 20,
  40 % solvable at 0.5 (100 % at 0.4, 5 % at 0.6); at n = 30, 100 % at 0.5 and 40 % at 0.6,
  with 14 of 20 instances at 0.5 beyond 5 s of row-by-row backtracking. CP-SAT decides every
  one of them in under 0.1 s: these sizes separate search strategies, not CP engines.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

import puzzlebench.problems.queens_lines as ql
from puzzlebench.problems.base import ConformanceCases, Instance, InvalidInstanceError, Verdict
from puzzlebench.problems.nqueens import NQueens, QueensInstance
from puzzlebench.problems.options import ProblemOption

Square = tuple[int, int]

#: Largest n whose completions this module enumerates itself (solvability and counts known).
EXACT_UP_TO = 10
#: Placed queens per board square row in generated instances (see the module docstring).
PLACED_FRACTION = 0.5
#: Longest placed list written out in an instance id; longer ones are named by a digest.
ID_LIST_UP_TO = 4


def parse_placed(value: Any) -> str:
    """The canonical ``ROW:COL,...`` text (sorted by row) of a placed-queen list given as text
    or as ``[[row, col], ...]``; raises InvalidInstanceError when malformed."""
    return placed_text(_squares(value))


def _squares(value: Any) -> tuple[Square, ...]:
    """The placed queens of ``ROW:COL,...`` text or ``[[row, col], ...]``, sorted."""
    squares: list[Square] = []
    if isinstance(value, str):
        for tok in (t.strip() for t in value.replace(" ", ",").split(",")):
            if not tok:
                continue
            row, sep, col = tok.partition(":")
            if not sep or not row.strip().isdigit() or not col.strip().isdigit():
                raise InvalidInstanceError(f"a placed queen is ROW:COL (e.g. 0:3), got {tok!r}")
            squares.append((int(row), int(col)))
    elif isinstance(value, list | tuple):
        for item in value:
            if (not isinstance(item, list | tuple) or len(item) != 2
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)):
                raise InvalidInstanceError(f"a placed queen is [row, col], got {item!r}")
            squares.append((int(item[0]), int(item[1])))
    else:
        raise InvalidInstanceError(f"placed queens are ROW:COL,... text, got {value!r}")
    return tuple(sorted(squares))


def placed_text(placed: tuple[Square, ...]) -> str:
    return ",".join(f"{r}:{c}" for r, c in placed)


@dataclass(frozen=True, slots=True)
class CompletionInstance(QueensInstance):
    """n queens on an n × n board, ``placed`` ((row, col), sorted by row) already standing."""

    placed: tuple[Square, ...] = ()
    problem: ClassVar[str] = "nqueens-completion"

    def __post_init__(self) -> None:
        QueensInstance.__post_init__(self)
        rows = [r for r, _ in self.placed]
        for r, c in self.placed:
            if not (0 <= r < self.n and 0 <= c < self.n):
                raise InvalidInstanceError(f"placed queen {r}:{c} is off the {self.n}×{self.n} board")
        if len(set(rows)) != len(rows):
            row = next(r for r in rows if rows.count(r) > 1)
            raise InvalidInstanceError(f"two queens are placed in row {row}; a row holds one")
        if list(self.placed) != sorted(self.placed):
            raise InvalidInstanceError("placed queens must be sorted by row")

    @property
    def fixed(self) -> tuple[Square, ...]:
        return self.placed

    @property
    def instance_id(self) -> str:
        text = placed_text(self.placed)
        if len(self.placed) <= ID_LIST_UP_TO:
            return f"{self.problem}-{self.n}-{text or 'none'}"
        digest = hashlib.sha256(text.encode()).hexdigest()[:10]
        return f"{self.problem}-{self.n}-k{len(self.placed)}-{digest}"

    def describe(self) -> dict[str, Any]:
        return {"n": self.n, "placed": placed_text(self.placed)}


class NQueensCompletion(NQueens):
    """Complete a partial placement of non-attacking queens to n queens."""

    id: ClassVar[str] = "nqueens-completion"
    summary: ClassVar[str] = "complete n queens around pre-placed ones (NP-complete)"
    ioh_function: ClassVar[int | None] = 5
    instance_type: ClassVar[type[QueensInstance]] = CompletionInstance
    options: ClassVar[tuple[ProblemOption, ...]] = (
        ProblemOption("placed", "nqueens-completion: pre-placed queens ROW:COL,... "
                      "(compare: several lists, ';'-separated)", parse_placed,
                      many=True, separator=";", required=True),
    )
    compare_sizes: ClassVar[str] = "8..12"
    agree_sizes: ClassVar[str] = "4..10"
    generates: ClassVar[bool] = True

    def make(self, size: int, **options: Any) -> CompletionInstance:
        unknown = set(options) - {"placed"}
        if unknown:
            raise InvalidInstanceError(f"{self.id} options are 'placed', got {sorted(unknown)}")
        if options.get("placed") is None:
            raise InvalidInstanceError(f"{self.id} needs the pre-placed queens (--placed ROW:COL,...)")
        return CompletionInstance(size, _squares(options["placed"]))

    def options_of(self, instance: QueensInstance) -> dict[str, Any]:
        return {"placed": placed_text(instance.fixed)}

    def validate(self, instance: QueensInstance, answer: Any) -> Verdict:
        verdict = super().validate(instance, answer)
        if not verdict.valid:
            return verdict
        cols = self.columns(instance, answer)
        for r, c in instance.fixed:
            if int(cols[r]) != c:
                return Verdict(False, f"the queen placed at (row {r}, col {c}) was moved to "
                                      f"col {int(cols[r])}")
        return verdict

    def conflicts(self, instance: QueensInstance, answer: Any) -> int:
        """Attacking pairs plus one per placed queen the answer moved."""
        cols = self.columns(instance, answer)
        moved = sum(int(cols[r]) != c for r, c in instance.fixed)
        return ql.attacking_pairs(cols, False) + moved

    def is_solvable(self, instance: QueensInstance) -> bool | None:
        if _placed_attack(instance.fixed):
            return False
        if instance.n <= EXACT_UP_TO:
            return _completions(instance.n, instance.fixed, first_only=True) > 0
        return None

    def known_count(self, instance: QueensInstance, unique: bool = False) -> int | None:
        if unique:
            return None  # placed queens break the board's symmetry: no unique count is kept
        if _placed_attack(instance.fixed):
            return 0
        if instance.n <= EXACT_UP_TO:
            return _completions(instance.n, instance.fixed, first_only=False)
        return None

    def generate(self, size: int, count: int, rng: np.random.Generator) -> list[Instance]:
        """``count`` instances from the natural generator (module docstring), drawn with rng."""
        k = round(PLACED_FRACTION * size)
        out: list[Instance] = []
        while len(out) < count:
            placed = _random_placement(size, k, rng)
            if placed is not None:
                out.append(CompletionInstance(size, placed))
        return out

    def warmup_instance(self) -> CompletionInstance:
        return self.make(8, placed="0:0")

    def agreement_instances(self, size: int, entry: Mapping[str, Any]) -> list[Instance]:
        """The given placements, else three generated with seed ``size`` (the same on every
        machine)."""
        if entry.get("placed"):
            return super().agreement_instances(size, entry)
        return self.generate(size, 3, np.random.default_rng(size))

    def conformance_cases(self) -> ConformanceCases:
        return ConformanceCases(
            solvable=[self.make(1, placed="0:0"), self.make(5, placed="0:0"),
                      self.make(8, placed="0:0,1:4")],
            # 4 and 6 queens have no solution with a queen in a corner; 8:0:0,1:1 attack.
            infeasible=[self.make(4, placed="0:0"), self.make(6, placed="0:0"),
                        self.make(8, placed="0:0,1:1")],
            hard=self.make(200, placed="0:0,199:1"),
            capped=self.make(30, placed="0:0"),
            reproducible=self.make(8, placed="0:0"),
            large=self.make(10_000, placed="0:0,9999:1"),
        )


def _placed_attack(placed: tuple[Square, ...]) -> bool:
    """Whether two placed queens share a column or a diagonal (rows are distinct)."""
    cols = [c for _, c in placed]
    sums = [r + c for r, c in placed]
    diffs = [r - c for r, c in placed]
    return any(len(set(v)) != len(v) for v in (cols, sums, diffs))


def _completions(n: int, placed: tuple[Square, ...], *, first_only: bool) -> int:
    """The number of completions (or 1/0 with ``first_only``), by plain row-by-row search —
    the validator's own code, kept independent of every solver."""
    if _placed_attack(placed):
        return 0
    fixed = dict(placed)
    cols: set[int] = set(fixed.values())
    sums = {r + c for r, c in placed}
    diffs = {r - c for r, c in placed}

    def place(row: int) -> int:
        if row == n:
            return 1
        if row in fixed:
            return place(row + 1)
        found = 0
        for c in range(n):
            if c in cols or row + c in sums or row - c in diffs:
                continue
            cols.add(c)
            sums.add(row + c)
            diffs.add(row - c)
            found += place(row + 1)
            cols.discard(c)
            sums.discard(row + c)
            diffs.discard(row - c)
            if found and first_only:
                return found
        return found

    return place(0)


def _random_placement(n: int, k: int, rng: np.random.Generator) -> tuple[Square, ...] | None:
    """k mutually non-attacking queens, each on a uniformly chosen unattacked square; None
    at a dead end (the caller draws again)."""
    free = np.ones((n, n), dtype=bool)
    rows = np.arange(n)[:, None]
    cols = np.arange(n)[None, :]
    placed: list[Square] = []
    for _ in range(k):
        squares = np.flatnonzero(free)
        if squares.size == 0:
            return None
        r, c = divmod(int(squares[int(rng.integers(squares.size))]), n)
        placed.append((r, c))
        free &= (rows != r) & (cols != c) & (rows + cols != r + c) & (rows - cols != r - c)
    return tuple(sorted(placed))
