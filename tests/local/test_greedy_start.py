"""Minton's greedy start for min-conflicts (``start = "greedy"``): a valid placement, the
same for the same seed, each queen on a least-conflicted column of its row given the queens
already placed (ties at random), far fewer conflicts than a random start, and its squares
counted in the run's evaluations."""

from __future__ import annotations

import numpy as np
import pytest

from puzzlebench.contract import Budget, SolverConfigError
from puzzlebench.harness.execute import run_solve
from puzzlebench.local.greedy_start import greedy_placement
from puzzlebench.local.min_conflicts import Lines, MinConflicts
from puzzlebench.problems import get_problem
from puzzlebench.records.record import Outcome
from tests.conformance.cases import make

NONE = np.zeros(0, np.int64)


def _keys(r: int, c: int, n: int, torus: bool) -> tuple[int, int]:
    """The diagonal keys, written out here rather than borrowed from the solver."""
    return ((r + c) % n, (r - c) % n) if torus else (r + c, r - c)


def _scores(r: int, n: int, torus: bool, placed: dict[int, int]) -> list[int]:
    """Conflicts of each square of row r with the queens in ``placed`` (row → column)."""
    out = []
    for c in range(n):
        a, d = _keys(r, c, n, torus)
        out.append(sum(1 for pr, pc in placed.items() if pc == c)
                   + sum(1 for pr, pc in placed.items() if _keys(pr, pc, n, torus)[0] == a)
                   + sum(1 for pr, pc in placed.items() if _keys(pr, pc, n, torus)[1] == d))
    return out


def _pairs(cols: np.ndarray) -> int:
    n = cols.size
    return Lines(cols, False).pairs(cols) if n else 0


@pytest.mark.parametrize(("n", "torus", "fixed"), [(40, False, {}), (31, True, {}),
                                                   (30, False, {3: 7, 17: 0})])
def test_each_queen_takes_a_least_conflicted_column(n: int, torus: bool,
                                                    fixed: dict[int, int]) -> None:
    """Replayed by hand: row by row, the chosen column's conflicts with the queens already on
    the board (the pre-placed ones and the rows above) are the row's minimum."""
    for seed in range(3):
        cols, scored = greedy_placement(n, torus, np.random.default_rng(seed),
                                        np.array(list(fixed), np.int64),
                                        np.array(list(fixed.values()), np.int64), False)
        assert cols.shape == (n,) and ((cols >= 0) & (cols < n)).all()
        assert all(cols[r] == c for r, c in fixed.items())
        placed = dict(fixed)
        for r in range(n):
            if r in fixed:
                continue
            scores = _scores(r, n, torus, placed)
            assert scores[cols[r]] == min(scores), (seed, r)
            placed[r] = int(cols[r])
        assert scored >= n - len(fixed)  # at least one square scored per queen placed


def test_permutation_start_keeps_columns_distinct() -> None:
    cols, _ = greedy_placement(500, False, np.random.default_rng(3), NONE, NONE, True)
    assert sorted(cols.tolist()) == list(range(500))


def test_same_seed_same_start_and_ties_broken_at_random() -> None:
    a = greedy_placement(2000, False, np.random.default_rng(7), NONE, NONE, False)
    b = greedy_placement(2000, False, np.random.default_rng(7), NONE, NONE, False)
    c = greedy_placement(2000, False, np.random.default_rng(8), NONE, NONE, False)
    assert (a[0] == b[0]).all() and a[1] == b[1]
    assert (a[0] != c[0]).any()
    # the first row ties on all n columns: over seeds, every column is taken
    firsts = {int(greedy_placement(8, False, np.random.default_rng(s), NONE, NONE, False)[0][0])
              for s in range(200)}
    assert firsts == set(range(8))


def test_greedy_start_leaves_far_fewer_conflicts_than_random() -> None:
    n = 4096
    for seed in range(3):
        greedy, _ = greedy_placement(n, False, np.random.default_rng(seed), NONE, NONE, False)
        random = np.random.default_rng(seed).integers(0, n, size=n)
        assert 20 * _pairs(greedy) < _pairs(random), seed


def test_min_conflicts_counts_the_greedy_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """Evaluations = the start placement counted (1) + the squares the greedy start scored +
    n per row repair; the counter of attacked queens after the start is the start's."""
    n, seen = 300, []

    def spy(*args: object) -> tuple[np.ndarray, int]:
        cols, scored = greedy_placement(*args)  # type: ignore[arg-type]
        seen.append((cols.copy(), scored))  # the solver repairs its start in place
        return cols, scored

    monkeypatch.setattr("puzzlebench.local.greedy_start.greedy_placement", spy)
    p = MinConflicts(start="greedy").solve(get_problem("nqueens").make(n), Budget(),
                                          np.random.default_rng(2))
    assert p.stopped_by == "answer" and len(seen) == 1 + p.counters["restarts"]
    assert p.counters["evaluations"] == (1 + p.counters["restarts"] + sum(s for _, s in seen)
                                         + n * p.counters["repairs"])
    start = seen[0][0]
    lines = Lines(start, False)
    assert p.counters["start_attacked"] == int(lines.attacked(start).sum())


def test_greedy_min_conflicts_through_the_harness() -> None:
    rec = run_solve("min-conflicts", make("nqueens", 20_000), seed=1,
                    params={"start": "greedy", "restart_after": 10**9},
                    budget=Budget(time_limit=60))
    assert rec.verdict.outcome is Outcome.SOLVED
    assert rec.figures.counters["repairs"] < 1_000 and rec.figures.counters["start_attacked"] < 200
    done = run_solve("min-conflicts", make("nqueens-completion", 12, placed="0:3,5:0"), seed=1,
                     params={"start": "greedy"}, budget=Budget(time_limit=20))
    assert done.verdict.outcome is Outcome.SOLVED
    assert done.verdict.answer[0] == 3 and done.verdict.answer[5] == 0
    with pytest.raises(SolverConfigError, match="start"):
        run_solve("min-conflicts", make("nqueens", 8), params={"start": "best"})
