"""mod12, backtracking and bitboard: golden behaviour beyond the conformance suite."""

from __future__ import annotations

import numpy as np
import pytest

from puzzlebench.contract import Budget, SolverConfigError
from puzzlebench.harness.execute import run_count, run_solve
from puzzlebench.problems import get_problem
from puzzlebench.problems.base import InvalidInstanceError
from puzzlebench.problems.nqueens import A000170, A002562
from puzzlebench.problems.torus_queens import A007705
from puzzlebench.records.record import Outcome
from puzzlebench_baselines.backtracking import queens_first_solution
from puzzlebench_baselines.bitboard import count_queens
from puzzlebench_baselines.bitboard_symmetric import count_symmetric
from puzzlebench_baselines.mod12 import mod12_columns
from tests.conformance.cases import make

NQ = get_problem("nqueens")


@pytest.mark.parametrize("n", [*range(4, 300), 1_000, 12_345, 99_998])
def test_mod12_valid_for_every_residue(n: int) -> None:
    assert NQ.validate(NQ.make(n), mod12_columns(n)).valid


@pytest.mark.covers("mod12")
def test_mod12_seed_examples() -> None:
    # n = 8 (remainder 8): evens 2,4,6,8 then odds swapped in pairs 3,1,7,5.
    assert (mod12_columns(8) + 1).tolist() == [2, 4, 6, 8, 3, 1, 7, 5]
    # n = 9 (remainder 9): 2 moves to the end of the evens; 1 and 3 to the end of the odds.
    assert (mod12_columns(9) + 1).tolist() == [4, 6, 8, 2, 5, 7, 9, 1, 3]
    # n = 14 (remainder 2): 1 and 3 swap, 5 goes last.
    assert (mod12_columns(14) + 1).tolist()[7:] == [3, 1, 7, 9, 11, 13, 5]
    assert run_solve("mod12", make("nqueens", 3)).verdict.outcome is Outcome.INFEASIBLE


def test_backtracking_is_seed_003s_first_solution() -> None:
    # Row by row, first safe column: the first solution for n = 8 in lexicographic order.
    answer, exhausted, counters = queens_first_solution(8, False, Budget())
    assert answer == [0, 4, 7, 5, 2, 6, 1, 3] and not exhausted
    assert counters["nodes"] == 113 and counters["backtracks"] == 105
    answer, exhausted, _ = queens_first_solution(6, True, Budget())
    assert answer is None and exhausted


@pytest.mark.covers("backtracking")
def test_backtracking_queens_knights_small_boards() -> None:
    rec = run_solve("backtracking", make("queens-knights", 5, queens=3))
    assert rec.verdict.outcome is Outcome.INFEASIBLE
    rec = run_solve("backtracking", make("queens-knights", 8, queens=5))
    assert rec.verdict.outcome is Outcome.SOLVED


@pytest.mark.covers("bitboard")
def test_bitboard_counts_and_unique_counts() -> None:
    for n in range(1, 14):
        for symmetry in ("full", "mirror"):
            total, unique, _ = count_queens(n, unique=True, symmetry=symmetry)
            assert (total, unique) == (A000170[n], A002562[n]), (n, symmetry)
    for n, expected in A007705.items():
        assert count_queens(n, torus=True)[0] == expected
    assert count_queens(6, torus=True)[0] == 0
    rec = run_count("bitboard", make("nqueens", 12), unique=True)
    assert (rec.verdict.count, rec.verdict.unique, rec.verdict.outcome) == (14200, 1787, Outcome.SOLVED)


def test_bitboard_first_solution_respects_node_budget() -> None:
    rec = run_solve("bitboard", make("nqueens", 200), budget=Budget(max_nodes=50))
    assert rec.verdict.outcome is Outcome.BUDGET and rec.figures.counters["nodes"] <= 51
    assert isinstance(mod12_columns(10), np.ndarray)


def test_full_symmetry_search_is_smaller_than_mirror_search() -> None:
    full, mirror = count_queens(12, symmetry="full"), count_queens(12, symmetry="mirror")
    assert full[0] == mirror[0] and full[2] * 2 < mirror[2]


def test_symmetric_orbit_sizes_match_a_brute_force_census() -> None:
    """Per-orbit bookkeeping (2, 4, 8) checked against orbits built from every solution."""
    from itertools import permutations

    for n in (5, 6, 7, 8):
        sols = {p for p in permutations(range(n))
                if len({r + c for r, c in enumerate(p)}) == n
                and len({r - c for r, c in enumerate(p)}) == n}
        orbits = set()
        for p in sols:
            images = []
            inv = [0] * n
            for r, c in enumerate(p):
                inv[c] = r
            for img in (p, tuple(n - 1 - c for c in p), p[::-1],
                        tuple(n - 1 - c for c in p[::-1]), tuple(inv),
                        tuple(n - 1 - c for c in inv), tuple(inv[::-1]),
                        tuple(n - 1 - c for c in inv[::-1])):
                images.append(img)
            orbits.add(min(images))
        assert count_symmetric(n)[:2] == (len(sols), len(orbits))


def test_bitboard_symmetry_parameter_is_checked() -> None:
    with pytest.raises(SolverConfigError):
        run_count("bitboard", make("nqueens", 8), params={"symmetry": "rotations"})
    with pytest.raises(InvalidInstanceError):
        count_queens(8, symmetry="both")
    rec = run_count("bitboard", make("nqueens", 10), params={"symmetry": "mirror"}, unique=True)
    assert (rec.verdict.count, rec.verdict.unique, rec.verdict.outcome) == (724, 92, Outcome.SOLVED)


@pytest.mark.parametrize("symmetry", ["full", "mirror"])
def test_bitboard_count_stops_at_the_time_budget(symmetry: str) -> None:
    """The kernels read the clock themselves: the run ends as ``budget`` by its own check,
    never killed by the harness (whose kill is far away here, so no speed is assumed)."""
    rec = run_count("bitboard", make("nqueens", 22), budget=Budget(time_limit=0.3),
                    params={"symmetry": symmetry}, hard_limit=60)
    v = rec.verdict
    assert v.outcome is Outcome.BUDGET and v.count is None, (v.outcome, v.error)


def test_task_runner_reraises_a_task_error_and_keeps_order() -> None:
    from puzzlebench_baselines.bitboard_tasks import run_tasks

    assert run_tasks(lambda x: x * x, list(range(50)), workers=2) == [x * x for x in range(50)]

    def boom(x: int) -> int:
        if x == 7:
            raise ValueError("task 7")
        return x

    with pytest.raises(ValueError, match="task 7"):
        run_tasks(boom, list(range(20)), workers=2)
    assert run_tasks(lambda x: x, [1, 2], deadline=0.0) is None
