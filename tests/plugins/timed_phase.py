"""Hostile plugins that try to do their work before the timed phase (issue 32 §1; see
test_timed_phase.py).

Each looks for the run's instance before it is told it — in the harness's frames at import, in
the process's objects while it holds back ``ready``, or during an untimed warm-up — solves what
it finds there, and answers at once when the timed phase starts. "Solving" is 0.3 s of real CPU
work, so a run that did it inside its timed phase cannot be recorded faster than that. Loaded
by file reference (``tests/plugins/timed_phase.py:Name``), exactly as a user's plugin.
"""

from __future__ import annotations

import gc
import os
import sys
import time
from typing import Any

from puzzlebench.contract import Claim, Proposal, Solver
from puzzlebench.harness.run.inside import child
from puzzlebench.problems.base import Instance
from puzzlebench_baselines.mod12 import mod12_columns

WORK_S = 0.3
#: Answers worked out before the timed phase, by board size.
PRECOMPUTED: dict[int, list[int]] = {}


def board(n: int) -> list[int]:
    """A valid n-queens board for n ≥ 4, after WORK_S seconds of CPU work."""
    end = time.process_time() + WORK_S
    while time.process_time() < end:
        pass
    return [int(c) for c in mod12_columns(n)]  # the project's closed-form board


def instances_in_sight() -> list[Instance]:
    """Every n-queens instance this process holds: in the frames that led here (their locals,
    and tasks among them) and among all live objects."""
    found: list[Any] = []
    frame = sys._getframe()
    while frame is not None:
        for value in list(frame.f_locals.values()):
            found.append(value)
            found.append(getattr(value, "instance", None))
        frame = frame.f_back  # type: ignore[assignment]
    found += gc.get_objects()
    return [x for x in found if isinstance(x, Instance) and x.problem == "nqueens"]


def precompute() -> None:
    for instance in instances_in_sight():
        n = int(instance.size)
        if n >= 4 and n not in PRECOMPUTED:
            PRECOMPUTED[n] = board(n)


def answer(instance: Instance) -> Proposal:
    n = int(instance.size)
    ahead = n in PRECOMPUTED
    cols = PRECOMPUTED[n] if ahead else board(n)
    return Proposal(answer=cols, claim=Claim.SOLVED, counters={"precomputed": int(ahead)})


class _Q(Solver):
    problems = frozenset({"nqueens"})


# -- 1. the message-sending function replaced at import: ``ready`` held back ---------------------

_send = child.send


def _held_send(fd: int, message: dict[str, Any], raw: bytes | None = None) -> None:
    if message.get("event") == "ready":
        precompute()  # whatever instance it can find, solved "during start-up"
        time.sleep(float(os.environ.get("PUZZLEBENCH_HOSTILE_HOLD", "0")))
    _send(fd, message, raw)


class HeldReady(_Q):
    """Replaces the run's ``send`` when imported: holds back ``ready`` while it solves what it
    finds, then answers the timed phase from that."""

    name = "timed-held-ready"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return answer(instance)


def install_held_send() -> None:
    child.send = _held_send


# -- 2. the instance read from the harness's frames at import ------------------------------------

class FrameReader(_Q):
    """Its module (this one) solved every instance in the importing frames at import."""

    name = "timed-frame-reader"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return answer(instance)


# -- 3. the real work done in an untimed warm-up ---------------------------------------------

class WarmupWorker(_Q):
    """Declares ``compiled`` to be warmed, and solves in its warm-up whatever it can find."""

    name = "timed-warmup-worker"
    compiled = True

    calls = 0

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        WarmupWorker.calls += 1
        if WarmupWorker.calls == 1:  # the warm-up: the first call of the process
            precompute()
            time.sleep(float(os.environ.get("PUZZLEBENCH_HOSTILE_HOLD", "0")))
        return answer(instance)


# at import, for every plugin of this module: the frames read, the sending function replaced
precompute()
install_held_send()
