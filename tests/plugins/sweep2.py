"""Hostile plugins of the second adversarial sweep, §3 and §4 (see test_sweep2_verdicts.py).

Loaded by file reference (``tests/plugins/sweep2.py:Name``), exactly as a user's plugin. Each
cheats or breaks in one way the sweep found rewarded or breaking a command.
"""

from __future__ import annotations

import contextlib
import os
import struct
import sys

import numpy as np

from puzzlebench.contract import Claim, Proposal, Solver
from puzzlebench_baselines.mod12 import mod12_columns

EIGHT = [0, 4, 7, 5, 2, 6, 1, 3]  # a valid 8-queens board


def board(n: int) -> list[int]:
    """A valid n-queens board for n ≥ 4 (the mod-12 construction, honestly computed)."""
    return [int(c) for c in mod12_columns(n)]  # the project's closed-form board


class _Q(Solver):
    problems = frozenset({"nqueens"})


# -- §3 answers whose type breaks the contract ----------------------------------------------

class DigitStrings(_Q):
    """A valid board written as digit strings (``["0", "4", ...]``)."""

    name = "sweep-digit-strings"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(answer=[str(c) for c in board(instance.n)], claim=Claim.SOLVED)


class GeneratorAnswer(_Q):
    """A valid board handed over as a generator (a one-shot iterator)."""

    name = "sweep-generator-answer"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(answer=(c for c in board(instance.n)), claim=Claim.SOLVED)


class IteratorAnswer(_Q):
    """A valid board handed over as ``iter(list)``."""

    name = "sweep-iterator-answer"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(answer=iter(board(instance.n)), claim=Claim.SOLVED)


class BytesAnswer(_Q):
    """A valid board as bytes (each byte a column number)."""

    name = "sweep-bytes-answer"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(answer=bytes(board(instance.n)), claim=Claim.SOLVED)


class BoolAnswer(_Q):
    """A 4-queens 'board' of booleans and ints mixed (True is not a column number)."""

    name = "sweep-bool-answer"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        cols = board(instance.n)
        return Proposal(answer=[bool(c) if c in (0, 1) else c for c in cols],
                        claim=Claim.SOLVED)


# -- §3 unique counts -----------------------------------------------------------------------

class UniqueThirteen(_Q):
    """Counts 92 solutions of 8-queens (right) and 13 unique ones (the truth is 12)."""

    name = "sweep-unique-13"
    counts = True
    counts_unique = True

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(claim=Claim.UNKNOWN)

    def count(self, instance, budget, *, unique=False):  # type: ignore[no-untyped-def]
        if instance.n != 8:
            return Proposal(claim=Claim.UNKNOWN)
        return Proposal(claim=Claim.SOLVED, count=92, unique=13 if unique else None)


class UniqueUndeclared(UniqueThirteen):
    """Does not declare ``counts_unique``, yet reports 13 unique solutions with every count."""

    name = "sweep-unique-undeclared"
    counts_unique = False

    def count(self, instance, budget, *, unique=False):  # type: ignore[no-untyped-def]
        if instance.n != 8:
            return Proposal(claim=Claim.UNKNOWN)
        return Proposal(claim=Claim.SOLVED, count=92, unique=13)


# -- §3 self-declared completeness ------------------------------------------------------------

class _Liar(Solver):
    """Declares itself complete and calls every instance infeasible."""

    problems = frozenset({"queens-knights", "nqueens-completion"})
    complete = True

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(claim=Claim.INFEASIBLE)


class CompleteLiarA(_Liar):
    name = "sweep-complete-liar-a"


class CompleteLiarB(_Liar):
    name = "sweep-complete-liar-b"


# -- §3 memory figures ------------------------------------------------------------------------

class MemoryLiar(_Q):
    """Replaces the run's memory reading with one that says 1 MB, then touches 1.5 GiB."""

    name = "sweep-memory-liar"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        child = sys.modules["puzzlebench.harness.run.inside.child"]
        for attr in ("_peak_rss_mb", "peak_rss_mb"):
            if hasattr(child, attr):
                setattr(child, attr, lambda: 1.0)
        blob = np.ones(3 * 2**29, dtype=np.uint8)  # 1.5 GiB, every page touched
        touched = int(blob[:: 4096].sum() > 0)
        del blob
        return Proposal(answer=board(instance.n), claim=Claim.SOLVED,
                        counters={"touched": touched})


# -- §4 frames --------------------------------------------------------------------------------

def _write_frames(*bodies: bytes) -> None:
    """Write length-prefixed frames on every descriptor that takes them (the result pipe is
    one of them; the log and the control pipe's read end refuse or ignore them)."""
    for fd in range(3, 64):
        try:
            os.fstat(fd)
        except OSError:
            continue
        with contextlib.suppress(OSError):
            for body in bodies:
                os.write(fd, struct.pack("<Q", len(body)) + body)


class DeepFrame(_Q):
    """Writes a 200,000-deep JSON frame on the harness's channel, then exits."""

    name = "sweep-deep-frame"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        _write_frames(b"[" * 200_000 + b"]" * 200_000)
        os._exit(0)


class DeepDone(_Q):
    """A ``done`` frame whose payload nests 200,000 deep (inside an otherwise fine frame)."""

    name = "sweep-deep-done"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        deep = b"[" * 200_000 + b"]" * 200_000
        _write_frames(b'{"event":"done","payload":{"claim":"solved","answer":' + deep
                      + b'},"meta":{}}')
        os._exit(0)


# -- §4 names -----------------------------------------------------------------------------------

class DotDotName(_Q):
    """Names itself ``..`` (a folder's parent in every path built from it)."""

    name = ".."

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(answer=board(instance.n), claim=Claim.SOLVED)


class SlashName(DotDotName):
    name = "../../escape"


class NamedMod12(DotDotName):
    """Takes the name of a baseline."""

    name = "mod12"
