"""Plugins that compile lazily, as a numba solver does on a cold cache (test_warmup_rounds.py).

Loaded by file reference, as a user's plugin. Each declares ``compiled`` so that the harness
warms it; the first calls of a process are slow ("compiling a kernel") and run out of time.
"""

from __future__ import annotations

import time

from puzzlebench.contract import Claim, Proposal, Solver
from puzzlebench_baselines.mod12 import mod12_columns

COMPILE_S = 0.6  # each "kernel" costs more than the warm-up's 0.5 s time limit


def _compile_a_kernel() -> None:
    """A real numba compilation (the harness counts numba's compile events to tell a round
    that compiled from one that only ran out of time)."""
    import numba  # imported on use: a plugin's kernel, compiled when met

    @numba.njit
    def kernel(x: int) -> int:
        return x + 1

    kernel(1)


class _Lazy(Solver):
    problems = frozenset({"nqueens"})
    compiled = True
    kernels = 0  # how many of its kernels stay to compile in this process
    calls = 0
    # the calls this process has made so far, warm-up rounds included: the test counts the
    # rounds from it rather than from the time they took (a busy machine stretches the time)
    counter_names = frozenset({"calls"})

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        cls = type(self)
        cls.calls += 1
        if cls.calls <= cls.kernels:  # one more kernel met, compiled, and the time is gone
            _compile_a_kernel()
            time.sleep(COMPILE_S)
            return Proposal(answer=None, claim=Claim.UNKNOWN, stopped_by="time_limit",
                            counters={"calls": cls.calls})
        return Proposal(answer=[int(c) for c in mod12_columns(instance.n)],
                        claim=Claim.SOLVED, counters={"calls": cls.calls})


class TwoKernels(_Lazy):
    """Its start kernel compiles on the first call, its search kernel on the second."""

    name = "lazy-two-kernels"
    kernels = 2


class NeverWarm(_Lazy):
    """Slow on every call: its warm-up never ends within its time."""

    name = "lazy-never-warm"
    kernels = 10**9
