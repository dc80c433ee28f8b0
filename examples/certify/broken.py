"""Two deliberately broken solvers, for ``puzzlebench certify`` to catch.

    puzzlebench certify examples/certify/broken.py:IgnoresItsCap   # fails cap:max_iterations
    puzzlebench certify examples/certify/broken.py:InfeasibleLiar  # fails solves, infeasible

Each is a plausible mistake, not a hostile one: a cap declared and never checked, and a
"proof" of infeasibility that is only a give-up.
"""

from puzzlebench.contract import Claim, Proposal, Solver


def _queens_ok(cols):
    n = len(cols)
    return len({r + c for r, c in enumerate(cols)}) == len({r - c for r, c in enumerate(cols)}) == n


class IgnoresItsCap(Solver):
    """Random permutations until a solution; declares ``max_iterations`` but never reads it."""

    name = "ignores-its-cap"
    problems = frozenset({"nqueens"})
    stochastic = True
    honours = frozenset({"time_limit", "max_iterations"})

    def solve(self, instance, budget, rng):
        clock = budget.clock()
        tries = 0
        while not clock.expired():
            tries += 1
            cols = rng.permutation(instance.n)
            if _queens_ok(cols):
                return Proposal(answer=cols, claim=Claim.SOLVED, counters={"iterations": tries})
        return Proposal(claim=Claim.UNKNOWN, counters={"iterations": tries})


class InfeasibleLiar(Solver):
    """Tries 200 random permutations, then claims the instance has no solution."""

    name = "infeasible-liar"
    problems = frozenset({"nqueens"})
    complete = True  # the lie: it gives up and calls that a proof
    stochastic = True

    def solve(self, instance, budget, rng):
        for tries in range(1, 201):
            cols = rng.permutation(instance.n)
            if _queens_ok(cols):
                return Proposal(answer=cols, claim=Claim.SOLVED, counters={"iterations": tries})
        return Proposal(claim=Claim.INFEASIBLE, counters={"iterations": 200})
