"""What every problem module provides: an instance type, an independent validator, a conflict
count and the known facts.

Problems import nothing of solvers or of the harness; the harness judges solver answers with
these validators only.
"""

from __future__ import annotations

import itertools
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from puzzlebench.problems.errors import InvalidAnswerError, InvalidInstanceError, PuzzlebenchError
from puzzlebench.problems.options import ProblemOption

if TYPE_CHECKING:
    import numpy as np

__all__ = ["ConformanceCases", "Instance", "InvalidAnswerError", "InvalidInstanceError", "Problem",
           "ProblemOption", "PuzzlebenchError", "Verdict"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The validator's judgement of one answer; ``reason`` says why when ``valid`` is False."""

    valid: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.valid


class Instance(ABC):
    """An immutable, validated puzzle instance."""

    problem: ClassVar[str]

    @property
    @abstractmethod
    def size(self) -> int:
        """The headline size: n for the queens problems, the tile count for sliding."""

    @property
    @abstractmethod
    def instance_id(self) -> str:
        """A stable identifier naming the instance completely (used as part of run keys)."""

    @abstractmethod
    def describe(self) -> dict[str, Any]:
        """The instance's defining data as JSON-compatible values."""


@dataclass(frozen=True)
class ConformanceCases:
    """The instances every solver of a problem is held to by the conformance suite: small
    solvable and unsolvable ones, a hard one no solver finishes in a blink (budget checks),
    one where a few hundred nodes are cheap (effort caps) and one for same-seed-same-record."""

    solvable: list[Instance]
    infeasible: list[Instance]
    hard: Instance
    capped: Instance
    reproducible: Instance
    #: The largest board the family's solvers meet in practice (n = 10,000 for the queens
    #: boards): a solver that declares ``time_limit`` must stop by itself there too, where one
    #: step of its search can be long. None: the hard case is already the largest.
    large: Instance | None = None


class Problem(ABC):
    """One puzzle family: builds instances, validates answers, knows the facts.

    A family owns everything about itself: its instance options (``options``, which the CLI,
    the study schema, ``compare`` and ``agree`` read), its grid over those options, its
    generator of random instances (if any), its agreement instances and its conformance
    cases. Nothing outside ``problems/`` tests a problem's id.
    """

    id: ClassVar[str]
    summary: ClassVar[str]
    #: The instance options this family takes (see ``problems.options``).
    options: ClassVar[tuple[ProblemOption, ...]] = ()
    #: Sizes ``compare`` and ``agree`` use when none are given.
    compare_sizes: ClassVar[str] = "4..10"
    agree_sizes: ClassVar[str] = "1..10"
    #: Whether ``generate`` makes seeded random instances (``compare --generate K``).
    generates: ClassVar[bool] = False
    #: The IOHprofiler function number of the family's exports (stable across versions; a
    #: family without one is numbered from 100 by id).
    ioh_function: ClassVar[int | None] = None
    #: The record column an optimisation family minimises (``answer_length``: fewer moves);
    #: None for a satisfaction problem. Reports read it, never the family's id.
    objective: ClassVar[str | None] = None

    # -- options, grids and generated instances --------------------------------------------

    def grid(self, size: int, entry: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The option sets of one study entry at one size: every combination of the grid
        options' values with the single ones (absent options left out), in entry order,
        minus those ``in_grid`` rejects; none when a required option is absent (an entry
        that only generates instances)."""
        axes: list[list[tuple[str, Any]]] = []
        for opt in self.options:
            value = entry.get(opt.key)
            if value is None:
                if opt.required:
                    return []  # only generated instances (``generate``), no grid
                continue
            values = value if opt.many else [value]
            axes.append([(opt.name, v) for v in values])
        out = [dict(combo) for combo in itertools.product(*axes)]
        return [o for o in out if self.in_grid(size, o)]

    def in_grid(self, size: int, options: Mapping[str, Any]) -> bool:
        """Whether a grid point is an instance at this size (grids skip the others)."""
        return True

    def study_entry(self, given: Mapping[str, Any], where: str, *,
                    require: bool = True) -> dict[str, Any]:
        """A ``[[problems]]`` table's (or ``compare`` flags') option keys, checked and read:
        grid options as lists, single ones as values; a required option that is missing is
        an error naming its key unless ``require`` is off (``agree``, or an entry whose
        instances are all generated)."""
        out: dict[str, Any] = {}
        for opt in self.options:
            value = given.get(opt.key)
            if value is None:
                if require and opt.required:
                    raise InvalidInstanceError(f"{where}: {self.id} needs {opt.key!r}")
                continue
            out[opt.key] = (opt.values(value, f"{where}.{opt.key}") if opt.many
                            else opt.parse(value))
        return out

    def default_sizes(self, entry: Mapping[str, Any], purpose: str = "compare") -> str:
        """The sizes a ``compare`` (or ``agree``) entry uses when none are given."""
        return self.agree_sizes if purpose == "agree" else self.compare_sizes

    def generate(self, size: int, count: int, rng: np.random.Generator) -> list[Instance]:
        """``count`` random instances at a size drawn with ``rng`` (families with a generator
        override this and set ``generates``)."""
        raise InvalidInstanceError(f"{self.id} has no instance generator")

    def from_description(self, description: Mapping[str, Any]) -> Instance:
        """The instance ``describe`` gave ``description`` (a stored record's ``instance``), so
        that a stored answer can be judged again; by default ``make(n, **the rest)``."""
        rest = {k: v for k, v in description.items() if k != "n"}
        return self.make(int(description["n"]), **rest)

    def options_of(self, instance: Any) -> dict[str, Any]:
        """The options that rebuild ``instance`` with ``make`` (stored with generated runs)."""
        return {}

    def answer_key(self, data: Any) -> str:
        """A hashable form of an answer's JSON data: equal for answers that are the same
        solution (e.g. a piece list in any order)."""
        return json.dumps(data)

    def conformance_cases(self) -> ConformanceCases | None:
        """The family's conformance instances (None: no solver-level cases)."""
        return None

    @abstractmethod
    def make(self, size: int, **options: Any) -> Instance:
        """Build an instance from a headline size and problem options (raises on bad input)."""

    @abstractmethod
    def validate(self, instance: Any, answer: Any) -> Verdict:
        """Judge an answer; a malformed answer is an invalid verdict, never an exception."""

    @abstractmethod
    def conflicts(self, instance: Any, answer: Any) -> int:
        """The quantity local search minimises; 0 exactly for valid answers."""

    @abstractmethod
    def parse_answer(self, instance: Any, text: str) -> Any:
        """Read an answer written on the command line (raises InvalidAnswerError)."""

    @abstractmethod
    def answer_to_json(self, answer: Any) -> Any:
        """The problem's JSON encoding of an answer (see the design's table)."""

    @abstractmethod
    def answer_from_json(self, data: Any) -> Any:
        """Inverse of ``answer_to_json``."""

    def canonical_answer(self, instance: Any, answer: Any) -> Any:
        """The JSON encoding of an answer the validator accepted (ints as ints, kinds upper
        case): what records store and print."""
        return self.answer_to_json(answer)

    def is_solvable(self, instance: Any) -> bool | None:
        """True/False where a rule decides it, None where nothing is known."""
        return None

    def known_count(self, instance: Any, unique: bool = False) -> int | None:
        """The number of solutions (or of distinct ones up to symmetry), where known."""
        return None

    def known_optimum(self, instance: Any) -> int | None:
        """The optimal answer length where known (sliding); None elsewhere."""
        return None

    def agreement_instances(self, size: int, entry: Mapping[str, Any]) -> list[Instance]:
        """The instances ``agree`` checks at one size; ``entry`` holds the options given,
        read by ``study_entry`` (by default: the grid they make)."""
        return [self.make(size, **o) for o in self.grid(size, entry)]

    def warmup_instance(self) -> Instance:
        """A small instance that exercises a solver's code paths, for untimed warm-up runs."""
        return self.make(8)

    def warmup_like(self, instance: Any) -> Instance:
        """The warm-up instance for a run on ``instance``: by default the fixed small one. A
        problem may return one that shares what a solver's one-time set-up depends on (the
        sliding board and goal, for pattern databases) but never the instance's own question,
        so that the untimed warm-up cannot solve the timed run ahead of time: when the fixed
        one *is* the run's instance (an 8-queens run), a neighbouring size is taken instead."""
        warm = self.warmup_instance()
        if warm.instance_id != instance.instance_id:
            return warm
        for size in (warm.size + 1, warm.size + 2, warm.size - 1):
            try:
                other = self.make(size, **self.options_of(warm))
            except (PuzzlebenchError, ValueError, TypeError):
                continue
            if other.instance_id != instance.instance_id:
                return other
        return warm

    def answer_text(self, data: Any) -> tuple[str, list[str]]:
        """What ``solve`` prints of a valid answer (its JSON data): a headline suffix and
        detail lines (default: nothing; ``--show`` draws it)."""
        return "", []

    def render(self, instance: Any, answer: Any) -> str:
        """A plain-text drawing of an answer for ``--show``."""
        return str(self.answer_to_json(answer))
