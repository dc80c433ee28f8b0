# mypy: disable-error-code="assignment,index,arg-type"
"""The 24-puzzle's compact-ranked tables spread out to sparse indices, so that a move updates a
pattern's index in one multiply-add instead of ranking the pattern again.

A pattern of k tiles on a board of c cells has its entry at ``sum_j cell(tile_j) · c^(k−1−j)``
(``c^k`` entries; those with two tiles on one cell are never read). On 5×5 the four 6-tile tables
grow from 127.5 M to 244.1 M one-byte entries each (977 MB in all, against 486 MiB compact).
Measured on this machine, ranking a child's two patterns was most of the search's work per node
(with the ranks replaced by a stand-in, a search over a cache-sized table made 2.2× the nodes per
CPU second), and the spread search makes 2.0× the compact one's
(``benchmarks/twentyfour_kernel.py``). The values are the compact tables' own, copied entry by
entry (``spread``), so the estimate is the same admissible, consistent one.

The spread tables are laid end to end in one array (one read, no choice of table per read: 10 %
more nodes per second than a tuple of four), cached beside the compact tables
(``5x5-spread-<crc of their names and mtimes>.npy``, written under a temporary name then renamed)
and memory-mapped, so processes share one copy. Making them reads every sparse index once (a
few minutes for the four on this 2-core machine); a cache that cannot be written keeps them in
memory.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np

from puzzlebench.search.pattern_databases.pattern_database_files import StoredDatabase
from puzzlebench.search.pattern_databases.region_pdb_build import pop32


@numba.njit(cache=True)
def spread(compact: np.ndarray, size: int, cells: int, popcount: np.ndarray) -> np.ndarray:
    """The sparse table (``cells^size`` entries) of a compact-ranked table of ``size`` tiles."""
    total = cells ** size
    out = np.zeros(total, np.uint8)
    digits = np.zeros(size, np.int64)
    for index in range(total):
        x = index
        for j in range(size - 1, -1, -1):
            digits[j] = x % cells
            x //= cells
        used = np.int64(0)
        r = np.int64(0)
        ok = True
        for j in range(size):
            c = digits[j]
            bit = np.int64(1) << c
            if used & bit:
                ok = False
                break
            r = r * (cells - j) + c - pop32(used & (bit - 1), popcount)
            used |= bit
        if ok:
            out[index] = compact[r]
    return out


def _spread_all(dbs: list[StoredDatabase], popcount: np.ndarray) -> np.ndarray:
    """The spread tables of ``dbs`` end to end (each ``cells^k`` entries)."""
    return np.concatenate([spread(np.asarray(db.table), len(db.cells), db.rows * db.cols, popcount)
                           for db in dbs])


def spread_path(dbs: list[StoredDatabase]) -> Path | None:
    """Where the spread tables of ``dbs`` are cached: beside the first, named by the compact
    files' names and modification times (a rebuilt table gets a new name); None when one of
    them is not a file."""
    if any(db.path is None for db in dbs):
        return None
    first = dbs[0].path
    assert first is not None
    key = ";".join(f"{db.path.name}:{os.stat(db.path).st_mtime_ns}" for db in dbs if db.path is not None)
    return first.parent / f"{dbs[0].rows}x{dbs[0].cols}-spread-{zlib.crc32(key.encode()):08x}.npy"


def _cached_spread(dbs: list[StoredDatabase], popcount: np.ndarray) -> np.ndarray:
    """The spread tables of ``dbs`` end to end, from the cache when there, else made (and cached
    when the compact tables came from files)."""
    total = sum((db.rows * db.cols) ** len(db.cells) for db in dbs)
    path = spread_path(dbs)
    if path is None:
        return _spread_all(dbs, popcount)
    if path.exists():
        try:
            table = np.load(path, mmap_mode="r")
            if table.shape == (total,) and table.dtype == np.uint8:
                return table
        except (OSError, ValueError):
            pass
    table = _spread_all(dbs, popcount)
    with contextlib.suppress(OSError):
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            np.save(fh, table)
        os.replace(tmp, path)
        return np.load(path, mmap_mode="r")
    return table


@dataclass(frozen=True)
class SparseLookup:
    """The arrays ``sparse_batch_kernel`` reads: the spread tables end to end (read in place) and
    where each pattern's part starts, each tile's pattern and weight in its pattern's index, and
    the reflection of cells (−1 everywhere: none)."""

    table: np.ndarray
    base: np.ndarray
    pattern_of: np.ndarray
    weight: np.ndarray
    reflect: np.ndarray

    @property
    def nbytes(self) -> int:
        return int(self.table.nbytes)


_LOOKUPS: dict[tuple[object, ...], SparseLookup] = {}


def sparse_lookup(dbs: list[StoredDatabase], rows: int, cols: int, use_reflection: bool,
                  popcount: np.ndarray) -> SparseLookup:
    """The kernel's arrays for these compact databases, made (or read from the cache) once per
    process."""
    key = (rows, cols, tuple(db.cells for db in dbs), tuple(str(db.path) for db in dbs), use_reflection)
    if key in _LOOKUPS:
        return _LOOKUPS[key]
    cells = rows * cols
    table = np.asarray(_cached_spread(dbs, popcount)).view()
    table.flags.writeable = False  # one compiled signature, memory map or not
    sizes = [cells ** len(db.cells) for db in dbs]
    base = np.array([sum(sizes[:i]) for i in range(len(dbs))], np.int64)
    pattern_of = np.full(cells, -1, np.int64)
    weight = np.zeros(cells, np.int64)
    for i, db in enumerate(dbs):
        for j, c in enumerate(db.cells):
            pattern_of[c] = i
            weight[c] = cells ** (len(db.cells) - 1 - j)
    reflect = np.array([(p % cols) * cols + p // cols for p in range(cells)] if use_reflection
                       else [-1] * cells, np.int64)
    _LOOKUPS[key] = SparseLookup(table, base, pattern_of, weight, reflect)
    return _LOOKUPS[key]
