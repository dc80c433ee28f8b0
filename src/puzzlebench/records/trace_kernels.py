# mypy: disable-error-code="no-untyped-def"
"""Anytime traces from compiled code: :func:`trace_point` records an improvement into the
preallocated arrays of :func:`puzzlebench.records.trace.buffers`, stamped with the compiled clock, and
a kernel hands them over with :meth:`puzzlebench.records.trace.Trace.extend`.

Kept apart from ``puzzlebench.records.trace`` (the pure-Python sink) so that a pure-Python solver's
process never loads numba for its trace: a one-shot ``solve`` of such a solver then starts a
fork server without numba (about 0.5 s of start-up saved). The thinning is
:func:`puzzlebench.records.trace.thin`, compiled here: one rule for both sides.
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlebench.records.trace import thin as thin_points
from puzzlebench.solvers.compiled_clock import now

__all__ = ["thin", "trace_point"]

#: :func:`puzzlebench.records.trace.thin`, compiled.
thin = numba.njit(cache=True)(thin_points)


@numba.njit(cache=True)
def trace_point(evals: np.ndarray, best: np.ndarray, stamps: np.ndarray, count: int,
                evaluations: int, value: int) -> int:
    """Record an improvement from compiled code; returns the new point count (buffers of
    length 0 turn tracing off)."""
    if evals.shape[0] == 0 or (count > 0 and value >= best[count - 1]):
        return count
    if count == evals.shape[0]:
        count = thin(evals, best, stamps, count)
    evals[count] = evaluations
    best[count] = value
    stamps[count] = now()
    return count + 1
