"""The common effort unit (issue 27) in the local searches: each solver's ``evaluations``
counter equals an independent count of the candidate states whose conflicts it computed —
an instrumented run of the kernel (its Python body with counting wrappers around the compiled
scoring functions it calls), or a count made outside the solver."""

from __future__ import annotations

import types
from typing import Any

import numpy as np
import pytest

from puzzlebench.contract import EFFORT_UNIT, Budget
from puzzlebench.local import hill_climbing, qs4
from puzzlebench.local.min_conflicts import Lines, MinConflicts
from puzzlebench.problems import get_problem
from puzzlebench.solvers.registry import REGISTRY


class Counter:
    """Wraps a function and counts its calls (and, optionally, a weight per call)."""

    def __init__(self, fn: Any, weight: Any = None) -> None:
        self.fn, self.weight, self.calls, self.total = fn, weight, 0, 0

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        self.total += 1 if self.weight is None else self.weight(*args)
        return self.fn(*args)


def instrumented(kernel: Any, module: Any, **wrappers: Any) -> Any:
    """The Python body of a compiled ``kernel`` calling ``wrappers`` in place of the module's
    functions of those names (the compiled functions themselves are left as they are)."""
    return types.FunctionType(kernel.py_func.__code__, {**vars(module), **wrappers})


def test_every_tracing_solver_declares_its_unit() -> None:
    for spec in REGISTRY.all():
        if spec.traces:
            data = spec.to_json()
            assert data["effort_unit"] == EFFORT_UNIT and data["evaluation"], spec.name
            assert "max_evaluations" in spec.honours, spec.name
    assert REGISTRY.load("constraint-minconflicts").to_json()["effort_approximate"] is True
    assert REGISTRY.load("min-conflicts").to_json()["effort_approximate"] is False


# --- min-conflicts -----------------------------------------------------------------------------

@pytest.mark.parametrize("hood", ["row", "step"])
@pytest.mark.parametrize(("problem", "n"), [("nqueens", 9), ("torus-queens", 7), ("nqueens", 30)])
def test_min_conflicts_counts_every_square_it_scores(monkeypatch: pytest.MonkeyPatch, hood: str,
                                                     problem: str, n: int) -> None:
    """Instrumented: every array of candidate squares handed to ``Lines.conflicts_at`` (the
    scalar call re-reads the queen's own square for the delta, no candidate) and every start."""
    scored = Counter(Lines.conflicts_at, lambda self, r, cols: np.size(cols)
                     if isinstance(cols, np.ndarray) else 0)
    starts = Counter(MinConflicts._start)
    monkeypatch.setattr(Lines, "conflicts_at", lambda self, r, cols: scored(self, r, cols))
    monkeypatch.setattr(MinConflicts, "_start", staticmethod(starts))
    solver = MinConflicts(neighbourhood=hood, restart_after=50)
    for seed in range(4):
        scored.total = starts.calls = 0
        p = solver.solve(get_problem(problem).make(n), Budget(max_iterations=400),
                         np.random.default_rng(seed))
        assert p.counters["evaluations"] == scored.total + starts.calls > 0
        if hood == "row":  # hand-worked: every repair scores the n squares of its row
            assert scored.total == n * p.counters["repairs"]
            assert starts.calls == 1 + p.counters["restarts"]


def test_min_conflicts_swap_repair_scores_every_other_row() -> None:
    n = 11
    p = MinConflicts(neighbourhood="swap").solve(get_problem("nqueens").make(n),
                                                 Budget(max_iterations=300),
                                                 np.random.default_rng(5))
    assert p.counters["evaluations"] == (1 + p.counters["restarts"]) + (n - 1) * p.counters["repairs"]


def test_min_conflicts_cap_is_in_the_common_unit() -> None:
    n, cap = 40, 1_000
    p = MinConflicts().solve(get_problem("torus-queens").make(n), Budget(max_evaluations=cap),
                             np.random.default_rng(0))
    assert cap <= p.counters["evaluations"] < cap + n  # stopped within one repair of the cap
    assert p.counters["repairs"] < cap / (n - 1)  # the old unit (one per repair) ran to 1,000


# --- hill climbing (compiled) ----------------------------------------------------------------

def _climb(monkeypatch: pytest.MonkeyPatch, n: int, queens: int, stochastic: bool, hood: str,
           seed: int, max_evals: int, **wrappers: Any) -> Any:
    """A run of the solver; with ``wrappers``, its kernels run as their Python bodies calling
    the wrappers (the framework drives them as it drives the compiled ones)."""
    if wrappers:
        for name in ("start_kernel", "climb_kernel"):
            monkeypatch.setattr(hill_climbing, name, instrumented(
                getattr(hill_climbing, name), hill_climbing, **wrappers))
    attempts = 3 if max_evals >= 10**6 else 10**6  # capped runs: only the cap stops them
    solver = (hill_climbing.StochasticHC if stochastic else hill_climbing.FirstChoiceHC)(
        max_iter=attempts, neighbourhood=hood)
    instance = (get_problem("nqueens").make(n) if queens == n else
                get_problem("queens-knights").make(n, queens=queens))
    p = solver.solve(instance, Budget(max_evaluations=max_evals), np.random.default_rng(seed))
    monkeypatch.undo()
    return p


@pytest.mark.parametrize("stochastic", [False, True])
@pytest.mark.parametrize("hood", ["any", "row", "step", "swap"])
def test_hill_climbing_counts_every_candidate_it_scores(monkeypatch: pytest.MonkeyPatch,
                                                        stochastic: bool, hood: str) -> None:
    """The compiled kernels' counter against their Python bodies run with counters around the
    scoring calls: ``score_move`` (one candidate), ``recount`` (a swap candidate is scored by a
    recount and restored by another; a start placement is counted by one)."""
    for n, queens, seed, cap in ((6, 6, 1, 10**6), (7, 3, 2, 10**6), (8, 8, 3, 500)):
        compiled = _climb(monkeypatch, n, queens, stochastic, hood, seed, cap)
        moves = Counter(hill_climbing.score_move)
        counts = Counter(hill_climbing.recount)
        starts = Counter(hill_climbing.random_placement)
        slow = _climb(monkeypatch, n, queens, stochastic, hood, seed, cap, score_move=moves,
                      recount=counts, random_placement=starts)
        assert slow.counters == compiled.counters and slow.answer == compiled.answer
        swaps_scored = (counts.calls - starts.calls) // 2
        evaluations = compiled.counters["evaluations"]
        assert evaluations == moves.calls + swaps_scored + starts.calls
        assert (moves.calls == 0) == (hood == "swap")
        if cap < 10**6 and compiled.counters["best_conflicts"] != 0:
            assert evaluations == cap


def test_stochastic_hc_spends_n_cubed_before_its_first_step() -> None:
    """The expected consequence of the unit: at n = 32 one step of stochastic-hc (every move
    of every piece scored) costs about n·n² evaluations, so 20,000 end before its first step."""
    p = hill_climbing.StochasticHC(neighbourhood="any").solve(
        get_problem("nqueens").make(32), Budget(max_evaluations=20_000), np.random.default_rng(0))
    assert p.counters["moves"] == 0 and p.counters["evaluations"] == 20_000


# --- qs4 (compiled) ----------------------------------------------------------------------------

@pytest.mark.parametrize(("n", "torus", "cap"), [(30, False, -1), (25, True, -1), (36, True, -1),
                                                  (200, False, -1), (200, False, 300)])
def test_qs4_counts_columns_tested_swaps_tried_and_full_counts(
        monkeypatch: pytest.MonkeyPatch, n: int, torus: bool, cap: int) -> None:
    """Instrumented: the placement's diagonal look-ups (one per column tested, plus one per
    row placed), ``_family_delta`` (two per swap tried: one per diagonal family) and
    ``_collisions`` (the start's and each kicked state's full count)."""
    instance = get_problem("torus-queens" if torus else "nqueens").make(n)
    budget = Budget(max_evaluations=None if cap < 0 else cap)

    def run(**wrappers: Any) -> Any:
        for name in ("start_kernel", "pass_kernel") if wrappers else ():
            monkeypatch.setattr(qs4, name, instrumented(getattr(qs4, name), qs4, **wrappers))
        p = qs4.QS4(tail=8, max_kicks=5).solve(instance, budget, np.random.default_rng(n))
        monkeypatch.undo()
        return p

    compiled = run()
    keys = Counter(qs4.diagonal_keys_jit)
    placement = instrumented(qs4._place_greedily, qs4, diagonal_keys_jit=keys)
    deltas = Counter(qs4._family_delta)
    counts = Counter(qs4._collisions)
    slow = run(_place_greedily=placement, _family_delta=deltas, _collisions=counts)
    assert slow.counters == compiled.counters
    assert np.array_equal(np.asarray(slow.answer), np.asarray(compiled.answer))
    tested = keys.calls - n
    evaluations = compiled.counters["evaluations"]
    assert compiled.counters["placement_tries"] == tested  # the placement's own counter
    assert evaluations == tested + deltas.calls // 2 + counts.calls
    assert compiled.counters["tries"] == deltas.calls // 2  # tries (the old unit) leave out the rest
    if cap > 0 and compiled.answer is None:
        assert cap <= evaluations < cap + 64
