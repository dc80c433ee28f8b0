"""What every problem module provides: an instance type, an independent validator, a conflict
count and the known facts.

Problems import nothing of solvers or of the harness; the harness judges solver answers with
these validators only.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar


class PuzzlebenchError(Exception):
    """Base of every error puzzlebench raises on purpose (bad input, bad configuration)."""


class InvalidInstanceError(PuzzlebenchError, ValueError):
    """An instance could not be built: a size out of range, a malformed start state, ..."""


class InvalidAnswerError(PuzzlebenchError, ValueError):
    """An answer is malformed (wrong type, wrong length, out of range) and cannot be judged."""


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


class Problem(ABC):
    """One puzzle family: builds instances, validates answers, knows the facts."""

    id: ClassVar[str]
    summary: ClassVar[str]

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

    def agreement_instances(self, size: int, **options: Any) -> list[Instance]:
        """The instances ``agree`` checks at one size (options: the problem's own)."""
        return [self.make(size)]

    def warmup_instance(self) -> Instance:
        """A small instance that exercises a solver's code paths, for untimed warm-up runs."""
        return self.make(8)

    def warmup_like(self, instance: Any) -> Instance:
        """The warm-up instance for a run on ``instance``: by default the fixed small one. A
        problem may return one that shares what a solver's one-time set-up depends on (the
        sliding board and goal, for pattern databases) but never the instance's own question,
        so that the untimed warm-up cannot solve the timed run ahead of time."""
        return self.warmup_instance()

    def render(self, instance: Any, answer: Any) -> str:
        """A plain-text drawing of an answer for ``--show``."""
        return str(self.answer_to_json(answer))
