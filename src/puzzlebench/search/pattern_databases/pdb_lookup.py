"""Additive pattern databases as the search reads them: the partition of a board's tiles into
patterns, the stored tables for it, and the compiled estimate (with the board's reflection) and
its O(1) update when one tile slides (see ``search.idastar_pdb``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from puzzlebench.host.cache_dir import cache_dir
from puzzlebench.search.pattern_databases.pattern_database import MAX_PATTERN
from puzzlebench.search.pattern_databases.pattern_database_files import StoredDatabase, load_or_build

#: Loaded tables by goal, kind and cache directory: a process forked from one that loaded them
#: (a fork server's ``prepare_runs``) must not take them for another cache's.
_LOADED: dict[tuple[int, int, tuple[int, ...], str, int, str], StoredDatabase] = {}

MAX_CELLS = 16


#: Hand-chosen partitions of the canonical goal (blank on cell 0), by board shape. On 4×4:
#: the two left columns below the blank, the right half of the top three rows, and the
#: bottom row's last three cells. Over ten of Korf's hardest instances it generated 74.6 M
#: nodes, against 105.5 M for (1 2 4 5 8 9 | 3 6 7 10 11 15 | 12 13 14) and 164.9 M for the
#: row-major cut (1-6 | 7-12 | 13-15).
PARTITIONS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {
    (4, 4): ((1, 4, 5, 8, 9, 12), (2, 3, 6, 7, 10, 11), (13, 14, 15)),
}


def partition(rows: int, cols: int, blank_goal: int) -> tuple[tuple[int, ...], ...]:
    """The patterns (as goal cells) covering every tile of a relabelled goal."""
    if blank_goal == 0 and (rows, cols) in PARTITIONS:
        return PARTITIONS[(rows, cols)]
    cells = [c for c in range(rows * cols) if c != blank_goal]
    return tuple(tuple(cells[i:i + MAX_PATTERN]) for i in range(0, len(cells), MAX_PATTERN))


def databases(rows: int, cols: int, blank_goal: int, kind: str = "compressed", *,
              build: bool = True) -> list[StoredDatabase]:
    """This goal's pattern databases of one kind (``compressed`` or ``blank``), loaded once per
    process (built and cached when missing; ``build=False``: FileNotFoundError instead); each
    table's goal has the blank on ``blank_goal``."""
    out = []
    for cells in partition(rows, cols, blank_goal):
        key = (rows, cols, cells, kind, blank_goal, str(cache_dir()))
        if key not in _LOADED:
            _LOADED[key] = load_or_build(cells, rows, cols, kind=kind, blank_goal=blank_goal,
                                         build=build)
        out.append(_LOADED[key])
    return out


@dataclass(frozen=True)
class Lookup:
    """The arrays the kernel reads: tables back to back, each tile's pattern and weight."""

    tables: np.ndarray
    offset: np.ndarray
    pattern_of: np.ndarray
    weight: np.ndarray
    reflect: np.ndarray
    pattern_cells: np.ndarray  # every pattern's goal cells, back to back (blank-aware lookups)
    pattern_start: np.ndarray
    pattern_size: np.ndarray

    @classmethod
    def of(cls, dbs: list[StoredDatabase], rows: int, cols: int, use_reflection: bool) -> Lookup:
        cells = rows * cols
        pattern_of = np.full(cells, -1, np.int64)
        weight = np.zeros(cells, np.int64)
        offset = np.zeros(len(dbs), np.int64)
        for i, db in enumerate(dbs):
            offset[i] = offset[i - 1] + dbs[i - 1].table.size if i else 0
            for j, c in enumerate(db.cells):
                pattern_of[c] = i
                weight[c] = cells ** (len(db.cells) - 1 - j)
        tables = np.concatenate([db.table for db in dbs]) if len(dbs) > 1 else np.asarray(dbs[0].table)
        reflect = np.array([(p % cols) * cols + p // cols for p in range(cells)] if use_reflection
                           else [-1] * cells, np.int64)
        sizes = np.array([len(db.cells) for db in dbs], np.int64)
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        flat = np.array([c for db in dbs for c in db.cells], np.int64)
        return cls(tables, offset, pattern_of, weight, reflect, flat, starts, sizes)


_LOOKUPS: dict[tuple[Any, ...], Lookup] = {}


def lookup(dbs: list[StoredDatabase], rows: int, cols: int, use_reflection: bool) -> Lookup:
    """The kernel's arrays for these databases, made once per process."""
    key = (rows, cols, tuple(db.cells for db in dbs), tuple(db.kind for db in dbs),
           tuple(db.blank_region for db in dbs), tuple(str(db.path) for db in dbs),
           use_reflection)
    if key not in _LOOKUPS:
        _LOOKUPS[key] = Lookup.of(dbs, rows, cols, use_reflection)
    return _LOOKUPS[key]


@numba.njit(cache=True)
def estimate(tiles: np.ndarray, tables: np.ndarray, offset: np.ndarray, pattern_of: np.ndarray,
              weight: np.ndarray, reflect: np.ndarray, idx: np.ndarray, ridx: np.ndarray) -> tuple[int, int]:
    """(sum of the databases, sum on the reflected state); fills the index arrays."""
    idx[:] = 0
    ridx[:] = 0
    for q in range(tiles.shape[0]):
        t = tiles[q]
        if t < 0:
            continue
        idx[pattern_of[t]] += q * weight[t]
        if reflect[0] >= 0:
            rt = reflect[t]
            ridx[pattern_of[rt]] += reflect[q] * weight[rt]
    h = 0
    hr = 0
    for p in range(idx.shape[0]):
        h += tables[offset[p] + idx[p]]
        hr += tables[offset[p] + ridx[p]]
    return h, (hr if reflect[0] >= 0 else 0)


@numba.njit(cache=True)
def estimates(states: np.ndarray, tables: np.ndarray, offset: np.ndarray, pattern_of: np.ndarray,
              weight: np.ndarray, reflect: np.ndarray) -> np.ndarray:
    """h of many relabelled states (rows of ``states``): the heuristic the search uses."""
    n = offset.shape[0]
    idx = np.zeros(n, np.int64)
    ridx = np.zeros(n, np.int64)
    out = np.zeros(states.shape[0], np.int64)
    for i in range(states.shape[0]):
        h, hr = estimate(states[i], tables, offset, pattern_of, weight, reflect, idx, ridx)
        out[i] = max(h, hr)
    return out


@numba.njit(cache=True)
def slide(tiles: np.ndarray, frm: int, to: int, tables: np.ndarray, offset: np.ndarray,
           pattern_of: np.ndarray, weight: np.ndarray, reflect: np.ndarray, idx: np.ndarray,
           ridx: np.ndarray, h: int, hr: int) -> tuple[int, int]:
    """Move the tile on ``frm`` to the blank on ``to``; returns the updated (h, h reflected)."""
    t = tiles[frm]
    tiles[to] = t
    tiles[frm] = -1
    p = pattern_of[t]
    old = tables[offset[p] + idx[p]]
    idx[p] += (to - frm) * weight[t]
    h += tables[offset[p] + idx[p]] - old
    if reflect[0] >= 0:
        rt = reflect[t]
        rp = pattern_of[rt]
        old = tables[offset[rp] + ridx[rp]]
        ridx[rp] += (reflect[to] - reflect[frm]) * weight[rt]
        hr += tables[offset[rp] + ridx[rp]] - old
    return h, hr
