# mypy: disable-error-code="assignment,index,arg-type"
"""Compact-ranked pattern databases as the search reads them (``partition="7-8"``): the
two-pattern partition, its tables, and the compiled estimates — regular, reflected about the
main diagonal, and dual.

A pattern's entry is found by the compact rank of its tiles' cells (``region_pdb_build``), which
the search recomputes for the one pattern a move touches (at most 8 steps, each a table read of
a popcount): a sparse ``16^8`` index would need 4.3 G entries. The tables are memory maps read
in place, passed to the kernel as a tuple (never copied into one array: 550 MiB per process).

**Reflection.** The state reflected about the main diagonal (tile t on cell q ↦ tile r(t) on
cell r(q)) is as far from the goal as the state itself when the goal's blank is on that
diagonal, so the same tables give a second estimate; every partition serves, not only a
reflection-symmetric one.

**Dual.** With the goal tile p on cell p and the blank on cell 0, a state whose blank is on
cell 0 has a dual — the inverse permutation: the tile on cell t read as the cell of tile t —
at the same distance (Zahavi, Felner, Holte & Schaeffer 2005, "simple duality"; with the blank
elsewhere the inverse can lie in the other half of the permutations, unreachable). A third
estimate, then, read only at such nodes and only where the other two did not cut the node off.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from puzzlebench.host.cache_dir import cache_dir
from puzzlebench.search.pattern_databases.pattern_database import popcounts
from puzzlebench.search.pattern_databases.pattern_database_files import StoredDatabase, load_or_build
from puzzlebench.search.pattern_databases.region_pdb_build import max_pattern, pop32

#: The patterns of the canonical goal (blank on cell 0). On 4×4: the seven tiles of the top two
#: rows and the eight of the bottom two (Felner, Korf & Hanan 2004, their 7-8 partition). On
#: 5×5: Korf & Felner's 6-6-6-6 (AIJ 134 (2002) 9-22), as clausecker/24puzzle's catalogue
#: ``reinefeld-et-al.cat`` and sourcedennis/puzzle24 (after the paper's figure) transcribe it;
#: Korf's own program and other copies list its mirror about the main diagonal ({1,2,5,6,7,12},
#: {3,4,8,9,13,14}, ...). With the reflected lookup taken as well (the maximum of the two) both
#: give the same estimate. The reflection does not map the partition onto itself, so the four
#: tables are distinct (``twentyfour``).
COMPACT_PARTITIONS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {
    (4, 4): ((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15)),
    (5, 5): ((1, 5, 6, 10, 11, 12), (2, 3, 4, 7, 8, 9), (13, 14, 18, 19, 23, 24), (15, 16, 17, 20, 21, 22)),
}

#: Loaded tables by goal and cache directory (see ``pdb_lookup._LOADED``).
_LOADED: dict[tuple[int, int, tuple[int, ...], int, str], StoredDatabase] = {}


def compact_partition(rows: int, cols: int, blank_goal: int) -> tuple[tuple[int, ...], ...]:
    """The patterns (as goal cells) of a relabelled goal: 7-8 on 4×4 and 6-6-6-6 on 5×5 with the
    blank on cell 0, elsewhere the tiles in row-major order of their goal cells cut into as few
    patterns of at most 8 (6 on boards of more than 16 cells) as possible, of near-equal sizes."""
    if blank_goal == 0 and (rows, cols) in COMPACT_PARTITIONS:
        return COMPACT_PARTITIONS[(rows, cols)]
    cells = [c for c in range(rows * cols) if c != blank_goal]
    parts = math.ceil(len(cells) / max_pattern(rows * cols))
    size = math.ceil(len(cells) / parts)
    return tuple(tuple(cells[i:i + size]) for i in range(0, len(cells), size))


def compact_databases(rows: int, cols: int, blank_goal: int, *, build: bool = True) -> list[StoredDatabase]:
    """This goal's compact-ranked databases, loaded once per process (built and cached when
    missing; ``build=False``: FileNotFoundError instead); each table's goal has the blank on
    ``blank_goal``."""
    out = []
    for cells in compact_partition(rows, cols, blank_goal):
        key = (rows, cols, cells, blank_goal, str(cache_dir()))
        if key not in _LOADED:
            _LOADED[key] = load_or_build(cells, rows, cols, kind="compact", blank_goal=blank_goal,
                                         build=build)
        out.append(_LOADED[key])
    return out


@dataclass(frozen=True)
class CompactLookup:
    """The arrays the kernel reads: the tables (a tuple, read in place), each pattern's tiles back
    to back, each tile's pattern, and the reflection of cells (−1 everywhere: none)."""

    tables: tuple[np.ndarray, ...]
    pattern_tiles: np.ndarray
    pattern_start: np.ndarray
    pattern_size: np.ndarray
    pattern_of: np.ndarray
    reflect: np.ndarray
    popcount: np.ndarray

    @classmethod
    def of(cls, dbs: list[StoredDatabase], rows: int, cols: int, use_reflection: bool) -> CompactLookup:
        cells = rows * cols
        tables = []
        for db in dbs:
            view = np.asarray(db.table).view()
            view.flags.writeable = False  # one compiled signature, memory map or not
            tables.append(view)
        pattern_of = np.full(cells, -1, np.int64)
        for i, db in enumerate(dbs):
            for c in db.cells:
                pattern_of[c] = i
        sizes = np.array([len(db.cells) for db in dbs], np.int64)
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        flat = np.array([c for db in dbs for c in db.cells], np.int64)
        reflect = np.array([(p % cols) * cols + p // cols for p in range(cells)] if use_reflection
                           else [-1] * cells, np.int64)
        return cls(tuple(tables), flat, starts, sizes, pattern_of, reflect, popcounts())


_LOOKUPS: dict[tuple[Any, ...], CompactLookup] = {}


def compact_lookup(dbs: list[StoredDatabase], rows: int, cols: int, use_reflection: bool) -> CompactLookup:
    """The kernel's arrays for these databases, made once per process."""
    key = (rows, cols, tuple(db.cells for db in dbs), tuple(db.blank_region for db in dbs),
           tuple(str(db.path) for db in dbs), use_reflection)
    if key not in _LOOKUPS:
        _LOOKUPS[key] = CompactLookup.of(dbs, rows, cols, use_reflection)
    return _LOOKUPS[key]


@numba.njit(cache=True)
def pattern_rank(pos: np.ndarray, p: int, pattern_tiles: np.ndarray, pattern_start: np.ndarray,
                 pattern_size: np.ndarray, cells: int, popcount: np.ndarray) -> np.int64:
    """The compact rank of pattern p's tiles' cells ``pos[tile]`` (boards of up to 32 cells:
    the cells below c are counted in two reads of the 16-bit popcount table)."""
    used = np.int64(0)
    r = np.int64(0)
    s = pattern_start[p]
    for j in range(pattern_size[p]):
        c = pos[pattern_tiles[s + j]]
        r = r * (cells - j) + c - pop32(used & ((np.int64(1) << c) - 1), popcount)
        used |= np.int64(1) << c
    return r


@numba.njit(cache=True)
def pattern_h(pos: np.ndarray, p: int, tables: Any, pattern_tiles: np.ndarray, pattern_start: np.ndarray,
              pattern_size: np.ndarray, cells: int, popcount: np.ndarray) -> int:
    """Pattern p's entry for the tiles' cells ``pos[tile]``: its compact rank, then one read."""
    return int(tables[p][pattern_rank(pos, p, pattern_tiles, pattern_start, pattern_size, cells,
                                      popcount)])


@numba.njit(cache=True)
def sum_h(pos: np.ndarray, hv: np.ndarray, tables: Any, pattern_tiles: np.ndarray,
          pattern_start: np.ndarray, pattern_size: np.ndarray, cells: int, popcount: np.ndarray) -> int:
    """The sum over the patterns for cells ``pos``; each pattern's entry is kept in ``hv``."""
    h = 0
    for p in range(pattern_size.shape[0]):
        hv[p] = pattern_h(pos, p, tables, pattern_tiles, pattern_start, pattern_size, cells, popcount)
        h += hv[p]
    return h


@numba.njit(cache=True)
def dual_h(tiles: np.ndarray, dpos: np.ndarray, tables: Any, pattern_tiles: np.ndarray,
           pattern_start: np.ndarray, pattern_size: np.ndarray, popcount: np.ndarray) -> int:
    """The estimate of the dual of a state whose blank is on cell 0: tile t stands on the cell
    named by the tile on cell t."""
    for t in range(tiles.shape[0]):
        dpos[t] = max(tiles[t], 0)
    h = 0
    for p in range(pattern_size.shape[0]):
        h += pattern_h(dpos, p, tables, pattern_tiles, pattern_start, pattern_size, tiles.shape[0], popcount)
    return h


@numba.njit(cache=True)
def compact_estimates(states: np.ndarray, tables: Any, pattern_tiles: np.ndarray, pattern_start: np.ndarray,
                      pattern_size: np.ndarray, reflect: np.ndarray, popcount: np.ndarray,
                      dual: bool) -> np.ndarray:
    """h of many relabelled states (rows of ``states``, −1 the blank): the maximum of the
    regular, reflected (when ``reflect`` is given) and dual (when ``dual`` and the blank is on
    cell 0) sums."""
    cells = states.shape[1]
    n = pattern_size.shape[0]
    out = np.zeros(states.shape[0], np.int64)
    pos = np.zeros(cells, np.int64)
    rpos = np.zeros(cells, np.int64)
    dpos = np.zeros(cells, np.int64)
    hv = np.zeros(n, np.int64)
    for i in range(states.shape[0]):
        for q in range(cells):
            t = states[i, q]
            if t >= 0:
                pos[t] = q
                if reflect[0] >= 0:
                    rpos[reflect[t]] = reflect[q]
        h = sum_h(pos, hv, tables, pattern_tiles, pattern_start, pattern_size, cells, popcount)
        if reflect[0] >= 0:
            h = max(h, sum_h(rpos, hv, tables, pattern_tiles, pattern_start, pattern_size, cells, popcount))
        if dual and states[i, 0] < 0:
            h = max(h, dual_h(states[i], dpos, tables, pattern_tiles, pattern_start, pattern_size, popcount))
        out[i] = h
    return out
