"""A plugin whose ``mode = "lie"`` claims every board solved at once with a wrong answer
(all queens on one diagonal), and whose ``honest`` mode solves it by backtracking after a
short nap: believed, the lie would be the fastest configuration there is."""

from __future__ import annotations

import time
from typing import Any, ClassVar

import numpy as np

from puzzlebench.contract import Budget, Claim, Param, Proposal, Solver
from puzzlebench.solvers.param_space import Choice, FloatRange


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


class Lying(Solver):
    name = "lying"
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens"})
    stochastic = True
    params: ClassVar[dict[str, Any]] = {"mode": Param("honest", choices=("honest", "lie")),
                                        "nap": Param(0.02, 0.0, 1.0)}
    param_space: ClassVar[dict[str, Any]] = {"mode": Choice(("honest", "lie")),
                                             "nap": FloatRange(0.01, 0.05)}

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
        if self.config["mode"] == "lie":
            return Proposal(answer=list(range(instance.n)), claim=Claim.SOLVED)
        time.sleep(float(self.config["nap"]))
        cols: list[int] = []
        _place(instance.n, 0, cols)
        return Proposal(answer=cols, claim=Claim.SOLVED)
