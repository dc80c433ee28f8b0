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
