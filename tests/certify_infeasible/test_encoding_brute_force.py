"""The judge's CNF encoding against brute force: a wrong encoding would certify a falsehood.

For every small instance the set of models of the formula, read back on the square
variables, must be exactly the set of solutions found by plain enumeration (written here,
independently of the encoding and of every solver), and every enumerated solution must pass
the problem's validator — so the formula is satisfiable exactly when the instance is solvable.
Sizes: nqueens and torus-queens n ≤ 8, queens-knights every A for n ≤ 5, nqueens-completion
every placement (any columns, attacking or not, in any subset of rows) for n ≤ 5 and a seeded
sample at n = 6 and 7.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from pysat.solvers import Solver

from puzzlebench.problems import get_problem
from puzzlebench.problems.cnf import encode
from puzzlebench.problems.queens_knights import KNIGHT_STEPS


def models(instance: Any) -> set[str]:
    """Every model of the judge's formula, as the problem's answer key (blocking each one on
    the square variables)."""
    cnf = encode(instance)
    squares = (2 if instance.problem == "queens-knights" else 1) * instance.n ** 2
    prob = get_problem(instance.problem)
    found: set[str] = set()
    with Solver(name="cadical195", bootstrap_with=[list(c) for c in cnf.clauses]) as sat:
        while sat.solve():
            model = sat.get_model()
            found.add(prob.answer_key(cnf.answer(model)))
            sat.add_clause([-lit for lit in model if 0 < abs(lit) <= squares])
    return found


def queens(n: int, torus: bool) -> Iterator[list[int]]:
    """Every placement of n non-attacking queens, by trying every permutation."""
    for cols in itertools.permutations(range(n)):
        if torus:
            sums = {(r + c) % n for r, c in enumerate(cols)}
            diffs = {(r - c) % n for r, c in enumerate(cols)}
        else:
            sums = {r + c for r, c in enumerate(cols)}
            diffs = {r - c for r, c in enumerate(cols)}
        if len(sums) == n and len(diffs) == n:
            yield list(cols)


def queens_knights(n: int, a: int) -> Iterator[list[list[Any]]]:
    """Every placement of a queens and n − a knights, square by square with pairwise checks."""
    squares = [(r, c) for r in range(n) for c in range(n)]

    def clash(p: tuple[str, int, int], q: tuple[str, int, int]) -> bool:
        (k1, r1, c1), (k2, r2, c2) = p, q
        line = r1 == r2 or c1 == c2 or abs(r1 - r2) == abs(c1 - c2)
        knight = (r2 - r1, c2 - c1) in KNIGHT_STEPS
        return ((k1 == "Q" or k2 == "Q") and line) or ((k1 == "N" or k2 == "N") and knight)

    def place(i: int, qs: int, ns: int, chosen: list[tuple[str, int, int]]
              ) -> Iterator[list[list[Any]]]:
        if qs == 0 and ns == 0:
            yield [list(p) for p in chosen]
            return
        if i == len(squares) or len(squares) - i < qs + ns:
            return
        r, c = squares[i]
        for kind, left in (("Q", qs), ("N", ns)):
            piece = (kind, r, c)
            if left and not any(clash(piece, p) for p in chosen):
                yield from place(i + 1, qs - (kind == "Q"), ns - (kind == "N"), [*chosen, piece])
        yield from place(i + 1, qs, ns, chosen)

    return place(0, a, n - a, [])


def check_family(problem: str, instance: Any, brute: list[Any]) -> None:
    prob = get_problem(problem)
    for answer in brute:
        assert prob.validate(instance, answer), (instance.instance_id, answer)
    assert models(instance) == {prob.answer_key(a) for a in brute}, instance.instance_id


@pytest.mark.parametrize("n", range(1, 9))
@pytest.mark.parametrize("problem", ["nqueens", "torus-queens"])
def test_queens_formulas_have_exactly_the_solutions(problem: str, n: int) -> None:
    brute = list(queens(n, problem == "torus-queens"))
    check_family(problem, get_problem(problem).make(n), brute)
    assert bool(brute) == get_problem(problem).is_solvable(get_problem(problem).make(n))


@pytest.mark.parametrize("n", range(1, 6))
def test_queens_knights_formulas_have_exactly_the_solutions(n: int) -> None:
    infeasible = []
    for a in range(n + 1):
        inst = get_problem("queens-knights").make(n, queens=a)
        brute = list(queens_knights(n, a))
        check_family("queens-knights", inst, brute)
        if not brute:
            infeasible.append(a)
    if n in (2, 3):  # the boards with unsolvable A values (beside n = 2, 3 queens)
        assert infeasible


def placements(n: int) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every set of pre-placed queens in distinct rows, any columns (attacking ones too)."""
    for choice in itertools.product(range(-1, n), repeat=n):
        yield tuple((r, c) for r, c in enumerate(choice) if c >= 0)


def completion_truth(n: int, placed: tuple[tuple[int, int], ...], boards: list[list[int]]
                     ) -> list[list[int]]:
    return [b for b in boards if all(b[r] == c for r, c in placed)]


@pytest.mark.parametrize("n", range(1, 6))
def test_every_completion_instance_up_to_5_is_encoded_exactly(n: int) -> None:
    boards = list(queens(n, False))
    prob = get_problem("nqueens-completion")
    seen = {True: 0, False: 0}
    with_models = 0
    for placed in placements(n):
        inst = prob.make(n, placed=[list(s) for s in placed])
        truth = completion_truth(n, placed, boards)
        cnf = encode(inst)
        with Solver(name="cadical195", bootstrap_with=[list(c) for c in cnf.clauses]) as sat:
            sat_ok = sat.solve()
            if sat_ok:
                assert cnf.answer(sat.get_model()) in truth
        assert sat_ok == bool(truth), inst.instance_id
        seen[sat_ok] += 1
        if truth and len(placed) <= 1:  # the whole model set where there are several models
            check_family("nqueens-completion", inst, truth)
            with_models += 1
    assert (n == 1 or seen[False] > 0) and (n in (2, 3) or seen[True] > 0)
    assert n in (2, 3) or with_models > 0


@pytest.mark.parametrize("n", [6, 7])
def test_sampled_completion_instances_are_encoded_exactly(n: int) -> None:
    rng = np.random.default_rng(28)
    boards = list(queens(n, False))
    prob = get_problem("nqueens-completion")
    outcomes = set()
    for _ in range(300):
        rows = [r for r in range(n) if rng.random() < 0.4]
        placed = tuple((r, int(rng.integers(n))) for r in rows)
        inst = prob.make(n, placed=[list(s) for s in placed])
        truth = completion_truth(n, placed, boards)
        check_family("nqueens-completion", inst, truth)
        outcomes.add(bool(truth))
    assert outcomes == {True, False}
