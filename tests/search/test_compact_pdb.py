"""Compact-ranked pattern databases (the blank-region search) and ``idastar-pdb``'s
``partition=7-8``: the tables against the 0-1 search and true distances, the regular, reflected
and dual estimates admissible on every 3×3 state, optimal answers, the cache, the options.

The 4×4 7-8 tables themselves (10 minutes to build) are never built here: the mechanism is
the same on every board, and ``benchmarks/korf100.py --partition 7-8`` runs Korf's 100."""

from __future__ import annotations

import itertools
import os
import random
from collections import deque
from pathlib import Path

import numpy as np
import pytest

from puzzlebench.contract import Budget, SolverConfigError
from puzzlebench.harness.campaign.design.study_file import study_from_dict
from puzzlebench.problems import get_problem
from puzzlebench.problems.sliding_distances import optimal_length
from puzzlebench.search.pattern_databases import pattern_database_files as files
from puzzlebench.search.pattern_databases.compact_lookup import (
    compact_estimates,
    compact_lookup,
    compact_partition,
)
from puzzlebench.search.pattern_databases.pattern_database import build_kernel
from puzzlebench.search.pattern_databases.region_pdb_build import build_compact_table, compact_rank
from puzzlebench.search.sliding.idastar_pdb import IDAStarPDB

SL = get_problem("sliding")
CANONICAL_3X3 = (-1, 1, 2, 3, 4, 5, 6, 7, 8)  # tile p on cell p, the blank (−1) on cell 0


def all_distances(goal: tuple[int, ...], rows: int, cols: int) -> dict[tuple[int, ...], int]:
    """True distances of every state from ``goal`` (−1 the blank), by plain BFS."""
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        s = queue.popleft()
        b = s.index(-1)
        r, c = divmod(b, cols)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                n = (r + dr) * cols + c + dc
                t = list(s)
                t[b], t[n] = t[n], t[b]
                u = tuple(t)
                if u not in dist:
                    dist[u] = dist[s] + 1
                    queue.append(u)
    return dist


@pytest.fixture(scope="module")
def distances_3x3() -> dict[tuple[int, ...], int]:
    return all_distances(CANONICAL_3X3, 3, 3)


@pytest.mark.parametrize(("cells", "rows", "cols"), [((1, 2, 3, 4), 3, 3), ((5, 6, 7, 8), 3, 3),
                                                     ((0, 4, 8), 3, 3), ((1, 4, 5), 4, 4),
                                                     ((13, 14, 15), 4, 4), ((7, 8, 9, 10, 11), 3, 4)])
def test_blank_region_search_equals_the_0_1_search(cells, rows, cols) -> None:
    """Every placement: the compact table's entry (by compact rank) equals the sparse table of
    the 0-1 search over (placement, blank cell) — the minimum over the blank's cell."""
    n = rows * cols
    table, states = build_compact_table(cells, rows, cols)
    sparse, reached, _ = build_kernel(np.asarray(cells, np.int64), rows, cols)
    assert table.size == np.prod([n - i for i in range(len(cells))])
    for placement in itertools.permutations(range(n), len(cells)):
        idx = 0
        for c in placement:
            idx = idx * n + c
        assert table[compact_rank(placement, n)] == sparse[idx], placement
    assert 0 < states <= reached  # a region stands for one or more blank cells


@pytest.mark.parametrize(("cells", "rows", "cols", "blank"), [((1, 3), 3, 3, 0), ((1, 3, 4), 3, 3, 0),
                                                              ((1, 4), 4, 4, 0), ((1, 2, 3, 4, 5), 3, 3, 0),
                                                              ((1, 2), 3, 3, 0)])
def test_blank_region_search_sends_the_blank_home(cells, rows, cols, blank) -> None:
    """With the blank's goal given, the goal layer is the goal placement with the blank in the
    region that holds that cell only (issue 41: seeding every region made the 15-puzzle's
    tiles-1-7 table weaker, and the 7-8 search generate 3.4 times the nodes). Every placement
    equals the 0-1 search sent to the same goal, and where the goal placement splits the free
    cells the table is higher somewhere than the one seeded in every region."""
    n = rows * cols
    table, _ = build_compact_table(cells, rows, cols, blank_goal=blank)
    sparse, _, _ = build_kernel(np.asarray(cells, np.int64), rows, cols, blank)
    for placement in itertools.permutations(range(n), len(cells)):
        idx = 0
        for c in placement:
            idx = idx * n + c
        assert table[compact_rank(placement, n)] == sparse[idx], placement
    anywhere, _ = build_compact_table(cells, rows, cols)
    assert (table >= anywhere).all()
    assert (table > anywhere).any() == (files.blank_region(cells, rows, cols, blank) >= 0)


def test_an_8_tile_pattern_is_the_exact_distance_on_3x3(distances_3x3) -> None:
    """Eight tiles fill the packed uint32 (the high nibble is used) and, on 3×3, leave no
    abstraction: the table is the true distance of every reachable placement."""
    table, states = build_compact_table(tuple(range(1, 9)), 3, 3, threads=1)
    assert states == 181_440  # one thread: no state queued twice
    for s, d in distances_3x3.items():
        assert table[compact_rank(tuple(s.index(t) for t in range(1, 9)), 9)] == d
    assert int((table != 255).sum()) == 181_440  # the other half: the wrong parity, unreached


@pytest.mark.parametrize(("cells", "rows", "cols"), [((1, 2, 3, 4, 5), 3, 4), ((1, 2, 3, 4), 3, 3)])
def test_one_thread_or_many_build_the_same_table(cells, rows, cols) -> None:
    """The layer's threads share the seen marks without atomics: the table must not depend on it."""
    one, states = build_compact_table(cells, rows, cols, threads=1)
    for threads in (2, 3):
        many, expanded = build_compact_table(cells, rows, cols, threads=threads)
        assert np.array_equal(one, many) and expanded >= states


def test_the_builder_refuses_what_it_cannot_build() -> None:
    with pytest.raises(ValueError):
        build_compact_table(tuple(range(9)), 3, 3)  # no cell left for the blank
    with pytest.raises(ValueError):
        build_compact_table(tuple(range(1, 10)), 4, 4)  # more than 8 tiles
    with pytest.raises(ValueError):
        build_compact_table((1, 1), 3, 3)


def test_compact_rank_is_a_bijection() -> None:
    ranks = sorted(compact_rank(p, 6) for p in itertools.permutations(range(6), 3))
    assert ranks == list(range(6 * 5 * 4))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PUZZLEBENCH_CACHE", str(tmp_path))
    return tmp_path


def two_patterns_3x3() -> list[files.StoredDatabase]:
    return [files.load_or_build(c, 3, 3, kind="compact") for c in ((1, 2, 3, 4), (5, 6, 7, 8))]


@pytest.mark.parametrize(("reflect", "dual"), [(False, False), (True, False), (False, True), (True, True)])
def test_every_3x3_state_admissible(cache: Path, distances_3x3, reflect: bool, dual: bool) -> None:
    """Two 4-tile compact databases on every 3×3 state: h ≤ the true distance, h = 0 only at
    the goal; the reflection and the dual lookup never lower the estimate and raise it somewhere."""
    look = compact_lookup(two_patterns_3x3(), 3, 3, reflect)
    states = np.array(list(distances_3x3), np.int64)
    true = np.array(list(distances_3x3.values()))
    h = compact_estimates(states, look.tables, look.pattern_tiles, look.pattern_start, look.pattern_size,
                          look.reflect, look.popcount, dual)
    assert (h <= true).all()
    assert set(np.flatnonzero(h == 0)) == set(np.flatnonzero(true == 0))
    plain_look = compact_lookup(two_patterns_3x3(), 3, 3, False)
    plain = compact_estimates(states, plain_look.tables, plain_look.pattern_tiles, plain_look.pattern_start,
                              plain_look.pattern_size, plain_look.reflect, plain_look.popcount, False)
    assert (h >= plain).all()
    assert (h > plain).any() == (reflect or dual)


def test_the_dual_of_a_blank_home_state_is_as_far(distances_3x3) -> None:
    """The property the dual lookup rests on: with the blank on its goal cell, the inverse
    permutation is a state at the same distance."""
    for s, d in distances_3x3.items():
        if s[0] == -1:
            dual = (-1, *(s.index(c) for c in range(1, 9)))
            assert distances_3x3[dual] == d


def test_partitions_cover_every_tile_once() -> None:
    assert compact_partition(4, 4, 0) == ((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15))
    for rows, cols, blank in [(4, 4, 0), (4, 4, 5), (3, 3, 0), (3, 4, 0), (2, 3, 0)]:
        parts = compact_partition(rows, cols, blank)
        flat = sorted(c for p in parts for c in p)
        assert flat == [c for c in range(rows * cols) if c != blank]
        assert all(len(p) <= 8 for p in parts)


def test_compact_kind_round_trips_through_the_cache(cache: Path) -> None:
    first = files.load_or_build((1, 2, 3, 4), 3, 3, kind="compact")
    assert first.built_now and first.path is not None and first.path.name.endswith(".compact.pdb")
    assert first.table.size == 9 * 8 * 7 * 6
    second = files.load_or_build((1, 2, 3, 4), 3, 3, kind="compact")
    assert not second.built_now and isinstance(second.table, np.memmap)
    assert np.array_equal(np.asarray(first.table), np.asarray(second.table))
    data = bytearray(first.path.read_bytes())
    data[files.HEADER_BYTES + 7] ^= 0x01
    first.path.write_bytes(bytes(data))
    assert files.read_database(first.path, (1, 2, 3, 4), 3, 3, "compact") is None
    assert files.load_or_build((1, 2, 3, 4), 3, 3, kind="compact").built_now


@pytest.mark.covers("idastar-pdb")
@pytest.mark.parametrize("dual", [False, True])
def test_partition_7_8_solves_the_8_puzzle_optimally(cache: Path, dual: bool) -> None:
    rng = random.Random(41)
    solver = IDAStarPDB(partition="7-8", dual=dual)
    solved = 0
    while solved < 12:
        start = list(range(9))
        rng.shuffle(start)
        inst = SL.make(8, start="".join(map(str, start)))
        proposal = solver.solve(inst, Budget(time_limit=60), np.random.default_rng(0))
        if proposal.claim.name == "INFEASIBLE":
            assert optimal_length(inst.start, inst.goal) is None
            continue
        assert SL.validate(inst, proposal.answer).valid
        assert len(proposal.answer) == optimal_length(inst.start, inst.goal)
        assert ("dual_cutoffs" in proposal.counters) == dual
        solved += 1


def test_partition_7_8_goals_anywhere_on_3x3(cache: Path) -> None:
    """A goal whose blank is not in a corner gets databases of its own cells; still optimal."""
    goal = "123405678"
    rng = random.Random(7)
    solver = IDAStarPDB(partition="7-8")
    for _ in range(6):
        start = list(goal)
        rng.shuffle(start)
        inst = SL.make(8, start="".join(start), goal=goal)
        proposal = solver.solve(inst, Budget(time_limit=60), np.random.default_rng(0))
        best = optimal_length(inst.start, inst.goal)
        if best is None:
            assert proposal.claim.name == "INFEASIBLE"
        else:
            assert SL.validate(inst, proposal.answer).valid and len(proposal.answer) == best


def test_options_that_do_not_combine_are_declined() -> None:
    inst = SL.make(8, start="123456708")
    for params in ({"partition": "7-8", "blank_aware": True}, {"dual": True}):
        proposal = IDAStarPDB(**params).solve(inst, Budget(time_limit=10), np.random.default_rng(0))
        assert proposal.claim.name == "DECLINED" and "idastar-pdb" in proposal.note
    with pytest.raises(SolverConfigError):
        IDAStarPDB(partition="8-7")


def test_the_partition_and_the_dual_lookup_change_the_run_key() -> None:
    given = [{}, {"partition": "7-8"}, {"partition": "7-8", "dual": True}]
    study = study_from_dict({"study": {"name": "keys", "time_limit": 10},
                             "problems": [{"problem": "sliding", "sizes": [8], "starts": ["123456708"]}],
                             "solvers": [{"name": "idastar-pdb", "params": p} for p in given]}, "test")
    runs = list(study.runs())
    assert [r.params["partition"] for r in runs] == ["6-6-3", "7-8", "7-8"]
    assert len({r.key for r in runs}) == 3


def test_a_stamped_file_is_not_read_again_and_any_change_voids_the_stamp(
        cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CRC is checked once per version of a file: a sound file leaves a stamp, a load that
    finds the file as stamped reads no byte of the table; a write (even one that puts the
    modification time back) changes the file's identity, and the CRC is checked again."""
    first = files.load_or_build((1, 2, 3, 4), 3, 3, kind="compact")
    path = first.path
    assert path is not None and path.with_name(path.name + ".checked").exists()

    def no_crc(_: object) -> int:
        raise AssertionError("the CRC was computed for a stamped file")

    with monkeypatch.context() as m:
        m.setattr(files.zlib, "crc32", no_crc)
        assert files.read_database(path, (1, 2, 3, 4), 3, 3, "compact") is not None
    before = path.stat()
    data = bytearray(path.read_bytes())
    data[files.HEADER_BYTES + 11] ^= 0x01
    path.write_bytes(bytes(data))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert files.read_database(path, (1, 2, 3, 4), 3, 3, "compact") is None
