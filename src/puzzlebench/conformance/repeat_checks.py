"""The checks of what a solver does again and leaves alone: ``same-seed``, ``deterministic``,
``no-mutation`` and ``traces`` (what each holds a solver to: ``checks``'s docstring)."""

from __future__ import annotations

from puzzlebench.conformance.case import Case, RunLog, what
from puzzlebench.records.record import Outcome
from puzzlebench.solvers.contract import Budget

REPRODUCE_BUDGET = Budget(max_nodes=100_000, max_iterations=100_000, max_evaluations=1_000_000,
                          time_limit=20)
#: What the harness notes when a run's process finds its copy of the instance changed.
MUTATION_NOTE = "the solver changed its copy of the instance"


def same_seed(case: Case, log: RunLog) -> str:
    assert case.instance is not None
    first = log.solve(case.spec, case.instance, seed=12345, budget=REPRODUCE_BUDGET)
    second = log.solve(case.spec, case.instance, seed=12345, budget=REPRODUCE_BUDGET)
    if first.verdict.outcome.failure:
        return what(first)
    a, b = first.stable(), second.stable()
    changed = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    return f"the same seed changed the record's {', '.join(changed)}" if changed else ""


def deterministic(case: Case, log: RunLog) -> str:
    assert case.instance is not None
    first = log.solve(case.spec, case.instance, seed=1, budget=REPRODUCE_BUDGET)
    second = log.solve(case.spec, case.instance, seed=2, budget=REPRODUCE_BUDGET)
    if first.verdict.outcome.failure:
        return what(first)
    if (first.verdict.outcome, first.verdict.answer) != (second.verdict.outcome, second.verdict.answer):
        return "declares itself not stochastic, but seeds 1 and 2 gave different answers"
    return ""


def no_mutation(case: Case, log: RunLog) -> str:
    assert case.instance is not None
    instance = case.instance
    record = log.solve(case.spec, instance, seed=3, budget=Budget(time_limit=5))
    if MUTATION_NOTE in record.provenance.notes:  # the run's process compares its copy after the run
        return "the solver changed the instance it was given (its run's copy)"
    if record.verdict.outcome in (Outcome.CRASH, Outcome.WRONG):
        return what(record)
    if case.spec.factory is None:  # a plugin's code runs only in its own process
        return ""
    before = (instance.describe(), hash(instance), instance.instance_id)
    log.solve(case.spec, instance, seed=3, budget=Budget(time_limit=5), isolate=False)
    if (instance.describe(), hash(instance), instance.instance_id) != before:
        return "the solver changed the instance it was given (in this process)"
    return ""


def traces(case: Case, log: RunLog) -> str:
    assert case.instance is not None
    record = log.solve(case.spec, case.instance, seed=7, budget=REPRODUCE_BUDGET)
    if record.verdict.outcome.failure:
        return what(record)
    dropped = [n for n in record.provenance.notes.split("; ") if n.startswith("trace dropped")]
    if dropped:
        return f"the harness dropped its trace: {dropped[0]}"
    if not record.figures.trace:
        return "declares traces but sent no trace point"
    return ""
