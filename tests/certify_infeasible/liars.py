"""Hostile plugins for certified infeasibility (see test_certificates.py).

Loaded by file reference (``tests/certify_infeasible/liars.py:Name``), exactly as a user's
plugin. Each declares itself complete and claims ``infeasible`` on every instance — bare, with a
forged proof, or with a proof of a formula of its own that is not the judge's.
"""

from __future__ import annotations

from puzzlebench.contract import Claim, Proposal, Solver

FAMILIES = frozenset({"nqueens", "nqueens-completion", "queens-knights", "torus-queens"})


class BareLiar(Solver):
    """Claims infeasible, with nothing to show for it."""

    name = "cert-bare-liar"
    problems = FAMILIES
    complete = True

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(claim=Claim.INFEASIBLE)


class ForgedProof(Solver):
    """Claims infeasible with a 'proof' that only asserts the empty clause."""

    name = "cert-forged-proof"
    problems = FAMILIES
    complete = True

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(claim=Claim.INFEASIBLE, proof="0\n")


class ForeignFormula(Solver):
    """Claims infeasible with a true proof of a formula that is not the instance's (x and not
    x): a proof the checker accepts, of the wrong question."""

    name = "cert-foreign-formula"
    problems = FAMILIES
    complete = True

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(claim=Claim.INFEASIBLE, proof="0\n", cnf="p cnf 1 2\n1 0\n-1 0\n")


class ZeroCounter(Solver):
    """Counts zero solutions of every instance."""

    name = "cert-zero-counter"
    problems = FAMILIES
    complete = True
    counts = True

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(claim=Claim.INFEASIBLE)

    def count(self, instance, budget, *, unique=False):  # type: ignore[no-untyped-def]
        return Proposal(claim=Claim.INFEASIBLE, count=0)
