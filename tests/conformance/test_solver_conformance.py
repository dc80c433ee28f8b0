"""Conformance: every registered solver, on every problem it declares, keeps the contract.

Parametrised from the registry, so a solver filed later is tested with no edit here. The
harness (not the solver) decides each outcome.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzlebench.contract import Budget
from puzzlebench.harness.execute import run_count, run_solve
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.problems import problem_of
from puzzlebench.problems.nqueens import A000170
from puzzlebench.record import Outcome
from puzzlebench.registry import REGISTRY, SolverSpec
from tests.conformance.cases import CAPPED, HARD, INFEASIBLE, REPRODUCIBLE, SOLVABLE, make

#: The shipped external programs (examples/external) run through the same suite.
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "external"
SPECS: list[SolverSpec] = [*REGISTRY.all(), resolve_solver(str(EXAMPLES / "c" / "solver.toml")),
                           resolve_solver(str(EXAMPLES / "python" / "solver.toml"))]
PAIRS = [(s, p) for s in SPECS for p in sorted(s.problems)]


def _id(x: object) -> str:
    return x.name if isinstance(x, SolverSpec) else str(getattr(x, "instance_id", x))


def cases(table: dict) -> list:
    return [
        pytest.param(spec, inst, id=f"{spec.name}-{inst.instance_id}")
        for spec, problem in PAIRS
        for inst in table.get(problem, [])
    ]


@pytest.fixture(autouse=True)
def _available(request: pytest.FixtureRequest) -> None:
    """A solver that cannot run on this machine (e.g. MiniZinc absent) is skipped, and the
    skip says why — never silently."""
    params = getattr(request.node, "callspec", None)
    spec = params.params.get("spec") if params is not None else None
    if isinstance(spec, SolverSpec) and spec.unavailable:
        pytest.skip(f"{spec.name} is unavailable here: {spec.unavailable}")


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


#: Where the harness kills a run in these tests: far beyond the 0.3 s limit, so a run killed
#: here ignored its limit for real — not because the machine was slow (no speed is asserted).
KILL_AT = 10.0


@pytest.mark.parametrize(("spec", "problem"), [pytest.param(s, p, id=f"{s.name}-{p}") for s, p in PAIRS])
def test_time_limit_honoured_or_enforced(spec: SolverSpec, problem: str) -> None:
    """A solver declaring ``time_limit`` stops by itself (never killed); any answer after its
    limit is not a success (the harness's rule); nothing crashes."""
    limit = 0.3
    record = run_solve(spec, HARD[problem], seed=0, budget=Budget(time_limit=limit),
                       hard_limit=KILL_AT)
    killed = record.outcome is Outcome.TIMEOUT and "hard limit" in record.error
    if "time_limit" in spec.honours:
        assert not killed, f"{spec.name} declares time_limit but was killed at {KILL_AT} s"
    assert record.outcome not in (Outcome.CRASH, Outcome.WRONG), (record.reason, record.error)
    if record.outcome.success:
        assert record.time_s <= limit


#: The counters that show each cap's effort (a generation is a GA's iteration).
CAP_COUNTERS = {"max_nodes": ("nodes", "nodes_expanded", "nodes_generated", "nodes_examined"),
                "max_iterations": ("iterations", "generations"),
                "max_evaluations": ("evaluations",)}
CAP_CASES = [pytest.param(s, p, cap, id=f"{s.name}-{p}-{cap}") for s, p in PAIRS
             for cap in sorted(s.honours - {"time_limit"})]


@pytest.mark.parametrize(("spec", "problem", "cap"), CAP_CASES)
def test_declared_effort_cap_honoured(spec: SolverSpec, problem: str, cap: str) -> None:
    """Each effort cap a solver declares is checked alone: the solver reports the counter it
    caps, and stops within one natural step (a generation, a batch) of the cap."""
    value = 500
    record = run_solve(spec, CAPPED[problem], seed=0,
                       budget=Budget(time_limit=60, **{cap: value}), hard_limit=120)
    assert record.outcome in (Outcome.SOLVED, Outcome.BUDGET, Outcome.INFEASIBLE), (
        record.outcome, record.reason, record.error)
    reported = [c for c in CAP_COUNTERS[cap] if c in record.counters]
    assert reported, f"{spec.name} honours {cap} but reports none of {CAP_COUNTERS[cap]}"
    if record.outcome is Outcome.BUDGET:  # the counter it caps (e.g. expanded, not generated)
        assert min(record.counters[c] for c in reported) <= 2 * value + 100, record.counters


def test_every_cap_case_is_reached() -> None:
    """Every declared cap has a case above (so a new declaration is tested with no edit)."""
    declared = {(s.name, cap) for s in SPECS for cap in s.honours - {"time_limit"}}
    assert declared == {(c.values[0].name, c.values[2]) for c in CAP_CASES}
    assert all(s.honours <= {"time_limit", *CAP_COUNTERS} for s in SPECS)


@pytest.mark.parametrize(("spec", "problem"), [pytest.param(s, p, id=f"{s.name}-{p}") for s, p in PAIRS])
def test_same_seed_same_record(spec: SolverSpec, problem: str) -> None:
    instance = REPRODUCIBLE[problem]
    budget = Budget(max_nodes=100_000, max_iterations=100_000, max_evaluations=1_000_000)
    first = run_solve(spec, instance, seed=12345, budget=budget)
    second = run_solve(spec, instance, seed=12345, budget=budget)
    assert first.stable() == second.stable()


@pytest.mark.parametrize(("spec", "problem"), [pytest.param(s, p, id=f"{s.name}-{p}") for s, p in PAIRS])
def test_instance_not_mutated(spec: SolverSpec, problem: str) -> None:
    """In this process (isolation would hide a mutation from the caller anyway)."""
    instance = REPRODUCIBLE[problem]
    before = (instance.describe(), hash(instance), instance.instance_id)
    run_solve(spec, instance, seed=3, budget=Budget(time_limit=5), isolate=False)
    assert (instance.describe(), hash(instance), instance.instance_id) == before


COUNTING = [s for s in SPECS if s.counts]


@pytest.mark.parametrize("spec", COUNTING, ids=_id)
def test_counts_match_oeis(spec: SolverSpec) -> None:
    for n in range(1, 10):
        record = run_count(spec, make("nqueens", n), budget=Budget(time_limit=60))
        assert record.outcome is Outcome.SOLVED, (n, record.reason, record.error)
        assert record.count == A000170[n]


KNOWN_COUNTS = [
    pytest.param(spec, inst, id=f"{spec.name}-{inst.instance_id}")
    for spec, problem in PAIRS if spec.counts and problem != "nqueens"  # nqueens: OEIS above
    for inst in [*SOLVABLE.get(problem, []), *INFEASIBLE.get(problem, [])]
    if problem_of(inst).known_count(inst) is not None
    and (spec.count_max_n is None or inst.size <= spec.count_max_n)
]


@pytest.mark.parametrize(("spec", "instance"), KNOWN_COUNTS)
def test_counts_match_the_problems_known_counts(spec: SolverSpec, instance) -> None:
    """Every counting solver, on every declared problem's cases with a known count (torus
    tables, nqueens-completion's own enumeration): the count the facts give."""
    record = run_count(spec, instance, budget=Budget(time_limit=60))
    assert record.outcome is Outcome.SOLVED, (record.reason, record.error)
    assert record.count == problem_of(instance).known_count(instance)


def test_every_registered_solver_is_reached() -> None:
    """Coverage: each solver meets a conformance instance on each declared problem, and is
    named by an explicit ``@pytest.mark.covers("name")`` on a dedicated test elsewhere."""
    import ast
    import pathlib

    assert SPECS, "the registry is empty"
    missing_case = [(s.name, p) for s, p in PAIRS if not SOLVABLE.get(p)]
    assert not missing_case
    covered: set[str] = set()
    tests_dir = pathlib.Path(__file__).resolve().parents[1]
    for path in tests_dir.rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "covers":
                covered.update(a.value for a in node.args if isinstance(a, ast.Constant))
    untested = [s.name for s in SPECS if s.name not in covered]
    assert not untested, f"registered solvers without a dedicated test: {untested}"
