"""A solver that remembers its answer at module level: its first solve in a process works for
``work`` seconds, every later one returns the remembered answer at once. Timed with
``--min-time`` (repeats in one process), it must not be credited with the repeats' time."""

from __future__ import annotations

import time
from typing import Any, ClassVar

import numpy as np

from puzzlebench.contract import Budget, Claim, Proposal, Solver

_memory: dict[int, list[int]] = {}


class Remembers(Solver):
    name = "remembers"
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens"})
    complete = False
    params: ClassVar[dict[str, Any]] = {"work": 0.2}

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
        n = instance.n
        if n not in _memory:
            time.sleep(float(self.config["work"]))
            _memory[n] = list(range(1, n, 2)) + list(range(0, n, 2))  # n mod 6 ∉ {2, 3}
        return Proposal(answer=list(_memory[n]), claim=Claim.SOLVED)


def _spin(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


class NineTimesCheaper(Remembers):
    """The fourth hostile sweep's --min-time plugin: every repeat after the first does a ninth
    of its work (just under the old 10× rule)."""

    name = "nine-times-cheaper"
    params: ClassVar[dict[str, Any]] = {"work": 0.05}

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
        work = float(self.config["work"])
        _spin(work if instance.n not in _memory else work / 9)
        _memory[instance.n] = list(range(1, instance.n, 2)) + list(range(0, instance.n, 2))
        return Proposal(answer=list(_memory[instance.n]), claim=Claim.SOLVED)


class TinyFirstSolve(Remembers):
    """Keeps its first solve at 10 µs (under the old rule's 10 ms floor) and remembers it."""

    name = "tiny-first-solve"
    params: ClassVar[dict[str, Any]] = {"work": 1e-5}

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
        if instance.n not in _memory:
            _spin(float(self.config["work"]))
        _memory[instance.n] = list(range(1, instance.n, 2)) + list(range(0, instance.n, 2))
        return Proposal(answer=list(_memory[instance.n]), claim=Claim.SOLVED)
