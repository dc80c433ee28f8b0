# mypy: disable-error-code="assignment,index,arg-type,no-untyped-def"
"""Seed 004's hill climbing for queens-and-knights (nqueens is the case A = n).

n pieces on an n × n board, A queens and n − A knights; the heuristic is the number of pieces
in conflict; a move (seed 004) takes one piece to any free square — seed 003's swap, row and
step neighbourhoods are selectable too. Two variants are registered:

- ``first-choice-hc``: pieces in random order, each piece's moves from a random start; the
  first move that lowers the heuristic is taken.
- ``stochastic-hc``: every improving move of every piece is found and one is chosen uniformly.

With the row-preserving neighbourhoods (swap, row) every attempt starts from one piece per
row (a random permutation of columns); otherwise from n random distinct squares.

An outer loop of ``max_iter`` attempts (the seed used 180) climbs until a solution or a local
optimum, keeps the best state found, and restarts from a random placement when stuck.

The climb is compiled (numba). Each piece keeps the number of pieces it conflicts with, so a
candidate move is scored in O(n) and applied in O(n). Random draws come from a splitmix64
state seeded by the run's generator. Counters: ``iterations`` (attempts used), ``moves``,
``evaluations`` in the common unit (``contract.EFFORT_UNIT``: each candidate move scored is
one, whether by the O(n) delta or, for a swap, a full recount; each start placement counted is
one), ``restarts``, ``best_conflicts``. A step of the framework (``puzzlebench.solvers.iterative``) is
one attempt, a compiled call: the framework checks the caps before each (``max_iterations`` and
the parameter ``max_iter`` cap attempts) and hands the kernel the evaluation cap and the
deadline, which it checks at every candidate (the clock every 4096). The board's
compiled bookkeeping (conflict counts, moves, start placements) is
``local.queens_knights_board``; this module holds the climb and the solvers.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numba
import numpy as np

from puzzlebench.local.compiled_random import below, new_state
from puzzlebench.local.neighbourhoods import NEIGHBOURHOODS, code
from puzzlebench.local.queens_knights_board import (
    apply_move,
    candidate,
    objective,
    random_placement,
    recount,
    score_move,
)
from puzzlebench.problems.queens_knights import QueensKnightsInstance
from puzzlebench.records.trace import Trace
from puzzlebench.records.trace_kernels import trace_point
from puzzlebench.solvers.compiled_clock import now
from puzzlebench.solvers.contract import Budget, Claim, Param, Proposal
from puzzlebench.solvers.iterative import Caps, IterativeSolver, KernelPoints, Run
from puzzlebench.solvers.param_space import Choice, IntRange
from puzzlebench.solvers.registry import register


@numba.njit(cache=True, inline="always")
def _shuffle(order, state, n):
    """A random order of the pieces (Fisher–Yates in place)."""
    for i in range(n):
        j = i + below(state, n - i)
        order[i], order[j] = order[j], order[i]


@numba.njit(cache=True, inline="always")
def _swap(queen, pr, pc, cnt, occ, n, p, q):
    """p and q exchange columns; returns the pieces in conflict afterwards."""
    rp, cp, rq, cq = pr[p], pc[p], pr[q], pc[q]
    occ[rp * n + cp] = -1
    occ[rq * n + cq] = -1
    pc[p], pc[q] = cq, cp
    occ[rp * n + cq] = p
    occ[rq * n + cp] = q
    return recount(queen, pr, pc, cnt)


@numba.njit(cache=True, inline="always")
def _in_conflict(cnt, n):
    """Pieces with at least one conflict (source study 004's heuristic)."""
    h = 0
    for i in range(n):
        if cnt[i] > 0:
            h += 1
    return h


# The kernel's scalars between steps (``sc``, int64): current heuristic, best heuristic,
# moves, evaluations, restarts, attempts (iterations), a restart due, trace points recorded.
H, BEST_H, MOVES, EVALS, RESTARTS, ITERATIONS, RESTART_DUE, TN = range(8)


@numba.njit(cache=True)
def start_kernel(n: int, queens: int, hood: int, state: np.ndarray, pairs: bool,
                 tr_e: np.ndarray, tr_b: np.ndarray, tr_t: np.ndarray, queen, pr, pc, cnt, occ,
                 sc):
    """The first placement, counted (one evaluation) and traced."""
    random_placement(n, queens, state, queen, pr, pc, occ, hood == 1 or hood == 2)
    h = recount(queen, pr, pc, cnt)
    sc[H] = h
    sc[BEST_H] = n + 1
    sc[EVALS] = 1  # the start's conflicts counted
    if tr_e.shape[0] > 0:
        sc[TN] = trace_point(tr_e, tr_b, tr_t, sc[TN], sc[EVALS], objective(cnt, h, pairs))


@numba.njit(cache=True)
def climb_kernel(n: int, queens: int, stochastic: bool, hood: int, max_evals: int,
                 deadline: float, state: np.ndarray, pairs: bool,
                 tr_e: np.ndarray, tr_b: np.ndarray, tr_t: np.ndarray,
                 queen, pr, pc, cnt, occ, order, best_q, best_r, best_c, sc):
    """One attempt (the framework's step): a restart if one is due, then climb until a
    solution, a local optimum, or the caps handed in (absolute evaluations, the deadline)."""
    tn = sc[TN]
    tracing = tr_e.shape[0] > 0
    h = sc[H]
    moves, evals, restarts = sc[MOVES], sc[EVALS], sc[RESTARTS]
    ncand = n * n if hood == 0 else (n if hood == 2 else (8 if hood == 3 else n))
    look = max(1, 262144 // (n * n))  # evaluations between looks at the clock: 4096 at n = 8,
    # every one from n = 512 on (an evaluation costs O(n), a swap's recount more)
    if sc[RESTART_DUE]:
        restarts += 1
        random_placement(n, queens, state, queen, pr, pc, occ, hood == 1 or hood == 2)
        h = recount(queen, pr, pc, cnt)
        evals += 1
        if tracing:
            tn = trace_point(tr_e, tr_b, tr_t, tn, evals, objective(cnt, h, pairs))
    sc[ITERATIONS] += 1
    stopped = False
    while h > 0:
        if (max_evals >= 0 and evals >= max_evals) or now() >= deadline:
            stopped = True
            break
        _shuffle(order, state, n)
        found = 0
        pick_p, pick_r, pick_c = -1, -1, -1
        for oi in range(n):
            p = order[oi]
            start = below(state, ncand)
            for t in range(ncand):
                k = (start + t) % ncand
                if hood == 1:  # swap: p and q exchange columns
                    q = k
                    rp, cp, rq, cq = pr[p], pc[p], pr[q], pc[q]
                    if q == p or cp == cq:
                        continue
                    t1, t2 = occ[rp * n + cq], occ[rq * n + cp]
                    if (t1 != -1 and t1 != q) or (t2 != -1 and t2 != p):
                        continue
                    evals += 1
                    pc[p], pc[q] = cq, cp
                    new_h = recount(queen, pr, pc, cnt)
                    pc[p], pc[q] = cp, cq
                    recount(queen, pr, pc, cnt)
                    r, c = q, -2  # marks a swap with q
                else:
                    r, c = candidate(n, hood, p, k, pr, pc)
                    if r < 0 or occ[r * n + c] != -1:
                        continue
                    evals += 1
                    new_h = score_move(queen, pr, pc, cnt, p, r, c)
                if (max_evals >= 0 and evals >= max_evals) or (
                        evals % look == 0 and now() >= deadline):
                    stopped = True
                    break
                if new_h < h:
                    found += 1
                    if not stochastic or below(state, found) == 0:
                        pick_p, pick_r, pick_c = p, r, c
                    if not stochastic:
                        break
            if stopped or (found and not stochastic):
                break
        if stopped:
            break
        if found == 0:
            break  # a local optimum
        if pick_c == -2:
            h = _swap(queen, pr, pc, cnt, occ, n, pick_p, pick_r)
        else:
            apply_move(queen, pr, pc, cnt, occ, n, pick_p, pick_r, pick_c)
            h = _in_conflict(cnt, n)
        moves += 1
        if tracing:
            tn = trace_point(tr_e, tr_b, tr_t, tn, evals, objective(cnt, h, pairs))
    if h < sc[BEST_H]:
        sc[BEST_H] = h
        best_q[:] = queen
        best_r[:] = pr
        best_c[:] = pc
    sc[H], sc[MOVES], sc[EVALS], sc[RESTARTS], sc[TN] = h, moves, evals, restarts, tn
    sc[RESTART_DUE] = 1 if h > 0 and not stopped else 0


class _State:
    """A climb's arrays and scalars between attempts."""

    n: int
    queens: int
    knights_board: bool
    hood: int
    caps: Caps
    rng_state: np.ndarray
    points: KernelPoints
    arrays: tuple[np.ndarray, ...]
    best_arrays: tuple[np.ndarray, ...]
    sc: np.ndarray


#: Largest board the climber takes: its occupancy array has a cell per square (72 MB at
#: n = 3,000; 800 MB and 1.8 s just to allocate at n = 10,000, past any time limit it keeps).
MAX_BOARD = 3000


class HillClimbing(IterativeSolver):
    """Shared body of the two seed 004 hill climbers."""

    compiled: ClassVar[bool] = True  # numba: warmed, untimed, before each timed run

    problems: ClassVar[frozenset[str]] = frozenset({"queens-knights", "nqueens"})
    counter_names: ClassVar[frozenset[str] | None] = frozenset({
        "iterations", "moves", "evaluations", "restarts", "best_conflicts"})

    # honours and traces repeat IterativeSolver's on purpose: the capabilities read where the
    # solver is defined; deleting them would also change its run key (its code digest)
    honours: ClassVar[frozenset[str]] = frozenset({"time_limit", "max_iterations", "max_evaluations"})
    stochastic: ClassVar[bool] = True
    traces: ClassVar[bool] = True
    kernel_traces: ClassVar[bool] = True
    evaluation: ClassVar[str] = ("one candidate move scored (stochastic-hc scores every move "
                                 "of every piece before a step); a start is one")
    params: ClassVar[dict[str, Any]] = {
        "max_iter": Param(180, 0, 10**12),
        "neighbourhood": Param("any", choices=tuple(NEIGHBOURHOODS))}
    #: What ``tune`` tries: the climb length on a log scale, and every neighbourhood.
    param_space: ClassVar[dict[str, Any]] = {
        "max_iter": IntRange(10, 10_000, log=True),
        "neighbourhood": Choice(tuple(NEIGHBOURHOODS))}
    param_caps: ClassVar[dict[str, str]] = {"max_iter": "iterations"}
    variant_stochastic: ClassVar[bool]

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator,
              trace: Trace | None = None) -> Proposal:
        """Declines boards past ``MAX_BOARD`` (its square-indexed occupancy is n² cells)."""
        if instance.n > MAX_BOARD:
            return Proposal(claim=Claim.DECLINED,
                            note=f"boards past n = {MAX_BOARD}: seed 004's climber indexes every "
                                 f"square (n² cells: {8 * instance.n ** 2 / 2**20:.0f} MB here)")
        return super().solve(instance, budget, rng, trace)

    def init(self, instance: Any, rng: np.random.Generator, run: Run) -> _State:
        st = _State()
        n = st.n = instance.n
        st.knights_board = isinstance(instance, QueensKnightsInstance)
        st.queens = instance.queens if st.knights_board else n
        st.hood = code(str(self.config["neighbourhood"]))
        st.caps, st.points, st.rng_state = run.caps, run.points, new_state(rng)
        st.arrays = (np.zeros(n, np.bool_), np.zeros(n, np.int64), np.zeros(n, np.int64),
                     np.zeros(n, np.int64), np.full(n * n, -1, np.int64), np.arange(n))
        st.best_arrays = (np.zeros(n, np.bool_), np.zeros(n, np.int64), np.zeros(n, np.int64))
        st.sc = np.zeros(8, np.int64)
        queen, pr, pc, cnt, occ, _ = st.arrays
        pts = st.points
        start_kernel(n, st.queens, st.hood, st.rng_state, not st.knights_board,
                     pts.evals, pts.best, pts.stamps, queen, pr, pc, cnt, occ, st.sc)
        pts.count = int(st.sc[TN])
        return st

    def step(self, state: _State) -> str:
        """One attempt: a climb from a (re)start to a solution or a local optimum."""
        st, pts = state, state.points
        queen, pr, pc, cnt, occ, order = st.arrays
        best_q, best_r, best_c = st.best_arrays
        climb_kernel(st.n, st.queens, self.variant_stochastic, st.hood, st.caps.max_evaluations,
                     st.caps.deadline, st.rng_state, not st.knights_board, pts.evals, pts.best,
                     pts.stamps, queen, pr, pc, cnt, occ, order, best_q, best_r, best_c, st.sc)
        pts.count = int(st.sc[TN])
        return ""

    def conflicts(self, state: _State) -> int:
        """Pieces in conflict in the best state of the attempts made (n + 1 before any)."""
        return int(state.sc[BEST_H])

    def best(self, state: _State) -> Any:
        q, r, c = state.best_arrays
        n = state.n
        if not state.knights_board:
            cols = [0] * n
            for i in range(n):
                cols[int(r[i])] = int(c[i])
            return cols
        return sorted(("Q" if q[i] else "N", int(r[i]), int(c[i])) for i in range(n))

    def counters(self, state: _State) -> dict[str, int]:
        sc = state.sc
        return {"iterations": int(sc[ITERATIONS]), "moves": int(sc[MOVES]),
                "evaluations": int(sc[EVALS]), "restarts": int(sc[RESTARTS]),
                "best_conflicts": int(sc[BEST_H])}

    def describe(self, state: _State) -> str:
        return f"best state had {int(state.sc[BEST_H])} pieces in conflict"


@register
class FirstChoiceHC(HillClimbing):
    """Seed 004's first-choice hill climbing: the first improving move found is taken."""

    name: ClassVar[str] = "first-choice-hc"
    variant_stochastic = False


@register
class StochasticHC(HillClimbing):
    """Seed 004's stochastic hill climbing: a uniform choice among all improving moves."""

    name: ClassVar[str] = "stochastic-hc"
    variant_stochastic = True
