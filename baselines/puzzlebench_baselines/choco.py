"""The Choco solver through ``pychoco``: AllDifferent models and a placement model.

nqueens: AllDifferent on q, q + i, q − i (offset views). torus-queens: AllDifferent on q and on
(q + i) mod n, (q − i) mod n (auxiliary variables tied by ``mod`` constraints). queens-knights:
Boolean Q and N per square, at most one piece per square, sums of exactly A queens and
n − A knights, and binary clauses forbidding a queen beside any piece on its lines and a knight
beside any piece a knight's move away. Choco's default search (deterministic: ``stochastic``
is false); the time limit is Choco's own (``time_limit``); counts and listings use
all-solutions search, complete only when the search state is ``TERMINATED``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from puzzlebench.contract import Budget, Claim, Deadline, Enumeration, Proposal, Solver
from puzzlebench.problems.queens_knights import KNIGHT_STEPS, QueensKnightsInstance


class ChocoModel:
    """A pychoco model of one instance and how to read its solutions."""

    def __init__(self, instance: Any) -> None:
        from pychoco import Model  # pychoco on first use: start-up time of every other command

        self.instance, n = instance, instance.n
        self.model = m = Model(f"puzzlebench-{instance.instance_id}")
        self.q: list[Any] = []
        self.board: dict[tuple[str, int, int], Any] = {}
        if isinstance(instance, QueensKnightsInstance):
            self._queens_knights(n, instance.queens)
            return
        self.q = q = m.intvars(n, 0, n - 1, "q")
        m.all_different(q).post()
        if not instance.wraps:
            m.all_different([m.int_offset_view(q[i], i) for i in range(n)]).post()
            m.all_different([m.int_offset_view(q[i], -i) for i in range(n)]).post()
            return
        for sign in (1, -1):
            wrapped = m.intvars(n, 0, n - 1)
            for i in range(n):
                m.mod(m.int_offset_view(q[i], sign * i + n), n, wrapped[i]).post()
            m.all_different(wrapped).post()

    def _queens_knights(self, n: int, queens: int) -> None:
        m = self.model
        squares = [(r, c) for r in range(n) for c in range(n)]
        Q = {s: m.boolvar(name=f"Q{s[0]}_{s[1]}") for s in squares}
        N = {s: m.boolvar(name=f"N{s[0]}_{s[1]}") for s in squares}
        self.board = {**{("Q", *s): v for s, v in Q.items()}, **{("N", *s): v for s, v in N.items()}}
        for s in squares:
            m.add_clauses([], [Q[s], N[s]])
        m.sum(list(Q.values()), "=", queens).post()
        m.sum(list(N.values()), "=", n - queens).post()
        for r, c in squares:
            for t in squares:
                i, j = t
                if t != (r, c) and (i == r or j == c or abs(i - r) == abs(j - c)):
                    m.add_clauses([], [Q[r, c], Q[t]])
                    m.add_clauses([], [Q[r, c], N[t]])
            for dr, dc in KNIGHT_STEPS:
                t = (r + dr, c + dc)
                if t in Q:
                    m.add_clauses([], [N[r, c], Q[t]])
                    m.add_clauses([], [N[r, c], N[t]])

    def answer(self, solution: Any) -> Any:
        if self.board:
            return [(k, r, c) for (k, r, c), v in self.board.items() if solution.get_int_val(v)]
        return [int(solution.get_int_val(v)) for v in self.q]


def _limit(budget: Budget, clock: Deadline | None = None) -> str | None:
    """Choco's own time limit: what is left of the run's once the model is built."""
    if budget.time_limit is None:
        return None
    left = budget.time_limit if clock is None else clock.remaining()
    return f"{max(left, 0.001):.3f}s"


#: Largest queens board Choco is given under a time limit. Its first propagation of the three
#: AllDifferent constraints runs in native code that its time limit does not interrupt:
#: 1.5 s under a 1 s limit at n = 3,000 and 7.4 s at n = 10,000 (after 2.1 s of building the
#: model), so past this size the solver declines rather than overrun the limit it declares.
MAX_TIMED_QUEENS = 3000


def _counters(solver: Any) -> dict[str, int]:
    return {"backtracks": int(solver.get_backtrack_count()), "fails": int(solver.get_fail_count())}


class Choco(Solver):
    """Choco solver (pychoco): AllDifferent models; a Boolean placement model for knights."""

    name: ClassVar[str] = "choco"
    counter_names: ClassVar[frozenset[str] | None] = frozenset({"backtracks", "fails"})
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens", "torus-queens", "queens-knights"})
    complete: ClassVar[bool] = True
    counts: ClassVar[bool] = True
    compiled: ClassVar[bool] = True  # a native image loaded on first use: warmed, untimed

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
        if (budget.time_limit is not None and not isinstance(instance, QueensKnightsInstance)
                and instance.n > MAX_TIMED_QUEENS):
            return Proposal(claim=Claim.DECLINED,
                            note=f"boards past n = {MAX_TIMED_QUEENS} under a time limit: Choco's "
                                 "first propagation cannot be interrupted")
        clock = budget.clock()
        model = ChocoModel(instance)
        solver = model.model.get_solver()
        solution = solver.find_solution(time_limit=_limit(budget, clock))
        if solution is not None:
            return Proposal(answer=model.answer(solution), claim=Claim.SOLVED,
                            counters=_counters(solver))
        if str(solver.get_search_state()) == "TERMINATED":
            return Proposal(claim=Claim.INFEASIBLE, counters=_counters(solver))
        return Proposal(counters=_counters(solver), note="time limit reached")

    def _all(self, instance: Any, budget: Budget, limit: int | None
             ) -> tuple[list[Any], bool, dict[str, int]]:
        model = ChocoModel(instance)
        solver = model.model.get_solver()
        found = solver.find_all_solutions(time_limit=_limit(budget), solution_limit=limit)
        complete = str(solver.get_search_state()) == "TERMINATED" and (
            limit is None or len(found) < limit)
        return [model.answer(s) for s in found], complete, _counters(solver)

    def count(self, instance: Any, budget: Budget, *, unique: bool = False) -> Proposal:
        if unique:
            raise ValueError("choco counts all solutions, not unique ones")
        found, complete, counters = self._all(instance, budget, None)
        if not complete:
            return Proposal(counters=counters, note=f"stopped after {len(found)} solutions")
        return Proposal(claim=Claim.SOLVED if found else Claim.INFEASIBLE, count=len(found),
                        counters=counters)

    def enumerate(self, instance: Any, budget: Budget, *, limit: int | None = None) -> Enumeration:
        found, complete, _ = self._all(instance, budget, limit)
        return Enumeration(found, complete=complete)
