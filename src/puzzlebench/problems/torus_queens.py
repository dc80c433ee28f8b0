"""Toroidal n-queens: diagonals wrap around the board edges (Pólya 1918)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from puzzlebench.problems.base import ConformanceCases
from puzzlebench.problems.nqueens import NQueens, QueensInstance

#: OEIS A007705, solutions of the toroidal n-queens problem, where verified (zero whenever
#: gcd(n, 6) != 1). The conformance tests recount these with the bitboard counter.
A007705: dict[int, int] = {1: 1, 5: 10, 7: 28, 11: 88, 13: 4524}


@dataclass(frozen=True, slots=True)
class TorusQueensInstance(QueensInstance):
    """n queens on an n × n torus."""

    problem: ClassVar[str] = "torus-queens"
    wraps: ClassVar[bool] = True


class TorusQueens(NQueens):
    """Like nqueens, with (row ± col) mod n as the diagonal keys."""

    id: ClassVar[str] = "torus-queens"
    summary: ClassVar[str] = "n non-attacking queens on an n×n torus (wrapping diagonals)"
    ioh_function: ClassVar[int | None] = 4
    torus: ClassVar[bool] = True
    instance_type: ClassVar[type[QueensInstance]] = TorusQueensInstance

    def warmup_instance(self) -> QueensInstance:
        return self.make(7)

    def is_solvable(self, instance: QueensInstance) -> bool | None:
        return math.gcd(instance.n, 6) == 1

    def known_count(self, instance: QueensInstance, unique: bool = False) -> int | None:
        if unique:
            return None
        if not self.is_solvable(instance):
            return 0
        return A007705.get(instance.n)

    def conformance_cases(self) -> ConformanceCases:
        return ConformanceCases(
            solvable=[self.make(1), self.make(5), self.make(7)],
            infeasible=[self.make(2), self.make(4)],
            hard=self.make(49), capped=self.make(25), reproducible=self.make(7),
            large=self.make(10_001),  # 73 × 137: prime to 6, so it has solutions
        )
