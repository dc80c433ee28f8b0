"""A plugin that writes one malformed frame on the harness's channel (second sweep, §4).

``ForgedFrames`` takes a parameter ``case`` naming a frame and the field it breaks (``CASES``).
Frames after ``go`` (``stopped``, ``done``, ``error``, ``repeats``) are written from ``solve``
straight onto every descriptor of the run's process (the result pipe is one of them); a
malformed ``ready`` is made in the untimed warm-up (``compiled = True``), by wrapping
``os.write`` so that the run's own ``ready`` frame is rewritten on its way out — whatever
module of the harness writes it.
"""

from __future__ import annotations

import contextlib
import json
import os
import struct
import time
from typing import Any, ClassVar

from puzzlebench.contract import Claim, Proposal, Solver

EIGHT = [0, 4, 7, 5, 2, 6, 1, 3]
DONE = {"event": "done", "payload": {"claim": "solved", "answer": EIGHT}, "meta": {}}


def _done(**fields: Any) -> dict[str, Any]:
    return {**DONE, **fields}


def _meta(**fields: Any) -> dict[str, Any]:
    return _done(meta=fields)


def _payload(**fields: Any) -> dict[str, Any]:
    return _done(payload={"claim": "solved", "answer": EIGHT, **fields})


#: case → the fields a ``ready`` frame gets (rewritten in the warm-up).
READY_CASES: dict[str, dict[str, Any]] = {
    "ready-warmup-string": {"warmup_s": "soon"},
    "ready-warmup-list": {"warmup_s": [1, 2]},
    "ready-warmup-negative": {"warmup_s": -5},
    "ready-warmup-huge": {"warmup_s": 1e308},
    "ready-rss-dict": {"rss_base_mb": {"a": 1}},
    "ready-rss-bool": {"rss_base_mb": True},
    "ready-event-list": {"event": ["ready"]},
}

#: case → frames written after go: each a JSON-able message or raw bytes (a raw frame).
POST_CASES: dict[str, list[Any]] = {
    "stopped-twice": [{"event": "stopped"}, {"event": "stopped"}, DONE],
    "done-meta-list": [_done(meta=[1, 2])],
    "done-meta-stamps-text": [_meta(stamps="0-1")],
    "done-meta-stamps-floats": [_meta(stamps=[[0.5, 1.5]])],
    "done-meta-cpu-text": [_meta(cpu_s="fast")],
    "done-meta-cpu-list": [_meta(cpu_s=[0.1])],
    "done-meta-peak-text": [_meta(peak_rss_mb="1 GB")],
    "done-meta-peak-negative": [_meta(peak_rss_mb=-3)],
    "done-meta-mutated-text": [_meta(mutated="no")],
    "done-meta-repeats-text": [_meta(repeats_follow="yes")],
    "done-payload-list": [_done(payload=[1, 2])],
    "done-payload-text": [_done(payload="solved")],
    "done-claim-list": [_payload(claim=["solved"])],
    "done-claim-number": [_payload(claim=1)],
    "done-note-dict": [_payload(note={"a": [1]})],
    "done-count-float": [_payload(count=92.0)],
    "done-counters-list": [_payload(counters=[1])],
    "done-optimal-text": [_payload(optimal="yes")],
    "done-trace-text": [_payload(trace="down")],
    "done-trace-bad-points": [_payload(trace=[[1, "x", 0.1]])],
    "done-solutions-text": [_payload(solutions="all")],
    "done-complete-text": [_payload(complete="yes")],
    "done-int64-odd-bytes": [_payload(answer={"int64_bytes": 3}), b"abc"],
    "done-int64-text": [_payload(answer={"int64_bytes": "24"}), b"x" * 24],
    "done-int64-negative": [_payload(answer={"int64_bytes": -8}), b"x" * 8],
    "done-answer-deep": [_payload(answer=json.loads("[" * 900 + "]" * 900))],
    "done-event-dict": [{**DONE, "event": {"done": 1}}],
    "error-text-list": [{"event": "error", "kind": "crash", "error": [1, [2, [3]]]}],
    "error-kind-list": [{"event": "error", "kind": ["memout"], "error": "x"}],
    "error-kind-dict": [{"event": "error", "kind": {"memout": True}, "error": "x"}],
    "repeats-agree-text": [_meta(repeats_follow=True), {"event": "repeats", "agree": "yes"}],
    "repeats-agree-list": [_meta(repeats_follow=True), {"event": "repeats", "agree": [True]}],
    "not-an-object": [[1, 2, 3]],
    "not-json": [b"\xff\xfe not json"],
    "deep-frame": [b"[" * 200_000 + b"]" * 200_000],
    "deep-object": [b'{"event":"done","payload":' + b'{"a":' * 100_000 + b"1"
                    + b"}" * 100_001],
    "deep-error": [b'{"event":"error","kind":"crash","error":' + b"[" * 200_000
                   + b"]" * 200_000 + b"}"],
}

CASES = sorted({*READY_CASES, *POST_CASES})
_CALLS = 0


def _encode(frame: Any) -> bytes:
    body = frame if isinstance(frame, bytes) else json.dumps(frame).encode()
    return struct.pack("<Q", len(body)) + body


def _rewrite_ready(fields: dict[str, Any]) -> None:
    real_write = os.write

    def write(fd: int, data: Any) -> int:
        view = bytes(data)
        if len(view) > 8 and view[8:].startswith(b'{"event":"ready"'):
            message = {**json.loads(view[8:]), **fields}
            real_write(fd, _encode(message))
            return len(view)
        return real_write(fd, data)

    os.write = write  # type: ignore[assignment]


def _write_everywhere(frames: list[Any]) -> None:
    data = b"".join(_encode(f) for f in frames)
    for fd in range(3, 256):
        try:
            os.fstat(fd)
        except OSError:
            continue
        with contextlib.suppress(OSError):
            os.write(fd, data)


class ForgedFrames(Solver):
    """Breaks one frame of the protocol (``case``), then stops."""

    name = "sweep-forged-frames"
    problems = frozenset({"nqueens"})
    compiled = True  # warmed, so a ready frame can be rewritten before it is sent
    params: ClassVar[dict[str, Any]] = {"case": "done-meta-list"}

    def __init__(self, case: str = "done-meta-list") -> None:
        self.case = case

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        global _CALLS
        _CALLS += 1
        warmup = _CALLS == 1  # the first call in the run's process is the untimed warm-up
        if self.case in READY_CASES:
            if warmup:  # rewrite the ready frame this process is about to send
                _rewrite_ready(READY_CASES[self.case])
                return Proposal(claim=Claim.UNKNOWN)
            return Proposal(answer=list(EIGHT), claim=Claim.SOLVED)
        if warmup:  # nothing to forge yet
            return Proposal(claim=Claim.UNKNOWN)
        _write_everywhere(POST_CASES[self.case])
        time.sleep(0.3)  # let the harness read what was written before the process ends
        os._exit(0)
