"""Agreement: every solver's answers, claims and counts checked against the facts and
against each other — how a user validates a solver against the baselines.

For each instance: every answer goes through the validator (a ``wrong`` outcome, a crash or a
timeout is a disagreement); an ``infeasible`` claim is checked against the solvability rule,
certified by a checked proof where no rule decides (``harness.judging.proof_runs``), and checked
against every valid answer any solver found (``harness.judging.cross_run``); counts from every
counting solver — totals and, where a solver can, unique counts — are compared with each other
and with OEIS, and a counter that fails or returns something that is not a count is named;
exact solvers' answer lengths must agree; and, for small boards, each answer must be a member
of the solution set listed by a complete enumerating solver — only when that listing says it
is complete (a listing cut short by its budget is shown as truncated, never used as the set).

Every run executes in its own process (``harness.run.isolation``), several at once, through the
one scheduler (``harness.scheduler``): runs are judged in its judging thread, in the order
they end, while the loop goes on reading the others.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from puzzlebench.harness import scheduler as schedules
from puzzlebench.harness.execute import make_request, run_enumerate
from puzzlebench.harness.judging.cross_run import judge_across
from puzzlebench.harness.judging.run_record import make_record
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.harness.run.measure import Measurement
from puzzlebench.harness.run_request import RunRequest
from puzzlebench.harness.scheduler import Job
from puzzlebench.problems import get_problem
from puzzlebench.problems.base import Instance
from puzzlebench.records.record import Outcome, RunRecord
from puzzlebench.solvers.contract import Budget
from puzzlebench.solvers.registry import REGISTRY, RegistryError, SolverSpec
from puzzlebench.solvers.spec import check_distinct

#: Most solutions a listing collects for the membership check (beyond: truncated).
LISTING_CAP = 100_000
#: Seconds an incomplete solver gets on an instance the rule says has no solution.
INCOMPLETE_ON_INFEASIBLE_S = 0.5

SYMBOL = {Outcome.SOLVED: "ok", Outcome.INFEASIBLE: "none", Outcome.WRONG: "WRONG",
          Outcome.BUDGET: "budget", Outcome.TIMEOUT: "TIMEOUT", Outcome.MEMOUT: "memout",
          Outcome.CRASH: "CRASH", Outcome.DECLINED: "declined"}

#: How a cell shows the rung that verified an ``infeasible`` claim (a rule: no mark).
RUNG_MARK = {"certificate": " (certified)", "agreement": " (agreed)"}


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
    #: Runs that gave no answer (timeout, memout, crash): named, never a disagreement.
    unanswered: list[Disagreement] = field(default_factory=list)
    records: list[RunRecord] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # unavailable solver → why
    #: instance → what certifying its ``infeasible`` claims found (the checked proof and the
    #: checker's time, or why there is none).
    certificates: dict[str, str] = field(default_factory=dict)

    @property
    def agreed(self) -> bool:
        return not self.disagreements

    def note(self, solver: str, instance_id: str, text: str) -> None:
        row = self.cells.setdefault(solver, {})
        row[instance_id] = f"{row[instance_id]} {text}" if instance_id in row else text

    def no_answer(self, solver: str, instance_id: str, claimed: str, why: str) -> None:
        """A run that ended without an answer (timeout, memout, crash): named, not a
        disagreement — it said nothing another solver could contradict."""
        d = Disagreement(solver, instance_id, claimed, why)
        if d not in self.unanswered:
            self.unanswered.append(d)

    def disagree(self, solver: str, instance_id: str, claimed: str, truth: str) -> None:
        d = Disagreement(solver, instance_id, claimed, truth)
        if d not in self.disagreements:
            self.disagreements.append(d)


def instances_for(problem: str, sizes: Sequence[int],
                  options: Mapping[str, Any] | None = None) -> list[Instance]:
    """The instances ``agree`` checks: the problem's own list for each size (``options``:
    the problem's option keys as a study entry holds them, e.g. ``{"queens": [0, 2]}``)."""
    prob = get_problem(problem)
    entry = prob.study_entry(options or {}, "agree", require=False)
    out: list[Instance] = []
    for n in sizes:
        out.extend(prob.agreement_instances(n, entry))
    return out


def check_agreement(
    problem: str,
    sizes: Sequence[int],
    solvers: Sequence[str] | None = None,
    *,
    options: Mapping[str, Any] | None = None,
    time_limit: float = 10.0,
    count_time_limit: float | None = None,
    count_up_to: int = 10,
    enumerate_up_to: int = 8,
    seed: int = 0,
    workers: int | None = None,
    progress: Callable[[RunRecord], None] | None = None,
    instances: Sequence[Instance] | None = None,
    min_time: float | None = None,
    measurement: Measurement | None = None,
) -> AgreementReport:
    """Run every applicable solver (all registered ones, or the named ones beside every
    baseline) on each instance and cross-check everything. Counts (exhaustive work) get
    ``count_time_limit`` (default: ``time_limit``), answers and listings ``time_limit``.
    With ``min_time`` each solve is repeated with its seed to that much timed work, and a
    solver whose answer changes between repeats is named (a free determinism check).
    ``measurement`` confines the runs (sandbox, start-up limit)."""
    specs: list[SolverSpec] = [s for s in REGISTRY.all(problem) if s.origin == "baseline"]
    if solvers:
        named = [resolve_solver(name) for name in solvers]
        check_distinct([*specs, *named])  # a name is one solver: never dropped as a duplicate
        specs += [s for s in named if s.name not in {x.name for x in specs}]
    else:
        specs = REGISTRY.all(problem)
    for s in specs:
        if problem not in s.problems:
            raise RegistryError(f"solver {s.name!r} does not handle {problem}")
    missing = [s for s in specs if s.unavailable]
    specs = [s for s in specs if not s.unavailable]
    insts = list(instances) if instances is not None else instances_for(problem, sizes, options)
    budget = Budget(time_limit=time_limit)
    # An incomplete solver cannot prove a rule-infeasible instance so: a short look suffices
    # to see that it claims nothing false (rather than the whole limit on n = 2 and 3).
    short = Budget(time_limit=min(time_limit, INCOMPLETE_ON_INFEASIBLE_S))
    jobs: list[tuple[SolverSpec, RunRequest]] = []
    for inst in insts:
        hopeless = get_problem(problem).is_solvable(inst) is False
        for s in specs:
            own = short if hopeless and not s.complete else budget
            jobs.append((s, make_request(s, inst, "solve", seed=seed, budget=own,
                                      min_time=min_time)))
            n = getattr(inst, "n", inst.size)
            if s.counts and n <= count_up_to and (s.count_max_n is None or n <= s.count_max_n):
                unique = s.counts_unique and get_problem(problem).known_count(inst, True) is not None
                jobs.append((s, make_request(s, inst, "count", unique=unique,
                                          budget=Budget(time_limit=count_time_limit or time_limit))))
    records: list[RunRecord] = schedules.schedule(
        [Job(t, functools.partial(make_record, s, t)) for s, t in jobs],
        workers=workers or os.cpu_count() or 1, measurement=measurement,
        deliver=(lambda _job, record: progress(record)) if progress is not None else None)
    records = judge_across(records, exact_solvers=[s.name for s in specs if s.exact],
                      complete_solvers=[s.name for s in specs if s.complete])
    position = {inst.instance_id: i for i, inst in enumerate(insts)}
    # arrival order varies
    records.sort(key=lambda r: (position[r.key.instance_id], r.key.solver, r.key.task))
    report = AgreementReport(records=records,
                             skipped={s.name: s.unavailable for s in missing})
    for inst in insts:
        iid = inst.instance_id
        report.instances.append(iid)
        mine = [r for r in records if r.key.instance_id == iid]
        _check_runs(report, iid, [r for r in mine if r.key.task == "solve"])
        texts = [r.verdict.certificate for r in mine if r.verdict.certificate]
        if texts:
            report.certificates[iid] = texts[0]
        _check_counts(report, iid, [r for r in mine if r.key.task == "count"])
        if getattr(inst, "n", inst.size) <= enumerate_up_to:
            _check_membership(report, problem, inst, specs, mine, time_limit)
    return report


def _check_runs(report: AgreementReport, iid: str, runs: list[RunRecord]) -> None:
    for rec in runs:
        v = rec.verdict
        text = SYMBOL[v.outcome] + ("?" if v.outcome.success and v.verified is False else "")
        text += RUNG_MARK.get(v.verified_by, "") if v.outcome is Outcome.INFEASIBLE else ""
        report.note(rec.key.solver, iid, text)
        if v.outcome is Outcome.WRONG:
            report.disagree(rec.key.solver, iid, _claim_text(rec), v.reason or v.error)
        elif v.outcome.failure:  # no answer: nothing said that could disagree
            report.no_answer(rec.key.solver, iid, _claim_text(rec), v.reason or v.error)
        if rec.figures.repeats_agree is False:
            report.disagree(rec.key.solver, iid, "different answers under the same seed",
                            f"its {rec.figures.repeats} repeats did not all propose the first answer")


def _check_counts(report: AgreementReport, iid: str, counts: list[RunRecord]) -> None:
    for rec in counts:
        v = rec.verdict
        if v.outcome is Outcome.SOLVED:
            text = f"#{v.count}" + (f"/{v.unique}u" if v.unique is not None else "")
            report.note(rec.key.solver, iid, text + ("?" if v.verified is False else ""))
        elif v.outcome is Outcome.BUDGET:
            report.note(rec.key.solver, iid, "#budget")
        else:
            report.note(rec.key.solver, iid, "#" + SYMBOL[v.outcome])
            what = f"{v.count} solutions" if v.count is not None else "a count"
            why = v.reason or v.error or v.outcome.value
            if v.outcome is Outcome.WRONG:
                report.disagree(rec.key.solver, iid, what, why)
            elif v.outcome.failure:
                report.no_answer(rec.key.solver, iid, what, why)


def _check_membership(report: AgreementReport, problem: str, inst: Instance,
                      specs: list[SolverSpec], mine: list[RunRecord], time_limit: float) -> None:
    iid = inst.instance_id
    enumerators = [s for s in specs if s.enumerates and s.complete]
    if not enumerators:
        return
    lister = enumerators[0]
    solutions, complete, error = run_enumerate(lister, inst, budget=Budget(time_limit=time_limit),
                                               limit=LISTING_CAP)
    if error.startswith("killed"):  # no reference set within the limit: nothing to compare
        report.note(lister.name, iid, "list:timeout")
        return
    if error:
        report.note(lister.name, iid, "list:CRASH")
        report.no_answer(lister.name, iid, "a listing of every solution", error)
        return
    if not complete:
        report.note(lister.name, iid, f"list:{len(solutions)}+ (truncated)")
        return
    known = get_problem(problem).known_count(inst)
    verified_counts = {r.verdict.count for r in mine
                       if r.key.task == "count" and r.verdict.verified and r.verdict.count is not None}
    expected = known if known is not None else (min(verified_counts) if verified_counts else None)
    answer_key = get_problem(problem).answer_key
    solution_set = {answer_key(a) for a in solutions}
    if expected is not None and len(solution_set) != expected:
        report.disagree(lister.name, iid, f"listed {len(solution_set)} solutions",
                        f"the known count is {expected}")
    for rec in mine:
        v = rec.verdict
        if rec.key.task == "solve" and v.outcome is Outcome.SOLVED and v.answer is not None \
                and answer_key(v.answer) not in solution_set:
            report.disagree(rec.key.solver, iid, "an answer outside the listed set",
                            f"{lister.name} listed all {len(solution_set)} solutions")


def _claim_text(rec: RunRecord) -> str:
    if rec.verdict.valid is False:
        return f"answer {json.dumps(rec.verdict.answer)[:60]}"
    return rec.verdict.claim
