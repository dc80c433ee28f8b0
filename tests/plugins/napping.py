"""A well-behaved solver that takes its time: it naps ``nap`` seconds, then answers correctly
(plain backtracking). Used where a study must still be running when the machinery fails."""

from __future__ import annotations

import time
from typing import Any, ClassVar

import numpy as np

from puzzlebench.contract import Budget, Claim, Proposal, Solver


def _place(n: int, row: int, cols: list[int]) -> bool:
    if row == n:
        return True
    for c in range(n):
        if all(c != q and abs(c - q) != row - r for r, q in enumerate(cols)):
            cols.append(c)
            if _place(n, row + 1, cols):
                return True
            cols.pop()
    return False


class Napping(Solver):
    name = "napping"
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens"})
    complete = True
    params: ClassVar[dict[str, Any]] = {"nap": 0.3}

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
        time.sleep(float(self.config["nap"]))
        cols: list[int] = []
        if _place(instance.n, 0, cols):
            return Proposal(answer=cols, claim=Claim.SOLVED)
        return Proposal(claim=Claim.INFEASIBLE)
