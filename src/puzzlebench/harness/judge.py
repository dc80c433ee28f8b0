"""The harness's judgement of a proposal: validity, claims against facts, verification.

Pure functions of (problem, instance, capabilities, proposal data); they run in the judge's
process on the data that crossed from the solver's process, with the problem's own validator
and tables — never with anything the solver could have touched.

Verified or not: a valid answer is verified (the validator checked it); a count equal to the
known value is verified; a count with no known value to compare, or an ``infeasible`` claim no
rule decides, is accepted but *unverified* (``verified=False``) and reported apart. Agreement
between solvers (``harness.rejudge``) can later turn an unverified claim ``wrong``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from puzzlebench.contract import Claim
from puzzlebench.harness.payload import ProposalData
from puzzlebench.problems.base import Instance, Problem
from puzzlebench.record import Outcome


@dataclass(frozen=True, slots=True)
class Judgement:
    """The harness's decision on one proposal; ``answer`` is the canonical stored form."""

    outcome: Outcome
    valid: bool | None
    reason: str = ""
    optimum: int | None = None
    verified: bool | None = None
    answer: Any = None


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
        verdict = problem.validate(instance, proposal.answer)
        if not verdict.valid:
            return Judgement(Outcome.WRONG, False, verdict.reason, answer=_as_data(proposal.answer))
        answer = problem.canonical_answer(instance, proposal.answer)
        if claim is Claim.INFEASIBLE:
            return Judgement(Outcome.WRONG, True, "claimed infeasible but returned a valid answer",
                             answer=answer)
        optimum = None
        reason = ""
        if exact or proposal.optimal:
            optimum = problem.known_optimum(instance)
            length = len(answer) if isinstance(answer, str | list) else -1
            if optimum is not None and length != optimum:
                return Judgement(
                    Outcome.WRONG, True,
                    f"claimed optimal with {length} moves; the optimum is {optimum}", optimum,
                    answer=answer,
                )
            if optimum is None:
                reason = "optimality not verified (no known optimum; checked across exact solvers)"
        return Judgement(Outcome.SOLVED, True, reason, optimum, verified=True, answer=answer)
    if claim is Claim.SOLVED:
        return Judgement(Outcome.WRONG, None, "claimed solved but returned no answer")
    if claim is Claim.INFEASIBLE:
        solvable = problem.is_solvable(instance)
        if solvable:
            return Judgement(
                Outcome.WRONG, None, f"claimed infeasible, but {instance.instance_id} is solvable"
            )
        if solvable is False:
            return Judgement(Outcome.INFEASIBLE, None, "", verified=True)
        return Judgement(Outcome.INFEASIBLE, None, "infeasibility not verified by a rule",
                         verified=False)
    return Judgement(Outcome.BUDGET, None, proposal.note)


def judge_count(
    problem: Problem, instance: Instance, proposal: ProposalData, *, unique: bool
) -> Judgement:
    """A count matching the known value is verified; one with none to compare is accepted
    unverified; a count contradicting the facts (the known value, solvability, unique ≤ total)
    is ``wrong``. A unique count (OEIS A002562 for nqueens) is judged whenever the proposal
    holds one, asked for (``unique``) or not."""
    if proposal.count is None:
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
    return Judgement(Outcome.SOLVED, True if verified else None, reason, verified=verified)


def _as_data(answer: Any) -> Any:
    """An invalid answer as stored: plain data, cut to a readable size."""
    if hasattr(answer, "tolist"):
        answer = answer.tolist()
    if isinstance(answer, list) and len(answer) > 100_000:
        return answer[:100_000]
    return answer
