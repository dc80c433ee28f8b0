# mypy: disable-error-code="assignment,index,arg-type"
"""IDA* with additive pattern databases (and their reflection) for boards of up to 16 cells.

**Goals in any position.** The instance is *relabelled*, never the databases rebuilt per
goal: every tile is renamed by its goal cell, and when the goal's blank is in a corner a
symmetry of the board first moves that corner to cell 0. Every such goal then becomes the one
canonical goal (tile p on cell p, blank on cell 0 — Korf's goal), so one set of databases
serves them all; a goal whose blank is not in a corner gets databases of its own, for the
cells it has. Moves found on the relabelled board are mapped back through the symmetry.

**Partition.** On 4×4 the canonical goal uses the static 6-6-3 partition of the 15 tiles
(``PARTITIONS``); elsewhere the tiles are cut, in row-major order of their goal cells, into
patterns of at most six. 7-8 is not offered: its 8-tile search would need 519 M abstract
states with the blank (≈ 2.5 GB of working memory here) and a 16^8-entry sparse table; 6-6-3
builds in about 20 s and takes 34 MB.

**Blank-aware tables** (``--param blank_aware=true``). The compressed tables keep, per
placement of a pattern's tiles, the minimum over the blank's cell: admissible but not
consistent. The blank-aware tables keep every (tiles, blank) state (57.7 MB per 6-tile pattern,
one compact rank per move, ``blank_aware_kernel``): consistent, and never lower.

**Reflection.** On a square board whose relabelled goal has its blank on the main diagonal
(every corner goal), the board's reflection about that diagonal maps the goal onto itself, so
the same databases looked up on the reflected state give a second admissible estimate; the
search uses the larger (``reflect=True``, the default).

**Search.** Depth-first iterations bounded by f = g + h; a move updates one pattern's index
in O(1) (sparse indexing), never retries the inverse of the move before it, and reads the
wall clock every 2^16 nodes. Tables are loaded (or built and cached) once per process; the
harness's untimed warm-up runs the solver on an instance with the run's board and goal, so
the timed run finds them loaded. Counters: nodes generated, iterations, and the databases'
bytes (``pdb_bytes``), the time their breadth-first search took when they were built
(``pdb_build_s``, from the cache file's header) and this process's time to load and check them —
or to build them, when the cache had no sound copy (``pdb_load_s``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

import numba
import numpy as np

from puzzlebench.compiled_clock import now
from puzzlebench.contract import Budget, Claim, Param, Proposal, Solver
from puzzlebench.problems.sliding import SlidingInstance
from puzzlebench.registry import register
from puzzlebench.search.blank_aware_kernel import idastar_blank_kernel
from puzzlebench.search.pattern_database import MAX_PATTERN
from puzzlebench.search.pattern_database_files import StoredDatabase, load_or_build
from puzzlebench.search.sliding_search import solvable

MAX_CELLS = 16
#: Hand-chosen partitions of the canonical goal (blank on cell 0), by board shape. On 4×4:
#: the two left columns below the blank, the right half of the top three rows, and the
#: bottom row's last three cells. Over ten of Korf's hardest instances it generated 74.6 M
#: nodes, against 105.5 M for (1 2 4 5 8 9 | 3 6 7 10 11 15 | 12 13 14) and 164.9 M for the
#: row-major cut (1-6 | 7-12 | 13-15).
PARTITIONS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {
    (4, 4): ((1, 4, 5, 8, 9, 12), (2, 3, 6, 7, 10, 11), (13, 14, 15)),
}
_DR = (-1, 1, 0, 0)
_DC = (0, 0, -1, 1)


def board_symmetries(rows: int, cols: int) -> list[tuple[int, ...]]:
    """Symmetries of the board as maps cell → cell (8 for a square, 4 otherwise), identity first."""
    out: list[tuple[int, ...]] = []
    for rot in range(4 if rows == cols else 1):
        for flip_r in (False, True):
            for flip_c in (False, True):
                if rows == cols and flip_r:
                    continue
                perm = []
                for p in range(rows * cols):
                    r, c = divmod(p, cols)
                    for _ in range(rot):
                        r, c = c, rows - 1 - r
                    if flip_r:
                        r = rows - 1 - r
                    if flip_c:
                        c = cols - 1 - c
                    perm.append(r * cols + c)
                out.append(tuple(perm))
    return out


@dataclass(frozen=True)
class Relabelled:
    """An instance on the canonical board: ``tiles[q]`` is the goal cell of the tile on cell
    q (−1 for the blank); ``sym`` maps original cells to canonical ones."""

    rows: int
    cols: int
    tiles: tuple[int, ...]
    blank_goal: int
    sym: tuple[int, ...]

    @property
    def reflects(self) -> bool:
        """The diagonal reflection maps this goal onto itself."""
        return self.rows == self.cols and self.blank_goal // self.cols == self.blank_goal % self.cols


def relabel(instance: SlidingInstance) -> Relabelled:
    """Move the goal's blank to cell 0 by a symmetry when it is in a corner; name tiles by goal cell."""
    rows, cols = instance.rows, instance.cols
    blank = instance.goal.index(0)
    syms = board_symmetries(rows, cols)
    sym = next((g for g in syms if g[blank] == 0), syms[0])
    goal_t = [0] * (rows * cols)
    start_t = [0] * (rows * cols)
    for p in range(rows * cols):
        goal_t[sym[p]] = instance.goal[p]
        start_t[sym[p]] = instance.start[p]
    home = {t: q for q, t in enumerate(goal_t)}
    tiles = tuple(-1 if t == 0 else home[t] for t in start_t)
    return Relabelled(rows, cols, tiles, sym[blank], sym)


def partition(rows: int, cols: int, blank_goal: int) -> tuple[tuple[int, ...], ...]:
    """The patterns (as goal cells) covering every tile of a relabelled goal."""
    if blank_goal == 0 and (rows, cols) in PARTITIONS:
        return PARTITIONS[(rows, cols)]
    cells = [c for c in range(rows * cols) if c != blank_goal]
    return tuple(tuple(cells[i:i + MAX_PATTERN]) for i in range(0, len(cells), MAX_PATTERN))


_LOADED: dict[tuple[int, int, tuple[int, ...], str], StoredDatabase] = {}


def databases(rows: int, cols: int, blank_goal: int, kind: str = "compressed") -> list[StoredDatabase]:
    """This goal's pattern databases of one kind (``compressed`` or ``blank``), loaded once per
    process (built and cached when missing)."""
    out = []
    for cells in partition(rows, cols, blank_goal):
        key = (rows, cols, cells, kind)
        if key not in _LOADED:
            _LOADED[key] = load_or_build(cells, rows, cols, kind=kind)
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
    key = (rows, cols, tuple(db.cells for db in dbs), tuple(db.kind for db in dbs), use_reflection)
    if key not in _LOOKUPS:
        _LOOKUPS[key] = Lookup.of(dbs, rows, cols, use_reflection)
    return _LOOKUPS[key]


@numba.njit(cache=True)
def _estimate(tiles: np.ndarray, tables: np.ndarray, offset: np.ndarray, pattern_of: np.ndarray,
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
        h, hr = _estimate(states[i], tables, offset, pattern_of, weight, reflect, idx, ridx)
        out[i] = max(h, hr)
    return out


@numba.njit(cache=True)
def _slide(tiles: np.ndarray, frm: int, to: int, tables: np.ndarray, offset: np.ndarray,
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


@numba.njit(cache=True)
def idastar_pdb_kernel(start: np.ndarray, rows: int, cols: int, tables: np.ndarray, offset: np.ndarray,
                       pattern_of: np.ndarray, weight: np.ndarray, reflect: np.ndarray,
                       max_nodes: int, deadline: float) -> tuple[int, np.ndarray, int, int, int]:
    """(status 1 solved / −1 budget, blank moves 0U 1D 2L 3R, nodes generated, iterations, h0)."""
    tiles = start.copy()
    n = offset.shape[0]
    idx = np.zeros(n, np.int64)
    ridx = np.zeros(n, np.int64)
    h, hr = _estimate(tiles, tables, offset, pattern_of, weight, reflect, idx, ridx)
    blank = 0
    for q in range(tiles.shape[0]):
        if tiles[q] < 0:
            blank = q
    h0 = max(h, hr)
    if h == 0:
        return 1, np.zeros(0, np.int64), 0, 0, h0
    inverse = (1, 0, 3, 2)
    max_depth = 255
    path = np.zeros(max_depth + 1, np.int64)
    next_mv = np.zeros(max_depth + 1, np.int64)
    nodes = 0
    iterations = 0
    bound = h0
    while True:
        iterations += 1
        next_bound = 1 << 30
        depth = 0
        next_mv[0] = 0
        while True:
            if next_mv[depth] == 4:
                if depth == 0:
                    break
                depth -= 1  # back up: the tile returns to where the blank now is
                mv = path[depth]
                src = blank - (_DR[mv] * cols + _DC[mv])
                h, hr = _slide(tiles, src, blank, tables, offset, pattern_of, weight, reflect,
                               idx, ridx, h, hr)
                blank = src
                continue
            mv = next_mv[depth]
            next_mv[depth] += 1
            if depth > 0 and mv == inverse[path[depth - 1]]:
                continue
            nr, nc = blank // cols + _DR[mv], blank % cols + _DC[mv]
            if nr < 0 or nr >= rows or nc < 0 or nc >= cols:
                continue
            src = nr * cols + nc
            nodes += 1
            if (nodes & 65535) == 0 and now() >= deadline:
                return -1, np.zeros(0, np.int64), nodes, iterations, h0
            if max_nodes >= 0 and nodes >= max_nodes:
                return -1, np.zeros(0, np.int64), nodes, iterations, h0
            h, hr = _slide(tiles, src, blank, tables, offset, pattern_of, weight, reflect,
                           idx, ridx, h, hr)
            f = depth + 1 + max(h, hr)
            path[depth] = mv
            if f > bound or depth + 1 >= max_depth:
                if f < next_bound:
                    next_bound = f
                h, hr = _slide(tiles, blank, src, tables, offset, pattern_of, weight, reflect,
                               idx, ridx, h, hr)
                continue
            blank = src
            depth += 1
            if h == 0:
                return 1, path[:depth].copy(), nodes, iterations, h0
            next_mv[depth] = 0
        bound = next_bound
        if now() >= deadline or (max_nodes >= 0 and nodes >= max_nodes):
            return -1, np.zeros(0, np.int64), nodes, iterations, h0


def original_moves(moves: np.ndarray, rel: Relabelled, start_blank: int) -> str:
    """The relabelled board's blank moves, as moves on the instance's own board."""
    inverse = [0] * len(rel.sym)
    for p, q in enumerate(rel.sym):
        inverse[q] = p
    cols = rel.cols
    out = []
    blank = start_blank  # original cell
    for mv in moves:
        q = rel.sym[blank]
        q2 = (q // cols + _DR[mv]) * cols + q % cols + _DC[mv]
        nxt = inverse[q2]
        step = (nxt // cols - blank // cols, nxt % cols - blank % cols)
        out.append({(-1, 0): "U", (1, 0): "D", (0, -1): "L", (0, 1): "R"}[step])
        blank = nxt
    return "".join(out)


@register
class IDAStarPDB(Solver):
    """IDA* with additive 6-6-3 pattern databases and their reflection (numba): optimal on the
    15-puzzle in milliseconds to seconds."""

    compiled: ClassVar[bool] = True
    name: ClassVar[str] = "idastar-pdb"
    problems: ClassVar[frozenset[str]] = frozenset({"sliding"})
    honours: ClassVar[frozenset[str]] = frozenset({"time_limit", "max_nodes"})
    complete: ClassVar[bool] = True
    exact: ClassVar[bool] = True
    params: ClassVar[dict[str, Any]] = {"reflect": Param(True), "blank_aware": Param(False)}

    def solve(self, instance: SlidingInstance, budget: Budget, rng: np.random.Generator) -> Proposal:
        if not solvable(instance):
            return Proposal(claim=Claim.INFEASIBLE, counters={"nodes_generated": 0})
        if instance.rows * instance.cols > MAX_CELLS:  # declined, like other bounded solvers
            return Proposal(claim=Claim.UNKNOWN, counters={"nodes_generated": 0},
                            note=f"declined: idastar-pdb handles boards of at most {MAX_CELLS} cells")
        rel = relabel(instance)
        blank_aware = bool(self.config["blank_aware"])
        dbs = databases(rel.rows, rel.cols, rel.blank_goal, "blank" if blank_aware else "compressed")
        look = lookup(dbs, rel.rows, rel.cols, bool(self.config["reflect"]) and rel.reflects)
        clock = budget.clock()
        max_nodes = -1 if budget.max_nodes is None else budget.max_nodes
        deadline = clock.end if budget.time_limit is not None else math.inf
        tiles = np.asarray(rel.tiles, np.int64)
        if blank_aware:
            status, moves, nodes, iterations, h0 = idastar_blank_kernel(
                tiles, rel.rows, rel.cols, look.tables, look.offset, look.pattern_of, look.reflect,
                look.pattern_cells, look.pattern_start, look.pattern_size, max_nodes, deadline)
        else:
            status, moves, nodes, iterations, h0 = idastar_pdb_kernel(
                tiles, rel.rows, rel.cols, look.tables, look.offset, look.pattern_of, look.weight,
                look.reflect, max_nodes, deadline)
        counters: dict[str, int | float] = {
            "nodes_generated": int(nodes), "iterations": int(iterations), "start_h": int(h0),
            "steps": len(moves), "pdb_bytes": sum(db.nbytes for db in dbs),
            "pdb_build_s": round(sum(db.build_s for db in dbs), 3),
            "pdb_load_s": round(sum(db.load_s for db in dbs), 4),
        }
        if status == 1:
            answer = original_moves(moves, rel, instance.start.index(0))
            return Proposal(answer=answer, claim=Claim.SOLVED, counters=counters, optimal=True)
        return Proposal(claim=Claim.UNKNOWN, counters=counters, note="budget exhausted")
