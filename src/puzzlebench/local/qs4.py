# mypy: disable-error-code="assignment,index,arg-type,no-untyped-def"
"""Conflict-minimising permutation search in the spirit of Sosic & Gu's QS4 (1994), for
nqueens and torus-queens at very large n (``qs4``).

1. A mostly conflict-free random permutation: the columns are shuffled, then for rows
   0..n−c−1 the remaining columns are scanned cyclically (resuming where the last row's scan
   stopped) for one with no diagonal collision with the rows above, which is swapped in (a
   bounded number of tries in all); the last c rows keep the shuffled columns. Scanning a
   shuffled remainder draws candidates as randomly as Sosic & Gu's random picks but reads
   memory in order.
2. Repair: every queen on a collided diagonal is swapped with a random other queen whenever the
   swap lowers the total number of diagonal collisions; passes repeat until none is left. Only
   rows known to be collided are visited (a work list), so a pass costs O(collided rows), not
   O(n) — random memory access over 10^7 rows is what would otherwise dominate.
   When 20 passes bring no improvement (a local minimum, common on the torus), every collided
   queen is swapped with a random one (a kick), at most ``max_kicks`` times.

Compiled with numba; memory is O(n) in int32 arrays (columns and the two diagonal counts),
so 10^8 queens fit in a few GiB. Random draws come from a splitmix64 state seeded by the run's
generator. Counters: ``swaps`` (accepted), ``tries`` (swaps evaluated; ``iterations``, which
``max_iterations`` caps), ``passes``, ``kicks``, ``initial_collisions``, ``placement_tries``
(columns tested by the start placement) and ``evaluations`` in the common unit
(``contract.EFFORT_UNIT``): each column the placement tests for a collision, the start's full
count, each swap tried (an exact delta) and each full recount after a kick is one.
A step of the framework (``puzzlebench.solvers.iterative``) is one pass, a compiled call: the framework
checks the caps before each pass and hands the kernel the caps (``max_iterations`` on tries,
``max_evaluations``, the deadline), which it checks after each row's tries (at most 64);
``max_evaluations`` also bounds the placement. Running out of ``max_kicks`` ends a run with
``stopped_by = "param:max_kicks"``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numba
import numpy as np

from puzzlebench.local.compiled_random import below, new_state
from puzzlebench.records.trace_kernels import trace_point
from puzzlebench.solvers.compiled_clock import now
from puzzlebench.solvers.contract import Param
from puzzlebench.solvers.iterative import Caps, IterativeSolver, KernelPoints, Run
from puzzlebench.solvers.queens_keys import diagonal_lines
from puzzlebench.solvers.queens_keys_jit import diagonal_keys_jit, shares_both_diagonals_jit
from puzzlebench.solvers.registry import register


@numba.njit(cache=True, inline="always")
def cost(k):  # collisions contributed by a diagonal holding k queens
    return k - 1 if k > 1 else 0


@numba.njit(cache=True)
def _family_delta(d, o1, o2, n1, n2):
    """Exact collision change in one diagonal family when queens leave o1, o2 and enter n1, n2."""
    before = cost(d[o1]) + (cost(d[o2]) if o2 != o1 else 0)
    if n1 != o1 and n1 != o2:
        before += cost(d[n1])
    if n2 != o1 and n2 != o2 and n2 != n1:
        before += cost(d[n2])
    d[o1] -= 1
    d[o2] -= 1
    d[n1] += 1
    d[n2] += 1
    after = cost(d[o1]) + (cost(d[o2]) if o2 != o1 else 0)
    if n1 != o1 and n1 != o2:
        after += cost(d[n1])
    if n2 != o1 and n2 != o2 and n2 != n1:
        after += cost(d[n2])
    d[n1] -= 1
    d[n2] -= 1
    d[o1] += 1
    d[o2] += 1
    return after - before


@numba.njit(cache=True, inline="always")
def _antipodal(cols, r, n):
    """1 when the queens of rows r and r + n/2 (an even torus, r < n/2) share both diagonals —
    the only way two queens of a permutation can — so the per-diagonal count holds them twice."""
    h = n // 2
    return 1 if cols[r + h] == (cols[r] + h) % n else 0


@numba.njit(cache=True)
def _collided_rows(cols, d1, d2, n, torus, out):
    """Write the rows whose queen shares a diagonal into ``out``; return how many."""
    m = 0
    for i in range(n):
        a, b = diagonal_keys_jit(i, cols[i], n, torus)
        if d1[a] > 1 or d2[b] > 1:
            out[m] = i
            m += 1
    return m


@numba.njit(cache=True, inline="always")
def _shuffle(cols, state, n):
    """Fisher–Yates: independent iterations, so memory loads overlap."""
    for i in range(n - 1, 0, -1):
        j = below(state, i + 1)
        cols[i], cols[j] = cols[j], cols[i]


@numba.njit(cache=True, inline="always")
def _place_greedily(cols, d1, d2, n, torus, limit, allowance):
    """Sosic & Gu's start: rows 0..limit−1 each take the first column, scanning the shuffled
    remainder cyclically, free of diagonal collisions (every candidate a fresh random column,
    read in memory order); the last rows stay as the shuffle put them. At most ``allowance``
    columns are tested (rows after that keep the column the scan stopped at); returns how
    many were."""
    budget_tries = min(4 * n + 100, allowance)  # the expected need is about n(e^2 - 1)/2 ≈ 3.2n
    allowed = budget_tries
    p = 0  # where the scan resumes: candidates rejected by earlier rows are tried last
    for i in range(limit):
        j = p if i < p < n else i
        while budget_tries > 0:
            budget_tries -= 1
            a, b = diagonal_keys_jit(i, cols[j], n, torus)
            if d1[a] == 0 and d2[b] == 0:
                break
            j = j + 1 if j + 1 < n else i
        cols[i], cols[j] = cols[j], cols[i]
        p = j + 1
        a, b = diagonal_keys_jit(i, cols[i], n, torus)
        d1[a] += 1
        d2[b] += 1
    for i in range(limit, n):
        a, b = diagonal_keys_jit(i, cols[i], n, torus)
        d1[a] += 1
        d2[b] += 1
    return allowed - budget_tries


@numba.njit(cache=True, inline="always")
def _collisions(cols, d1, d2, n, even_torus):
    """(collisions, attacking pairs) from the diagonal counts: collisions Σ(k − 1) are what the
    search minimises; pairs Σ k(k − 1)/2, less those sharing both diagonals of an even torus,
    are the traced objective."""
    total = 0
    pairs = 0
    for k in range(d1.size):
        total += cost(d1[k]) + cost(d2[k])
        pairs += d1[k] * (d1[k] - 1) // 2 + d2[k] * (d2[k] - 1) // 2
    both = 0
    if even_torus:
        for r in range(n // 2):
            both += _antipodal(cols, r, n)
    return total, pairs, both


@numba.njit(cache=True, inline="always")
def _swap_counts(d1, d2, a, aj, b, bj, na, ma, nb, mb):
    """Move the two queens' diagonal counts from (a, b), (aj, bj) to (na, nb), (ma, mb);
    returns the exact change in attacking pairs."""
    change = 0
    d1[a] -= 1
    change -= d1[a]
    d1[aj] -= 1
    change -= d1[aj]
    d2[b] -= 1
    change -= d2[b]
    d2[bj] -= 1
    change -= d2[bj]
    change += d1[na]
    d1[na] += 1
    change += d1[ma]
    d1[ma] += 1
    change += d2[nb]
    d2[nb] += 1
    change += d2[mb]
    d2[mb] += 1
    return change


@numba.njit(cache=True, inline="always")
def _antipodal_pair(cols, i, j, n):
    """Pairs sharing both diagonals among the antipodal rows of i and j (even torus)."""
    h = n // 2
    out = _antipodal(cols, i % h, n)
    if j % h != i % h:
        out += _antipodal(cols, j % h, n)
    return out


@numba.njit(cache=True, inline="always")
def _kick(cols, d1, d2, n, torus, state):
    """Escape a local minimum: swap every collided queen with a random row."""
    for i in range(n):
        a, b = diagonal_keys_jit(i, cols[i], n, torus)
        if d1[a] <= 1 and d2[b] <= 1:
            continue
        j = below(state, n)
        aj, bj = diagonal_keys_jit(j, cols[j], n, torus)
        d1[a] -= 1
        d2[b] -= 1
        d1[aj] -= 1
        d2[bj] -= 1
        cols[i], cols[j] = cols[j], cols[i]
        a, b = diagonal_keys_jit(i, cols[i], n, torus)
        aj, bj = diagonal_keys_jit(j, cols[j], n, torus)
        d1[a] += 1
        d2[b] += 1
        d1[aj] += 1
        d2[bj] += 1


# The kernel's scalars between passes (``sc``, int64).
(TOTAL, PAIRS, BOTH, SWAPS, TRIES, PASSES, STALLED, KICKS, EVALS, PLACED, INITIAL, TN,
 COUNT) = range(13)
#: What a pass reports: go on; stopped inside a pass (caps or clock, the run is over); the
#: clock ran out after the pass; ``max_kicks`` spent at a local minimum.
GO_ON, STOPPED, CLOCK, NO_KICKS = range(4)


@numba.njit(cache=True)
def start_kernel(n, torus, c_tail, state, max_evals, tr_e, tr_b, tr_t, cols, d1, d2, work, sc):
    """The start: shuffle, greedy placement (bounded by the evaluation cap), full count."""
    _shuffle(cols, state, n)
    allowance = 4 * n + 100 if max_evals < 0 else max(max_evals - 1, 0)
    placed = _place_greedily(cols, d1, d2, n, torus, n - c_tail if n > c_tail else 0, allowance)
    total, pairs, both = _collisions(cols, d1, d2, n, shares_both_diagonals_jit(n, torus))
    sc[EVALS] = placed + 1  # the columns tested, then the start's full count
    sc[PLACED] = placed
    sc[TOTAL], sc[INITIAL], sc[PAIRS], sc[BOTH] = total, total, pairs, both
    sc[TN] = trace_point(tr_e, tr_b, tr_t, 0, sc[EVALS], pairs - both)
    sc[COUNT] = _collided_rows(cols, d1, d2, n, torus, work)


@numba.njit(cache=True)
def pass_kernel(n, torus, state, deadline, max_tries, max_kicks, max_evals, tr_e, tr_b, tr_t,
                cols, d1, d2, work, nxt, sc):
    """One pass over the collided rows (the framework's step), then a kick at a local minimum;
    the caps handed in (absolute tries and evaluations, the deadline) are checked after each
    row's tries. Returns GO_ON, STOPPED, CLOCK or NO_KICKS; rows for the next pass are in
    ``nxt`` unless STOPPED."""
    even_torus = shares_both_diagonals_jit(n, torus)
    total, pairs, both = sc[TOTAL], sc[PAIRS], sc[BOTH]
    swaps, tries, evals, tn, count = sc[SWAPS], sc[TRIES], sc[EVALS], sc[TN], sc[COUNT]
    sc[PASSES] += 1
    improved = False
    m = 0
    status = GO_ON
    for idx in range(count):
        i = work[idx]
        a, b = diagonal_keys_jit(i, cols[i], n, torus)
        if d1[a] <= 1 and d2[b] <= 1:
            continue
        moved = False
        for _ in range(64):
            j = below(state, n)
            if j == i:
                continue
            tries += 1
            evals += 1
            aj, bj = diagonal_keys_jit(j, cols[j], n, torus)
            na, nb = diagonal_keys_jit(i, cols[j], n, torus)
            ma, mb = diagonal_keys_jit(j, cols[i], n, torus)
            delta = _family_delta(d1, a, aj, na, ma) + _family_delta(d2, b, bj, nb, mb)
            if delta < 0:  # each step below also moves the pair count exactly
                if even_torus:
                    both -= _antipodal_pair(cols, i, j, n)
                pairs += _swap_counts(d1, d2, a, aj, b, bj, na, ma, nb, mb)
                cols[i], cols[j] = cols[j], cols[i]
                if even_torus:
                    both += _antipodal_pair(cols, i, j, n)
                total += delta
                swaps += 1
                tn = trace_point(tr_e, tr_b, tr_t, tn, evals, pairs - both)
                improved = moved = True
                if (d1[ma] > 1 or d2[mb] > 1) and m < n:
                    nxt[m] = j
                    m += 1
                break
        if (not moved or d1[diagonal_keys_jit(i, cols[i], n, torus)[0]] > 1
                or d2[diagonal_keys_jit(i, cols[i], n, torus)[1]] > 1) and m < n:
            nxt[m] = i
            m += 1
        if ((tries & 65535) == 0 and now() >= deadline) or (max_tries >= 0 and tries >= max_tries) \
                or (max_evals >= 0 and evals >= max_evals):
            status = STOPPED
            break
        if total == 0:
            break
    sc[TOTAL], sc[PAIRS], sc[BOTH] = total, pairs, both
    sc[SWAPS], sc[TRIES], sc[EVALS], sc[TN] = swaps, tries, evals, tn
    if status == STOPPED:
        return status
    sc[COUNT] = m
    if now() >= deadline:
        return CLOCK
    sc[STALLED] = 0 if improved else sc[STALLED] + 1
    if sc[STALLED] > 20:  # a local minimum: kick every collided queen with a random swap
        if sc[KICKS] >= max_kicks:
            return NO_KICKS
        sc[KICKS] += 1
        sc[STALLED] = 0
        _kick(cols, d1, d2, n, torus, state)
        total, pairs, both = _collisions(cols, d1, d2, n, even_torus)
        sc[TOTAL], sc[PAIRS], sc[BOTH] = total, pairs, both
        sc[EVALS] += 1  # the kicked state's full count
        sc[TN] = trace_point(tr_e, tr_b, tr_t, sc[TN], sc[EVALS], pairs - both)  # may solve
        sc[COUNT] = _collided_rows(cols, d1, d2, n, torus, nxt)
    return GO_ON


class _State:
    """A QS4 run's arrays and scalars between passes."""

    n: int
    torus: bool
    rng_state: np.ndarray
    caps: Caps
    points: KernelPoints
    cols: np.ndarray
    d1: np.ndarray
    d2: np.ndarray
    work: np.ndarray
    nxt: np.ndarray
    sc: np.ndarray


@register
class QS4(IterativeSolver):
    """QS4-style conflict-minimising permutation search (numba, int32, O(n) memory)."""

    compiled: ClassVar[bool] = True  # numba: warmed, untimed, before each timed run

    name: ClassVar[str] = "qs4"
    counter_names: ClassVar[frozenset[str] | None] = frozenset({
        "swaps", "tries", "passes", "kicks", "initial_collisions", "placement_tries", "iterations",
        "evaluations"})
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens", "torus-queens"})
    # honours and traces repeat IterativeSolver's on purpose: the capabilities read where the
    # solver is defined; deleting them would also change its run key (its code digest)
    honours: ClassVar[frozenset[str]] = frozenset({"time_limit", "max_iterations", "max_evaluations"})
    stochastic: ClassVar[bool] = True
    traces: ClassVar[bool] = True
    kernel_traces: ClassVar[bool] = True
    evaluation: ClassVar[str] = ("one swap tried (an exact delta); one column tested by the "
                                 "start placement; one full count of a start or kicked state")
    params: ClassVar[dict[str, Any]] = {"tail": Param(32, 0, 10**6), "max_kicks": Param(1000, 0, 10**9)}

    def init(self, instance: Any, rng: np.random.Generator, run: Run) -> _State:
        st = _State()
        n = st.n = instance.n
        st.torus, st.rng_state, st.caps, st.points = instance.wraps, new_state(rng), run.caps, run.points
        st.cols = np.arange(n).astype(np.int32)
        size = diagonal_lines(n, st.torus)
        st.d1, st.d2 = np.zeros(size, np.int32), np.zeros(size, np.int32)
        # rows on a collided diagonal: the only ones worth visiting
        st.work, st.nxt = np.empty(n, np.int32), np.empty(n, np.int32)
        st.sc = np.zeros(13, np.int64)
        pts = st.points
        start_kernel(n, st.torus, min(int(self.config["tail"]), n), st.rng_state,
                     st.caps.max_evaluations, pts.evals, pts.best, pts.stamps, st.cols, st.d1,
                     st.d2, st.work, st.sc)
        pts.count = int(st.sc[TN])
        return st

    def step(self, state: _State) -> str:
        """One pass of repairs over the collided rows (and a kick at a local minimum)."""
        st, pts, caps = state, state.points, state.caps
        status = pass_kernel(st.n, st.torus, st.rng_state, caps.deadline, caps.max_iterations,
                             int(self.config["max_kicks"]), caps.max_evaluations, pts.evals,
                             pts.best, pts.stamps, st.cols, st.d1, st.d2, st.work, st.nxt, st.sc)
        pts.count = int(st.sc[TN])
        if status != STOPPED:
            st.work, st.nxt = st.nxt, st.work
        return "param:max_kicks" if status == NO_KICKS else ""

    def conflicts(self, state: _State) -> int:
        """Attacking pairs (collisions are what the search minimises; 0 together)."""
        return int(state.sc[PAIRS] - state.sc[BOTH])

    def solved(self, state: _State) -> bool:
        return int(state.sc[TOTAL]) == 0

    def best(self, state: _State) -> np.ndarray:
        return state.cols

    def counters(self, state: _State) -> dict[str, int]:
        sc = state.sc
        return {"swaps": int(sc[SWAPS]), "tries": int(sc[TRIES]), "passes": int(sc[PASSES]),
                "kicks": int(sc[KICKS]), "initial_collisions": int(sc[INITIAL]),
                "placement_tries": int(sc[PLACED]), "iterations": int(sc[TRIES]),
                "evaluations": int(sc[EVALS])}

    def describe(self, state: _State) -> str:
        return f"{int(state.sc[TOTAL])} diagonal collisions left"
