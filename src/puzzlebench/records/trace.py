# mypy: disable-error-code="assignment,index,arg-type,no-untyped-def"
"""Anytime traces: each improvement of a run's best objective, with the effort spent so far.

A solver that declares ``traces = True`` receives a :class:`Trace` as the keyword argument
``trace`` of ``solve`` and calls ``trace.improve(evaluations, best)`` whenever its best
objective improves; the sink stamps the wall time itself (seconds since the timed phase began).
The objective is the problem's own conflict count: attacking pairs for the queens problems
(``Problem.conflicts``), pieces in conflict for queens-and-knights
(``QueensKnights.pieces_in_conflict``, seed 004's heuristic), so curves of different solvers on
one instance are comparable. What one *evaluation* is stays the solver's to say
(docs/reference/solvers.md lists it per solver).

Compiled kernels record into preallocated arrays with ``trace_point`` (improvement-only,
stamped with the compiled clock; in ``puzzlebench.records.trace_kernels``, so that this module never
loads numba) and hand them over with :meth:`Trace.extend`. A trace holds at
most ``cap`` points: when a run improves more often, the points are thinned to log-spaced
evaluation counts (buckets made coarser until half the cap is free): the first point, then the
last point of each bucket — the best reached within it — so the last point is always kept.

The harness checks a trace before storing it (non-decreasing effort and time, strictly
decreasing best, a best of 0 only for a run whose answer the judge accepted, and a verified
solution ending at 0) and drops one that fails, saying why in the record's notes.
"""

from __future__ import annotations

import math
import time

import numpy as np

from puzzlebench.records.trace_points import CAP, check_points

__all__ = ["CAP", "Trace", "buffers", "check_points", "thin"]


def thin(evals: np.ndarray, best: np.ndarray, stamps: np.ndarray, count: int) -> int:
    """Keep log-spaced points (by evaluations) in place until at most half the buffer is used:
    the first point, then the last improvement of each bucket (the best reached within it).
    Plain Python here (the rare thinning of a pure-Python solver's trace); compiled as
    ``trace_kernels.thin`` for kernels."""
    cap = evals.shape[0]
    per_octave = 64.0
    while count > cap // 2 and per_octave >= 1.0 / 64:
        kept = 1
        for i in range(1, count):
            bucket = math.floor(math.log2(evals[i] + 1.0) * per_octave)
            last = i == count - 1 or math.floor(math.log2(evals[i + 1] + 1.0) * per_octave) != bucket
            if last:
                evals[kept], best[kept], stamps[kept] = evals[i], best[i], stamps[i]
                kept += 1
        count = kept
        per_octave /= 2.0
    return count


def buffers(cap: int = CAP) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Empty arrays for a compiled kernel's trace: evaluations, best, clock stamps."""
    return np.zeros(cap, np.int64), np.zeros(cap, np.int64), np.zeros(cap, np.float64)


class Trace:
    """The sink a tracing solver reports its improvements to."""

    def __init__(self, cap: int = CAP) -> None:
        self.start = time.perf_counter()
        self._evals, self._best, self._stamps = buffers(max(4, cap))
        self._count = 0

    def improve(self, evaluations: int, best: int) -> None:
        """The best objective is now ``best`` after ``evaluations`` (ignored if no better)."""
        now = time.perf_counter()  # the compiled clock's reading too
        self._add(int(evaluations), int(best), now, now)

    def extend(self, evaluations: np.ndarray, best: np.ndarray, stamps: np.ndarray, count: int) -> None:
        """Points a compiled kernel recorded (stamps from the compiled clock, kept within
        [previous stamp, now]: a kernel cannot date an improvement before or after its time)."""
        latest = time.perf_counter()
        for i in range(int(count)):
            self._add(evaluations[i], best[i], float(stamps[i]), latest)

    def _add(self, evaluations: int, best: int, stamp: float, latest: float) -> None:
        """One point, if it improves: thinned first when the buffer is full, its stamp kept
        within [previous stamp, ``latest``]."""
        if self._count and best >= self._best[self._count - 1]:
            return
        if self._count == self._evals.shape[0]:
            self._count = thin(self._evals, self._best, self._stamps, self._count)
        floor = self._stamps[self._count - 1] if self._count else self.start
        self._evals[self._count] = evaluations
        self._best[self._count] = best
        self._stamps[self._count] = min(max(stamp, floor), latest)
        self._count += 1

    def __len__(self) -> int:
        return self._count

    def points(self) -> list[list[float]]:
        """``[evaluations, best, seconds since the start]`` per point, as plain data."""
        return [[int(self._evals[i]), int(self._best[i]), max(0.0, float(self._stamps[i]) - self.start)]
                for i in range(self._count)]
