"""Deliberately misbehaving plugin solvers for the runner's reliability tests.

Loaded by file reference (``tests/harness/misbehaving_solvers.py:Name``), as a user's plugin.
"""

from __future__ import annotations

import os
import time

from puzzlebench.contract import Claim, Proposal, Solver


class EndlessLoop(Solver):
    """Ignores its budget and never returns."""

    name = "endless-loop"
    problems = frozenset({"nqueens"})

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        while True:
            time.sleep(0.01)


class HugeAllocation(Solver):
    """Asks for far more memory than the run may use."""

    name = "huge-allocation"
    problems = frozenset({"nqueens"})

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        blob = bytearray(64 * 1024**3)  # 64 GiB
        return Proposal(answer=list(blob[: instance.n]), claim=Claim.SOLVED)


class HardCrash(Solver):
    """Kills its own process without a word."""

    name = "hard-crash"
    problems = frozenset({"nqueens"})

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        os._exit(7)


class Abort(Solver):
    """Dies of SIGABRT, as a failing C extension would."""

    name = "abort"
    problems = frozenset({"nqueens"})

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        os.abort()


class InvalidAnswers(Solver):
    """Claims every board solved with all queens on one diagonal."""

    name = "invalid-answers"
    problems = frozenset({"nqueens"})

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(answer=list(range(instance.n)), claim=Claim.SOLVED)


class FrozenHeapWitness(Solver):
    """Answers with nothing, reporting how many objects it inherited frozen from the process
    that forked it (``gc.get_freeze_count``)."""

    name = "frozen-heap-witness"
    problems = frozenset({"nqueens"})

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        import gc

        return Proposal(claim=Claim.UNKNOWN, counters={"frozen": gc.get_freeze_count()})
