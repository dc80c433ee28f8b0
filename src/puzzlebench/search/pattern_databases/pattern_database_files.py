"""Pattern databases on disk: built once, cached under ``$PUZZLEBENCH_CACHE/pdb``, memory-mapped.

A file is a 4096-byte header (magic, then JSON: board, pattern cells, kind, entries, build time,
abstract states reached, CRC-32 of the table) followed by the one-byte table. Each search
writes two files: the compressed table (``.pdb``) and the blank-aware one (``.blank.pdb``); the
blank-region search of ``region_pdb_build`` writes one, the compact-ranked table of up to 8
tiles (``.compact.pdb``, one byte per placement: 518.9 M bytes for 8 tiles). Every load checks
the header against the pattern asked for and the file's size, and the CRC against the bytes
once per version of the file: a sound CRC leaves a stamp beside it (``.checked``: the file's
device, inode, size, modification and change times, and the CRC), and a load that finds the
file as stamped skips re-reading it (the 7-8 tables: 0.4 s per process otherwise, in every
run's warm-up). A missing, foreign or corrupt file is rebuilt (written to a temporary name,
then renamed: concurrent builders never see half a file). A cache that cannot be written only
costs a rebuild in memory.

**The blank's goal.** A table's goal is its tiles home *and the blank on its goal cell*. Where
the goal placement splits the free cells into regions (tiles 1-7 of the 15-puzzle leave cell 0
walled off from the bottom two rows), the table depends on which region holds the blank's
goal: the file name and header then carry that region's lowest cell (``-b0``). Where the free
cells form one region, the blank's goal changes nothing and the name is the plain one. Asked
for with no blank goal, a table is built with the blank home in any region (weaker; the name
is the plain one too).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import math
import os
import tempfile
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from puzzlebench.host.cache_dir import cache_dir
from puzzlebench.search.pattern_databases.pattern_database import build_kernel
from puzzlebench.search.pattern_databases.region_pdb_build import build_compact_table

MAGIC = b"puzzlebench-pdb-1\n"
HEADER_BYTES = 4096


#: ``compressed``: the sparse table, minimum over the blank's cell (``cells^k`` entries);
#: ``blank``: every (pattern cells, blank cell) state, compact rank (``cells!/(cells−k−1)!``);
#: ``compact``: the minimum over the blank's cell by compact rank of the placement
#: (``cells!/(cells−k)!``), built by the blank-region search (patterns of up to 8 tiles).
KINDS = ("compressed", "blank", "compact")


@dataclass(frozen=True)
class StoredDatabase:
    """One pattern's table and where it came from."""

    cells: tuple[int, ...]
    rows: int
    cols: int
    table: np.ndarray  # read-only uint8 (a memory map when it came from the cache)
    path: Path | None
    build_s: float  # time of the breadth-first search that made it (whenever that was)
    states: int  # abstract states the search reached
    built_now: bool  # built by this call (not read from the cache)
    load_s: float  # time this call took (loading + checking, or building)
    kind: str = "compressed"
    blank_region: int = -1  # the lowest cell of the blank's goal region (−1: not distinguished)

    @property
    def nbytes(self) -> int:
        return int(self.table.nbytes)


def database_path(cells: tuple[int, ...], rows: int, cols: int, kind: str = "compressed",
                  blank_region: int = -1) -> Path:
    suffix = ".pdb" if kind == "compressed" else f".{kind}.pdb"
    region = f"-b{blank_region}" if blank_region >= 0 else ""
    return cache_dir() / "pdb" / f"{rows}x{cols}-{'.'.join(map(str, cells))}{region}{suffix}"


def blank_region(cells: tuple[int, ...], rows: int, cols: int, blank_goal: int | None) -> int:
    """The lowest cell of the region of free cells (those the goal placement leaves) that holds
    the blank's goal cell, or −1 when that changes nothing: no blank goal given, or the free
    cells form a single region."""
    if blank_goal is None:
        return -1
    free = set(range(rows * cols)) - set(cells)
    if blank_goal not in free:
        raise ValueError(f"the blank's goal cell {blank_goal} is a cell of the pattern {cells}")
    reached = {blank_goal}
    stack = [blank_goal]
    while stack:
        c = stack.pop()
        r, q = divmod(c, cols)
        for nr, nq in ((r - 1, q), (r + 1, q), (r, q - 1), (r, q + 1)):
            n = nr * cols + nq
            if 0 <= nr < rows and 0 <= nq < cols and n in free and n not in reached:
                reached.add(n)
                stack.append(n)
    return -1 if reached == free else min(reached)


def expected_entries(cells: tuple[int, ...], rows: int, cols: int, kind: str) -> int:
    n = rows * cols
    if kind == "compressed":
        return int(n ** len(cells))
    if kind == "compact":
        return math.perm(n, len(cells))
    return math.perm(n, len(cells) + 1)


def _header(cells: tuple[int, ...], rows: int, cols: int, table: np.ndarray, build_s: float,
            states: int, kind: str, region: int = -1) -> bytes:
    meta = {"rows": rows, "cols": cols, "cells": list(cells), "entries": int(table.size),
            "kind": kind, "build_s": round(build_s, 3), "states": int(states),
            "crc32": zlib.crc32(table.data) & 0xFFFFFFFF}
    if region >= 0:
        meta["blank_region"] = region
    head = MAGIC + json.dumps(meta, sort_keys=True).encode() + b"\n"
    return head.ljust(HEADER_BYTES, b"\0")


def read_database(path: Path, cells: tuple[int, ...], rows: int, cols: int,
                  kind: str = "compressed", region: int = -1) -> tuple[np.ndarray, dict] | None:
    """The table and header of a cached file, or None when it is missing, foreign or corrupt."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(HEADER_BYTES)
        if not head.startswith(MAGIC):
            return None
        meta = json.loads(head[len(MAGIC):].split(b"\n", 1)[0])
        if (meta["rows"], meta["cols"], tuple(meta["cells"]), meta.get("kind", "compressed"),
                meta.get("blank_region", -1)) != (rows, cols, cells, kind, region) or \
                meta["entries"] != expected_entries(cells, rows, cols, kind) or \
                path.stat().st_size != HEADER_BYTES + meta["entries"]:
            return None
        table = np.memmap(path, np.uint8, mode="r", offset=HEADER_BYTES, shape=(meta["entries"],))
        if not _stamped(path, meta["crc32"]):
            if zlib.crc32(table.data) & 0xFFFFFFFF != meta["crc32"]:
                return None
            _stamp(path, meta["crc32"])
        return table, meta
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _identity(path: Path) -> list[int]:
    st = path.stat()
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def _stamp_path(path: Path) -> Path:
    return path.with_name(path.name + ".checked")


def _stamped(path: Path, crc: int) -> bool:
    """The file is as it was when its CRC was last found sound (any write, rename or copy since
    changes its identity)."""
    try:
        stamp = json.loads(_stamp_path(path).read_text())
        return bool(stamp == {"identity": _identity(path), "crc32": crc})
    except (OSError, ValueError):
        return False


def _stamp(path: Path, crc: int) -> None:
    """Best effort: a cache that cannot be written only checks the CRC at every load."""
    with contextlib.suppress(OSError):
        tmp = _stamp_path(path).with_suffix(".checked.tmp")
        tmp.write_text(json.dumps({"identity": _identity(path), "crc32": crc}))
        os.replace(tmp, _stamp_path(path))


def build_database(cells: tuple[int, ...], rows: int, cols: int,
                   region: int = -1) -> tuple[np.ndarray, np.ndarray, float, int]:
    """(compressed table, blank-aware table, seconds, abstract states reached) — the breadth-first
    search itself, which yields both kinds at once (the blank home in the region of cell
    ``region``; −1: in any region)."""
    t0 = time.perf_counter()
    table, states, dist = build_kernel(np.asarray(cells, np.int64), rows, cols, region)
    return table, dist, time.perf_counter() - t0, int(states)


def load_or_build(cells: tuple[int, ...], rows: int, cols: int, *, rebuild: bool = False,
                  kind: str = "compressed", blank_goal: int | None = None,
                  build: bool = True) -> StoredDatabase:
    """The pattern's table of this kind: from the cache when a sound copy is there, else built
    (both kinds are cached: one search makes both). ``blank_goal``: the blank's goal cell (None:
    the blank home anywhere, the weaker table where the goal placement splits the free cells).
    ``build=False``: never built; FileNotFoundError when the cache has no sound copy.

    Builders of one pattern take turns on a lock file beside it, so parallel runs on a cold
    cache build each table once (the others wait, then load it) instead of all at once.
    """
    if kind not in KINDS:
        raise ValueError(f"pattern database kind must be one of {KINDS}, got {kind!r}")
    cells = tuple(int(c) for c in cells)
    region = blank_region(cells, rows, cols, blank_goal)
    path = database_path(cells, rows, cols, kind, region)
    t0 = time.perf_counter()
    found = None if rebuild else read_database(path, cells, rows, cols, kind, region)
    if found is None and not build:
        raise FileNotFoundError(f"no sound cached table at {path}")
    if found is None:
        with _build_lock(database_path(cells, rows, cols, "compressed", region)):
            found = None if rebuild else read_database(path, cells, rows, cols, kind, region)
            if found is None:
                return _build_and_store(cells, rows, cols, kind, t0, region)
    table, meta = found
    return StoredDatabase(cells, rows, cols, table, path, float(meta["build_s"]),
                          int(meta["states"]), False, time.perf_counter() - t0, kind, region)


@contextlib.contextmanager
def _build_lock(path: Path) -> Iterator[None]:
    """An exclusive flock on ``<table>.lock`` (no lock when the cache cannot be written)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fh = open(path.with_name(path.name + ".lock"), "a+b")  # noqa: SIM115 - held across the yield
    except OSError:
        yield
        return
    try:
        with contextlib.suppress(OSError):  # a file system without locks (some NFS): unlocked
            fcntl.flock(fh, fcntl.LOCK_EX)
        yield
    finally:
        fh.close()  # releases the lock


def _build_and_store(cells: tuple[int, ...], rows: int, cols: int, kind: str, t0: float,
                     region: int = -1) -> StoredDatabase:
    if kind == "compact":
        t_build = time.perf_counter()
        compact, states = build_compact_table(cells, rows, cols, blank_goal=region)
        made = {"compact": compact}
        build_s = time.perf_counter() - t_build
    else:
        compressed, blank, build_s, states = build_database(cells, rows, cols, region)
        made = {"compressed": compressed, "blank": blank}
    written = {}
    for name, table in made.items():
        table.flags.writeable = False
        path = database_path(cells, rows, cols, name, region)
        header = _header(cells, rows, cols, table, build_s, states, name, region)
        written[name] = path if _write(path, header, table) else None
    return StoredDatabase(cells, rows, cols, made[kind], written[kind], build_s, states,
                          True, time.perf_counter() - t0, kind, region)


def _write(path: Path, header: bytes, table: np.ndarray) -> bool:
    tmp = None
    done = False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
        with open(fd, "wb") as fh:  # owns fd from here, even if writing fails
            fh.write(header)
            fh.write(table.data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        done = True
        _stamp(path, int(json.loads(header[len(MAGIC):].split(b"\n", 1)[0])["crc32"]))
        return True
    except OSError:
        return False
    finally:
        if tmp is not None and not done:  # no half-written file is left behind, whatever stopped us
            with contextlib.suppress(OSError):
                os.unlink(tmp)
