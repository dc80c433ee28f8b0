"""Exact 8-puzzle distances: a breadth-first table over all 181,440 solvable 3×3 states.

Built on demand by BFS and cached on disk under ``$PUZZLEBENCH_CACHE`` (default
``~/.cache/puzzlebench``). The judge never trusts the cached copy: a table read from the cache is
used only when its SHA-256 equals the digest kept here in the package (:data:`DIGESTS`), else it
is rebuilt (and the cache rewritten), so a poisoned or stale file can cost time but never change
a verdict. Distances are invariant under renaming tiles and under the eight
symmetries of the square, so three tables cover every goal: one per kind of blank square in
the goal (corner, edge, centre), rooted at 1..8 with the blank bottom-right, bottom-middle and
in the centre. A goal is mapped onto its table's root by a symmetry (moving its blank square)
and a renaming of tiles, and the start is mapped the same way. This is a fact of the problem,
used by the harness to check every claimed optimal 3×3 answer; it imports no solver code.
"""

from __future__ import annotations

import hashlib
from collections import deque
from functools import lru_cache
from pathlib import Path

import numpy as np

from puzzlebench.host.cache_dir import cache_dir

STANDARD_GOAL: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 0)
#: Table roots by the goal's blank square: corner (8), edge (7), centre (4).
ROOTS: dict[int, tuple[int, ...]] = {
    8: STANDARD_GOAL,
    7: (1, 2, 3, 4, 5, 6, 7, 0, 8),
    4: (1, 2, 3, 4, 0, 5, 6, 7, 8),
}
STATES = 181_440
#: Cached tables refused since the harness last asked (``take_rejections``): what a record's
#: notes name when its judgement had to rebuild one.
_REJECTED: list[str] = []

#: SHA-256 of each table (codes as little-endian int64, then distances as int8), by the goal's
#: blank square: what a cached table must match to be used.
DIGESTS: dict[int, str] = {
    8: "02052b0011fea78a5bccf69f137ccfc7b277d9f414570a35679a62f2050bb2ba",
    7: "0434286e87444e2c8bf01227a8e1e43a3c95467995323b68722c23ab88d808c2",
    4: "51b73755bd2264b8ee8086a0ed216c3cf0432bab4fec514b948ff5949792f946",
}


def _symmetries() -> list[tuple[int, ...]]:
    """The 8 symmetries of the 3×3 square as maps old square → new square."""
    out = []
    for rot in range(4):
        for flip in (False, True):
            perm = []
            for p in range(9):
                r, c = divmod(p, 3)
                for _ in range(rot):
                    r, c = c, 2 - r
                if flip:
                    c = 2 - c
                perm.append(r * 3 + c)
            out.append(tuple(perm))
    return out


SYMMETRIES = _symmetries()
_NEIGHBOURS = tuple(
    tuple(q for q in (p - 3, p + 3, p - 1 if p % 3 else -1, p + 1 if p % 3 < 2 else -1)
          if 0 <= q < 9)
    for p in range(9)
)


def encode(state: tuple[int, ...]) -> int:
    """A 3×3 state as one int, 4 bits per cell."""
    code = 0
    for i, t in enumerate(state):
        code |= t << (4 * i)
    return code


def cache_path(blank: int = 8) -> Path:
    return cache_dir() / f"eight_puzzle_bfs_v2_blank{blank}.npz"


def build_table(blank: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """(sorted state codes, distances) by BFS from the root with its blank on ``blank``."""
    root = ROOTS[blank]
    dist = {root: 0}
    todo = deque([root])
    while todo:
        state = todo.popleft()
        d = dist[state] + 1
        blank = state.index(0)
        for q in _NEIGHBOURS[blank]:
            cells = list(state)
            cells[blank], cells[q] = cells[q], 0
            child = tuple(cells)
            if child not in dist:
                dist[child] = d
                todo.append(child)
    codes = np.fromiter((encode(s) for s in dist), dtype=np.int64, count=len(dist))
    dists = np.fromiter(dist.values(), dtype=np.int8, count=len(dist))
    order = np.argsort(codes)
    return codes[order], dists[order]


def digest(codes: np.ndarray, dists: np.ndarray) -> str:
    """The SHA-256 a table is checked against (see :data:`DIGESTS`)."""
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(codes, dtype="<i8").tobytes())
    h.update(np.ascontiguousarray(dists, dtype="i1").tobytes())
    return h.hexdigest()


@lru_cache(maxsize=3)
def table(blank: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """A table, from the disk cache when its digest is the package's, else built and cached."""
    path = cache_path(blank)
    if path.exists():
        try:
            with np.load(path, allow_pickle=False) as data:
                codes, dists = data["codes"], data["dists"]
            if codes.shape == (STATES,) and dists.shape == (STATES,) and \
                    digest(codes, dists) == DIGESTS[blank]:
                return _read_only(codes), _read_only(dists)
        except (OSError, ValueError, KeyError, TypeError):
            pass
        _REJECTED.append(f"the cached 8-puzzle distance table {path} failed its digest check "
                         "and was rebuilt (a poisoned or damaged cache changes no verdict)")
    codes, dists = build_table(blank)
    if digest(codes, dists) != DIGESTS[blank]:  # the BFS itself changed: a bug, never a verdict
        raise RuntimeError(f"the 8-puzzle distance table (blank {blank}) does not match the "
                           "package's digest")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp.npz")
        np.savez_compressed(tmp, codes=codes, dists=dists)
        tmp.replace(path)
    except OSError:
        pass  # a read-only home: keep the table in memory only
    return _read_only(codes), _read_only(dists)


def take_rejections() -> list[str]:
    """The cached tables refused (and rebuilt) since the last call, as sentences."""
    out = list(_REJECTED)
    _REJECTED.clear()
    return out


def _read_only(arr: np.ndarray) -> np.ndarray:
    """The judge's cached tables cannot be written through (a defence against accidents; the
    harness also judges in a process the solver never ran in)."""
    arr.flags.writeable = False
    return arr


def optimal_length(start: tuple[int, ...], goal: tuple[int, ...] = STANDARD_GOAL) -> int | None:
    """The optimal number of moves from start to goal on a 3×3 board; None if unreachable."""
    blank = goal.index(0)
    for sym in SYMMETRIES:
        if sym[blank] in ROOTS:
            break
    root = ROOTS[sym[blank]]
    moved_goal = [0] * 9
    moved_start = [0] * 9
    for p in range(9):
        moved_goal[sym[p]] = goal[p]
        moved_start[sym[p]] = start[p]
    rename = {g: r for g, r in zip(moved_goal, root, strict=True)}
    relabelled = tuple(rename[t] for t in moved_start)
    codes, dists = table(sym[blank])
    code = encode(relabelled)
    i = int(np.searchsorted(codes, code))
    if i < codes.size and codes[i] == code:
        return int(dists[i])
    return None
