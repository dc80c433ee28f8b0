"""Certification where it matters: every judged ``infeasible`` claim that no rule verified is
certified by the judge (``harness.judging.proofs``) before its record is made — in ``agree``,
``compare``, ``run`` and ``solve`` alike, since they all judge through ``judging.run_record.make_record``. A
count of zero no known count checks is the same claim and is certified the same way.

One certification per instance per process (several solvers claiming the same instance
infeasible cost one proof): the certified and refuted verdicts are kept, keyed by the instance
id, which names an instance completely. A certification that ran out of its limits is not kept
(a later one, with more time, may finish).
"""

from __future__ import annotations

import threading
from dataclasses import replace

from puzzlebench.harness.judging.proofs import (
    CERTIFIED,
    CERTIFY_MEMORY_MB,
    CERTIFY_TIME_S,
    REFUTED,
    Certification,
    certify_infeasible,
)
from puzzlebench.harness.judging.rules import Judgement
from puzzlebench.problems.base import Instance
from puzzlebench.problems.cnf import encodes
from puzzlebench.records.record import Outcome, rung_rank

_CACHE: dict[str, Certification] = {}
_LOCK = threading.Lock()


def certified(instance: Instance, *, time_limit: float = CERTIFY_TIME_S,
              memory_mb: int | None = CERTIFY_MEMORY_MB) -> Certification:
    """The judge's certification of ``instance`` having no solution (kept per instance id
    once it decided something)."""
    key = instance.instance_id
    with _LOCK:
        if key in _CACHE:
            return _CACHE[key]
        got = certify_infeasible(instance, time_limit=time_limit, memory_mb=memory_mb)
        if got.status in (CERTIFIED, REFUTED):
            _CACHE[key] = got
        return got


def certify_claim(instance: Instance, judgement: Judgement, *,
                  time_limit: float = CERTIFY_TIME_S,
                  memory_mb: int | None = CERTIFY_MEMORY_MB) -> Judgement:
    """``judgement`` of a solve run with its ``infeasible`` claim certified when no stronger
    rung verified it: certified, the rung becomes ``certificate``; refuted (the judge found a
    solution), the claim is ``wrong``; out of limits, it stays where it was and says so."""
    if judgement.outcome is not Outcome.INFEASIBLE or not encodes(instance.problem) \
            or rung_rank(judgement.verified_by) >= rung_rank("certificate"):
        return judgement
    cert = certified(instance, time_limit=time_limit, memory_mb=memory_mb)
    if cert.status == CERTIFIED:
        earlier = f" (before it: {judgement.certificate})" if judgement.certificate else ""
        return replace(judgement, verified=True, verified_by="certificate", reason="",
                       certificate=cert.text + earlier, certify_s=cert.check_s)
    if cert.status == REFUTED:
        return Judgement(Outcome.WRONG, None, f"claimed infeasible, but {cert.text}",
                         certificate=cert.text)
    rung = judgement.verified_by or "unverified"
    return replace(judgement, certificate=f"{cert.text}; left {rung}")


def certify_zero_count(instance: Instance, judgement: Judgement, *,
                       time_limit: float = CERTIFY_TIME_S,
                       memory_mb: int | None = CERTIFY_MEMORY_MB) -> Judgement:
    """``judgement`` of a count of zero solutions that no known count verified, certified like
    an ``infeasible`` claim: certified, verified by ``certificate``; refuted, ``wrong``; out of
    limits, unchanged but for the note."""
    if judgement.outcome is not Outcome.SOLVED or judgement.verified is not False \
            or not encodes(instance.problem):
        return judgement
    cert = certified(instance, time_limit=time_limit, memory_mb=memory_mb)
    if cert.status == CERTIFIED:
        return replace(judgement, valid=True, verified=True, verified_by="certificate",
                       reason="", certificate=cert.text, certify_s=cert.check_s)
    if cert.status == REFUTED:
        return Judgement(Outcome.WRONG, False, f"counted 0 solutions, but {cert.text}",
                         certificate=cert.text)
    return replace(judgement, certificate=f"{cert.text}; left unverified")
