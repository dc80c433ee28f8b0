"""The closed-form mod-12 construction for n-queens, exactly as seed 003 states it.

1. r = n mod 12. 2. Even numbers 2..n in order. 3. If r is 3 or 9, move 2 to the end of that
list. 4. Append the odd numbers 1..n in order, but if r is 8 swap them in pairs (3,1,7,5,...).
5. If r is 2, swap 1 and 3 and move 5 to the end. 6. If r is 3 or 9, move 1 and 3 to the end.
7. The k-th number of the list is the (1-based) column of the queen in row k.

Vectorised with numpy: O(n) time and memory, ~10^7 queens in well under a second. The rule
decides every n, so the solver is complete: n = 2 and 3 are claimed infeasible.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from puzzlebench.contract import Budget, Claim, Proposal, Solver
from puzzlebench.problems.nqueens import QueensInstance


def mod12_columns(n: int) -> np.ndarray:
    """0-based columns of the mod-12 construction for n = 1 or n >= 4."""
    r = n % 12
    evens = np.arange(2, n + 1, 2, dtype=np.int64)
    odds = np.arange(1, n + 1, 2, dtype=np.int64)
    if r in (3, 9):
        evens = np.concatenate((evens[1:], evens[:1]))
    if r == 8:
        odds = odds.reshape(-1, 2)[:, ::-1].ravel()
    if r == 2:
        odds = np.concatenate((odds[1:2], odds[0:1], odds[3:], odds[2:3]))
    if r in (3, 9):
        odds = np.concatenate((odds[2:], odds[:2]))
    cols = np.concatenate((evens, odds))
    cols -= 1
    return cols


class Mod12(Solver):
    """Closed-form mod-12 construction (seed 003): one solution for every solvable n."""

    name: ClassVar[str] = "mod12"
    counter_names: ClassVar[frozenset[str] | None] = frozenset({"cells_written"})
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens"})
    honours: ClassVar[frozenset[str]] = frozenset()
    complete: ClassVar[bool] = True

    def solve(self, instance: QueensInstance, budget: Budget, rng: np.random.Generator) -> Proposal:
        n = instance.n
        if n in (2, 3):
            return Proposal(claim=Claim.INFEASIBLE, counters={"cells_written": 0})
        return Proposal(answer=mod12_columns(n), claim=Claim.SOLVED, counters={"cells_written": n})
