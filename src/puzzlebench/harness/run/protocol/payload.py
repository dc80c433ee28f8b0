"""A proposal as data: what crosses from the solver's process to the judge's.

The solver's process turns its :class:`~puzzlebench.solvers.contract.Proposal` into plain JSON data
(``to_payload``) exactly once; the judge's process reads that data back (``from_payload``),
checking every field's type, and judges nothing but it. What is validated is what is stored
and printed. A proposal whose fields cannot become data (a claim that is not a claim, counters
that are not finite numbers, an answer that does not serialise) is a ``MalformedProposalError``,
which the harness records as a ``crash`` with the reason.

Integer answers held in a plain ``numpy.ndarray`` travel as raw int64 bytes beside the JSON
header, so handing over a 10^7-queen board costs milliseconds rather than the seconds a JSON
list would.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from puzzlebench.problems.base import Problem, PuzzlebenchError
from puzzlebench.solvers.contract import Claim, Proposal

#: Largest frame the judge accepts from a run (a 10^8-queen answer is 800 MB of int64).
MAX_MESSAGE_BYTES = 1 << 30


class MalformedProposalError(PuzzlebenchError, ValueError):
    """A proposal that cannot be turned into (or read back from) data; the run is a crash."""


@dataclass(frozen=True, slots=True)
class ProposalData:
    """A proposal read back from data in the judge's process: every field type-checked."""

    claim: Claim
    answer: Any = None
    counters: dict[str, int | float] = field(default_factory=dict)
    optimal: bool = False
    count: int | None = None
    unique: int | None = None
    note: str = ""
    solutions: list[Any] | None = None
    complete: bool | None = None
    proof: str | None = None
    cnf: str | None = None
    stopped_by: str = ""


def _plain(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def _dump(name: str, value: Any) -> str:
    try:
        return json.dumps(value, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise MalformedProposalError(f"malformed proposal: {name} is not plain data ({exc})") from None


def answer_data(problem: Problem, answer: Any) -> tuple[Any, bytes | None]:
    """The answer's JSON data, or (for an int ndarray) a marker and its raw int64 bytes."""
    if answer is None:
        return None, None
    if type(answer) is np.ndarray and answer.ndim == 1 and answer.dtype.kind in "iu":
        raw = np.ascontiguousarray(answer, dtype="<i8").tobytes()
        return {"int64_bytes": len(raw)}, raw
    try:
        data = problem.answer_to_json(answer)
    except Exception as exc:
        try:  # plain data that is not the problem's encoding: the validator will say why
            json.dumps(answer, allow_nan=False)
        except (TypeError, ValueError):
            raise MalformedProposalError(
                f"malformed proposal: the answer does not convert to the problem's encoding "
                f"({type(exc).__name__}: {exc})") from None
        return answer, None
    _dump("the answer", data)
    return data, None


def to_payload(problem: Problem, proposal: Any) -> tuple[dict[str, Any], bytes | None]:
    """The proposal as a JSON-ready dict (+ raw answer bytes); raises MalformedProposalError."""
    if not isinstance(proposal, Proposal):
        raise MalformedProposalError(
            f"malformed proposal: the solver returned {type(proposal).__name__}, not a Proposal")
    claim = proposal.claim
    if not isinstance(claim, str) or claim not in {c.value for c in Claim}:
        raise MalformedProposalError(f"malformed proposal: claim {claim!r} is not one of "
                                f"{', '.join(c.value for c in Claim)}")
    if not isinstance(proposal.counters, Mapping):
        raise MalformedProposalError(
            f"malformed proposal: counters are {type(proposal.counters).__name__}, not a mapping")
    counters = {str(k): _plain(v) for k, v in proposal.counters.items()}
    answer, raw = answer_data(problem, proposal.answer)
    data = {
        "claim": str(claim), "answer": answer, "counters": counters,
        "optimal": _plain(proposal.optimal), "count": _plain(proposal.count),
        "unique": _plain(proposal.unique),
        "note": "" if proposal.note is None else str(proposal.note)[:2000],
    }
    if proposal.stopped_by:
        data["stopped_by"] = str(proposal.stopped_by)[:200]
    for name in ("proof", "cnf"):
        value = getattr(proposal, name)
        if value is not None and not isinstance(value, str):
            raise MalformedProposalError(f"malformed proposal: {name} is "
                                         f"{type(value).__name__}, not text")
        if value is not None:
            data[name] = value
    for name, value in data.items():
        _dump(name, value)
    return data, raw


def from_payload(data: Any, raw: bytes | None = None) -> ProposalData:
    """Read a proposal's data back, checking each field; raises MalformedProposalError."""
    if not isinstance(data, dict):
        raise MalformedProposalError("malformed proposal: not a JSON object")
    claim_text = data.get("claim", "unknown")
    try:
        claim = Claim(claim_text)
    except ValueError:
        raise MalformedProposalError(f"malformed proposal: claim {claim_text!r} is not one of "
                                f"{', '.join(c.value for c in Claim)}") from None
    counters = data.get("counters") or {}
    if not isinstance(counters, dict):
        raise MalformedProposalError("malformed proposal: counters must be an object of numbers")
    for key, value in counters.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise MalformedProposalError(
                f"malformed proposal: counter {key!r} is {value!r}, not a finite number")
    answer = data.get("answer")
    if isinstance(answer, dict) and set(answer) == {"int64_bytes"}:
        size = answer["int64_bytes"]
        if isinstance(size, bool) or not isinstance(size, int) or size < 0 or size % 8:
            raise MalformedProposalError(
                f"malformed proposal: the answer's size {size!r} is not a whole number of int64s")
        if raw is None or len(raw) != size:
            raise MalformedProposalError("malformed proposal: the answer's bytes are missing or cut short")
        answer = np.frombuffer(raw, dtype="<i8")
    counts = {}
    for name in ("count", "unique"):
        value = data.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise MalformedProposalError(f"malformed proposal: {name} is {value!r}, not an integer")
        counts[name] = value
    optimal = data.get("optimal", False)
    if not isinstance(optimal, bool):
        raise MalformedProposalError(f"malformed proposal: optimal is {optimal!r}, not a boolean")
    note = data.get("note", "")
    if not isinstance(note, str):
        raise MalformedProposalError(f"malformed proposal: note is {type(note).__name__}, not text")
    trace = data.get("trace")
    if trace is not None and not (isinstance(trace, list) and all(
            isinstance(p, list) and len(p) == 3 and all(
                not isinstance(v, bool) and isinstance(v, int | float) for v in p)
            for p in trace)):
        raise MalformedProposalError("malformed proposal: a trace is a list of "
                                     "[evaluations, best, seconds]")
    solutions = data.get("solutions")
    if solutions is not None and not isinstance(solutions, list):
        raise MalformedProposalError("malformed proposal: solutions must be a list")
    complete = data.get("complete")
    if complete is not None and not isinstance(complete, bool):
        raise MalformedProposalError("malformed proposal: complete must be a boolean")
    texts = {name: data.get(name) for name in ("proof", "cnf")}
    for name, value in texts.items():
        if value is not None and not isinstance(value, str):
            raise MalformedProposalError(f"malformed proposal: {name} must be text")
    stopped_by = data.get("stopped_by", "")
    if not isinstance(stopped_by, str):
        raise MalformedProposalError("malformed proposal: stopped_by must be text")
    return ProposalData(claim=claim, answer=answer, counters=dict(counters), optimal=optimal,
                        count=counts["count"], unique=counts["unique"],
                        note=str(note)[:2000], solutions=solutions, complete=complete,
                        proof=texts["proof"], cnf=texts["cnf"], stopped_by=stopped_by[:200])
