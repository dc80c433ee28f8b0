"""The harness's judgement of a proposal: validity, claims against facts, verification.

Pure functions of (problem, instance, capabilities, proposal data); they run in the judge's
process on the data that crossed from the solver's process, with the problem's own validator
and tables — never with anything the solver could have touched.

Judge versions: each record keeps ``judge_version``, the code fingerprint
(``puzzlebench.solvers.fingerprint``) of the judge that decided it — this module, the payload
reader and the problem family's module with its import closure. A stored run judged by another
version (or made before the field) is judged again when it is read (``pipeline.judge_stored``), from its
stored proposal (answer, claim, counts), so a fixed validator reaches every stored study
without re-running it.

Verified or not: a valid answer is verified (the validator checked it); a count equal to the
known value is verified; a count with no known value to compare, or an ``infeasible`` claim no
rule decides, is accepted but *unverified* (``verified=False``) and reported apart. Agreement
between solvers (``harness.judging.cross_run``) can later turn an unverified claim ``wrong``.

Each verification names its rung (``verified_by``, ``record.RUNGS``): ``validator``, ``rule``
(solvability rules, known counts, known optima), ``certificate``. An ``infeasible`` claim that
comes with a proof of unsatisfiability (``Proposal.proof``) has the proof checked here
(``harness.judging.proofs``): accepted, the claim is certified (unless a rule, a stronger rung,
decides it already); rejected, the claim is ``wrong`` with the checker's reason, whatever a rule
says — a wrong certificate is a wrong answer, as in the SAT Competition.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from puzzlebench.harness.judging.proofs import REJECTED, ProofResult, prove_infeasible
from puzzlebench.harness.run.protocol.payload import ProposalData
from puzzlebench.problems.base import Instance, Problem
from puzzlebench.records.record import Outcome
from puzzlebench.solvers.contract import Claim
from puzzlebench.solvers.fingerprint import digest_of

#: The harness's own judging code; with a problem family's module (its validator, facts and
#: tables), what a judge version digests.
JUDGE_MODULES: tuple[str, ...] = ("puzzlebench.harness.judging.rules",
                                  "puzzlebench.harness.judging.pipeline",
                                  "puzzlebench.harness.run.protocol.payload")


@dataclass(frozen=True, slots=True)
class Judgement:
    """The harness's decision on one proposal; ``answer`` is the canonical stored form."""

    outcome: Outcome
    valid: bool | None
    reason: str = ""
    optimum: int | None = None
    verified: bool | None = None
    answer: Any = None
    verified_by: str = ""
    certificate: str = ""
    certify_s: float | None = None
    #: What the judge learned on the way (a cached table of facts refused and rebuilt).
    notes: tuple[str, ...] = ()
    #: The checked proof this judgement rests on, whole (``check --infeasible`` prints it).
    proof: ProofResult | None = None


def judge_solution(
    problem: Problem, instance: Instance, proposal: ProposalData, *, exact: bool = False
) -> Judgement:
    """Validate an answer or check a claim against the known facts.

    An answer is judged by the validator alone, whatever the claim. An answer from an exact
    solver (or one flagged optimal) on a problem with a known optimum must have that length.
    An ``infeasible`` claim contradicting the solvability rule is ``wrong``.
    """
    claim = proposal.claim
    if proposal.count is not None or proposal.unique is not None:  # a count is judged anywhere
        counted = judge_count(problem, instance, proposal, unique=proposal.unique is not None)
        if counted.outcome is Outcome.WRONG:
            return counted
    if proposal.answer is not None:
        validation = problem.validate(instance, proposal.answer)
        if not validation.valid:
            return Judgement(Outcome.WRONG, False, validation.reason, answer=_as_data(proposal.answer))
        answer = problem.canonical_answer(instance, proposal.answer)
        if claim is Claim.INFEASIBLE:
            return Judgement(Outcome.WRONG, True, "claimed infeasible but returned a valid answer",
                             answer=answer)
        optimum = None
        reason = ""
        notes: tuple[str, ...] = ()
        if exact or proposal.optimal:
            optimum = problem.known_optimum(instance)
            notes = _what_the_tables_said()
            length = len(answer) if isinstance(answer, str | list) else -1
            if optimum is not None and length != optimum:
                return Judgement(
                    Outcome.WRONG, True,
                    f"claimed optimal with {length} moves; the optimum is {optimum}", optimum,
                    answer=answer, notes=notes,
                )
            if optimum is None:
                reason = "optimality not verified (no known optimum; checked across exact solvers)"
        return Judgement(Outcome.SOLVED, True, reason, optimum, verified=True, answer=answer,
                         verified_by="validator", notes=notes)
    if claim is Claim.SOLVED:
        return Judgement(Outcome.WRONG, None, "claimed solved but returned no answer")
    if claim is Claim.INFEASIBLE:
        solvable = problem.is_solvable(instance)
        if solvable:
            return Judgement(
                Outcome.WRONG, None, f"claimed infeasible, but {instance.instance_id} is solvable"
            )
        if proposal.proof is not None:
            return _judge_proof(instance, proposal, ruled=solvable is False)
        if solvable is False:
            return Judgement(Outcome.INFEASIBLE, None, "", verified=True, verified_by="rule")
        return Judgement(Outcome.INFEASIBLE, None, "infeasibility not verified by a rule",
                         verified=False)
    if claim is Claim.DECLINED:
        return Judgement(Outcome.DECLINED, None, proposal.note or "declined")
    return Judgement(Outcome.BUDGET, None, proposal.note)


def _judge_proof(instance: Instance, proposal: ProposalData, *, ruled: bool) -> Judgement:
    """An ``infeasible`` claim with the solver's proof: the proof checked in a process of the
    judge's own; rejected makes the claim ``wrong``, accepted certifies it (a rule, where one
    decides, stays the rung), a check that could not finish leaves the claim where it was."""
    cert = prove_infeasible(instance, proof=proposal.proof, cnf=proposal.cnf)
    if cert.status == REJECTED:
        return Judgement(Outcome.WRONG, None, f"claimed infeasible with a proof that fails the "
                         f"check: {cert.text}", certificate=cert.text, certify_s=cert.check_s, proof=cert)
    if ruled:
        return Judgement(Outcome.INFEASIBLE, None, "", verified=True, verified_by="rule",
                         certificate=cert.text, certify_s=cert.check_s, proof=cert)
    if cert.certified:
        return Judgement(Outcome.INFEASIBLE, None, "", verified=True, verified_by="certificate",
                         certificate=cert.text, certify_s=cert.check_s, proof=cert)
    return Judgement(Outcome.INFEASIBLE, None, "infeasibility not verified by a rule",
                     verified=False, certificate=f"{cert.text}; left unverified",
                     certify_s=cert.check_s, proof=cert)


def judge_count(
    problem: Problem, instance: Instance, proposal: ProposalData, *, unique: bool
) -> Judgement:
    """A count matching the known value is verified; one with none to compare is accepted
    unverified; a count contradicting the facts (the known value, solvability, unique ≤ total)
    is ``wrong``. A unique count (OEIS A002562 for nqueens) is judged whenever the proposal
    holds one, asked for (``unique``) or not."""
    if proposal.count is None:
        if proposal.claim is Claim.DECLINED:
            return Judgement(Outcome.DECLINED, None, proposal.note or "declined")
        return Judgement(Outcome.BUDGET, None, proposal.note or "stopped before counting all")
    count = proposal.count
    if count < 0:
        return Judgement(Outcome.WRONG, False, f"counted {count} solutions")
    known = problem.known_count(instance)
    if known is not None and count != known:
        return Judgement(
            Outcome.WRONG, False, f"counted {count} solutions; the known count is {known}"
        )
    solvable = problem.is_solvable(instance)
    if solvable is not None and (count > 0) != solvable:
        return Judgement(Outcome.WRONG, False, f"counted {count} solutions, but "
                         f"{instance.instance_id} is {'solvable' if solvable else 'unsolvable'}")
    verified = known is not None
    if unique and proposal.unique is None:
        return Judgement(Outcome.WRONG, None, "asked for unique solutions but none counted")
    if proposal.unique is not None:  # a unique count is judged whether it was asked for or not
        known_u = problem.known_count(instance, unique=True)
        if proposal.unique < 0 or proposal.unique > count or (count > 0) != (proposal.unique > 0):
            return Judgement(Outcome.WRONG, False,
                             f"counted {proposal.unique} unique solutions of {count}")
        if known_u is not None and proposal.unique != known_u:
            return Judgement(
                Outcome.WRONG, False,
                f"counted {proposal.unique} unique solutions; the known count is {known_u}",
            )
        verified = verified and known_u is not None
    reason = "" if verified else "no known count to check against"
    return Judgement(Outcome.SOLVED, True if verified else None, reason, verified=verified,
                     verified_by="rule" if verified else "")


def _what_the_tables_said() -> tuple[str, ...]:
    """What loading a table of facts taught the judge just now — a cached table refused and
    rebuilt — returned with the judgement it served. The 8-puzzle's distance table is the one
    such table; its module keeps the sentences until asked (it cannot hand them back with the
    optimum itself without a change to ``problems/``, which every solver's run key covers)."""
    tables = sys.modules.get("puzzlebench.problems.sliding_distances")
    if tables is None:  # never loaded in this process (a queens run): nothing to say
        return ()
    return tuple(tables.take_rejections())


def _as_data(answer: Any) -> Any:
    """An invalid answer as stored: plain data, cut to a readable size."""
    if hasattr(answer, "tolist"):
        answer = answer.tolist()
    if isinstance(answer, list) and len(answer) > 100_000:
        return answer[:100_000]
    return answer


def judge_version(problem: Problem) -> str:
    """The fingerprint of the code that judges ``problem``'s proposals (cached per process)."""
    return digest_of((*JUDGE_MODULES, type(problem).__module__))
