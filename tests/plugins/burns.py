"""A solver that ignores its time limit and keeps one core busy until it is killed."""

from __future__ import annotations

from typing import Any, ClassVar

from puzzlebench.contract import Budget, Proposal, Solver


class Burns(Solver):
    name = "burns"
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens"})
    honours: ClassVar[frozenset[str]] = frozenset()

    def solve(self, instance: Any, budget: Budget, rng: Any) -> Proposal:
        x = 0
        while True:
            x += 1
