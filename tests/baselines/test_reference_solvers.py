"""CP-SAT, python-constraint2 and DEAP baselines: models, counting, enumeration, seeding."""

from __future__ import annotations

import random

import pytest

from puzzlebench.contract import Budget
from puzzlebench.harness.execute import run_count, run_solve
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.records.record import Outcome
from puzzlebench_baselines.deap_ga import cx_partially_matched, diagonal_conflicts, mut_shuffle_indexes
from tests.conformance.cases import make


@pytest.mark.covers("constraint-backtracking", "cpsat")
@pytest.mark.parametrize("solver", ["cpsat", "constraint-backtracking"])
def test_counts_against_oeis_and_torus(solver: str) -> None:
    for n, expected in ((4, 2), (6, 4), (7, 40), (8, 92)):
        rec = run_count(solver, make("nqueens", n), budget=Budget(time_limit=60))
        assert (rec.verdict.outcome, rec.verdict.count) == (Outcome.SOLVED, expected)
    for n, expected in ((5, 10), (7, 28), (6, 0)):
        assert run_count(solver, make("torus-queens", n)).verdict.count == expected


def test_cpsat_infeasibility_proofs_and_counters() -> None:
    for problem, n in (("nqueens", 2), ("nqueens", 3), ("torus-queens", 6), ("torus-queens", 9)):
        rec = run_solve("cpsat", make(problem, n), budget=Budget(time_limit=30))
        assert rec.verdict.outcome is Outcome.INFEASIBLE
    rec = run_solve("cpsat", make("nqueens", 60), seed=3, budget=Budget(time_limit=30))
    assert rec.verdict.outcome is Outcome.SOLVED and {"conflicts", "branches"} <= set(rec.figures.counters)
    assert rec.key.params == {"num_workers": 1}


def test_cpsat_enumeration_with_limit_and_queens_knights() -> None:
    spec = resolve_solver("cpsat")
    three = spec.create().enumerate(make("nqueens", 8), Budget(time_limit=30), limit=3)
    assert len(three.solutions) == 3 and len({tuple(a) for a in three.solutions}) == 3
    assert not three.complete  # cut short by the limit: not the whole set
    all_qk = spec.create().enumerate(make("queens-knights", 4, queens=1), Budget(time_limit=30))
    others = resolve_solver("constraint-backtracking").create().enumerate(
        make("queens-knights", 4, queens=1), Budget(time_limit=30))
    assert all_qk.complete and others.complete
    assert {tuple(sorted(a)) for a in all_qk.solutions} == {tuple(sorted(a)) for a in others.solutions}
    assert run_solve("cpsat", make("queens-knights", 5, queens=3)).verdict.outcome is Outcome.INFEASIBLE


@pytest.mark.covers("constraint-minconflicts")
def test_constraint_solvers() -> None:
    rec = run_solve("constraint-backtracking", make("queens-knights", 6, queens=2))
    assert rec.verdict.outcome is Outcome.SOLVED
    big = run_solve("constraint-backtracking", make("nqueens", 40))
    assert big.verdict.outcome is Outcome.DECLINED and big.verdict.stopped_by == "declined"
    assert "exceeds max_n" in big.verdict.reason
    one = run_solve("constraint-minconflicts", make("nqueens", 10), seed=4,
                    budget=Budget(time_limit=20))
    two = run_solve("constraint-minconflicts", make("nqueens", 10), seed=4,
                    budget=Budget(time_limit=20))
    assert one.verdict.outcome is Outcome.SOLVED and one.verdict.answer == two.verdict.answer
    assert one.figures.counters == two.figures.counters


@pytest.mark.covers("deap-ga")
def test_deap_ga_is_seeded_without_global_random() -> None:
    state = random.getstate()
    first = run_solve("deap-ga", make("nqueens", 12), seed=9, budget=Budget(time_limit=30),
                      isolate=False)  # in this process, so its global state can be inspected
    assert random.getstate() == state  # the global generator was never touched
    second = run_solve("deap-ga", make("nqueens", 12), seed=9, budget=Budget(time_limit=30))
    assert first.verdict.outcome is Outcome.SOLVED
    assert (first.verdict.answer, first.figures.counters) == (second.verdict.answer, second.figures.counters)
    assert first.figures.counters["evaluations"] >= first.key.params["population"]


def test_deap_operator_ports_match_deap_on_the_same_random_stream() -> None:
    """The seeded ports make exactly DEAP's choices: deap.tools draws from the global
    generator, the ports from a Random seeded the same way (tests may touch global state)."""
    from deap import tools

    saved = random.getstate()
    try:
        rng = random.Random(1)
        for k in range(200):
            a, b = rng.sample(range(10), 10), rng.sample(range(10), 10)
            random.seed(k)
            expected = tools.cxPartialyMatched(list(a), list(b))
            assert cx_partially_matched(list(a), list(b), random.Random(k)) == expected
            random.seed(k)
            (expected_m,) = tools.mutShuffleIndexes(list(a), 0.3)
            assert mut_shuffle_indexes(list(a), 0.3, random.Random(k)) == (expected_m,)
    finally:
        random.setstate(saved)
    assert diagonal_conflicts([0, 1, 2, 3], False) == (6,)
    assert diagonal_conflicts([1, 3, 0, 2], False) == (0,)
