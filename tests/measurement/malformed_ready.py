"""A plugin whose import replaces the run's message sender: in a solving run its ``ready``
frame says the warm-up took ``"soon"`` seconds (a string where the harness expects a number);
its description, made first in a process of its own, is well formed."""

from __future__ import annotations

import sys

import puzzlebench.harness.run.inside.child as child
from puzzlebench.contract import Claim, Proposal, Solver

_real_send = child.send


def _solving() -> bool:
    """Whether this process runs a solve (not the harness's describe step)."""
    frame = sys._getframe()
    while frame is not None:
        task = frame.f_locals.get("task")
        if task is not None and getattr(task, "kind", "") == "solve":
            return True
        frame = frame.f_back
    return False


def _send(fd, message, raw=None):  # type: ignore[no-untyped-def]
    if message.get("event") == "ready" and _solving():
        message = {**message, "warmup_s": "soon"}
    _real_send(fd, message, raw)


child.send = _send


class MalformedReady(Solver):
    name = "malformed-ready"
    problems = frozenset({"nqueens"})

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(answer=[0, 4, 7, 5, 2, 6, 1, 3], claim=Claim.SOLVED)
