"""The compiled seed-000 searches against the pure-Python reference: for every solver, on a grid
of sizes, topologies and seeds, equal counters (nodes expanded and generated, largest frontier,
steps, h of the start), claim and answer — solved, exhausted (no solution) and stopped by the
node cap alike."""

from __future__ import annotations

import numpy as np
import pytest

from puzzlebench.contract import Budget, Claim
from puzzlebench.problems import get_problem
from puzzlebench.search.queens.queens_search import (
    AStarH1,
    compiled_search,
    reference_search,
)

SOLVERS = [(h, astar) for h in ("h1", "h2", "h3") for astar in (False, True)]


def _same(problem: str, n: int, seed: int, heuristic: str, astar: bool, cap: int) -> Claim:
    instance = get_problem(problem).make(n)
    budget = Budget(max_nodes=cap)
    ref = reference_search(instance, budget, np.random.default_rng(seed), heuristic, astar)
    fast = compiled_search(instance, budget, np.random.default_rng(seed), heuristic, astar)
    where = f"{problem} n={n} seed={seed} {heuristic} astar={astar}"
    assert fast.counters == ref.counters, where
    assert (fast.claim, fast.answer) == (ref.claim, ref.answer), where
    return ref.claim


@pytest.mark.covers("greedy-h1", "astar-h1", "greedy-h2", "astar-h2", "greedy-h3", "astar-h3")
@pytest.mark.parametrize("heuristic, astar", SOLVERS)
def test_compiled_search_expands_the_reference_nodes(heuristic: str, astar: bool) -> None:
    claims = set()
    for problem in ("nqueens", "torus-queens"):  # the torus: odd sizes, and even ones, where
        for n in range(1, 10):                     # two queens can share both diagonals
            for seed in range(3):
                claims.add(_same(problem, n, seed, heuristic, astar, cap=2_000))
    # every way a search ends was compared: a goal, an exhausted space, the node cap
    assert claims == {Claim.SOLVED, Claim.INFEASIBLE, Claim.UNKNOWN}


@pytest.mark.parametrize("heuristic, astar", SOLVERS)
def test_boards_past_the_packed_code_match_too(heuristic: str, astar: bool) -> None:
    """From 16 queens a placement no longer fits one 62-bit code: states are told apart by a
    hash and their columns; from 48 the reference updates H2 incrementally."""
    for n, seed in ((16, 0), (17, 1), (50, 2)):
        _same("nqueens", n, seed, heuristic, astar, cap=1_500)
    _same("torus-queens", 18, 3, heuristic, astar, cap=1_500)


def test_the_stored_cells_cap_stops_both_at_the_same_child(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The memory cap (states held × n, looked at every CHECK_EVERY children) is part of the
    node-for-node contract: made small, it stops both searches at the same child."""
    from puzzlebench.search import best_first
    from puzzlebench.search.queens import queens_search

    monkeypatch.setattr(best_first, "STORED_CELLS", 3_000)
    monkeypatch.setattr(queens_search, "STORED_CELLS", 3_000)
    instance = get_problem("nqueens").make(10)
    for seed, heuristic in ((0, "h1"), (1, "h2")):
        budget = Budget(max_nodes=10**6)
        ref = reference_search(instance, budget, np.random.default_rng(seed), heuristic, True)
        fast = compiled_search(instance, budget, np.random.default_rng(seed), heuristic, True)
        assert ref.claim is Claim.UNKNOWN and ref.counters["nodes_generated"] < 10**6
        assert ref.counters["nodes_generated"] % best_first.CHECK_EVERY == 0
        assert fast.counters == ref.counters
        # and the record names the cap that stopped them, not the budget
        assert ref.stopped_by == fast.stopped_by == "memory_cap"
        assert fast.note == "stored-state cap reached"


def test_a_search_stopped_by_its_budget_names_the_budget() -> None:
    instance = get_problem("nqueens").make(10)
    for search in (reference_search, compiled_search):
        by_nodes = search(instance, Budget(max_nodes=500), np.random.default_rng(0), "h1", True)
        assert by_nodes.claim is Claim.UNKNOWN and by_nodes.stopped_by == "max_nodes"
        by_time = search(instance, Budget(time_limit=0.05), np.random.default_rng(0), "h1", True)
        assert by_time.claim is Claim.UNKNOWN and by_time.stopped_by == "time_limit"


def test_the_solvers_run_the_compiled_kernel() -> None:
    assert AStarH1.compiled  # warmed, untimed, before each timed run
    proposal = AStarH1().solve(get_problem("nqueens").make(8), Budget(max_nodes=10**6),
                               np.random.default_rng(5))
    ref = reference_search(get_problem("nqueens").make(8), Budget(max_nodes=10**6),
                           np.random.default_rng(5), "h1", True)
    assert proposal.counters == ref.counters and proposal.answer == ref.answer
