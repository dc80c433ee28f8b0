"""Ways to split an n-queens count into sub-problems whose counts, weighted, sum to it.

A split is named ``KIND:K``:

* ``constellations:K`` — the K parts of the board's edge-constellation classes
  (``problems.nqueens_split``), each an ``nqueens-split`` instance of weight 1. Parts hold
  whole solution classes, so unique counts (A002562) sum as well. The ``constellations``
  baseline counts them at the speed of its direct count.
* ``rows:D`` (D = 1 or 2) — every placement of the queens of the first D rows, each an
  ``nqueens-completion`` instance: any solver that counts nqueens-completion can run it, a
  user's included. The mirror image in the board's vertical axis maps a prefix to another
  with as many completions, so only the smaller of each pair is run, with weight 2 (weight 1
  for the middle column of an odd board, its own image). Unique counts do not sum here.

Two different splits of one board share no sub-problem; their totals agreeing checks a
counting solver where no published count does only when other code made the other total
(``harness.campaign.split_count``).
"""

from __future__ import annotations

from dataclasses import dataclass

from puzzlebench.problems.base import Instance, InvalidInstanceError
from puzzlebench.problems.nqueens_completion import CompletionInstance
from puzzlebench.problems.nqueens_split import MAX_N, MAX_PARTS, SplitInstance

#: The kinds of split and what K means for each.
KINDS = {"constellations": "parts of the constellation classes",
         "rows": "rows of queens pre-placed (1 or 2)"}
#: Parts of a ``constellations`` split when none are given.
DEFAULT_PARTS = 64


@dataclass(frozen=True, slots=True)
class SubProblem:
    """One sub-problem of a split: its instance and how many times its count is counted."""

    instance: Instance
    weight: int


@dataclass(frozen=True, slots=True)
class Split:
    """A split of the n-queens count of board n: its name and its sub-problems."""

    n: int
    how: str  #: canonical ``KIND:K``
    parts: tuple[SubProblem, ...]
    #: Whether the sub-problems' unique counts sum to the board's (A002562).
    sums_unique: bool


def parse_split(text: str) -> tuple[str, int]:
    """``(kind, K)`` from ``KIND:K`` (``KIND`` alone: its default K; a bare number: that
    many constellation parts); raises InvalidInstanceError when malformed."""
    kind, _, k = text.strip().partition(":")
    if kind.isdigit() and not k:
        kind, k = "constellations", kind
    if kind not in KINDS:
        raise InvalidInstanceError(f"a split is constellations:K or rows:D, got {text!r}")
    if not k:
        k = str(DEFAULT_PARTS) if kind == "constellations" else "1"
    if not k.isdigit() or len(k) > 30 or int(k) < 1:
        shown = k if len(k) <= 30 else k[:30] + "…"
        raise InvalidInstanceError(f"the {kind} split needs a whole number ≥ 1 ({KINDS[kind]}), "
                                   f"got {shown!r}")
    if kind == "constellations" and int(k) > MAX_PARTS:
        raise InvalidInstanceError(f"the constellations split has at most {MAX_PARTS:,} parts, "
                                   f"got {int(k):,}")
    if kind == "rows" and int(k) > 2:
        raise InvalidInstanceError(f"the rows split pre-places 1 or 2 rows, got {k}")
    return kind, int(k)


def board_of(instance: Instance) -> int:
    """The board size of an instance whose count can be split (plain n-queens only)."""
    if instance.problem != "nqueens":
        raise InvalidInstanceError(f"split counts split nqueens counts, not {instance.problem}")
    return instance.size


def split_count(n: int, how: str) -> Split:
    """The sub-problems of board n's count under the split ``how`` (see the module doc)."""
    kind, k = parse_split(how)
    if n < 1 or n > MAX_N:
        raise InvalidInstanceError(f"split counts cover boards 1 ≤ n ≤ {MAX_N}, got {n}")
    if kind == "constellations":
        parts = tuple(SubProblem(SplitInstance(n, i, k), 1) for i in range(1, k + 1))
        return Split(n, f"{kind}:{k}", parts, sums_unique=True)
    if k > n:
        raise InvalidInstanceError(f"rows:{k} pre-places more rows than the board has ({n})")
    return Split(n, f"{kind}:{k}", tuple(_prefixes(n, k)), sums_unique=False)


def _prefixes(n: int, depth: int) -> list[SubProblem]:
    """The non-attacking placements of the first ``depth`` rows that are no larger than
    their mirror image, with weight 2 (1 when the placement is its own image)."""
    m = n - 1
    out = []
    prefixes: list[tuple[int, ...]] = [()]
    for row in range(depth):
        prefixes = [(*p, c) for p in prefixes for c in range(n)
                    if all(c != q and abs(c - q) != row - r for r, q in enumerate(p))]
    for p in prefixes:
        mirror = tuple(m - c for c in p)
        if p <= mirror:
            placed = tuple(enumerate(p))
            out.append(SubProblem(CompletionInstance(n, placed), 1 if p == mirror else 2))
    return out
