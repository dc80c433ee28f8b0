"""A "counting" solver that counts nothing: it looks the answer up in the judge's published
counts, as installed with the package (the third hostile sweep: judged solved and verified in
8 ms, and agree agreed). In a sealed run the judge's data is an empty directory."""

from __future__ import annotations

from typing import Any, ClassVar

from puzzlebench.contract import Budget, Claim, Proposal, Solver


class ReadsTheJudge(Solver):
    name = "reads-the-judge"
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens"})
    complete = True
    counts = True

    def solve(self, instance: Any, budget: Budget, rng: Any) -> Proposal:
        return Proposal(claim=Claim.UNKNOWN)

    def count(self, instance: Any, budget: Budget, *, unique: bool = False) -> Proposal:
        from puzzlebench.problems.nqueens import A000170  # the lookup itself

        return Proposal(claim=Claim.SOLVED, count=A000170[instance.n])
