"""Agreement: every solver's answers, claims and counts checked against the facts and
against each other — how a user validates a solver against the baselines.

For each instance: every answer goes through the validator (a ``wrong`` outcome is a
disagreement); an ``infeasible`` claim is checked against the solvability rule and against
every valid answer any solver found; counts from every counting solver are compared with each
other and with OEIS; and, for small boards, each answer must be a member of the solution set
enumerated by a complete enumerating solver (whose size must match the known count).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from puzzlebench.contract import Budget
from puzzlebench.harness.execute import run_count, run_solve
from puzzlebench.harness.outcome import Outcome, RunRecord
from puzzlebench.problems import get_problem
from puzzlebench.problems.base import Instance
from puzzlebench.registry import REGISTRY, SolverSpec

SYMBOL = {Outcome.SOLVED: "ok", Outcome.INFEASIBLE: "none", Outcome.WRONG: "WRONG",
          Outcome.BUDGET: "budget", Outcome.TIMEOUT: "timeout", Outcome.MEMOUT: "memout",
          Outcome.CRASH: "CRASH"}


@dataclass(frozen=True, slots=True)
class Disagreement:
    """One contradiction: which solver, on which instance, what it said, what is true."""

    solver: str
    instance_id: str
    claimed: str
    truth: str

    def __str__(self) -> str:
        return f"{self.solver} on {self.instance_id}: claimed {self.claimed}; {self.truth}"


@dataclass
class AgreementReport:
    """The matrix (solver → instance → cell text) and every disagreement found."""

    instances: list[str] = field(default_factory=list)
    cells: dict[str, dict[str, str]] = field(default_factory=dict)
    disagreements: list[Disagreement] = field(default_factory=list)
    records: list[RunRecord] = field(default_factory=list)

    @property
    def agreed(self) -> bool:
        return not self.disagreements

    def note(self, solver: str, instance_id: str, text: str) -> None:
        row = self.cells.setdefault(solver, {})
        row[instance_id] = f"{row[instance_id]} {text}" if instance_id in row else text


def canonical(problem: str, answer: Any) -> str:
    """A hashable form of an answer (JSON encoding; piece lists sorted)."""
    data = get_problem(problem).answer_to_json(answer)
    if problem == "queens-knights":
        data = sorted(data)
    return json.dumps(data)


def instances_for(problem: str, sizes: Sequence[int], queens: Sequence[int] | None) -> list[Instance]:
    prob = get_problem(problem)
    out = []
    for n in sizes:
        if problem == "queens-knights":
            for a in (queens if queens is not None else range(n + 1)):
                if a <= n:
                    out.append(prob.make(n, queens=a))
        else:
            out.append(prob.make(n))
    return out


def check_agreement(
    problem: str,
    sizes: Sequence[int],
    solvers: Sequence[str] | None = None,
    *,
    queens: Sequence[int] | None = None,
    time_limit: float = 10.0,
    count_up_to: int = 10,
    enumerate_up_to: int = 8,
    seed: int = 0,
) -> AgreementReport:
    """Run every applicable solver (all registered ones, or the named ones beside every
    baseline) on each instance and cross-check everything."""
    specs: list[SolverSpec] = [s for s in REGISTRY.all(problem) if s.origin == "baseline"]
    if solvers:
        named = [REGISTRY.get(name) for name in solvers]
        specs += [s for s in named if s.name not in {x.name for x in specs}]
    else:
        specs = REGISTRY.all(problem)
    for s in specs:
        if problem not in s.problems:
            raise ValueError(f"solver {s.name!r} does not handle {problem}")
    report = AgreementReport()
    prob = get_problem(problem)
    for inst in instances_for(problem, sizes, queens):
        iid = inst.instance_id
        report.instances.append(iid)
        budget = Budget(time_limit=time_limit)
        runs = {s.name: run_solve(s, inst, seed=seed, budget=budget) for s in specs}
        report.records.extend(runs.values())
        found = [r for r in runs.values() if r.outcome is Outcome.SOLVED]
        for name, rec in runs.items():
            report.note(name, iid, SYMBOL[rec.outcome])
            if rec.outcome in (Outcome.WRONG, Outcome.CRASH):
                report.disagreements.append(Disagreement(
                    name, iid, _claim_text(rec), rec.reason or rec.error))
            if rec.outcome is Outcome.INFEASIBLE and found:
                report.disagreements.append(Disagreement(
                    name, iid, "infeasible", f"{found[0].solver} found a valid answer"))
        # Counts: every counting solver, against each other and the known value.
        n = getattr(inst, "n", inst.size)
        if n <= count_up_to:
            counts: dict[str, int] = {}
            for s in specs:
                if not s.counts:
                    continue
                try:
                    rec = run_count(s, inst, budget=budget)
                except ValueError:
                    continue
                report.records.append(rec)
                if rec.count is not None:
                    counts[s.name] = rec.count
                    report.note(s.name, iid, f"#{rec.count}")
                if rec.outcome is Outcome.WRONG:
                    report.disagreements.append(Disagreement(s.name, iid, f"{rec.count} solutions",
                                                             rec.reason))
            if len(set(counts.values())) > 1:
                for name, c in counts.items():
                    others = {k: v for k, v in counts.items() if v != c}
                    report.disagreements.append(Disagreement(
                        name, iid, f"{c} solutions", f"other counters say {others}"))
            if counts and not found and max(counts.values()) > 0:
                for name, rec in runs.items():
                    if rec.outcome is Outcome.INFEASIBLE:
                        report.disagreements.append(Disagreement(
                            name, iid, "infeasible", f"counted {max(counts.values())} solutions"))
        # Membership in the enumerated solution set.
        if n <= enumerate_up_to:
            enumerators = [s for s in specs if s.enumerates and s.complete]
            if enumerators:
                solution_set = {canonical(problem, a) for a in
                                enumerators[0].create().enumerate(inst, Budget(time_limit=60))}
                known = prob.known_count(inst)
                if known is not None and len(solution_set) != known:
                    report.disagreements.append(Disagreement(
                        enumerators[0].name, iid, f"enumerated {len(solution_set)} solutions",
                        f"the known count is {known}"))
                for rec in found:
                    if canonical(problem, prob.answer_from_json(rec.answer)) not in solution_set:
                        report.disagreements.append(Disagreement(
                            rec.solver, iid, "an answer outside the enumerated set",
                            f"{enumerators[0].name} enumerated {len(solution_set)} solutions"))
    return report


def _claim_text(rec: RunRecord) -> str:
    if rec.valid is False:
        return f"answer {json.dumps(rec.answer)[:60]}"
    return rec.claim
