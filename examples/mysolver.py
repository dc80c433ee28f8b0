"""README's own solver: min-conflicts with restarts, for n-queens and the torus.

It is the solver README's tour runs (``puzzlebench solve nqueens 8 --solver
examples/mysolver.py:MySolver``), compares with every baseline (``agree``) and certifies
(``certify``); copy it as the start of yours. It uses only the plugin API: the contract's
types, the budget's clock and the generator it is handed, never global random state."""

from typing import ClassVar

from puzzlebench.contract import Claim, Proposal, Solver
from puzzlebench.solvers.queens_keys import diagonal_keys, diagonal_lines


class MySolver(Solver):
    """Min-conflicts (Minton et al. 1992) from a random permutation, restarting after
    ``restart`` steps without a solution."""

    name = "my-restart-mc"
    problems = frozenset({"nqueens", "torus-queens"})
    stochastic = True
    params: ClassVar[dict[str, int]] = {"restart": 400}
    honours = frozenset({"time_limit", "max_iterations"})
    counter_names = frozenset({"iterations"})  # every counter its proposals report

    def solve(self, instance, budget, rng):
        n, torus = instance.n, instance.wraps
        clock, steps = budget.clock(), 0
        cap = budget.max_iterations
        lines = diagonal_lines(n, torus)
        while not clock.expired() and (cap is None or steps < cap):
            cols = [int(c) for c in rng.permutation(n)]
            anti, diag = [0] * lines, [0] * lines
            for r, c in enumerate(cols):
                a, d = diagonal_keys(r, c, n, torus)
                anti[a] += 1
                diag[d] += 1
            for _ in range(self.config["restart"]):
                steps += 1
                bad = [r for r, c in enumerate(cols)
                       if anti[diagonal_keys(r, c, n, torus)[0]] > 1
                       or diag[diagonal_keys(r, c, n, torus)[1]] > 1]
                if not bad:
                    return Proposal(answer=cols, claim=Claim.SOLVED,
                                    counters={"iterations": steps})
                if clock.expired() or (cap is not None and steps >= cap):
                    break
                # swap a conflicted row's column with the row whose swap leaves fewest conflicts
                r = bad[int(rng.integers(len(bad)))]
                best, choice = None, r
                for s in range(n):
                    if s % 16 == 0 and clock.expired():  # a step is O(n²): long on big boards
                        return Proposal(claim=Claim.UNKNOWN, counters={"iterations": steps})
                    if s == r:
                        continue
                    score = self._swap_cost(cols, anti, diag, r, s, n, torus)
                    if best is None or score < best or (score == best and rng.random() < 0.5):
                        best, choice = score, s
                self._swap(cols, anti, diag, r, choice, n, torus)
        return Proposal(claim=Claim.UNKNOWN, counters={"iterations": steps})

    @staticmethod
    def _swap(cols, anti, diag, r, s, n, torus):
        for row in (r, s):
            a, d = diagonal_keys(row, cols[row], n, torus)
            anti[a] -= 1
            diag[d] -= 1
        cols[r], cols[s] = cols[s], cols[r]
        for row in (r, s):
            a, d = diagonal_keys(row, cols[row], n, torus)
            anti[a] += 1
            diag[d] += 1

    @classmethod
    def _swap_cost(cls, cols, anti, diag, r, s, n, torus):
        cls._swap(cols, anti, diag, r, s, n, torus)
        cost = sum(max(0, k - 1) for k in anti) + sum(max(0, k - 1) for k in diag)
        cls._swap(cols, anti, diag, r, s, n, torus)
        return cost
