"""python-constraint2 models of the queens problems, with the library's built-in
constraints only (no Python function per pair of queens).

Boolean board formulation: one 0/1 variable per square (and per piece kind for
queens-knights). nqueens: ExactSum(1) on every row and column, MaxSum(1) on every diagonal.
torus-queens: ExactSum(1) on rows, columns and the n wrapped diagonals of each direction (n
queens on n wrapped diagonals: exactly one each). queens-knights: Q and N per square with
MaxSum(1) per square, ExactSum(A) over the queens and ExactSum(n − A) over the knights; a
queen clears its lines through weighted sums (n·Q_s + Σ pieces on the line ≤ n), and a knight
clears its knight squares through MaxSum(1) on (N_s, Q_t, N_t). Sum constraints prune during
forward checking, which is what makes this the library's fast path. nqueens-completion: the
nqueens model with each pre-placed queen's square given the domain {1}.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import constraint

from puzzlebench.contract import Claim, Proposal
from puzzlebench.problems.queens_knights import KNIGHT_STEPS, QueensKnightsInstance
from puzzlebench.solvers.queens_keys import diagonal_squares


def var(kind: str, r: int, c: int) -> str:
    return f"{kind}{r}_{c}"


def queens_problem(n: int, torus: bool, solver: constraint.Solver,
                   fixed: tuple[tuple[int, int], ...] = ()) -> constraint.Problem:
    """The Boolean n-queens (or torus) model; ``fixed`` squares must hold a queen."""
    p = constraint.Problem(solver)
    held = set(fixed)
    for r in range(n):
        for c in range(n):
            p.addVariable(var("x", r, c), [1] if (r, c) in held else [0, 1])
    for r in range(n):
        p.addConstraint(constraint.ExactSumConstraint(1), [var("x", r, c) for c in range(n)])
    for c in range(n):
        p.addConstraint(constraint.ExactSumConstraint(1), [var("x", r, c) for r in range(n)])
    for line in diagonal_squares(n, torus):  # a torus's n wrapped lines each hold one queen
        if len(line) > 1 or torus:
            p.addConstraint(constraint.ExactSumConstraint(1) if torus else
                            constraint.MaxSumConstraint(1), [var("x", r, c) for r, c in line])
    return p


def _lines(n: int, r: int, c: int) -> list[list[tuple[int, int]]]:
    """The four lines through (r, c), each without (r, c) itself."""
    rows = [(r, j) for j in range(n) if j != c]
    cols = [(i, c) for i in range(n) if i != r]
    diag = [(i, c + i - r) for i in range(n) if i != r and 0 <= c + i - r < n]
    anti = [(i, c - i + r) for i in range(n) if i != r and 0 <= c - i + r < n]
    return [rows, cols, diag, anti]


def queens_knights_problem(n: int, queens: int, solver: constraint.Solver) -> constraint.Problem:
    """The placement model for A queens and n − A knights."""
    p = constraint.Problem(solver)
    squares = [(r, c) for r in range(n) for c in range(n)]
    for r, c in squares:
        p.addVariable(var("Q", r, c), [0, 1] if queens else [0])
        p.addVariable(var("N", r, c), [0, 1] if queens < n else [0])
        p.addConstraint(constraint.MaxSumConstraint(1), [var("Q", r, c), var("N", r, c)])
    p.addConstraint(constraint.ExactSumConstraint(queens), [var("Q", r, c) for r, c in squares])
    p.addConstraint(constraint.ExactSumConstraint(n - queens),
                    [var("N", r, c) for r, c in squares])
    if queens:
        for r, c in squares:
            for line in _lines(n, r, c):
                if not line:
                    continue
                names = [var("Q", r, c)] + [var(k, i, j) for i, j in line for k in "QN"]
                weights = [n] + [1] * (2 * len(line))
                p.addConstraint(constraint.MaxSumConstraint(n, weights), names)
    if queens < n:
        for r, c in squares:
            for dr, dc in KNIGHT_STEPS:
                i, j = r + dr, c + dc
                if 0 <= i < n and 0 <= j < n:
                    p.addConstraint(constraint.MaxSumConstraint(1),
                                    [var("N", r, c), var("Q", i, j), var("N", i, j)])
    return p


def build(instance: Any, solver: constraint.Solver) -> constraint.Problem:
    """The model of any queens-family instance."""
    if isinstance(instance, QueensKnightsInstance):
        return queens_knights_problem(instance.n, instance.queens, solver)
    return queens_problem(instance.n, instance.wraps, solver, instance.fixed)


def declined(n: int, max_n: int, *counters: str) -> Proposal:
    """The proposal of a solver that will not attempt a board this large (its effort
    counters, named in ``counters``, are zero)."""
    return Proposal(claim=Claim.DECLINED,
                    counters={"solutions": 0, **dict.fromkeys(counters, 0)},
                    note=f"declined: n = {n} exceeds max_n = {max_n}")


def decode(instance: Any, solution: Mapping[str, int]) -> Any:
    """A library solution as the problem's answer encoding."""
    n = instance.n
    if isinstance(instance, QueensKnightsInstance):
        return [(k, r, c) for r in range(n) for c in range(n) for k in "QN"
                if solution.get(var(k, r, c))]
    cols = [-1] * n
    for r in range(n):
        for c in range(n):
            if solution[var("x", r, c)]:
                cols[r] = c
    return cols
