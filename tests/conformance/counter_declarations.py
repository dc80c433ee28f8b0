"""Plugin solvers for the declared-counters tests: one that keeps its declaration, one that
reports a counter it does not declare, one that declares nothing. Loaded by file reference
(``tests/conformance/counter_declarations.py:Name``), as a user's plugin."""

from __future__ import annotations

from puzzlebench.contract import Claim, Proposal, Solver


def _columns(n: int) -> list[int]:
    """An n-queens answer for the n the tests use (6); any other n gets a wrong one."""
    return [1, 3, 5, 0, 2, 4] if n == 6 else list(range(n))


class KeepsItsWord(Solver):
    """Reports exactly the counters it declares."""

    name = "keeps-its-word"
    problems = frozenset({"nqueens"})
    counter_names = frozenset({"nodes", "probes"})

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(answer=_columns(instance.n), claim=Claim.SOLVED,
                        counters={"nodes": 6})


class Understates(Solver):
    """Declares ``nodes`` but also reports ``probes``."""

    name = "understates"
    problems = frozenset({"nqueens"})
    counter_names = frozenset({"nodes"})

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(answer=_columns(instance.n), claim=Claim.SOLVED,
                        counters={"nodes": 6, "probes": 2})


class Undeclared(Solver):
    """Declares no counters (a plugin written before the declaration existed)."""

    name = "undeclared"
    problems = frozenset({"nqueens"})

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(answer=_columns(instance.n), claim=Claim.SOLVED,
                        counters={"probes": 2})
