"""What bounds a run's untimed warm-up: a cut when its share of the time limit is spent, and
a count of numba's compilations, so that a round that compiled nothing is not repeated.

The warm-up (``harness.child.warm_up``) runs the solver on a small instance, round after
round, while a round runs out of its time: a lazily compiled solver compiles one kernel per
round. Two things ended that loop before: a round that finishes in time, or six rounds. A
pure-Python search that cannot finish the warm-up instance in its round (A* with a weak
heuristic on 8-queens) then spent six rounds, 3 s, warming nothing, on every run. Now a round
that ran out of time but compiled (or loaded) no numba kernel ends the warm-up too: another
round would meet the same code again. And the whole warm-up is cut when the run's share of
the time limit before its timed phase is spent (``harness.measure.pre_go_allowance``): the
cut is a signal (SIGALRM) that raises :class:`WarmupCut` in the solver's code, so a warm-up
round that sleeps or loops in Python stops there. A cut that finds numba compiling waits for
the compiler to finish (a kernel cut half-way would only be compiled again in the timed
phase: on a cold cache a run would then spend its limit compiling); a call into native code
that does not return (a C extension) runs on until it does.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

#: How often a cut that found numba compiling looks again: the cut waits for the compiler.
COMPILE_GRACE_S = 0.02


def _compiling() -> bool:
    """Whether this thread is inside numba's compiler (it holds numba's compiler lock)."""
    if "numba" not in sys.modules:
        return False
    # imported on use: numba is loaded already (checked above); never loaded for this
    from numba.core.compiler_lock import global_compiler_lock

    return bool(global_compiler_lock.is_locked())


class WarmupCut(BaseException):
    """Raised in the warm-up when its time is spent (a BaseException: a solver's own ``except
    Exception`` does not swallow it)."""


@contextlib.contextmanager
def cut_at(deadline: float | None) -> Iterator[None]:
    """Raise :class:`WarmupCut` in this (main) thread at ``deadline`` (``time.monotonic``;
    None: never); the timer and handler are undone on leaving."""
    if deadline is None or threading.current_thread() is not threading.main_thread():
        yield  # a signal reaches the main thread only: an in-process run elsewhere is not cut
        return

    def cut(_signum: int, _frame: Any) -> None:
        if _compiling():  # a kernel half compiled would be compiled again in the timed phase
            signal.setitimer(signal.ITIMER_REAL, COMPILE_GRACE_S)
            return
        raise WarmupCut

    previous = signal.signal(signal.SIGALRM, cut)
    try:
        signal.setitimer(signal.ITIMER_REAL, max(1e-3, deadline - time.monotonic()))
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


_count = [0]
_listening = False


def compilations() -> int:
    """Kernels numba has compiled or loaded in this process since it was first asked, plus
    one once numba is loaded at all (0 while it is not: nothing can have compiled), so a
    round that loaded numba for the first time counts as one that compiled."""
    global _listening
    if "numba" not in sys.modules:  # never load numba to count what it did not do
        return 0
    if not _listening:
        # imported on use: only in a run whose solver has loaded numba already
        from numba.core import event

        class Counter(event.Listener):
            def on_start(self, _event: Any) -> None:
                _count[0] += 1

            def on_end(self, _event: Any) -> None:
                pass

        event.register("numba:compile", Counter())
        _listening = True
    return 1 + _count[0]
