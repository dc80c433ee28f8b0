"""One judging pipeline: a run's judgement from the problem, the instance, the proposal and the
run's context, by rules applied in one order, each written once. Every path that judges calls
it: a live run (``judging.run_record``), a stored run judged again (``judge_stored``), a stored
row checked on reading (``storage.seals``) and ``puzzlebench check``.

The rules, in their order:

0. **how the run ended** (``judge_run``): a run that handed over no proposal is a
   ``timeout`` (a limit ended it, before ``go`` or after), a ``memout`` or a ``crash``;
1. **the proposal itself** (``judging.rules``): a count against the known counts and the
   solvability rule; an answer through the problem's validator, an optimality claim against the
   known optimum, a claim against the rules; what the validator learned on the way (a cached
   table refused and rebuilt) comes back in the judgement's ``notes``;
2. **the time limit**: a success answered after the run's time limit is a ``timeout``;
3. **the proof** (``judging.proof_runs``): an ``infeasible`` claim, or a count of zero, that no
   rule verified is proved or refuted by a checked proof. Live runs and ``check`` only: a stored
   run keeps the judgement its proof gave (proofs are not stored, and a check takes seconds).
   ``check --infeasible`` asks for the proof whatever a rule says (``RunContext.outright``);
4. **the trace** (``kept_trace``): an anytime trace that contradicts its run is dropped.

A record stored before the verification ladder gets the rung it was judged by then
(``as_judged_then``, applied when a stored row is read). Across runs (``judging.cross_run``)
comes after, on a set of records: ``judge_stored_runs`` applies both, each stored run by today's
judge and then the set against itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from puzzlebench.harness.judging.cross_run import judge_across
from puzzlebench.harness.judging.proof_runs import prove_claim, prove_outright, prove_zero_count
from puzzlebench.harness.judging.proofs import PROOF_TIME_S
from puzzlebench.harness.judging.rules import (
    Judgement,
    judge_count,
    judge_solution,
    judge_version,
)
from puzzlebench.harness.run.protocol.payload import ProposalData
from puzzlebench.problems import get_problem
from puzzlebench.problems.base import Instance, Problem, PuzzlebenchError
from puzzlebench.records.record import Outcome, RunRecord
from puzzlebench.records.trace_points import check_points
from puzzlebench.solvers.contract import Claim

#: How a run's process ended, as the pipeline reads it (rule 0): it handed over a proposal, a
#: limit ended it (``timeout``; ``startup``: before ``go``), it ran out of memory, or it failed.
ENDINGS = ("done", "timeout", "startup", "memout", "crash")


@dataclass(frozen=True, slots=True)
class RunContext:
    """What the pipeline needs of a run besides its proposal."""

    kind: str  # "solve" or "count"
    exact: bool = False  # the run claimed (or its solver declares) optimal answers
    unique: bool = False  # a unique count was asked for
    time_s: float = 0.0
    time_limit: float | None = None
    #: Prove or refute what no rule verified (rule 3): live runs; a stored run keeps its own.
    prove: bool = True
    #: Prove an ``infeasible`` claim whatever a rule says (``check --infeasible``).
    outright: bool = False
    #: Seconds a proof of rule 3 may take.
    proof_time_limit: float = PROOF_TIME_S


def judge_run(problem: Problem, instance: Instance, proposal: ProposalData | None,
              context: RunContext, *, ended: str = "done", error: str = "") -> Judgement:
    """A live run's judgement: how it ended (rule 0), then its proposal (rules 1-3)."""
    if ended not in ENDINGS:
        raise ValueError(f"a run ends {', '.join(ENDINGS)}; not {ended!r}")
    if proposal is not None:
        return judge_proposal(problem, instance, proposal, context)
    if ended in ("timeout", "startup"):  # a limit ended it, before go or after
        return Judgement(Outcome.TIMEOUT, None, error)
    if ended == "memout":
        return Judgement(Outcome.MEMOUT, None, error)
    return Judgement(Outcome.CRASH, None, error)


def judge_proposal(problem: Problem, instance: Instance, proposal: ProposalData,
                   context: RunContext) -> Judgement:
    """The judgement of one proposal: rules 1-3 of the module's doc, in their order."""
    if context.outright and context.kind == "solve" and proposal.claim is Claim.INFEASIBLE \
            and proposal.answer is None:
        return prove_outright(instance, proposal, time_limit=context.proof_time_limit)
    if context.kind == "count":
        judgement = judge_count(problem, instance, proposal, unique=context.unique)
    else:
        judgement = judge_solution(problem, instance, proposal, exact=context.exact)
    if judgement.outcome.success and context.time_limit is not None \
            and context.time_s > context.time_limit:
        return replace(judgement, outcome=Outcome.TIMEOUT, verified=None, verified_by="",
                       reason=f"answered after {context.time_s:.3f} s, past its time limit "
                              f"of {context.time_limit:g} s")
    if not context.prove:
        return judgement
    if context.kind == "solve":
        return prove_claim(instance, judgement, time_limit=context.proof_time_limit)
    if context.kind == "count" and proposal.count == 0:
        return prove_zero_count(instance, judgement, time_limit=context.proof_time_limit)
    return judgement


def kept_trace(trace: list[list[float]] | None, judgement: Judgement, *, wall_s: float,
               evaluations: Any) -> tuple[list[list[float]] | None, str]:
    """Rule 4: the run's anytime trace and '' when it agrees with its run; None and why when
    it contradicts it (``records.trace_points.check_points``)."""
    if trace is None:
        return None, ""
    why = check_points(trace, solved=judgement.outcome is Outcome.SOLVED
                       and judgement.verified is True, wall_s=wall_s, evaluations=evaluations)
    return (None, why) if why else (trace, "")


def as_judged_then(data: dict[str, Any]) -> dict[str, Any]:
    """A stored record's flat form with the verification it had when it was judged, for a
    record stored before ``verified`` or ``verified_by`` existed: a success was verified unless
    it said why not, and its rung is what verified such a run then."""
    if "verified" in data and "verified_by" in data:
        return data
    out = dict(data)
    success = Outcome(out["outcome"]).success
    if "verified" not in out and success:  # records made before the field
        out["verified"] = out["outcome"] == Outcome.SOLVED.value or not out.get("reason")
    if "verified_by" not in out:  # records made before the ladder: its rung, as judged then
        out["verified_by"] = _rung_then(out)
    return out


def _rung_then(d: dict[str, Any]) -> str:
    """The rung of a record stored before ``verified_by``: what verified it then."""
    if not (Outcome(d["outcome"]).success and d.get("verified")):
        return ""
    if d["outcome"] == Outcome.SOLVED.value:
        return "validator" if d.get("task", "solve") == "solve" else "rule"
    return "agreement" if "agreed by complete solvers" in str(d.get("reason", "")) else "rule"


def judge_stored(record: RunRecord) -> RunRecord:
    """A stored record judged again when another judge version decided it, from its stored
    proposal; the record itself when its version is current, when no proposal of it was
    judged (a crash, a kill), or when its problem or instance cannot be rebuilt here (a
    family a plugin package brings elsewhere). An ``infeasible`` claim certified or refuted by a
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
        judgement = judge_proposal(problem, instance, proposal, RunContext(
            kind=record.key.task, exact=record.verdict.exact, unique=asked, time_s=record.figures.time_s,
            time_limit=record.key.budget.get("time_limit"), prove=False))
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
