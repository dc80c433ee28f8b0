"""A run's record: what its process reported, judged by the one pipeline (``judging.pipeline``),
with the figures the harness accepted and where the run came from, as one ``RunRecord``.

Every front door ends here (``solve``, ``count``, ``agree``, a study's runs, the Python API),
in the scheduler's judging thread: the judge's process, never the run's.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from puzzlebench.harness.judging import environment
from puzzlebench.harness.judging.pipeline import RunContext, judge_run, kept_trace
from puzzlebench.harness.judging.rules import judge_version
from puzzlebench.harness.run.child_report import ChildReport
from puzzlebench.harness.run.measure import clock_resolution_s
from puzzlebench.harness.run.protocol.payload import MalformedProposalError, ProposalData, from_payload
from puzzlebench.harness.run_request import RunRequest
from puzzlebench.problems import problem_of
from puzzlebench.problems.catalogue import family_origin
from puzzlebench.records.record import (
    Outcome,
    RunFigures,
    RunKey,
    RunProvenance,
    RunRecord,
    RunVerdict,
    infer_stopped_by,
)
from puzzlebench.solvers.contract import Claim
from puzzlebench.solvers.spec import SolverSpec


def make_record(spec: SolverSpec, task: RunRequest, report: ChildReport, *, isolated: bool = True,
                **meta: Any) -> RunRecord:
    """Judge what a run's process reported (``pipeline.judge_run``) and make its record."""
    assert task.instance is not None
    instance = task.instance
    problem = problem_of(instance)
    proposal: ProposalData | None = None
    error = report.error
    if report.status == "done":
        try:
            proposal = from_payload(report.data, report.raw)
        except MalformedProposalError as exc:
            error = str(exc)
    ended = "memout" if report.status == "error" and report.error_kind == "memout" else \
        report.status if report.status in ("done", "timeout", "startup") else "crash"
    judgement = judge_run(problem, instance, proposal, RunContext(
        kind=task.kind, exact=spec.exact, unique=task.unique, time_s=report.figures.time_s,
        time_limit=task.budget.time_limit), ended=ended, error=error)
    proposal = proposal or ProposalData(claim=Claim.UNKNOWN)
    answer = judgement.answer
    notes = list(report.notes) + list(judgement.notes)  # e.g. a judge's table rebuilt
    said = str(getattr(proposal, "note", "") or "")
    if said and said not in (judgement.reason or ""):  # e.g. how a MiniZinc answer was read
        notes.append(f"the solver says: {said}")
    family = family_origin(instance.problem)
    if family and judgement.verified_by == "validator":  # user code judged this answer
        notes.append(f"validated by the problem family's own validator, from {family} (not the "
                     "project's code)")
    if report.mutated:
        notes.append("the solver changed its copy of the instance; judged on the original")
    if report.figures.repeats_agree is False:
        notes.append(f"answers differ between the {report.figures.repeats} repeats under the same seed "
                     "(the first was judged)")
    trace = report.data.get("trace") if report.status == "done" and isinstance(report.data, dict) else None
    trace, why = kept_trace(trace, judgement, wall_s=report.figures.time_s,
                            evaluations=(proposal.counters or {}).get("evaluations"))
    if why:
        notes.append(f"trace dropped: {why}")
    key = RunKey(
        problem=instance.problem, size=instance.size, instance_id=instance.instance_id,
        solver=spec.name, params=dict(task.params), seed=task.seed if task.kind == "solve" else 0,
        task=task.kind, budget=task.budget.to_dict(), instance=instance.describe(),
        hard_limit=task.hard_limit if isolated else None, memory_limit_mb=task.memory_limit_mb,
        fingerprint=spec.fingerprint, min_time=task.min_time, **meta)
    verdict_part = RunVerdict(
        outcome=judgement.outcome, claim=proposal.claim.value, valid=judgement.valid,
        reason=judgement.reason, answer=answer,
        answer_length=len(answer) if isinstance(answer, str | list) else None,
        optimum=judgement.optimum, exact=task.kind == "solve" and (spec.exact or proposal.optimal),
        count=proposal.count, unique=proposal.unique,
        error=error if judgement.outcome in (Outcome.CRASH, Outcome.MEMOUT, Outcome.TIMEOUT) else "",
        verified=judgement.verified, verified_by=judgement.verified_by,
        certificate=judgement.certificate, certify_s=judgement.certify_s,
        judge_version=judge_version(problem),
        stopped_by=stopped_by(judgement.outcome, report, proposal, task))
    return RunRecord(key, verdict_part, figures_of(report, proposal, trace,
                                                   traced=spec.traces and task.kind == "solve"),
                     RunProvenance(
                         origin=spec.origin,
                         versions={**environment.versions(),
                                   **({"problem family": family} if family else {})},
                         machine={**environment.machine(),
                                  **({"nice": report.nice} if report.nice is not None else {})},
                         timestamp=datetime.now(UTC).isoformat(timespec="seconds"),
                         isolated=isolated, sandbox=report.sandbox if isolated else "none",
                         log=report.log, notes="; ".join(notes)))


def figures_of(report: ChildReport, proposal: ProposalData, trace: list[list[float]] | None,
               *, traced: bool) -> RunFigures:
    """What the harness accepted of the run's measurements (``report.figures``, from
    ``run.run_figures``) with the solver's own counters and trace and the clock's resolution."""
    return replace(report.figures, counters=dict(proposal.counters), trace=trace, traced=traced,
                   clock_resolution_s=clock_resolution_s())


def stopped_by(outcome: Outcome, report: ChildReport, proposal: ProposalData, task: RunRequest) -> str:
    """What ended the run (``RunRecord.stopped_by``): the harness's own view (killed, an
    answer, a decline), else what the solver (the iterative framework) reported, else what
    its counters and time say against the budget; '' for a crash or where nothing says."""
    if report.status == "timeout":
        return "killed"
    if outcome is Outcome.DECLINED:
        return "declined"
    if outcome in (Outcome.CRASH, Outcome.MEMOUT):
        return ""
    if proposal.claim in (Claim.SOLVED, Claim.INFEASIBLE) or proposal.answer is not None \
            or proposal.count is not None:
        return "answer"
    return proposal.stopped_by or infer_stopped_by(proposal.counters, task.budget.to_dict(),
                                                   report.figures.time_s)
