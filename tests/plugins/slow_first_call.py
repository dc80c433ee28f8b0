"""A solver whose first call in a process is slow (``nap`` seconds, as a lazily compiled or
table-building solver's is) and whose later calls answer at once. It declares ``compiled``,
so the harness warms it: the warm-up meets the slow call and must be cut at its share of
the time limit, and the timed phase then answers at once."""

from __future__ import annotations

import time
from typing import Any, ClassVar

import numpy as np

from puzzlebench.contract import Budget, Claim, Proposal, Solver

_called = [False]


class SlowFirstCall(Solver):
    name = "slow-first-call"
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens"})
    complete = False
    counts = True
    compiled = True
    params: ClassVar[dict[str, Any]] = {"nap": 30.0}

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
        if not _called[0]:
            _called[0] = True  # the slow part happens once, cut short or not
            time.sleep(float(self.config["nap"]))
        n = instance.n
        if n % 6 in (2, 3) or n < 4:
            return Proposal(claim=Claim.UNKNOWN)
        evens, odds = list(range(1, n, 2)), list(range(0, n, 2))
        given = "none" if budget.time_limit is None else f"{budget.time_limit:.3f} s"
        return Proposal(answer=evens + odds, claim=Claim.SOLVED,  # n mod 6 ∉ {2, 3}
                        note=f"time limit given: {given}")

    def count(self, instance: Any, budget: Budget, *, unique: bool = False) -> Proposal:
        if not _called[0]:
            _called[0] = True
            time.sleep(float(self.config["nap"]))
        n = instance.n

        def place(row: int, cols: list[int]) -> int:
            if row == n:
                return 1
            return sum(place(row + 1, [*cols, c]) for c in range(n)
                       if all(c != q and abs(c - q) != row - r for r, q in enumerate(cols)))

        return Proposal(claim=Claim.SOLVED, count=place(0, []))
