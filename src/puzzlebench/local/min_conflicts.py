"""Textbook min-conflicts (Minton, Johnston, Philips & Laird 1992) for nqueens,
torus-queens and nqueens-completion (``min-conflicts``).

From a start placement (one queen per row) — ``start = "random"`` (any column, the default)
or ``"greedy"`` (Minton's: rows in order, each queen on a column of fewest conflicts with
those already placed, ties at random; compiled, ``local.greedy_start``) — repeatedly pick a
conflicted queen at random and move it to the position of least conflict, ties broken at
random; each such move is a repair. After ``restart_after`` repairs without a solution the
search restarts from a new start placement (min-conflicts stalls on plateaus, notably on the
torus). The neighbourhood (seed 003) is selectable: ``row`` (any column of its row, the
textbook move, default), ``step`` (one column left or right) or ``swap`` (exchange columns
with another row). Line counts are kept in numpy arrays, so scoring all columns of a row is
one vectorised expression (O(n) per repair). Counters: ``repairs``, ``iterations``,
``restarts``, ``start_attacked`` (queens attacked after the first start: how good a start it
was) and ``evaluations`` in the common unit (``contract.EFFORT_UNIT``): each start placement
counted is one, plus each square the greedy start scores, and a repair adds one per candidate
it scores — n for the ``row`` neighbourhood (every square of the row, its own included), the
one or two neighbouring squares for ``step``, one per other movable row for ``swap``.
``max_iterations`` caps repairs, ``max_evaluations`` evaluations, the parameter
``max_repairs`` repairs too: the framework (``puzzlebench.solvers.iterative``; a step is one repair or
one restart) checks them before each step, so a cap is passed by less than one repair.

Pre-placed queens (nqueens-completion) start on their squares and never move: only the other
rows' queens are repaired or swapped. Being incomplete, it never claims ``infeasible``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from puzzlebench.local.neighbourhoods import code
from puzzlebench.solvers.contract import Param
from puzzlebench.solvers.iterative import IterativeSolver, Run
from puzzlebench.solvers.param_space import Choice, IntRange
from puzzlebench.solvers.queens_keys import anti_key, diag_key, diagonal_lines, shares_both_diagonals
from puzzlebench.solvers.registry import register


class Lines:
    """Column and diagonal counts of a placement, updated per move."""

    def __init__(self, cols: np.ndarray, torus: bool) -> None:
        n = cols.size
        self.n, self.torus = n, torus
        self.rows = np.arange(n)
        size = diagonal_lines(n, torus)
        self.col = np.bincount(cols, minlength=n)
        self.d1 = np.bincount(self.k1(self.rows, cols), minlength=size)
        self.d2 = np.bincount(self.k2(self.rows, cols), minlength=size)

    def k1(self, r: Any, c: Any) -> Any:
        return anti_key(r, c, self.n, self.torus)

    def k2(self, r: Any, c: Any) -> Any:
        return diag_key(r, c, self.n, self.torus)

    def move(self, r: int, old: int, new: int) -> int:
        """Row r's queen moves from column old to new; returns the change in attacking pairs
        (counted per line: a pair sharing both diagonals of an even torus counts twice)."""
        delta = 0
        for arr, a, b in ((self.col, old, new), (self.d1, self.k1(r, old), self.k1(r, new)),
                          (self.d2, self.k2(r, old), self.k2(r, new))):
            arr[a] -= 1
            delta -= int(arr[a])
            delta += int(arr[b])
            arr[b] += 1
        return delta

    def pairs(self, cols: np.ndarray) -> int:
        """Attacking pairs (the problem's conflict count; a pair sharing both diagonals of an
        even torus counted once)."""
        total = sum(int((a * (a - 1) // 2).sum()) for a in (self.col, self.d1, self.d2))
        if shares_both_diagonals(self.n, self.torus):
            both = np.bincount(self.k1(self.rows, cols) * self.n + self.k2(self.rows, cols))
            total -= int((both * (both - 1) // 2).sum())
        return total

    def conflicts_at(self, r: int, cols: Any) -> Any:
        """Queens (other than row r's own) attacking (r, c) for each c in ``cols``."""
        return self.col[cols] + self.d1[self.k1(r, cols)] + self.d2[self.k2(r, cols)]

    def attacked(self, cols: np.ndarray) -> np.ndarray:
        return ((self.col[cols] > 1) | (self.d1[self.k1(self.rows, cols)] > 1)
                | (self.d2[self.k2(self.rows, cols)] > 1))


class _State:
    """A min-conflicts run between repairs."""

    n: int
    torus: bool
    fixed: tuple[tuple[int, int], ...]
    movable: np.ndarray
    hood: int
    restart_after: int
    rng: np.random.Generator
    traced: bool
    repairs: int
    restarts: int
    since_restart: int
    greedy: bool
    start_attacked: int
    all_cols: np.ndarray
    cols: np.ndarray
    lines: Lines
    evaluations: int
    exact_pairs: bool
    pairs: int
    bad: np.ndarray


@register
class MinConflicts(IterativeSolver):
    """Minton et al.'s min-conflicts: a random conflicted queen to its least-conflicted place."""

    name: ClassVar[str] = "min-conflicts"
    counter_names: ClassVar[frozenset[str] | None] = frozenset({
        "repairs", "iterations", "restarts", "evaluations", "start_attacked"})
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens", "torus-queens", "nqueens-completion"})
    # honours and traces repeat IterativeSolver's on purpose: the capabilities read where the
    # solver is defined; deleting them would also change its run key (its code digest)
    honours: ClassVar[frozenset[str]] = frozenset({"time_limit", "max_iterations", "max_evaluations"})
    stochastic: ClassVar[bool] = True
    traces: ClassVar[bool] = True
    evaluation: ClassVar[str] = ("one candidate square scored: a row repair scores n, a step "
                                 "repair 1-2, a swap repair one per other row; a start is one")
    params: ClassVar[dict[str, Any]] = {
        "max_repairs": Param(100_000, 0, 10**12),
        "neighbourhood": Param("row", choices=("row", "step", "swap")),
        "start": Param("random", choices=("random", "greedy")),
        "restart_after": Param(2_000, 1, 10**12)}
    #: What ``tune`` tries (the total repairs are the budget's, not tuned).
    param_space: ClassVar[dict[str, Any]] = {
        "neighbourhood": Choice(("row", "step", "swap")),
        "restart_after": IntRange(20, 100_000, log=True)}
    param_caps: ClassVar[dict[str, str]] = {"max_repairs": "iterations"}

    def init(self, instance: Any, rng: np.random.Generator, run: Run) -> _State:
        st = _State()
        st.n, st.torus, st.fixed = instance.n, instance.wraps, tuple(instance.fixed)
        st.movable = np.ones(st.n, dtype=bool)
        st.movable[[r for r, _ in st.fixed]] = False
        st.hood = code(str(self.config["neighbourhood"]))
        st.restart_after = max(1, int(self.config["restart_after"]))
        st.rng, st.traced = rng, run.traced
        st.repairs = st.restarts = st.since_restart = 0
        st.all_cols = np.arange(st.n)
        st.greedy = self.config["start"] == "greedy"
        st.cols, st.lines, scored = self._start(st.n, st.torus, st.hood, rng, st.fixed, st.greedy)
        st.evaluations = 1 + scored  # the start placement's conflicts counted, squares scored
        st.exact_pairs = shares_both_diagonals(st.n, st.torus)  # a per-line count double-counts
        st.pairs = st.lines.pairs(st.cols) if st.traced else 0
        st.bad = np.flatnonzero(st.lines.attacked(st.cols))
        st.start_attacked = int(st.bad.size)
        return st

    def solved(self, state: _State) -> bool:
        return state.bad.size == 0

    def conflicts(self, state: _State) -> int:
        if state.bad.size == 0:
            return 0
        return state.lines.pairs(state.cols) if state.exact_pairs else state.pairs

    def best(self, state: _State) -> list[int]:
        return state.cols.tolist()

    def counters(self, state: _State) -> dict[str, int]:
        return {"repairs": state.repairs, "iterations": state.repairs,
                "restarts": state.restarts, "start_attacked": state.start_attacked,
                "evaluations": state.evaluations}

    def describe(self, state: _State) -> str:
        return f"{state.bad.size} queens still attacked"

    def step(self, state: _State) -> str:
        """A restart (after ``restart_after`` repairs without a solution) or one repair."""
        st, n, rng = state, state.n, state.rng
        if st.since_restart >= st.restart_after:
            st.cols, st.lines, scored = self._start(n, st.torus, st.hood, rng, st.fixed,
                                                    st.greedy)
            st.evaluations += 1 + scored
            st.pairs = st.lines.pairs(st.cols) if st.traced else 0
            st.restarts += 1
            st.since_restart = 0
            st.bad = np.flatnonzero(st.lines.attacked(st.cols))
            return ""
        cols, lines, bad, movable = st.cols, st.lines, st.bad, st.movable
        pick = bad[movable[bad]]
        if pick.size == 0:  # only pre-placed queens clash: move any other queen
            pick = np.flatnonzero(movable)
            if pick.size == 0:
                return "exhausted"  # every queen is pre-placed
        r = int(pick[rng.integers(pick.size)])
        old = int(cols[r])
        if st.hood == 1:  # swap with another row: choose the exchange of least conflict
            delta, scored = self._swap(cols, lines, r, rng, movable)
            st.pairs += delta
            st.evaluations += scored
        else:
            lines.col[old] -= 1  # take the queen off its square
            lines.d1[lines.k1(r, old)] -= 1
            lines.d2[lines.k2(r, old)] -= 1
            choices = st.all_cols if st.hood == 2 else np.array(
                [c for c in (old - 1, old + 1) if 0 <= c < n] or [old])
            scores = lines.conflicts_at(r, choices)
            st.evaluations += int(choices.size)
            best = np.flatnonzero(scores == scores.min())
            new = int(choices[best[rng.integers(best.size)]])
            st.pairs += int(scores[best[0]]) - int(lines.conflicts_at(r, old))
            cols[r] = new
            lines.col[new] += 1
            lines.d1[lines.k1(r, new)] += 1
            lines.d2[lines.k2(r, new)] += 1
        st.repairs += 1
        st.since_restart += 1
        st.bad = np.flatnonzero(lines.attacked(cols))
        return ""

    @staticmethod
    def _start(n: int, torus: bool, hood: int, rng: np.random.Generator,
               fixed: tuple[tuple[int, int], ...] = (),
               greedy: bool = False) -> tuple[np.ndarray, Lines, int]:
        """A random or greedy placement and the squares it scored (none for a random one): a
        permutation for the swap neighbourhood (swaps keep columns distinct; greedy: while
        free columns remain), any columns otherwise; pre-placed queens on their squares."""
        if greedy:
            # imported on use: a random start never loads numba
            from puzzlebench.local.greedy_start import greedy_placement
            cols, scored = greedy_placement(n, torus, rng, np.array([r for r, _ in fixed]),
                                            np.array([c for _, c in fixed]), hood == 1)
            return cols, Lines(cols, torus), scored
        if not fixed:
            cols = rng.permutation(n) if hood == 1 else rng.integers(0, n, size=n)
            return cols, Lines(cols, torus), 0
        rows = np.array([r for r, _ in fixed])
        free_rows = np.setdiff1d(np.arange(n), rows)
        free_cols = np.setdiff1d(np.arange(n), [c for _, c in fixed])
        cols = np.empty(n, dtype=np.int64)
        cols[rows] = [c for _, c in fixed]
        if hood == 1 and free_cols.size == free_rows.size:
            cols[free_rows] = rng.permutation(free_cols)
        else:
            cols[free_rows] = rng.integers(0, n, size=free_rows.size)
        return cols, Lines(cols, torus), 0

    @staticmethod
    def _swap(cols: np.ndarray, lines: Lines, r: int, rng: np.random.Generator,
              movable: np.ndarray) -> tuple[int, int]:
        """Exchange row r's column with the (movable) row whose exchange leaves r least
        attacked; returns the change in attacking pairs and the exchanges scored."""
        n = cols.size
        others = np.flatnonzero((np.arange(n) != r) & movable)
        if others.size == 0:
            return 0, 0
        scores = lines.d1[lines.k1(r, cols[others])] + lines.d2[lines.k2(r, cols[others])]
        best = np.flatnonzero(scores == scores.min())
        s = int(others[best[rng.integers(best.size)]])
        a, b = int(cols[r]), int(cols[s])
        delta = lines.move(r, a, b) + lines.move(s, b, a)
        cols[r], cols[s] = b, a
        return delta, int(others.size)
