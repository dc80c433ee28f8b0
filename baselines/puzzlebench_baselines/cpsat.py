"""OR-Tools CP-SAT models for nqueens, nqueens-completion, torus-queens and queens-knights.

- nqueens: the canonical model — one integer per row, AllDifferent on q, on q + i, on q − i;
  nqueens-completion adds q[row] == col for every pre-placed queen.
- torus-queens: a Boolean board with exactly one queen on every row, column and wrapped
  diagonal of both directions. Chosen over AllDifferent on (q ± i) mod n because CP-SAT's
  modulo propagation is weak, while exactly-one constraints over Booleans propagate fully and
  feed its clause learning; the model also makes gcd(n, 6) ≠ 1 boards quick to refute.
- queens-knights: a placement model — a Boolean per square and piece kind, at most one piece
  per square, A queens and n − A knights; a queen on a square forces every other square on
  its four lines empty (enforced linear constraints), and a knight forbids any piece on its
  knight squares.

Runs are seeded (``random_seed``) with ``num_workers`` recorded (default 1: reproducible).
Counting and enumeration use a solution callback (``limit`` stops after k solutions; each
solution's time is kept). Counters: conflicts and branches as CP-SAT reports them.
"""

from __future__ import annotations

import time
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from puzzlebench.contract import Budget, Claim, Deadline, Enumeration, Param, Proposal, Solver
from puzzlebench.problems.nqueens import QueensInstance
from puzzlebench.problems.queens_knights import KNIGHT_STEPS, QueensKnightsInstance
from puzzlebench.solvers.queens_keys import diagonal_squares

if TYPE_CHECKING:
    from ortools.sat.python import cp_model


def _cp_model() -> Any:
    """OR-Tools is imported on first use: it costs ~0.3 s, which every other command would
    otherwise pay when the registry is loaded."""
    from ortools.sat.python import cp_model  # on first use: see the docstring

    return cp_model


class Model:
    """A CP-SAT model and how to read an answer from a solver state."""

    def __init__(self, instance: Any) -> None:
        self.instance = instance
        self.model = _cp_model().CpModel()
        n = instance.n
        self.q: list[cp_model.IntVar] = []
        self.board: dict[tuple[str, int, int], cp_model.IntVar] = {}
        if isinstance(instance, QueensKnightsInstance):
            self._queens_knights(n, instance.queens)
        elif instance.wraps:
            self._torus(n)
        else:
            m = self.model
            self.q = [m.new_int_var(0, n - 1, f"q{i}") for i in range(n)]
            m.add_all_different(self.q)
            m.add_all_different([self.q[i] + i for i in range(n)])
            m.add_all_different([self.q[i] - i for i in range(n)])
            for row, col in instance.fixed:
                m.add(self.q[row] == col)

    def _torus(self, n: int) -> None:
        m = self.model
        x = {(r, c): m.new_bool_var(f"x{r}_{c}") for r in range(n) for c in range(n)}
        self.board = {("Q", r, c): v for (r, c), v in x.items()}
        for k in range(n):
            m.add_exactly_one(x[k, c] for c in range(n))
            m.add_exactly_one(x[r, k] for r in range(n))
        for line in diagonal_squares(n, True):
            m.add_exactly_one(x[s] for s in line)

    def _queens_knights(self, n: int, queens: int) -> None:
        m = self.model
        squares = [(r, c) for r in range(n) for c in range(n)]
        Q = {s: m.new_bool_var(f"Q{s[0]}_{s[1]}") for s in squares}
        N = {s: m.new_bool_var(f"N{s[0]}_{s[1]}") for s in squares}
        self.board = {**{("Q", *s): v for s, v in Q.items()},
                      **{("N", *s): v for s, v in N.items()}}
        for s in squares:
            m.add_at_most_one(Q[s], N[s])
        m.add(sum(Q.values()) == queens)
        m.add(sum(N.values()) == n - queens)
        for r, c in squares:
            others = [(i, j) for i, j in squares if (i, j) != (r, c) and (
                i == r or j == c or abs(i - r) == abs(j - c))]
            m.add(sum(Q[t] + N[t] for t in others) == 0).only_enforce_if(Q[r, c])
            for dr, dc in KNIGHT_STEPS:
                t = (r + dr, c + dc)
                if t in Q:
                    m.add_bool_or([N[r, c].Not(), Q[t].Not()])
                    m.add_bool_or([N[r, c].Not(), N[t].Not()])

    def answer(self, value: Any) -> Any:
        """Read the answer with ``value(var)`` (a solver or a callback)."""
        n = self.instance.n
        if self.q:
            return [int(value(v)) for v in self.q]
        if isinstance(self.instance, QueensInstance):  # the torus board
            cols = [-1] * n
            for (_, r, c), v in self.board.items():
                if value(v):
                    cols[r] = c
            return cols
        return sorted((k, r, c) for (k, r, c), v in self.board.items() if value(v))


@cache
def collector_class() -> type:
    """The solution-callback class (built on first use, with OR-Tools)."""

    class Collector(_cp_model().CpSolverSolutionCallback):  # type: ignore[misc]
        """Counts (and keeps, when asked) solutions; stops after ``limit``; times each one."""

        def __init__(self, model: Model, keep: bool, limit: int | None, deadline: float) -> None:
            super().__init__()
            self.model, self.keep, self.limit, self.deadline = model, keep, limit, deadline
            self.count = 0
            self.solutions: list[Any] = []
            self.times: list[float] = []
            self.start = time.perf_counter()

        def on_solution_callback(self) -> None:
            self.count += 1
            self.times.append(round(time.perf_counter() - self.start, 6))
            if self.keep:
                self.solutions.append(self.model.answer(self.value))
            if (self.limit is not None and self.count >= self.limit) or \
                    time.perf_counter() >= self.deadline:
                self.stop_search()

    return Collector


#: Largest torus board modelled: its Boolean board has n² variables, built in Python before
#: CP-SAT's own time limit can start (1.3 s at n = 301, 9.8 s at n = 1,001; 10^8 variables at
#: n = 10,001, past any time limit and the machine's memory). Past it the solver declines.
MAX_TORUS_BOARD = 150


class CpSat(Solver):
    """OR-Tools CP-SAT on the canonical / Boolean placement models (complete)."""

    name: ClassVar[str] = "cpsat"
    counter_names: ClassVar[frozenset[str] | None] = frozenset({"conflicts", "branches", "first_solution_s"})
    problems: ClassVar[frozenset[str]] = frozenset(
        {"nqueens", "torus-queens", "queens-knights", "nqueens-completion"})
    complete: ClassVar[bool] = True
    #: The seed is CP-SAT's ``random_seed``: which solution it finds depends on it (certify's
    #: ``deterministic`` check found seeds 1 and 2 answering queens-knights 6 × 6 apart).
    stochastic: ClassVar[bool] = True
    counts: ClassVar[bool] = True
    compiled: ClassVar[bool] = True  # a native library loaded on first use: warmed, untimed
    #: loaded by the fork server before its runs: 0.3-0.4 s that each run's warm-up paid
    run_imports: ClassVar[tuple[str, ...]] = ("ortools.sat.python.cp_model",)
    params: ClassVar[dict[str, Any]] = {"num_workers": Param(1, 1, 64)}

    def _solver(self, clock: Deadline, seed: int) -> cp_model.CpSolver:
        """A CP-SAT solver whose own limit is what is left of the budget after building the
        model."""
        solver = _cp_model().CpSolver()
        solver.parameters.num_workers = int(self.config["num_workers"])
        solver.parameters.random_seed = seed
        if clock.limit is not None:
            solver.parameters.max_time_in_seconds = max(clock.remaining(), 1e-3)
        return solver

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
        if instance.problem == "torus-queens" and instance.n > MAX_TORUS_BOARD:
            return Proposal(claim=Claim.DECLINED,
                            note=f"torus boards past n = {MAX_TORUS_BOARD}: the Boolean board "
                                 "model has n² variables, built in Python before any limit")
        clock = budget.clock()
        model = Model(instance)
        solver = self._solver(clock, int(rng.integers(2**31 - 1)))
        status = solver.solve(model.model)
        counters = {"conflicts": int(solver.num_conflicts), "branches": int(solver.num_branches)}
        cp_model = _cp_model()
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Proposal(answer=model.answer(solver.value), claim=Claim.SOLVED,
                            counters=counters)
        if status == cp_model.INFEASIBLE:
            return Proposal(claim=Claim.INFEASIBLE, counters=counters)
        return Proposal(claim=Claim.UNKNOWN, counters=counters, note=solver.status_name(status))

    def _enumerate(self, instance: Any, budget: Budget, keep: bool,
                   limit: int | None) -> tuple[Any, cp_model.CpSolver, Any]:
        clock = budget.clock()
        model = Model(instance)
        solver = self._solver(clock, 0)
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.num_workers = 1  # enumeration is single-threaded in CP-SAT
        collector = collector_class()(model, keep, limit, clock.end)
        status = solver.solve(model.model, collector)
        return collector, solver, status

    def count(self, instance: Any, budget: Budget, *, unique: bool = False) -> Proposal:
        if unique:
            raise ValueError("cpsat counts all solutions, not unique ones")
        collector, solver, status = self._enumerate(instance, budget, False, None)
        counters: dict[str, Any] = {"conflicts": int(solver.num_conflicts),
                                    "branches": int(solver.num_branches)}
        if collector.times:
            counters["first_solution_s"] = collector.times[0]
        cp_model = _cp_model()
        if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):  # search space exhausted
            return Proposal(claim=Claim.SOLVED if collector.count else Claim.INFEASIBLE,
                            count=collector.count, counters=counters)
        return Proposal(counters=counters, note=f"stopped after {collector.count} solutions")

    def enumerate(self, instance: Any, budget: Budget, *, limit: int | None = None) -> Enumeration:
        collector, _, status = self._enumerate(instance, budget, True, limit)
        cp_model = _cp_model()
        exhausted = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and (
            limit is None or collector.count < limit)
        return Enumeration(collector.solutions, complete=exhausted)
