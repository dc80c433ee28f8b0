"""The harness's judgement of a proposal: validity, claims against facts, the outcome.

Pure functions of (problem, instance, capabilities, proposal); no solver code is consulted
beyond the proposal itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from puzzlebench.contract import Claim, Proposal
from puzzlebench.harness.outcome import Outcome
from puzzlebench.problems.base import Instance, Problem


@dataclass(frozen=True, slots=True)
class Judgement:
    """The harness's decision on one proposal."""

    outcome: Outcome
    valid: bool | None
    reason: str = ""
    optimum: int | None = None


def judge_solution(
    problem: Problem, instance: Instance, proposal: Proposal, *, exact: bool = False
) -> Judgement:
    """Validate an answer or check a claim against the known facts.

    An answer is judged by the validator alone, whatever the claim. An answer from an exact
    solver (or one flagged optimal) on a problem with a known optimum must have that length.
    An ``infeasible`` claim contradicting the solvability rule is ``wrong``.
    """
    claim = Claim(proposal.claim)
    if proposal.answer is not None:
        verdict = problem.validate(instance, proposal.answer)
        if not verdict.valid:
            return Judgement(Outcome.WRONG, False, verdict.reason)
        if claim is Claim.INFEASIBLE:
            return Judgement(Outcome.WRONG, True, "claimed infeasible but returned a valid answer")
        optimum = None
        if exact or proposal.optimal:
            optimum = problem.known_optimum(instance)
            length = _length(proposal.answer)
            if optimum is not None and length != optimum:
                return Judgement(
                    Outcome.WRONG, True,
                    f"claimed optimal with {length} moves; the optimum is {optimum}", optimum,
                )
        return Judgement(Outcome.SOLVED, True, "", optimum)
    if claim is Claim.SOLVED:
        return Judgement(Outcome.WRONG, None, "claimed solved but returned no answer")
    if claim is Claim.INFEASIBLE:
        solvable = problem.is_solvable(instance)
        if solvable:
            return Judgement(
                Outcome.WRONG, None, f"claimed infeasible, but {instance.instance_id} is solvable"
            )
        reason = "" if solvable is False else "infeasibility not verified by a rule"
        return Judgement(Outcome.INFEASIBLE, None, reason)
    return Judgement(Outcome.BUDGET, None, proposal.note)


def judge_count(
    problem: Problem, instance: Instance, proposal: Proposal, *, unique: bool
) -> Judgement:
    """A count is ``solved`` when it matches the known value (or none is known), else ``wrong``."""
    if proposal.count is None:
        return Judgement(Outcome.BUDGET, None, proposal.note or "stopped before counting all")
    known = problem.known_count(instance)
    if known is not None and proposal.count != known:
        return Judgement(
            Outcome.WRONG, False, f"counted {proposal.count} solutions; the known count is {known}"
        )
    if unique:
        known_u = problem.known_count(instance, unique=True)
        if proposal.unique is None:
            return Judgement(Outcome.WRONG, None, "asked for unique solutions but none counted")
        if known_u is not None and proposal.unique != known_u:
            return Judgement(
                Outcome.WRONG, False,
                f"counted {proposal.unique} unique solutions; the known count is {known_u}",
            )
    return Judgement(Outcome.SOLVED, True)


def _length(answer: Any) -> int:
    try:
        return len(answer)
    except TypeError:
        return -1
