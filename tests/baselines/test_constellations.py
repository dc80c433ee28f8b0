"""The constellation counter: OEIS totals and unique counts, its sub-problems, its kernels."""

from __future__ import annotations

import itertools
import math

import numba
import numpy as np
import pytest

from puzzlebench.harness.execute import run_count
from puzzlebench.problems.nqueens import A000170, A002562
from puzzlebench.records.record import Outcome
from puzzlebench_baselines.bitboard import count_queens
from puzzlebench_baselines.constellation_counter import count_constellations, schedule
from puzzlebench_baselines.constellation_end import (
    DIAG4,
    MASKS4,
    _by_pext,
    _by_tests,
    _has_pext,
    compress4,
    pattern_index,
    popcount,
    trailing_zeros,
)
from puzzlebench_baselines.constellation_kernel import CLOCK_EVERY, count_batch
from puzzlebench_baselines.constellations import Subproblem, count_subproblem, subproblems, table
from tests.conformance.cases import make


def _completions(n: int, sub: Subproblem, rotation: int, deadline: float = math.inf) -> list[int]:
    """The kernel's row for one sub-problem, with the rotation checks given."""
    return [int(v) for v in count_batch(n, table([sub._replace(rotation=rotation)]), deadline)[0]]


def _moves(n: int) -> list:
    last = n - 1
    return [lambda y, x: (y, x), lambda y, x: (y, last - x), lambda y, x: (last - y, x),
            lambda y, x: (last - y, last - x), lambda y, x: (x, y), lambda y, x: (x, last - y),
            lambda y, x: (last - x, y), lambda y, x: (last - x, last - y)]


def _edges(n: int, squares: set[tuple[int, int]]) -> tuple[int, int, int, int]:
    last = n - 1
    return (next(x for y, x in squares if y == 0), next(x for y, x in squares if y == last),
            next(y for y, x in squares if x == 0), next(y for y, x in squares if x == last))


def _all_constellations(n: int) -> set[tuple[int, int, int, int]]:
    """Every compatible set of edge queens, by brute force over whole squares."""
    last = n - 1
    found = set()
    for t, b, lft, rgt in itertools.product(range(n), repeat=4):
        squares = {(0, t), (last, b), (lft, 0), (rgt, last)}
        if all(y1 != y2 and x1 != x2 and abs(y1 - y2) != abs(x1 - x2)
               for (y1, x1), (y2, x2) in itertools.combinations(squares, 2)) \
                and _edges(n, squares) == (t, b, lft, rgt):
            found.add((t, b, lft, rgt))
    return found


@pytest.mark.covers("constellations")
def test_counts_and_unique_counts_are_oeis() -> None:
    for n in range(1, 15):
        for workers in (1, 2):
            found = count_constellations(n, workers)
            assert found is not None
            assert (found.total, found.unique) == (A000170[n], A002562[n]), (n, workers)
    rec = run_count("constellations", make("nqueens", 12), unique=True)
    assert (rec.verdict.count, rec.verdict.unique, rec.verdict.outcome) == (14200, 1787, Outcome.SOLVED)
    rec = run_count("constellations", make("nqueens", 10), params={"threads": 1})
    assert (rec.verdict.count, rec.verdict.outcome) == (724, Outcome.SOLVED)
    assert run_count("constellations", make("nqueens", 3)).verdict.count == 0


@pytest.mark.parametrize("n", range(1, 15))
def test_sub_problems_sum_to_the_direct_count(n: int) -> None:
    parts = [count_subproblem(n, sub) for sub in subproblems(n)]
    assert all(p is not None for p in parts)
    total = sum(p.total for p in parts if p is not None)
    unique = sum(p.unique for p in parts if p is not None)
    direct = count_queens(n, unique=True, symmetry="mirror")  # an independent enumeration
    assert (total, unique) == direct[:2] == (A000170[n], A002562[n])


@pytest.mark.parametrize("n", range(1, 10))
def test_one_representative_per_orbit_with_its_orbit_size(n: int) -> None:
    """Brute force over whole squares: the representatives are the orbits' smallest members,
    their weights the orbit sizes (so weighted, they cover every constellation once), and
    ``rotation`` names the smallest rotation that keeps one."""
    subs = subproblems(n)
    assert subs == subproblems(n)  # a pure function
    keys = [s[:4] for s in subs]
    assert keys == sorted(set(keys))  # deterministic order, no repeats
    every = _all_constellations(n)
    last = n - 1
    covered = 0
    for s in subs:
        squares = {(0, s.top), (last, s.bottom), (s.left, 0), (s.right, last)}
        images = [_edges(n, {m(y, x) for y, x in squares}) for m in _moves(n)]
        assert min(images) == s[:4] and s[:4] in every
        assert s.weight == len(set(images)) and s.weight in ((1,) if n == 1 else (2, 4, 8))
        assert s.rotation == (90 if images[5] == s[:4] else 180 if images[3] == s[:4] else 0)
        covered += s.weight
    assert covered == len(every)


def test_corner_sub_problems_come_first() -> None:
    n = 12
    subs = subproblems(n)
    order = schedule(n).tolist()
    assert sorted(order) == list(range(len(subs)))
    corner = [i for i in order if 0 in (subs[i].top, subs[i].left)]
    assert order[:len(corner)] == corner and corner


@pytest.mark.parametrize("n", range(5, 12))
def test_both_kernels_agree(n: int) -> None:
    """The fast kernel (look-ahead, the last four rows by table) against the plain one that
    keeps whole boards, on every sub-problem (those with fewer than five free rows go to the
    plain one)."""
    for s in subproblems(n):
        fast = _completions(n, s, 0)
        boards = _completions(n, s, 180)
        assert fast[0] == boards[0], s


@pytest.mark.parametrize("n", [12, 13, 14])
def test_last_rows_by_table_and_look_ahead_agree_with_a_plain_walk(n: int) -> None:
    """The fast kernel counts the last four free rows by table and looks two rows ahead,
    with shifts of 2 and 3 where an edge queen's row is stepped over: against the plain
    kernel, on every sub-problem whose left or right queen sits among rows 1-4 (the end of
    the bottom-up search) and on every corner one."""
    subs = [s for s in subproblems(n) if min(s.left, s.right) in (1, 2, 3, 4) or s.top == 0]
    assert len({(s.left, s.right) for s in subs}) > 20
    for s in subs:
        fast = _completions(n, s, 0)
        assert fast[0] == _completions(n, s, 180)[0], s


@pytest.mark.parametrize(("n", "placed"), [(10, 2766), (11, 13617), (12, 72370), (13, 389653)])
def test_queens_are_placed_down_to_four_rows_left(n: int, placed: int) -> None:
    """The fast kernel searches down to four free rows left and counts those four by table:
    the queens it places, pinned (the earlier kernel, which searched down to three rows left,
    placed 4228, 20128, 101321 and 534716), so a change to its tree shows."""
    out = count_batch(n, table(list(subproblems(n))), math.inf)
    assert int(out[:, 3].sum()) == placed


def test_the_last_four_rows_by_table_match_a_brute_force_count() -> None:
    """Four rows at distances 1-3 (at most two edge queens' rows stepped over in all), four
    columns anywhere, each row's free squares any subset of them: the tables' count against
    every way to give each row its own column."""
    rng = np.random.default_rng(57)
    spans = [s for s in itertools.product(range(1, 4), repeat=3) if sum(s) <= 5]
    assert len(spans) == 10
    for _ in range(3000):
        steps = list(spans[int(rng.integers(len(spans)))])
        rows = [0, steps[0], steps[0] + steps[1], sum(steps)]
        cols = sorted(int(v) for v in rng.choice(20, 4, replace=False))
        free = [[bool(v) for v in rng.integers(0, 2, 4)] for _ in range(4)]
        index = sum(free[i][k] << (4 * i + k) for i in range(4) for k in range(4))
        gaps = [min(cols[k + 1] - cols[k], 7) for k in range(3)]
        ways = int(MASKS4[index] & DIAG4[pattern_index(*steps) + gaps[0] + (gaps[1] << 3)
                                         + (gaps[2] << 6)])
        want = sum(all(free[i][way[i]] for i in range(4))
                   and all(abs(cols[way[i]] - cols[way[j]]) != rows[j] - rows[i]
                           for i, j in itertools.combinations(range(4), 2))
                   for way in itertools.permutations(range(4)))
        assert bin(ways).count("1") == want, (steps, cols, free)


@numba.njit
def _bits(free: int, left4: int) -> tuple[int, int, int, int]:
    x1 = left4 & -left4
    x2 = (left4 ^ x1) & -(left4 ^ x1)
    x3 = (left4 ^ x1 ^ x2) & -(left4 ^ x1 ^ x2)
    x4 = left4 ^ x1 ^ x2 ^ x3
    return (compress4(free, left4, x1, x2, x3, x4), _by_tests(free, left4, x1, x2, x3, x4),
            popcount(free), trailing_zeros(left4))


@numba.njit
def _pext_of(free: int, left4: int) -> int:
    return _by_pext(free, left4, 0, 0, 0, 0)


def test_the_bit_helpers_match_their_definitions() -> None:
    """``compress4`` (by ``pext`` or by four tests, whichever this host uses) and the other
    (where the host has ``pext``), ``popcount`` and ``trailing_zeros`` against plain Python."""
    rng = np.random.default_rng(7)
    for _ in range(300):
        columns = sorted(int(v) for v in rng.choice(40, 4, replace=False))
        left4 = sum(1 << k for k in columns)
        free = int(rng.integers(1, 1 << 41))
        packed = sum(((free >> k) & 1) << i for i, k in enumerate(columns))
        assert _bits(free, left4) == (packed, packed, bin(free).count("1"), columns[0])
        if _has_pext():
            assert _pext_of(free, left4) == packed


def test_a_first_row_without_a_free_square_places_no_queen() -> None:
    sub = Subproblem(0, 1, 0, 2, 8, 0)  # n = 6: the edge queens leave row 4 no square
    assert sub in subproblems(6)
    assert _completions(6, sub, 0) == [0, 0, 0, 0]
    assert _completions(6, sub, 180)[0] == 0


def _solutions(n: int, prefix: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """Every solution, by plain backtracking (row → column)."""
    if len(prefix) == n:
        return [prefix]
    y = len(prefix)
    return [s for x in range(n) if all(x != c and abs(x - c) != y - r for r, c in enumerate(prefix))
            for s in _solutions(n, (*prefix, x))]


@pytest.mark.parametrize("n", range(4, 11))
def test_rotation_symmetric_solutions_are_found(n: int) -> None:
    """Weighted over the representatives, the completions the kernel finds kept by a half
    (quarter) turn are all the solutions so kept (the set is closed under the symmetries)."""
    last = n - 1
    every = _solutions(n)
    want_half = sum(all(p[last - y] == last - p[y] for y in range(n)) for p in every)
    want_quarter = sum(all(p[p[y]] == last - y for y in range(n)) for p in every)
    half = quarter = 0
    for s in subproblems(n):
        found = _completions(n, s, s.rotation)
        half += s.weight * found[1]
        quarter += s.weight * found[2]
    assert len(every) == A000170[n]
    assert (half, quarter) == (want_half, want_quarter)


def test_a_passed_deadline_stops_the_count() -> None:
    assert count_constellations(18, 2, deadline=-math.inf) is None
    sub = Subproblem(0, 2, 0, 5, 8, 0)  # a corner constellation of n = 20: far above 2^20 queens
    found, _, _, nodes = _completions(20, sub, 0, -math.inf)
    assert found == -1 and CLOCK_EVERY <= nodes < 2 * CLOCK_EVERY
    assert count_subproblem(20, sub, deadline=-math.inf) is None


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(ValueError):
        subproblems(0)
    with pytest.raises(ValueError):
        count_constellations(33)
