"""Proofs where they matter (the pipeline's proof rule): every judged ``infeasible`` claim
that no rule verified is proved or refuted by the judge (``harness.judging.proofs``) before its
record is made — in ``agree``, ``compare``, ``run`` and ``solve`` alike, since they all judge
through ``judging.pipeline``. A count of zero no known count checks is the same claim and is
proved the same way; ``check --infeasible`` asks for the proof outright (``prove_outright``).

One proof per instance per process (several solvers claiming the same instance infeasible cost
one proof): the certified and refuted results are kept, keyed by the instance id, which names
an instance completely. A proof that ran out of its limits is not kept (a later one, with more
time, may finish).
"""

from __future__ import annotations

import threading
from dataclasses import replace

from puzzlebench.harness.judging.proofs import (
    CERTIFIED,
    PROOF_MEMORY_MB,
    PROOF_TIME_S,
    REFUTED,
    REJECTED,
    ProofResult,
    prove_infeasible,
)
from puzzlebench.harness.judging.rules import Judgement
from puzzlebench.harness.run.protocol.payload import ProposalData
from puzzlebench.problems.base import Instance
from puzzlebench.problems.cnf import encodes
from puzzlebench.records.record import Outcome, rung_rank

_CACHE: dict[str, ProofResult] = {}
_LOCK = threading.Lock()


def proof_of(instance: Instance, *, time_limit: float = PROOF_TIME_S,
              memory_mb: int | None = PROOF_MEMORY_MB) -> ProofResult:
    """The judge's proof that ``instance`` has no solution (kept per instance id once it
    decided something)."""
    key = instance.instance_id
    with _LOCK:
        if key in _CACHE:
            return _CACHE[key]
        got = prove_infeasible(instance, time_limit=time_limit, memory_mb=memory_mb)
        if got.status in (CERTIFIED, REFUTED):
            _CACHE[key] = got
        return got


def prove_claim(instance: Instance, judgement: Judgement, *,
                  time_limit: float = PROOF_TIME_S,
                  memory_mb: int | None = PROOF_MEMORY_MB) -> Judgement:
    """``judgement`` of a solve run with its ``infeasible`` claim certified when no stronger
    rung verified it: certified, the rung becomes ``certificate``; refuted (the judge found a
    solution), the claim is ``wrong``; out of limits, it stays where it was and says so."""
    if judgement.outcome is not Outcome.INFEASIBLE or not encodes(instance.problem) \
            or rung_rank(judgement.verified_by) >= rung_rank("certificate"):
        return judgement
    cert = proof_of(instance, time_limit=time_limit, memory_mb=memory_mb)
    if cert.status == CERTIFIED:
        earlier = f" (before it: {judgement.certificate})" if judgement.certificate else ""
        return replace(judgement, verified=True, verified_by="certificate", reason="",
                       certificate=cert.text + earlier, certify_s=cert.check_s)
    if cert.status == REFUTED:
        return Judgement(Outcome.WRONG, None, f"claimed infeasible, but {cert.text}",
                         certificate=cert.text)
    rung = judgement.verified_by or "unverified"
    return replace(judgement, certificate=f"{cert.text}; left {rung}")


def prove_zero_count(instance: Instance, judgement: Judgement, *,
                       time_limit: float = PROOF_TIME_S,
                       memory_mb: int | None = PROOF_MEMORY_MB) -> Judgement:
    """``judgement`` of a count of zero solutions that no known count verified, certified like
    an ``infeasible`` claim: certified, verified by ``certificate``; refuted, ``wrong``; out of
    limits, unchanged but for the note."""
    if judgement.outcome is not Outcome.SOLVED or judgement.verified is not False \
            or not encodes(instance.problem):
        return judgement
    cert = proof_of(instance, time_limit=time_limit, memory_mb=memory_mb)
    if cert.status == CERTIFIED:
        return replace(judgement, valid=True, verified=True, verified_by="certificate",
                       reason="", certificate=cert.text, certify_s=cert.check_s)
    if cert.status == REFUTED:
        return Judgement(Outcome.WRONG, False, f"counted 0 solutions, but {cert.text}",
                         certificate=cert.text)
    return replace(judgement, certificate=f"{cert.text}; left unverified")


def prove_outright(instance: Instance, proposal: ProposalData, *,
                   time_limit: float = PROOF_TIME_S,
                   memory_mb: int | None = PROOF_MEMORY_MB) -> Judgement:
    """An ``infeasible`` claim proved or refuted by a checked proof whatever a rule says, for
    when the proof itself is what was asked for (``check --infeasible``, which reports the rule
    beside it): the proposal's own proof checked, or one made by the judge. Certified, verified
    by ``certificate``; refuted or rejected, ``wrong``; out of limits, unverified."""
    cert = prove_infeasible(instance, proof=proposal.proof, cnf=proposal.cnf,
                            time_limit=time_limit, memory_mb=memory_mb)
    if cert.status == CERTIFIED:
        return Judgement(Outcome.INFEASIBLE, None, "", verified=True, verified_by="certificate",
                         certificate=cert.text, certify_s=cert.check_s, proof=cert)
    if cert.status == REFUTED:
        return Judgement(Outcome.WRONG, None, f"claimed infeasible, but {cert.text}",
                         answer=cert.answer, certificate=cert.text, certify_s=cert.check_s,
                         proof=cert)
    if cert.status == REJECTED:
        return Judgement(Outcome.WRONG, None, "claimed infeasible with a proof that fails the "
                         f"check: {cert.text}", certificate=cert.text, certify_s=cert.check_s,
                         proof=cert)
    return Judgement(Outcome.INFEASIBLE, None, "infeasibility not proved", verified=False,
                     certificate=f"{cert.text}; left unverified", certify_s=cert.check_s,
                     proof=cert)
