"""ERT in the common unit does not depend on a solver's internal step size (issue 27 §4).

Two solvers make the same min-conflicts search — the same random draws, the same moves — but
step differently: ``min-conflicts`` scores a row's n candidate squares in one vectorised step
(a repair), the scalar re-implementation below scores one candidate square per step, counting
each one. In the common unit (candidate states whose conflict count was computed) their traces
and their ERTs per target must come out equal; in repairs they would differ by a factor n."""

from __future__ import annotations

import numpy as np
import pytest

from puzzlebench.contract import Budget
from puzzlebench.local.min_conflicts import MinConflicts
from puzzlebench.problems import get_problem
from puzzlebench.records.trace import Trace
from puzzlebench.report.statistics.anytime_statistics import RunTrace, ert_table


def _attacks(r1: int, c1: int, r2: int, c2: int) -> bool:
    return c1 == c2 or abs(r1 - r2) == abs(c1 - c2)


def _pairs(cols: list[int]) -> int:
    n = len(cols)
    return sum(_attacks(i, cols[i], j, cols[j]) for i in range(n) for j in range(i + 1, n))


def scalar_min_conflicts(n: int, rng: np.random.Generator, restart_after: int,
                         max_evaluations: int, trace: Trace) -> tuple[bool, int, int]:
    """Min-conflicts one candidate square at a time (plain n-queens, the row neighbourhood):
    (solved, evaluations, repairs)."""
    cols = [int(c) for c in rng.integers(0, n, size=n)]
    evaluations, repairs, since = 1, 0, 0
    while True:
        bad = [r for r in range(n)
               if any(_attacks(r, cols[r], j, cols[j]) for j in range(n) if j != r)]
        trace.improve(evaluations, _pairs(cols))
        if not bad:
            return True, evaluations, repairs
        if evaluations >= max_evaluations:
            return False, evaluations, repairs
        if since >= restart_after:
            cols = [int(c) for c in rng.integers(0, n, size=n)]
            evaluations, since = evaluations + 1, 0
            continue
        r = bad[int(rng.integers(len(bad)))]
        scores = []
        for c in range(n):  # one step per candidate
            evaluations += 1
            scores.append(sum(_attacks(r, c, j, cols[j]) for j in range(n) if j != r))
        best = [c for c in range(n) if scores[c] == min(scores)]
        cols[r] = best[int(rng.integers(len(best)))]
        repairs, since = repairs + 1, since + 1


def _run(points: list[list[float]], total: int) -> RunTrace:
    e = np.array([p[0] for p in points], float)
    return RunTrace("x", e, np.array([p[1] for p in points], float), e / 1e6, total, total / 1e6)


@pytest.mark.parametrize("n", [8, 11])
def test_ert_in_the_common_unit_ignores_the_step_size(n: int) -> None:
    cap, restart_after = 60 * n, 12
    vector, scalar, vector_repairs = [], [], []
    for seed in range(8):
        t1, t2 = Trace(), Trace()
        p = MinConflicts(restart_after=restart_after).solve(
            get_problem("nqueens").make(n), Budget(max_evaluations=cap),
            np.random.default_rng(seed), trace=t1)
        solved, evaluations, repairs = scalar_min_conflicts(
            n, np.random.default_rng(seed), restart_after, cap, t2)
        assert (p.claim == "solved", p.counters["evaluations"], p.counters["repairs"]) == (
            solved, evaluations, repairs)
        assert [q[:2] for q in t1.points()] == [q[:2] for q in t2.points()]
        vector.append(_run(t1.points(), p.counters["evaluations"]))
        scalar.append(_run(t2.points(), evaluations))
        vector_repairs.append(p.counters["repairs"])
    targets = sorted({int(b) for r in vector for b in r.best}, reverse=True)
    a, b = ert_table(vector, targets), ert_table(scalar, targets)
    assert 0 < a["hits"].iloc[-1] < len(vector)  # target 0: some runs solve, some stop at the cap
    assert a["ERT evaluations"].tolist() == b["ERT evaluations"].tolist()
    # The old unit (one per repair) would have put this search about n times lower.
    assert sum(r.total_evals for r in vector) >= n * sum(vector_repairs)
