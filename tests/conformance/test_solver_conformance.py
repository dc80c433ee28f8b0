"""Conformance: every registered solver, on every problem it declares, keeps the contract.

Parametrised from the registry, so a solver filed later is tested with no edit here. The
harness (not the solver) decides each outcome.
"""

from __future__ import annotations

import time

import pytest

from puzzlebench.contract import Budget
from puzzlebench.harness.execute import run_count, run_solve
from puzzlebench.harness.outcome import Outcome
from puzzlebench.problems import problem_of
from puzzlebench.problems.nqueens import A000170
from puzzlebench.registry import REGISTRY, SolverSpec
from tests.conformance.cases import CAPPED, HARD, INFEASIBLE, REPRODUCIBLE, SOLVABLE, make

SPECS: list[SolverSpec] = REGISTRY.all()
PAIRS = [(s, p) for s in SPECS for p in sorted(s.problems)]


def _id(x: object) -> str:
    return x.name if isinstance(x, SolverSpec) else str(getattr(x, "instance_id", x))


def cases(table: dict) -> list:
    return [
        pytest.param(spec, inst, id=f"{spec.name}-{inst.instance_id}")
        for spec, problem in PAIRS
        for inst in table.get(problem, [])
    ]


@pytest.mark.parametrize(("spec", "instance"), cases(SOLVABLE))
def test_valid_answer_on_solvable_instances(spec: SolverSpec, instance) -> None:
    record = run_solve(spec, instance, seed=1, budget=Budget(time_limit=20))
    assert record.outcome is Outcome.SOLVED, (record.outcome, record.reason, record.error)
    assert record.valid is True
    # The stored answer is the problem's JSON encoding and re-validates independently.
    problem = problem_of(instance)
    assert problem.validate(instance, problem.answer_from_json(record.answer)).valid


@pytest.mark.parametrize(("spec", "instance"), cases(INFEASIBLE))
def test_claims_on_infeasible_instances(spec: SolverSpec, instance) -> None:
    record = run_solve(spec, instance, seed=1, budget=Budget(time_limit=1.0, max_nodes=200_000,
                                                             max_iterations=20_000,
                                                             max_evaluations=200_000))
    if spec.complete:
        assert record.outcome is Outcome.INFEASIBLE, (record.outcome, record.reason, record.error)
    else:
        assert record.outcome in (Outcome.BUDGET, Outcome.INFEASIBLE), (
            record.outcome, record.reason, record.error)


@pytest.mark.parametrize(("spec", "problem"), [pytest.param(s, p, id=f"{s.name}-{p}") for s, p in PAIRS])
def test_time_budget_respected(spec: SolverSpec, problem: str) -> None:
    warm = SOLVABLE[problem][0]
    run_solve(spec, warm, seed=0, budget=Budget(time_limit=5))  # compile caches, imports
    limit = 0.3
    t0 = time.perf_counter()
    record = run_solve(spec, HARD[problem], seed=0, budget=Budget(time_limit=limit))
    elapsed = time.perf_counter() - t0
    assert elapsed <= limit * 2 + 1.0, f"{spec.name} ran {elapsed:.2f}s on a {limit}s budget"
    assert record.outcome in (Outcome.SOLVED, Outcome.BUDGET, Outcome.INFEASIBLE), (
        record.outcome, record.reason, record.error)


CAPPED_COUNTERS = {"nodes": "max_nodes", "nodes_expanded": "max_nodes",
                   "iterations": "max_iterations", "evaluations": "max_evaluations"}


@pytest.mark.parametrize(("spec", "problem"), [pytest.param(s, p, id=f"{s.name}-{p}") for s, p in PAIRS])
def test_effort_caps_respected(spec: SolverSpec, problem: str) -> None:
    cap = 500
    budget = Budget(time_limit=20, max_nodes=cap, max_iterations=cap, max_evaluations=cap)
    record = run_solve(spec, CAPPED[problem], seed=0, budget=budget)
    assert record.outcome in (Outcome.SOLVED, Outcome.BUDGET, Outcome.INFEASIBLE), (
        record.outcome, record.reason, record.error)
    if record.outcome is Outcome.BUDGET:
        for counter in CAPPED_COUNTERS:
            if counter in record.counters:
                # One natural step past the cap (a generation, a batch of moves) is allowed.
                assert record.counters[counter] <= 2 * cap + 100, (counter, record.counters)


@pytest.mark.parametrize(("spec", "problem"), [pytest.param(s, p, id=f"{s.name}-{p}") for s, p in PAIRS])
def test_same_seed_same_record(spec: SolverSpec, problem: str) -> None:
    instance = REPRODUCIBLE[problem]
    budget = Budget(max_nodes=100_000, max_iterations=100_000, max_evaluations=1_000_000)
    first = run_solve(spec, instance, seed=12345, budget=budget)
    second = run_solve(spec, instance, seed=12345, budget=budget)
    assert first.stable() == second.stable()


@pytest.mark.parametrize(("spec", "problem"), [pytest.param(s, p, id=f"{s.name}-{p}") for s, p in PAIRS])
def test_instance_not_mutated(spec: SolverSpec, problem: str) -> None:
    instance = REPRODUCIBLE[problem]
    before = (instance.describe(), hash(instance), instance.instance_id)
    run_solve(spec, instance, seed=3, budget=Budget(time_limit=5))
    assert (instance.describe(), hash(instance), instance.instance_id) == before


COUNTING = [s for s in SPECS if s.counts]


@pytest.mark.parametrize("spec", COUNTING, ids=_id)
def test_counts_match_oeis(spec: SolverSpec) -> None:
    for n in range(1, 10):
        record = run_count(spec, make("nqueens", n), budget=Budget(time_limit=60))
        assert record.outcome is Outcome.SOLVED, (n, record.reason, record.error)
        assert record.count == A000170[n]


def test_every_registered_solver_is_reached() -> None:
    """Coverage: each solver meets at least one conformance instance on each declared
    problem, and has a dedicated test elsewhere that names it."""
    import pathlib

    assert SPECS, "the registry is empty"
    tests_dir = pathlib.Path(__file__).resolve().parents[1]
    texts = "\n".join(
        p.read_text(encoding="utf-8")
        for p in tests_dir.rglob("*.py")
        if "conformance" not in p.parts
    )
    missing_case = [(s.name, p) for s, p in PAIRS if not SOLVABLE.get(p)]
    assert not missing_case
    untested = [s.name for s in SPECS if f'"{s.name}"' not in texts and f"'{s.name}'" not in texts]
    assert not untested, f"registered solvers without a dedicated test: {untested}"
