"""What a stored anytime trace must be: its size cap and the harness's check of it.

Kept apart from ``puzzlebench.records.trace`` (the solver side, compiled with numba) so that the
judge's process checks a trace without loading numba (a one-shot command's start-up time).
"""

from __future__ import annotations

import math

#: Most points a trace holds (``Trace`` thins to stay within it).
CAP = 2048


def check_points(points: object, solved: bool, wall_s: float | None = None,
                 evaluations: object = None) -> str:
    """Why a trace cannot be stored ('' when it can): the harness's check of the solver's data.
    ``wall_s`` is the run's time as the harness measured it (no point may come later);
    ``evaluations`` the run's own count of them, when it reports one (no point may claim
    more)."""
    if not isinstance(points, list):
        return "a trace is a list of [evaluations, best, seconds]"
    if len(points) > CAP:
        return f"a trace holds at most {CAP} points, got {len(points)}"
    prev_e, prev_b, prev_t = -1, None, -1.0
    for p in points:
        if not (isinstance(p, list) and len(p) == 3
                and all(type(v) is int and 0 <= v < 2**63 for v in p[:2])
                and type(p[2]) in (int, float) and math.isfinite(p[2])):
            return "a trace point is [evaluations, best, seconds]: two integers in [0, 2^63) and a time"
        e, b, t = p
        if wall_s is not None and t > wall_s + 1.0:
            return f"a trace point at {t:.3f} s comes after the run ended ({wall_s:.3f} s)"
        if e < prev_e or t < prev_t or e < 0 or b < 0 or t < 0 or (prev_b is not None and b >= prev_b):
            return "trace points must improve the best (strictly) at non-decreasing effort and time"
        prev_e, prev_b, prev_t = e, b, t
    if (type(evaluations) is int and points and isinstance(points[-1], list)
            and points[-1][0] > evaluations):
        return (f"a trace point claims {points[-1][0]} evaluations, more than the run's own "
                f"count of {evaluations}")
    if prev_b == 0 and not solved:
        return "the trace reaches 0 conflicts but the run has no accepted answer"
    if solved and points and prev_b != 0:
        return "the run was solved but its trace does not end at 0 conflicts"
    return ""
