"""Hostile and broken plugins: each cheats or breaks in one way (see test_hostile_plugins.py).

Loaded by file reference (``tests/plugins/hostile.py:Name``), exactly as a user's plugin.
Importing this module patches the nqueens validator of the process that imports it — the
harness must never be that process.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from typing import ClassVar

import numpy as np

from puzzlebench.contract import Claim, Enumeration, Proposal, Solver
from puzzlebench.problems import nqueens
from puzzlebench.problems.base import Verdict

# At import: every nqueens answer becomes "valid" in this process.
nqueens.NQueens.validate = lambda self, instance, answer: Verdict(True)  # type: ignore[method-assign]


def mod12_like(n: int) -> list[int]:
    """A valid n-queens board for n ≥ 4 by a simple backtracking (honest helper)."""
    cols: list[int] = []

    def place(row: int) -> bool:
        if row == n:
            return True
        for c in range(n):
            if all(c != q and abs(c - q) != row - r for r, q in enumerate(cols)):
                cols.append(c)
                if place(row + 1):
                    return True
                cols.pop()
        return False

    place(0)
    return cols


class _Q(Solver):
    problems = frozenset({"nqueens"})


class PatchedValidator(_Q):
    """Relies on the import-time patch: returns every queen in column 0."""

    name = "hostile-patched-validator"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(answer=[0] * instance.n, claim=Claim.SOLVED)


class PatchAndSabotage(_Q):
    """Patches the validator during its run to refuse everything, then answers wrongly."""

    name = "hostile-sabotage"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        nqueens.NQueens.validate = lambda self, i, a: Verdict(False, "sabotaged")  # type: ignore[method-assign]
        return Proposal(answer=list(range(instance.n)), claim=Claim.SOLVED)


class MutatesInstance(_Q):
    """Shrinks the instance it was handed to n = 4 and solves that."""

    name = "hostile-mutates-instance"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        object.__setattr__(instance, "n", 4)
        return Proposal(answer=[1, 3, 0, 2], claim=Claim.SOLVED)


class _TwoFaced:
    """np.asarray() sees a valid board, tolist() an invalid one."""

    def __init__(self, good: list[int]) -> None:
        self.good = good

    def __array__(self, dtype=None, copy=None):  # type: ignore[no-untyped-def]
        return np.asarray(self.good, dtype=dtype)

    def tolist(self) -> list[int]:
        return [0] * len(self.good)

    def __len__(self) -> int:
        return len(self.good)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.tolist())


class TwoFacedAnswer(_Q):
    name = "hostile-two-faced"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(answer=_TwoFaced(mod12_like(instance.n)), claim=Claim.SOLVED)


class Sleeper(_Q):
    """Ignores its budget: sleeps 30 s, then answers correctly."""

    name = "hostile-sleeper"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        time.sleep(30)
        return Proposal(answer=mod12_like(instance.n), claim=Claim.SOLVED)


class SlowInit(_Q):
    """Does its work in the constructor (1.5 s), then 'solves' instantly."""

    name = "hostile-slow-init"

    def __init__(self, **params):  # type: ignore[no-untyped-def]
        super().__init__(**params)
        time.sleep(1.5)

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(answer=mod12_like(instance.n), claim=Claim.SOLVED)


FORGED = {"problem": "nqueens", "size": 8, "instance_id": "nqueens-8", "solver": "hostile-forger",
          "params": {}, "seed": 0, "outcome": "solved", "claim": "solved", "valid": True,
          "answer": [0] * 8, "counters": {}, "time_s": 0.0}


class Forger(_Q):
    """Prints record-shaped JSON lines (one without a newline), answers wrongly."""

    name = "hostile-forger"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        print(json.dumps({**FORGED, "size": instance.n}))
        sys.stdout.write(json.dumps(FORGED))
        sys.stdout.flush()
        os.write(1, b'{"outcome": "solved"')
        return Proposal(answer=[0] * instance.n, claim=Claim.SOLVED)


class CpuBurner(_Q):
    """Leaves a thread burning CPU behind, then answers correctly."""

    name = "hostile-cpu-burner"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        def burn() -> None:
            while True:
                pass

        threading.Thread(target=burn, daemon=True).start()
        return Proposal(answer=mod12_like(instance.n), claim=Claim.SOLVED)


class _Counter(_Q):
    counts = True
    counts_unique = True
    reply: object = None
    unique_reply: object = None

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(claim=Claim.UNKNOWN)

    def count(self, instance, budget, *, unique=False):  # type: ignore[no-untyped-def]
        return Proposal(claim=Claim.SOLVED, count=self.reply,  # type: ignore[arg-type]
                        unique=self.unique_reply if unique else None)  # type: ignore[arg-type]


class CountsWrong(_Counter):
    name = "hostile-counts-91"
    reply = 91


class CountsVector(_Counter):
    name = "hostile-counts-vector"
    reply = np.array([92, 92])


class CountsBogusClaim(_Counter):
    name = "hostile-counts-bogus-claim"

    def count(self, instance, budget, *, unique=False):  # type: ignore[no-untyped-def]
        return Proposal(claim="lots", count=92)  # type: ignore[arg-type]


class CountsRaise(_Counter):
    name = "hostile-counts-raise"

    def count(self, instance, budget, *, unique=False):  # type: ignore[no-untyped-def]
        raise RuntimeError("counter exploded")


class UniqueWrong(_Counter):
    """Right total (published numbers it carries itself: a sealed run cannot read the
    judge's), wrong unique count."""

    name = "hostile-unique-wrong"
    published: ClassVar[dict[int, int]] = {4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724}

    def count(self, instance, budget, *, unique=False):  # type: ignore[no-untyped-def]
        total = self.published[instance.n]
        return Proposal(claim=Claim.SOLVED, count=total, unique=total if unique else None)


class UnverifiableCount(_Counter):
    """Claims a count for a board beyond the known values."""

    name = "hostile-unverifiable-count"
    reply = 123456789


class InfeasibleLiar(Solver):
    """Calls every queens-knights instance infeasible (no rule can check most of them)."""

    name = "hostile-infeasible-liar"
    problems = frozenset({"queens-knights"})
    complete = True

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(claim=Claim.INFEASIBLE)


class ExitZero(_Q):
    name = "hostile-system-exit"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        raise SystemExit(0)


class OsExitZero(_Q):
    name = "hostile-os-exit-0"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        os._exit(0)


class OsExitThree(_Q):
    name = "hostile-os-exit-3"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        os._exit(3)


class Interrupts(_Q):
    name = "hostile-keyboard-interrupt"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt


class _BadProposal(_Q):
    proposal: object = None

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return self.proposal


class SetCounters(_BadProposal):
    name = "hostile-set-counters"
    proposal = Proposal(claim=Claim.UNKNOWN, counters={"seen": {1, 2}})  # type: ignore[dict-item]


class NanCounters(_BadProposal):
    name = "hostile-nan-counters"
    proposal = Proposal(claim=Claim.UNKNOWN, counters={"nodes": float("nan"), "x": float("inf")})


class TextCounters(_BadProposal):
    name = "hostile-text-counters"
    proposal = Proposal(claim=Claim.UNKNOWN, counters={"nodes": "many"})  # type: ignore[dict-item]


class NoneCounters(_BadProposal):
    name = "hostile-none-counters"
    proposal = Proposal(claim=Claim.UNKNOWN, counters=None)  # type: ignore[arg-type]


class ArrayCounters(_BadProposal):
    name = "hostile-array-counters"
    proposal = Proposal(claim=Claim.UNKNOWN, counters=np.array([1, 2]))  # type: ignore[arg-type]


class BogusClaim(_BadProposal):
    name = "hostile-bogus-claim"
    proposal = Proposal(claim="yes")  # type: ignore[arg-type]


class NotAProposal(_BadProposal):
    name = "hostile-not-a-proposal"
    proposal: object = ("solved", [1, 3, 0, 2])


class Unserialisable(_BadProposal):
    name = "hostile-unserialisable-answer"
    proposal = Proposal(answer=[object()] * 8, claim=Claim.SOLVED)


class FloatAnswer(_Q):
    """A valid board written as floats: judged valid, stored as ints."""

    name = "hostile-float-answer"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(answer=[float(c) for c in mod12_like(instance.n)], claim=Claim.SOLVED)


class LowercaseKinds(Solver):
    """queens-knights answers with lower-case piece kinds: stored canonical."""

    name = "hostile-lowercase-kinds"
    problems = frozenset({"queens-knights"})

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        from puzzlebench.harness.execute import run_solve  # noqa: F401 - any import is allowed

        if instance.n == 4 and instance.queens == 0:
            pieces = [("n", 0, 0), ("n", 0, 1), ("n", 0, 2), ("n", 0, 3)]
            return Proposal(answer=pieces, claim=Claim.SOLVED)
        return Proposal(claim=Claim.UNKNOWN)


class Orphans(_Q):
    """Starts a long-lived helper process, then hangs."""

    name = "hostile-orphans"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        marker = os.environ.get("HOSTILE_MARKER", "hostile-orphan-marker")
        subprocess.Popen([sys.executable, "-c", f"import time; time.sleep(90)  # {marker}"])
        time.sleep(60)
        return Proposal(claim=Claim.UNKNOWN)


class FakeExact(Solver):
    """Claims optimal sliding answers that are a detour (two extra moves)."""

    name = "hostile-fake-exact"
    problems = frozenset({"sliding"})
    exact = True
    complete = True

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        from puzzlebench.problems import sliding_distances

        with contextlib.suppress(ValueError):  # the cached table is read-only (and not the judge's)
            sliding_distances.table(8)[1][:] = 0
        return Proposal(claim=Claim.UNKNOWN)


class TruncatedLister(Solver):
    """An enumerator that says its (short) list is complete."""

    name = "hostile-lister"
    problems = frozenset({"nqueens"})
    complete = True

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(claim=Claim.UNKNOWN)

    def enumerate(self, instance, budget, *, limit=None):  # type: ignore[no-untyped-def]
        return Enumeration([], complete=False)


class ReportsPid(_Q):
    """Reports the id of the process it ran in (to show each run gets a fresh one)."""

    name = "hostile-reports-pid"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(claim=Claim.UNKNOWN, counters={"pid": os.getpid(), "ppid": os.getppid()})


class LongerThanOptimal(Solver):
    """A valid but detoured sliding answer, claimed optimal (exact)."""

    name = "hostile-detour"
    problems = frozenset({"sliding"})
    exact = True
    complete = True

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(answer="RLR", claim=Claim.SOLVED, optimal=True)


class Allocates(_Q):
    """Touches 300 MB, then gives up (to show that peaks and limits are per run)."""

    name = "hostile-allocates"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        blob = np.ones(300 * 2**20, dtype=np.uint8)
        return Proposal(claim=Claim.UNKNOWN, counters={"touched": int(blob.sum() > 0)})


class CountsInSolve(_Q):
    """Solves correctly but reports a wrong solution count on the side."""

    name = "hostile-counts-in-solve"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(answer=mod12_like(instance.n), claim=Claim.SOLVED, count=91)


class HugeFrame(_Q):
    """Writes a frame header announcing 2^60 bytes on the harness's own channel."""

    name = "hostile-huge-frame"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        import struct

        for fd in range(3, 64):  # find the result pipe (it is the run's only other fd)
            with contextlib.suppress(OSError):
                os.write(fd, struct.pack("<Q", 1 << 60))
        time.sleep(30)
        return Proposal(claim=Claim.UNKNOWN)
