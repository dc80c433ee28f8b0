"""The 24-puzzle's sparse-indexed search without its 244 M-entry tables: the spread of a compact
table (every placement's entry unchanged), and ``sparse_batch_kernel`` against the reference it
replaces, ``compact_batch_kernel``, on 5×5 with small additive patterns — the same answer and the
same nodes generated and expanded, optimal against breadth-first search on short scrambles."""

from __future__ import annotations

import itertools
import os
import random

import numpy as np
import pytest

from puzzlebench.search.pattern_databases import sparse_tables
from puzzlebench.search.pattern_databases.compact_batch_kernel import idastar_batch_kernel
from puzzlebench.search.pattern_databases.compact_lookup import CompactLookup
from puzzlebench.search.pattern_databases.pattern_database import popcounts
from puzzlebench.search.pattern_databases.pattern_database_files import StoredDatabase, blank_region
from puzzlebench.search.pattern_databases.region_pdb_build import build_compact_table, compact_rank
from puzzlebench.search.pattern_databases.sparse_batch_kernel import idastar_sparse_kernel
from puzzlebench.search.pattern_databases.sparse_tables import SparseLookup, spread
from puzzlebench.search.sliding.sliding_symmetry import DC, DR


def _dbs(size: int) -> list[StoredDatabase]:
    parts = [tuple(range(1, 25))[i:i + size] for i in range(0, 24, size)]
    out = []
    for cells in parts:
        table, states = build_compact_table(cells, 5, 5, blank_goal=0)
        out.append(StoredDatabase(cells, 5, 5, table, None, 0.0, states, True, 0.0, "compact",
                                  blank_region(cells, 5, 5, 0)))
    return out


@pytest.fixture(scope="module")
def lookups() -> dict[tuple[int, bool], tuple[CompactLookup, SparseLookup]]:
    """Twelve 2-tile and eight 3-tile patterns on 5×5, with and without reflection: the compact
    arrays and the sparse ones made from the same tables."""
    out = {}
    for size in (2, 3):
        dbs = _dbs(size)
        for reflect in (True, False):
            sparse_tables._LOOKUPS.clear()
            out[(size, reflect)] = (CompactLookup.of(dbs, 5, 5, reflect),
                                    sparse_tables.sparse_lookup(dbs, 5, 5, reflect, popcounts()))
    return out


def test_the_spread_table_keeps_every_entry() -> None:
    """Each placement of three tiles reads, at its sparse index, the entry its compact rank reads."""
    table, _ = build_compact_table((3, 4, 8), 5, 5, blank_goal=0)
    sparse = spread(table, 3, 25, popcounts())
    assert sparse.size == 25 ** 3
    for placement in itertools.permutations(range(25), 3):
        index = placement[0] * 625 + placement[1] * 25 + placement[2]
        assert sparse[index] == table[compact_rank(placement, 25)], placement


def _walk(seed: int, length: int) -> np.ndarray:
    """The goal (−1 the blank on cell 0, tile t on cell t) scrambled by ``length`` random moves."""
    rng = random.Random(seed)
    tiles = [-1, *range(1, 25)]
    blank = 0
    for _ in range(length):
        moves = [m for m in range(4) if 0 <= blank // 5 + DR[m] < 5 and 0 <= blank % 5 + DC[m] < 5]
        mv = rng.choice(moves)
        src = blank + DR[mv] * 5 + DC[mv]
        tiles[blank], tiles[src] = tiles[src], -1
        blank = src
    return np.array(tiles, np.int64)


def _bfs_length(start: tuple[int, ...], cap: int) -> int:
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


def _both(look: CompactLookup, sparse: SparseLookup, tiles: np.ndarray, cap: int = -1,
          deadline: float = 1e18) -> tuple[tuple, tuple]:
    old = idastar_batch_kernel(tiles, 5, 5, look.tables, look.pattern_tiles, look.pattern_start,
                               look.pattern_size, look.pattern_of, look.reflect, look.popcount, cap, deadline)
    new = idastar_sparse_kernel(tiles, 5, 5, sparse.table, sparse.base, sparse.pattern_of, sparse.weight,
                                sparse.reflect, cap, deadline)
    return old, new


@pytest.mark.parametrize("seed", range(3))
def test_the_sparse_kernel_is_optimal_on_short_scrambles(lookups, seed) -> None:
    """Walks of 12 moves: the answer replays to the goal at the breadth-first length."""
    tiles = _walk(seed, 12)
    want = _bfs_length(tuple(int(t) for t in tiles), 12)
    for look, sparse in lookups.values():
        status, moves, *_ = _both(look, sparse, tiles)[1]
        assert status == 1 and len(moves) == want
        state = list(tiles)
        blank = state.index(-1)
        for mv in moves:
            src = blank + DR[mv] * 5 + DC[mv]
            state[blank], state[src] = state[src], -1
            blank = src
        assert state == [-1, *range(1, 25)]


@pytest.mark.parametrize("seed", range(4))
def test_the_sparse_kernel_searches_node_for_node_as_the_compact_one(lookups, seed) -> None:
    """Deeper scrambles (60 random moves): the same moves, nodes generated and expanded,
    iterations, start estimate and nodes before the last iteration as ``compact_batch_kernel``,
    with and without the reflection, with 2- and 3-tile patterns."""
    tiles = _walk(100 + seed, 60)
    for look, sparse in lookups.values():
        old, new = _both(look, sparse, tiles, cap=3_000_000)
        assert old[0] == 1
        assert (new[0], list(new[1]), *new[2:]) == (old[0], list(old[1]), *old[2:])


def test_the_sparse_kernel_keeps_the_node_cap_and_the_deadline(lookups) -> None:
    look, sparse = lookups[(2, True)]
    tiles = _walk(7, 400)
    old, new = _both(look, sparse, tiles, cap=20_000)
    assert new[0] == old[0] == -1 and len(new[1]) == 0 and new[2] == old[2] == 20_000
    assert new[5:] == old[5:]
    assert idastar_sparse_kernel(tiles, 5, 5, sparse.table, sparse.base, sparse.pattern_of, sparse.weight,
                                 sparse.reflect, -1, 0.0)[0] == -1  # a deadline already past


def test_the_spread_tables_are_cached_beside_the_compact_ones(tmp_path, monkeypatch) -> None:
    """The first lookup writes the tables end to end to ``5x5-spread-<crc>.npy``; the next process
    (a fresh lookup cache) maps it instead of spreading again; a rebuilt compact table (a new
    modification time) gets a new name."""
    dbs = []
    for cells in ((3, 4), (8, 9, 13)):
        table, states = build_compact_table(cells, 5, 5, blank_goal=0)
        path = tmp_path / f"5x5-{'.'.join(map(str, cells))}.compact.pdb"
        path.write_bytes(b"stand-in")
        dbs.append(StoredDatabase(cells, 5, 5, table, path, 0.0, states, False, 0.0, "compact", -1))
    monkeypatch.setattr(sparse_tables, "_LOOKUPS", {})
    first = sparse_tables.sparse_lookup(dbs, 5, 5, False, popcounts())
    written = list(tmp_path.glob("5x5-spread-*.npy"))
    assert len(written) == 1 and np.array_equal(np.load(written[0]), first.table)
    assert list(first.base) == [0, 625] and first.nbytes == 625 + 25 ** 3
    assert first.weight[3] == 25 and first.weight[4] == 1 and first.weight[8] == 625
    calls = []
    monkeypatch.setattr(sparse_tables, "spread", lambda *a: calls.append(a))
    monkeypatch.setattr(sparse_tables, "_LOOKUPS", {})
    again = sparse_tables.sparse_lookup(dbs, 5, 5, False, popcounts())
    assert calls == [] and np.array_equal(again.table, first.table)
    before = sparse_tables.spread_path(dbs)
    os.utime(dbs[1].path, ns=(1, 1))
    assert sparse_tables.spread_path(dbs) != before
