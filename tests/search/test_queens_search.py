"""N-Queens best-first: seed 000's states, incremental h and g checked against recomputation."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlebench.contract import Budget
from puzzlebench.harness.execute import run_solve
from puzzlebench.problems import get_problem
from puzzlebench.records.record import Outcome
from puzzlebench.search.best_first import effective_branching_factor
from puzzlebench.search.queens.queens_states import (
    AttackedShiftState,
    Board,
    ShiftState,
    SwapState,
    attacked_queens,
    attacking_pairs,
    diagonal_pairs,
    inversions,
)

SOLVERS = ["greedy-h1", "astar-h1", "greedy-h2", "astar-h2", "greedy-h3", "astar-h3"]


@given(st.lists(st.integers(0, 50), max_size=40))
def test_merge_sort_inversions(seq: list[int]) -> None:
    brute = sum(1 for i, j in itertools.combinations(range(len(seq)), 2) if seq[i] > seq[j])
    assert inversions(list(seq)) == brute


@given(st.integers(4, 9), st.booleans(), st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_incremental_h_and_g_match_recomputation(n: int, torus: bool, seed: int) -> None:
    rng = np.random.default_rng(seed)
    start = tuple(int(c) for c in rng.integers(0, n, n))
    board = Board(n, torus, start)
    for cls, full in ((ShiftState, attacking_pairs), (AttackedShiftState, attacked_queens)):
        state = cls.initial(board)
        for _ in range(5):
            children = list(state.successors())
            for _, child in children:
                assert child.h == full(board, child.cols)
                assert child.g == sum(abs(a - b) for a, b in zip(child.cols, start, strict=True))
            state = children[int(rng.integers(len(children)))][1]
    perm = tuple(int(c) for c in rng.permutation(n))
    pboard = Board(n, torus, perm)
    state = SwapState.initial(pboard)
    where = {c: r for r, c in enumerate(perm)}
    for _ in range(5):
        children = list(state.successors())
        for _, child in children:
            assert child.h == diagonal_pairs(pboard, child.cols)
            assert child.g == inversions([where[c] for c in child.cols])
        state = children[int(rng.integers(len(children)))][1]


@pytest.mark.covers("greedy-h1", "astar-h1", "greedy-h2", "astar-h2", "greedy-h3", "astar-h3")
@pytest.mark.parametrize("solver", SOLVERS)
def test_solves_and_reports_seed_counters(solver: str) -> None:
    rec = run_solve(solver, get_problem("nqueens").make(8), seed=5, budget=Budget(time_limit=30))
    assert rec.verdict.outcome is Outcome.SOLVED
    for counter in ("nodes_expanded", "nodes_generated", "max_frontier", "steps",
                    "effective_branching"):
        assert counter in rec.figures.counters
    torus = run_solve(solver, get_problem("torus-queens").make(5), seed=5)
    assert torus.verdict.outcome is Outcome.SOLVED


@pytest.mark.covers("astar-h3", "greedy-h3")
def test_astar_h3_path_is_no_longer_than_greedy_h3_on_average() -> None:
    steps = {"greedy-h3": 0, "astar-h3": 0}
    for seed in range(8):
        for solver in steps:
            rec = run_solve(solver, get_problem("nqueens").make(8), seed=seed)
            steps[solver] += rec.figures.counters["steps"]
    assert steps["astar-h3"] <= steps["greedy-h3"]


def test_effective_branching_factor() -> None:
    # 1 + b + b^2 = N + 1 with b = 2, d = 2 → N = 6.
    assert effective_branching_factor(6, 2) == pytest.approx(2.0, abs=1e-3)
    assert effective_branching_factor(0, 0) == 0.0
