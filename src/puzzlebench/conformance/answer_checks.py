"""The checks of a solver's answers: ``solves``, ``infeasible``, ``counts`` and ``exact``
(what each holds a solver to: ``checks``'s docstring)."""

from __future__ import annotations

import contextlib

from puzzlebench.conformance.case import Case, NotApplicable, RunLog, what
from puzzlebench.problems import get_problem, problem_of
from puzzlebench.problems.base import Instance, PuzzlebenchError
from puzzlebench.records.record import Outcome
from puzzlebench.solvers.contract import Budget
from puzzlebench.solvers.registry import REGISTRY

#: The budget of the checks that only need an answer: generous, never what is tested.
ANSWER_BUDGET = Budget(time_limit=20)
INFEASIBLE_BUDGET = Budget(time_limit=1.0, max_nodes=200_000, max_iterations=20_000,
                           max_evaluations=200_000)
#: Each count's budget in the ``counts`` check: the check is of the count, not of speed (a
#: python-constraint count of queens-knights 8 × 8 with 8 queens takes 28 s on a busy core).
COUNT_TIME_LIMIT = 180.0


def solves(case: Case, log: RunLog) -> str:
    assert case.instance is not None
    record = log.solve(case.spec, case.instance, seed=1, budget=ANSWER_BUDGET)
    if record.verdict.outcome is not Outcome.SOLVED or record.verdict.valid is not True:
        return f"not solved: {what(record)}"
    problem = problem_of(case.instance)
    if not problem.validate(case.instance, problem.answer_from_json(record.verdict.answer)).valid:
        return "the stored answer does not re-validate"
    return ""


def infeasible(case: Case, log: RunLog) -> str:
    assert case.instance is not None
    record = log.solve(case.spec, case.instance, seed=1, budget=INFEASIBLE_BUDGET)
    if case.spec.complete and record.verdict.outcome is not Outcome.INFEASIBLE:
        return f"a complete solver did not prove it infeasible: {what(record)}"
    if record.verdict.outcome not in (Outcome.BUDGET, Outcome.INFEASIBLE, Outcome.DECLINED):
        return f"expected budget, infeasible or a decline: {what(record)}"
    return ""


def counts(case: Case, log: RunLog) -> str:
    problem = get_problem(case.problem)
    cases = problem.conformance_cases()
    assert cases is not None
    known: list[tuple[Instance, int]] = []
    small: list[Instance] = []
    for n in range(1, 10):  # the problem's own small sizes (n-queens: OEIS A000170)
        with contextlib.suppress(PuzzlebenchError):
            small.append(problem.make(n))
    for inst in [*small, *cases.solvable, *cases.infeasible]:
        count = problem.known_count(inst)
        if count is not None and not any(i.instance_id == inst.instance_id for i, _ in known):
            known.append((inst, count))
    limit = case.spec.count_max_n
    known = [(i, c) for i, c in known if limit is None or i.size <= limit]
    if not known:
        raise NotApplicable("no case of this problem has a known count")
    for inst, count in known:
        record = log.count(case.spec, inst, budget=Budget(time_limit=COUNT_TIME_LIMIT))
        if record.verdict.outcome is not Outcome.SOLVED or record.verdict.count != count:
            return f"{inst.instance_id}: counted {record.verdict.count} ({what(record)}); known {count}"
    return ""


def exact(case: Case, log: RunLog) -> str:
    problem = get_problem(case.problem)
    cases = problem.conformance_cases()
    assert cases is not None
    others = [s for s in REGISTRY.all(case.problem)
              if s.exact and s.name != case.spec.name and not s.unavailable]
    compared = 0
    for inst in cases.solvable:
        record = log.solve(case.spec, inst, seed=1, budget=ANSWER_BUDGET)
        if record.verdict.outcome is not Outcome.SOLVED:
            return f"{inst.instance_id}: {what(record)}"
        if record.verdict.answer_length is None:
            continue
        best = problem.known_optimum(inst)
        source = "the known optimum"
        if best is None and others:
            ref = log.solve(others[0], inst, seed=1, budget=ANSWER_BUDGET)
            best, source = ref.verdict.answer_length, f"{others[0].name}'s answer"
        if best is None:
            continue
        compared += 1
        if record.verdict.answer_length > best:
            return (f"{inst.instance_id}: declares exact but answered {record.verdict.answer_length} "
                    f"where {source} is {best}")
    if not compared:
        raise NotApplicable("no answer with a length to compare on this problem")
    return ""
