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
one), ``restarts``, ``best_conflicts``. ``max_evaluations`` is checked at every candidate. The board's
compiled bookkeeping (conflict counts, moves, start placements) is
``local.queens_knights_board``; this module holds the climb and the solvers.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numba
import numpy as np

from puzzlebench.compiled_clock import now
from puzzlebench.contract import Budget, Claim, Param, Proposal, Solver
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
from puzzlebench.registry import register
from puzzlebench.trace import CAP, Trace, buffers, trace_point


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


@numba.njit(cache=True)
def climb_kernel(n: int, queens: int, stochastic: bool, hood: int, max_iter: int,
                 max_evals: int, deadline: float, state: np.ndarray, pairs: bool,
                 tr_e: np.ndarray, tr_b: np.ndarray, tr_t: np.ndarray):
    tn = 0  # trace points recorded (improvements of the best objective)
    tracing = tr_e.shape[0] > 0
    queen = np.zeros(n, np.bool_)
    pr = np.zeros(n, np.int64)
    pc = np.zeros(n, np.int64)
    cnt = np.zeros(n, np.int64)
    occ = np.full(n * n, -1, np.int64)
    order = np.arange(n)
    best_q = np.zeros(n, np.bool_)
    best_r = np.zeros(n, np.int64)
    best_c = np.zeros(n, np.int64)
    best_h = n + 1
    moves = 0
    evals = 0
    restarts = 0
    iterations = 0
    ncand = n * n if hood == 0 else (n if hood == 2 else (8 if hood == 3 else n))
    random_placement(n, queens, state, queen, pr, pc, occ, hood == 1 or hood == 2)
    h = recount(queen, pr, pc, cnt)
    evals += 1  # the start's conflicts counted
    if tracing:
        tn = trace_point(tr_e, tr_b, tr_t, tn, evals, objective(cnt, h, pairs))
    stopped = False
    while iterations < max_iter and not stopped:
        iterations += 1
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
                            (evals & 4095) == 0 and now() >= deadline):
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
        if h < best_h:
            best_h = h
            best_q[:] = queen
            best_r[:] = pr
            best_c[:] = pc
        if h == 0 or stopped:
            break
        if iterations < max_iter:
            restarts += 1
            random_placement(n, queens, state, queen, pr, pc, occ, hood == 1 or hood == 2)
            h = recount(queen, pr, pc, cnt)
            evals += 1
            if tracing:
                tn = trace_point(tr_e, tr_b, tr_t, tn, evals, objective(cnt, h, pairs))
    return best_h, best_q, best_r, best_c, iterations, moves, evals, restarts, tn


class HillClimbing(Solver):
    """Shared body of the two seed 004 hill climbers."""

    compiled: ClassVar[bool] = True  # numba: warmed, untimed, before each timed run

    problems: ClassVar[frozenset[str]] = frozenset({"queens-knights", "nqueens"})

    honours: ClassVar[frozenset[str]] = frozenset({"time_limit", "max_iterations", "max_evaluations"})
    stochastic: ClassVar[bool] = True
    traces: ClassVar[bool] = True
    evaluation: ClassVar[str] = ("one candidate move scored (stochastic-hc scores every move "
                                 "of every piece before a step); a start is one")
    params: ClassVar[dict[str, Any]] = {
        "max_iter": Param(180, 0, 10**12),
        "neighbourhood": Param("any", choices=tuple(NEIGHBOURHOODS))}
    variant_stochastic: ClassVar[bool]

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator,
              trace: Trace | None = None) -> Proposal:
        n = instance.n
        knights_board = isinstance(instance, QueensKnightsInstance)
        queens = instance.queens if knights_board else n
        hood = code(str(self.config["neighbourhood"]))
        max_iter = int(self.config["max_iter"])
        if budget.max_iterations is not None:
            max_iter = min(max_iter, budget.max_iterations)
        clock = budget.clock()
        tr_e, tr_b, tr_t = buffers(CAP if trace is not None else 0)
        best_h, q, r, c, iterations, moves, evals, restarts, tn = climb_kernel(
            n, queens, self.variant_stochastic, hood, max_iter,
            -1 if budget.max_evaluations is None else budget.max_evaluations,
            clock.end if budget.time_limit is not None else np.inf, new_state(rng),
            not knights_board, tr_e, tr_b, tr_t)
        if trace is not None:
            trace.extend(tr_e, tr_b, tr_t, tn)
        counters = {"iterations": int(iterations), "moves": int(moves),
                    "evaluations": int(evals), "restarts": int(restarts),
                    "best_conflicts": int(best_h)}
        if best_h != 0:
            return Proposal(counters=counters, note=f"best state had {best_h} pieces in conflict")
        if not knights_board:
            cols = [0] * n
            for i in range(n):
                cols[int(r[i])] = int(c[i])
            return Proposal(answer=cols, claim=Claim.SOLVED, counters=counters)
        pieces = sorted(("Q" if q[i] else "N", int(r[i]), int(c[i])) for i in range(n))
        return Proposal(answer=pieces, claim=Claim.SOLVED, counters=counters)


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
