"""The 24-puzzle's search pieces without its 127.5 M-entry tables: the 25-cell blank-region
builder (5 bits a tile) against a plain 0-1 search, the compact kernel on 5×5 with small
additive patterns (optimal against breadth-first search, nodes expanded counted), the 6-6-6-6
partition, and ``idastar-pdb``'s options on 5×5. The real tables are built and searched in the
slow tier (``test_twentyfour_slow.py``) and by ``benchmarks/twentyfour.py``."""

from __future__ import annotations

import itertools
import random
from collections import deque

import numpy as np
import pytest

from puzzlebench.contract import Budget, Claim
from puzzlebench.problems import get_problem
from puzzlebench.problems.sliding import apply_moves
from puzzlebench.search.pattern_databases.compact_batch_kernel import idastar_batch_kernel
from puzzlebench.search.pattern_databases.compact_kernel import idastar_compact_kernel
from puzzlebench.search.pattern_databases.compact_lookup import (
    COMPACT_PARTITIONS,
    CompactLookup,
    compact_partition,
)
from puzzlebench.search.pattern_databases.pattern_database_files import StoredDatabase, blank_region
from puzzlebench.search.pattern_databases.region_pdb_build import build_compact_table, compact_rank
from puzzlebench.search.sliding.idastar_pdb import IDAStarPDB
from puzzlebench.search.sliding.sliding_symmetry import DC, DR

SL = get_problem("sliding")
GOAL = ",".join(map(str, range(25)))


def zero_one(cells: tuple[int, ...], rows: int, cols: int,
             blank_goal: int = -1) -> dict[tuple[int, ...], int]:
    """Every placement's distance by a plain 0-1 search over (placement, blank cell): a blank
    move onto a free cell costs 0, onto a pattern tile 1; the minimum over the blank's cell."""
    n = rows * cols
    dist: dict[tuple[tuple[int, ...], int], int] = {}
    queue: deque[tuple[tuple[int, ...], int]] = deque()
    for b in range(n):
        if b not in cells and blank_goal in (-1, b):
            dist[(cells, b)] = 0
            queue.append((cells, b))
    while queue:
        placement, b = state = queue.popleft()
        d = dist[state]
        r, q = divmod(b, cols)
        for nr, nq in ((r - 1, q), (r + 1, q), (r, q - 1), (r, q + 1)):
            if not (0 <= nr < rows and 0 <= nq < cols):
                continue
            m = nr * cols + nq
            if m in placement:
                j = placement.index(m)
                nxt, cost = ((*placement[:j], b, *placement[j + 1:]), m), 1
            else:
                nxt, cost = (placement, m), 0
            if dist.get(nxt, 1 << 30) > d + cost:
                dist[nxt] = d + cost
                (queue.appendleft if cost == 0 else queue.append)(nxt)
    best: dict[tuple[int, ...], int] = {}
    for (placement, _), d in dist.items():
        best[placement] = min(best.get(placement, 255), d)
    return best


@pytest.mark.parametrize(("cells", "blank"), [((1, 5), 0), ((1, 5), -1), ((24, 12), -1), ((3, 4, 8), 0),
                                              ((6, 7, 11), 0)])
def test_the_25_cell_builder_equals_the_0_1_search(cells, blank) -> None:
    """Every placement of a small pattern on 5×5 (5-bit packing, 32-bit popcounts, a uint32 of
    seen marks for the 23 or 22 free cells): the table equals the 0-1 search. (1, 5) walls cell
    0 off: sent home to cell 0, the table differs from the one seeded in every region."""
    table, states = build_compact_table(cells, 5, 5, blank_goal=blank)
    want = zero_one(cells, 5, 5, blank)
    assert table.size == np.prod([25 - i for i in range(len(cells))])
    for placement in itertools.permutations(range(25), len(cells)):
        assert table[compact_rank(placement, 25)] == want.get(placement, 255), placement
    assert states >= len(want)
    assert (blank_region(cells, 5, 5, 0 if blank == 0 else None) >= 0) == (cells == (1, 5) and blank == 0)


def test_the_25_cell_builder_does_not_depend_on_threads() -> None:
    one, states = build_compact_table((2, 7, 13), 5, 5, threads=1)
    many, expanded = build_compact_table((2, 7, 13), 5, 5, threads=3)
    assert np.array_equal(one, many) and expanded >= states


def test_the_builder_refuses_what_it_cannot_build_on_5x5() -> None:
    with pytest.raises(ValueError):
        build_compact_table(tuple(range(1, 8)), 5, 5)  # 7 tiles: 35 bits
    with pytest.raises(ValueError):
        build_compact_table((1, 2), 6, 6)  # 36 cells
    with pytest.raises(ValueError):
        build_compact_table((1, 25), 5, 5)


def test_the_6_6_6_6_partition() -> None:
    """Korf & Felner's four patterns cover tiles 1..24 once each; the main diagonal's reflection
    maps them to another partition (their mirror), so no table stands in for another."""
    parts = COMPACT_PARTITIONS[(5, 5)]
    assert compact_partition(5, 5, 0) == parts
    assert sorted(c for p in parts for c in p) == list(range(1, 25)) and {len(p) for p in parts} == {6}
    mirror = {frozenset((c % 5) * 5 + c // 5 for c in p) for p in parts}
    assert mirror.isdisjoint({frozenset(p) for p in parts})
    assert {frozenset((1, 2, 5, 6, 7, 12)), frozenset((3, 4, 8, 9, 13, 14))} <= mirror
    other = compact_partition(5, 5, 24)  # a goal without its own partition: row-major, at most 6
    assert max(len(p) for p in other) <= 6 and sorted(c for p in other for c in p) == list(range(24))


@pytest.fixture(scope="module")
def small_lookup() -> tuple[CompactLookup, CompactLookup]:
    """Twelve additive 2-tile patterns on 5×5 (600 entries each), with and without reflection."""
    parts = [tuple(range(1, 25))[i:i + 2] for i in range(0, 24, 2)]
    dbs = []
    for cells in parts:
        table, states = build_compact_table(cells, 5, 5, blank_goal=0)
        dbs.append(StoredDatabase(cells, 5, 5, table, None, 0.0, states, True, 0.0, "compact",
                                  blank_region(cells, 5, 5, 0)))
    return CompactLookup.of(dbs, 5, 5, True), CompactLookup.of(dbs, 5, 5, False)


def bfs_length(start: tuple[int, ...], cap: int) -> int:
    """Optimal length to the goal (tile t on cell t, −1 the blank on 0) by breadth-first search."""
    goal = (-1, *range(1, 25))
    seen = {start}
    layer = [start]
    for d in range(cap + 1):
        if goal in seen:
            return d
        nxt = []
        for s in layer:
            b = s.index(-1)
            for mv in range(4):
                r, c = b // 5 + DR[mv], b % 5 + DC[mv]
                if 0 <= r < 5 and 0 <= c < 5:
                    t = list(s)
                    t[b], t[r * 5 + c] = t[r * 5 + c], -1
                    u = tuple(t)
                    if u not in seen:
                        seen.add(u)
                        nxt.append(u)
        layer = nxt
    raise AssertionError("longer than the walk")


@pytest.mark.parametrize("seed", range(4))
def test_the_compact_kernel_is_optimal_on_5x5_scrambles(small_lookup, seed) -> None:
    """Random walks of 14 blank moves: the kernel's answer (with and without the reflection, and
    with the dual) replays to the goal and is as short as breadth-first search finds; nodes
    expanded are at least one per move and fewer than those generated."""
    rng = random.Random(seed)
    goal = SL.make(24, start=GOAL, goal=GOAL)
    state = goal
    for _ in range(14):
        moves = [m for m in "UDLR" if "off the board" not in SL.validate(state, m).reason]
        state = SL.make(24, start=",".join(map(str, apply_moves(state, rng.choice(moves)))), goal=GOAL)
    tiles = np.array([t if t else -1 for t in state.start], np.int64)
    want = bfs_length(tuple(int(t) for t in tiles), 14)
    for look, dual in ((small_lookup[0], False), (small_lookup[1], False), (small_lookup[0], True)):
        status, moves, generated, iterations, h0, _, expanded = idastar_compact_kernel(
            tiles, 5, 5, look.tables, look.pattern_tiles, look.pattern_start, look.pattern_size,
            look.pattern_of, look.reflect, look.popcount, dual, -1, 1e18)
        assert status == 1 and len(moves) == want and h0 <= want
        answer = "".join("UDLR"[m] for m in moves)
        assert SL.validate(state, answer).valid
        assert len(moves) <= expanded < generated or want == 0
        if not dual:  # the batch kernel: the same answer length and nodes expanded
            (b_status, b_moves, b_generated, b_iterations, b_h0, b_expanded,
             before_last) = idastar_batch_kernel(
                tiles, 5, 5, look.tables, look.pattern_tiles, look.pattern_start, look.pattern_size,
                look.pattern_of, look.reflect, look.popcount, -1, 1e18)
            assert (b_status, len(b_moves), b_iterations, b_h0, b_expanded) == (
                status, len(moves), iterations, h0, expanded)
            assert SL.validate(state, "".join("UDLR"[m] for m in b_moves)).valid
            assert generated <= b_generated <= generated + 2 * len(moves)
            assert 0 < before_last < b_expanded or iterations == 1


def test_the_compact_kernel_keeps_the_node_cap(small_lookup) -> None:
    look = small_lookup[0]
    rng = random.Random(3)
    start = list(range(25))
    for _ in range(2000):
        a, b = rng.sample(range(1, 25), 2)
        start[a], start[b] = start[b], start[a]
    if not SL.is_solvable(SL.make(24, start=",".join(map(str, start)), goal=GOAL)):
        start[1], start[2] = start[2], start[1]
    tiles = np.array([t if t else -1 for t in start], np.int64)
    status, moves, generated, *_ = idastar_compact_kernel(
        tiles, 5, 5, look.tables, look.pattern_tiles, look.pattern_start, look.pattern_size,
        look.pattern_of, look.reflect, look.popcount, False, 50_000, 1e18)
    assert status == -1 and len(moves) == 0 and generated == 50_000
    status, moves, generated, *_ = idastar_batch_kernel(
        tiles, 5, 5, look.tables, look.pattern_tiles, look.pattern_start, look.pattern_size,
        look.pattern_of, look.reflect, look.popcount, 50_000, 1e18)
    assert status == -1 and len(moves) == 0 and generated == 50_000
    status, *_ = idastar_batch_kernel(  # a deadline already past stops it at the first clock read
        tiles, 5, 5, look.tables, look.pattern_tiles, look.pattern_start, look.pattern_size,
        look.pattern_of, look.reflect, look.popcount, -1, 0.0)
    assert status == -1


def test_idastar_pdb_options_on_5x5() -> None:
    """Beyond 16 cells the compact search serves 6-6-6-6 (and the default, 6-6-3, that stands
    for it there); 7-8 is the 15-puzzle's and 6-6-6-6 the 24-puzzle's; blank-aware tables and the
    dual are declined there; boards beyond 25 cells are declined."""
    inst = SL.make(24, start="korf24:40")
    fifteen = SL.make(15, start="korf:1")
    assert IDAStarPDB(partition="6-6-6-6").refusal(inst) is None
    assert IDAStarPDB().refusal(inst) is None
    assert "24-puzzle" in (IDAStarPDB(partition="6-6-6-6").refusal(fifteen) or "")
    assert "15-puzzle" in (IDAStarPDB(partition="7-8").refusal(inst) or "")
    refused = IDAStarPDB(partition="6-6-6-6").solve(fifteen, Budget(time_limit=1.0),
                                                    np.random.default_rng(0))
    assert refused.claim == Claim.DECLINED and "24-puzzle" in refused.note
    assert IDAStarPDB(blank_aware=True).refusal(inst)
    assert IDAStarPDB(dual=True, partition="7-8").refusal(inst)
    assert IDAStarPDB(dual=True, partition="7-8").refusal() is None
    assert IDAStarPDB(dual=True).refusal() is not None  # on 4×4 the dual needs 7-8
    assert IDAStarPDB()._compact(inst) and not IDAStarPDB()._compact(SL.make(15, start="korf:1"))
    big = SL.make(35, start=",".join(map(str, range(36))), goal=",".join(map(str, range(36))))
    proposal = IDAStarPDB().solve(big, Budget(time_limit=1.0), np.random.default_rng(0))
    assert proposal.claim == Claim.DECLINED
    declined = IDAStarPDB(blank_aware=True).solve(inst, Budget(time_limit=1.0), np.random.default_rng(0))
    assert declined.claim == Claim.DECLINED
