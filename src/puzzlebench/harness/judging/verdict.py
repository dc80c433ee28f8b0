"""One judging pipeline: a run's verdict from the problem, the instance, the proposal and the
run's context, by rules applied in one order — the live path (``judging.run_record``) and
re-judging a stored run (``judge_stored``) both call :func:`verdict`.

The rules, in their order:

1. **the proposal itself** (``judging.judge``): a count against the known counts and the
   solvability rule; an answer through the problem's validator, an optimality claim against the
   known optimum, a claim against the rules; what the validator learned on the way (a cached
   table refused and rebuilt) comes back in the judgement's ``notes``;
2. **the time limit**: a success answered after the run's time limit is a ``timeout``;
3. **certification** (``judging.certify_runs``): an ``infeasible`` claim, or a count of zero,
   that no rule verified is proved or refuted by a checked proof. Live runs only: a stored
   run keeps the verdict its proof gave (proofs are not stored, and a check takes seconds).

Across runs (``judging.cross_run``) comes after, on a set of records: ``judge_stored_runs``
applies both, each stored run by today's judge and then the set against itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from puzzlebench.harness.judging.certify_runs import certify_claim, certify_zero_count
from puzzlebench.harness.judging.cross_run import judge_across
from puzzlebench.harness.judging.judge import (
    Judgement,
    judge_count,
    judge_solution,
    judge_version,
)
from puzzlebench.harness.run.protocol.payload import ProposalData
from puzzlebench.problems import get_problem
from puzzlebench.problems.base import Instance, Problem, PuzzlebenchError
from puzzlebench.records.record import Outcome, RunRecord
from puzzlebench.solvers.contract import Claim


@dataclass(frozen=True, slots=True)
class RunContext:
    """What the verdict needs of a run besides its proposal."""

    kind: str  # "solve" or "count"
    exact: bool = False  # the run claimed (or its solver declares) optimal answers
    unique: bool = False  # a unique count was asked for
    time_s: float = 0.0
    time_limit: float | None = None
    #: Prove or refute what no rule verified (rule 3): live runs; a stored run keeps its own.
    certify: bool = True


def verdict(problem: Problem, instance: Instance, proposal: ProposalData,
            context: RunContext) -> Judgement:
    """The judgement of one run's proposal: the rules of the module's doc, in their order."""
    if context.kind == "count":
        judgement = judge_count(problem, instance, proposal, unique=context.unique)
    else:
        judgement = judge_solution(problem, instance, proposal, exact=context.exact)
    if judgement.outcome.success and context.time_limit is not None \
            and context.time_s > context.time_limit:
        return replace(judgement, outcome=Outcome.TIMEOUT, verified=None, verified_by="",
                       reason=f"answered after {context.time_s:.3f} s, past its time limit "
                              f"of {context.time_limit:g} s")
    if not context.certify:
        return judgement
    if context.kind == "solve":
        return certify_claim(instance, judgement)
    if context.kind == "count" and proposal.count == 0:
        return certify_zero_count(instance, judgement)
    return judgement


def judge_stored(record: RunRecord) -> RunRecord:
    """A stored record judged again when another judge version decided it, from its stored
    proposal; the record itself when its version is current, when no proposal of it was
    judged (a crash, a kill), or when its problem or instance cannot be rebuilt here (a
    family loaded by reference elsewhere). An ``infeasible`` claim certified or refuted by a
    checked proof keeps its verdict. A changed verdict is said in ``notes``."""
    try:
        problem = get_problem(record.key.problem)
        version = judge_version(problem)
        if record.verdict.judge_version == version:
            return record
        if not _judged_a_proposal(record):
            return record.with_(judge_version=version)
        instance = problem.from_description(record.key.instance)
        if instance.instance_id != record.key.instance_id:
            return record
        proposal = ProposalData(claim=Claim(record.verdict.claim), answer=record.verdict.answer,
                                count=record.verdict.count, unique=record.verdict.unique)
        asked = record.key.task == "count" and (record.verdict.unique is not None
                                            or record.verdict.reason.startswith("asked for unique"))
        judgement = verdict(problem, instance, proposal, RunContext(
            kind=record.key.task, exact=record.verdict.exact, unique=asked, time_s=record.figures.time_s,
            time_limit=record.key.budget.get("time_limit"), certify=False))
    except (PuzzlebenchError, ValueError, TypeError, KeyError):
        return record
    if record.verdict.certificate and (judgement.outcome is Outcome.INFEASIBLE
                               or (record.key.task == "count" and record.verdict.count == 0)):
        # a claim the judge certified or refuted by a checked proof keeps that verdict
        return record.with_(judge_version=version)
    outcome, reason = judgement.outcome, judgement.reason
    if outcome in (Outcome.BUDGET, Outcome.DECLINED) and record.verdict.outcome is outcome:
        reason = record.verdict.reason  # the solver's own note, which the record keeps as its reason
    answer = record.verdict.answer if judgement.answer is None else judgement.answer
    changes: dict[str, Any] = {
        "outcome": outcome, "valid": judgement.valid, "reason": reason,
        "optimum": judgement.optimum, "answer": answer,
        "verified": judgement.verified, "verified_by": judgement.verified_by,
        "answer_length": len(answer) if isinstance(answer, str | list) else None}
    old = {name: record.flat_field(name) for name in changes}
    if old == changes:
        return record.with_(judge_version=version)
    before = record.verdict.judge_version or "a judge before versions"
    note = (f"judged again by judge {version} (stored by {before}: {record.verdict.outcome.value}, "
            f"{record.verdict.reason or 'no reason'})")
    return record.with_(judge_version=version, notes="; ".join(filter(None, [record.provenance.notes, note])),
                        **changes)


def judge_stored_runs(records: Iterable[RunRecord], *, exact_solvers: Iterable[str] = (),
                      complete_solvers: Iterable[str] = ()) -> list[RunRecord]:
    """Stored runs as today's judge sees them: each judged again (``judge_stored``), then the
    set judged across runs (``cross_run.judge_across``)."""
    return judge_across([judge_stored(r) for r in records], exact_solvers=exact_solvers,
                        complete_solvers=complete_solvers)


def _judged_a_proposal(record: RunRecord) -> bool:
    """Whether the record's outcome came from judging a proposal that it stores: an answer,
    an ``infeasible`` claim or a count (a crash, a kill or a bare ``unknown`` has none)."""
    if record.key.task not in ("solve", "count") or record.verdict.outcome in (Outcome.CRASH, Outcome.MEMOUT):
        return False
    return record.verdict.answer is not None or record.verdict.claim == Claim.INFEASIBLE.value \
        or record.verdict.count is not None or record.verdict.unique is not None
