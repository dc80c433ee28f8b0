"""Validators and facts of nqueens and torus-queens, including hypothesis properties."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlebench.problems import InvalidInstanceError, get_problem
from puzzlebench.problems.nqueens import A000170, A002562

NQ = get_problem("nqueens")
TQ = get_problem("torus-queens")


def brute_attacks(cols: list[int], torus: bool) -> int:
    n = len(cols)
    pairs = 0
    for (r1, c1), (r2, c2) in itertools.combinations(enumerate(cols), 2):
        if torus:
            hit = c1 == c2 or (r1 + c1 - r2 - c2) % n == 0 or (r1 - c1 - r2 + c2) % n == 0
        else:
            hit = c1 == c2 or abs(r1 - r2) == abs(c1 - c2)
        pairs += hit
    return pairs


def test_known_solution_is_valid() -> None:
    inst = NQ.make(8)
    assert NQ.validate(inst, [0, 4, 7, 5, 2, 6, 1, 3]).valid
    assert NQ.conflicts(inst, [0, 4, 7, 5, 2, 6, 1, 3]) == 0


def test_invalid_answers_say_why() -> None:
    inst = NQ.make(4)
    v = NQ.validate(inst, [0, 1, 2, 3])
    assert not v.valid and "diagonal" in v.reason
    v = NQ.validate(inst, [1, 1, 3, 0])
    assert not v.valid and "column" in v.reason
    assert "expected 4" in NQ.validate(inst, [1, 3, 0]).reason
    assert "outside" in NQ.validate(inst, [1, 3, 0, 4]).reason
    assert not NQ.validate(inst, "1302").valid
    assert not NQ.validate(inst, [1.5, 3, 0, 2]).valid
    assert not NQ.validate(inst, None).valid


def test_torus_diagonals_wrap() -> None:
    # Valid on the plain board, but rows 0 and 3 share a wrapped diagonal on a 4-torus.
    assert NQ.validate(NQ.make(4), [1, 3, 0, 2]).valid
    assert not TQ.validate(TQ.make(4), [1, 3, 0, 2]).valid
    # The knight's-move placement (2r mod n) solves the torus when gcd(n, 6) = 1.
    assert TQ.validate(TQ.make(7), [(2 * r) % 7 for r in range(7)]).valid


@pytest.mark.parametrize("bad", [0, -3, 2.5, "8", True, None])
def test_bad_sizes_refused(bad: object) -> None:
    with pytest.raises(InvalidInstanceError):
        NQ.make(bad)  # type: ignore[arg-type]


def test_facts() -> None:
    assert [n for n in range(1, 12) if NQ.is_solvable(NQ.make(n))] == [1, 4, 5, 6, 7, 8, 9, 10, 11]
    assert [n for n in range(1, 14) if TQ.is_solvable(TQ.make(n))] == [1, 5, 7, 11, 13]
    assert NQ.known_count(NQ.make(8)) == 92 and NQ.known_count(NQ.make(8), unique=True) == 12
    assert len(A000170) == len(A002562) == 28
    assert NQ.known_count(NQ.make(27)) == 234907967154122528
    assert TQ.known_count(TQ.make(6)) == 0


@given(st.lists(st.integers(0, 11), min_size=12, max_size=12), st.booleans())
@settings(max_examples=200, deadline=None)
def test_conflict_count_matches_brute_force_and_validity(cols: list[int], torus: bool) -> None:
    prob = TQ if torus else NQ
    inst = prob.make(12)
    conflicts = prob.conflicts(inst, cols)
    assert conflicts == brute_attacks(cols, torus)
    assert (conflicts == 0) == prob.validate(inst, cols).valid


@given(st.integers(0, 7), st.integers(0, 7), st.data())
@settings(max_examples=200, deadline=None)
def test_moving_a_queen_onto_an_attacked_square_is_caught(row: int, col: int, data) -> None:
    solution = [0, 4, 7, 5, 2, 6, 1, 3]
    inst = NQ.make(8)
    if col == solution[row]:
        return
    moved = list(solution)
    moved[row] = col
    # The target square shares a column or diagonal with another queen in every such move
    # (a solution's other queens cover every square of row `row` except its own).
    attacked = any(
        c == col or abs(r - row) == abs(c - col)
        for r, c in enumerate(solution) if r != row
    )
    assert attacked
    verdict = NQ.validate(inst, moved)
    assert not verdict.valid and verdict.reason


def test_validator_takes_numpy_arrays() -> None:
    n = 100_000
    inst = NQ.make(n)
    diagonal = np.arange(n, dtype=np.int32)
    verdict = NQ.validate(inst, diagonal)
    assert not verdict.valid and "diagonal" in verdict.reason
    assert NQ.conflicts(inst, diagonal) == n * (n - 1) // 2
    # Known valid: the torus construction 2r mod n is also valid on the plain board.
    m = 100_001  # gcd(m, 6) = 1
    assert NQ.validate(NQ.make(m), (2 * np.arange(m)) % m).valid


def test_clashes_name_the_right_diagonal_family() -> None:
    """↘ (row − col constant) is a diagonal, ↗ (row + col constant) an anti-diagonal."""
    problem = get_problem("nqueens")
    inst = problem.make(4)
    assert problem.validate(inst, [1, 0, 2, 3]).reason.endswith("(row 1, col 0) share an anti-diagonal")
    assert problem.validate(inst, [0, 3, 1, 2]).reason.endswith("(row 3, col 2) share a diagonal")
