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
patterns of at most six; 6-6-3 builds in about 20 s and takes 34 MB.

**7-8** (``--param partition=7-8``). The seven tiles of the top two rows and the eight of the
bottom two (elsewhere: two patterns of at most eight), in compact-ranked tables built by the
blank-region search (``region_pdb_build``: 57.7 M + 518.9 M one-byte entries, 550 MiB on disk)
and searched by ``compact_batch_kernel`` (below: each node's children ranked, then their
entries read together; on Korf's 100 with reflection 0.90-0.93 s of CPU against 2.08-2.29 s for
``compact_kernel``, which ranks the pattern a move touches afresh, the same nodes expanded).
``--param dual=true`` adds the dual lookup (7-8 only), searched by ``compact_kernel``.

**6-6-6-6: the 24-puzzle** (boards of 17..25 cells). Beyond 16 cells neither the 15-puzzle's sparse tables
nor the 4-bit packing serve, so every such board takes the compact search
(``--param partition=6-6-6-6``, which the default ``6-6-3`` stands for there; ``7-8`` is declined,
as ``6-6-6-6`` is on boards of at most 16 cells): on 5×5 with the canonical goal Korf & Felner's
6-6-6-6 partition and its reflection (``compact_lookup``: four 127.5 M-entry tables, 486 MiB),
elsewhere the tiles cut row-major into patterns of at most six. The tables are then spread to
sparse indices (``sparse_tables``: 244.1 M entries each, 977 MB in one array, cached beside them) and searched
by ``sparse_batch_kernel`` (a move adds to its pattern's index instead of ranking it again; a
node's children's entries read together): the nodes of ``compact_batch_kernel``, at about twice
its nodes per second (``benchmarks/twentyfour_kernel.py``). Its counters add ``nodes_expanded``
(Korf & Felner's measure) and ``expanded_before_last`` (the part of it that does not depend on
the order of the moves). ``blank_aware`` and ``dual`` are declined there.

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

The pieces: ``search.sliding_symmetry`` (symmetries, relabelling, moves mapped back),
``search.pdb_lookup`` (partitions, tables, the compiled estimate and its update); this module
holds the search kernel and the solver.
Budget: one compiled call, not stepped by the framework; its node cap and deadline are the
framework's (``iterative.kernel_caps``), passed in as arguments.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numba
import numpy as np

from puzzlebench.problems.sliding import SlidingInstance
from puzzlebench.search.pattern_databases.compact_batch_kernel import idastar_batch_kernel
from puzzlebench.search.pattern_databases.compact_kernel import idastar_compact_kernel
from puzzlebench.search.pattern_databases.compact_lookup import compact_databases, compact_lookup
from puzzlebench.search.pattern_databases.pdb_lookup import MAX_CELLS, databases, estimate, lookup, slide
from puzzlebench.search.pattern_databases.sparse_batch_kernel import idastar_sparse_kernel
from puzzlebench.search.pattern_databases.sparse_tables import sparse_lookup
from puzzlebench.search.sliding.blank_aware_kernel import idastar_blank_kernel
from puzzlebench.search.sliding.sliding_search import solvable
from puzzlebench.search.sliding.sliding_symmetry import DC, DR, original_moves, relabel
from puzzlebench.solvers.compiled_clock import now
from puzzlebench.solvers.contract import Budget, Claim, Param, Proposal, Solver
from puzzlebench.solvers.iterative import kernel_caps
from puzzlebench.solvers.registry import register

#: The largest board searched (by the compact 6-tile tables beyond ``MAX_CELLS``).
MAX_BOARD_CELLS = 25
#: ``partition``: the 15-puzzle's two (boards of at most 16 cells) and the 24-puzzle's one.
PARTITION_CHOICES = ("6-6-3", "7-8", "6-6-6-6")

#: The budget of ``prepare_runs``'s one solve of the warm-up instance (two moves from the goal).
PREPARE_BUDGET = Budget(time_limit=0.5, max_nodes=20_000)


@numba.njit(cache=True)
def idastar_pdb_kernel(start: np.ndarray, rows: int, cols: int, tables: np.ndarray, offset: np.ndarray,
                       pattern_of: np.ndarray, weight: np.ndarray, reflect: np.ndarray,
                       max_nodes: int, deadline: float) -> tuple[int, np.ndarray, int, int, int]:
    """(status 1 solved / −1 budget, blank moves 0U 1D 2L 3R, nodes generated, iterations, h0)."""
    tiles = start.copy()
    n = offset.shape[0]
    idx = np.zeros(n, np.int64)
    ridx = np.zeros(n, np.int64)
    h, hr = estimate(tiles, tables, offset, pattern_of, weight, reflect, idx, ridx)
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
    # The IDA* loop, written out in each kernel on purpose: why, in search/sliding/__init__.py
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
                src = blank - (DR[mv] * cols + DC[mv])
                h, hr = slide(tiles, src, blank, tables, offset, pattern_of, weight, reflect,
                               idx, ridx, h, hr)
                blank = src
                continue
            mv = next_mv[depth]
            next_mv[depth] += 1
            if depth > 0 and mv == inverse[path[depth - 1]]:
                continue
            nr, nc = blank // cols + DR[mv], blank % cols + DC[mv]
            if nr < 0 or nr >= rows or nc < 0 or nc >= cols:
                continue
            src = nr * cols + nc
            nodes += 1
            if (nodes & 65535) == 0 and now() >= deadline:
                return -1, np.zeros(0, np.int64), nodes, iterations, h0
            if max_nodes >= 0 and nodes >= max_nodes:
                return -1, np.zeros(0, np.int64), nodes, iterations, h0
            h, hr = slide(tiles, src, blank, tables, offset, pattern_of, weight, reflect,
                           idx, ridx, h, hr)
            f = depth + 1 + max(h, hr)
            path[depth] = mv
            if f > bound or depth + 1 >= max_depth:
                if f < next_bound:
                    next_bound = f
                h, hr = slide(tiles, blank, src, tables, offset, pattern_of, weight, reflect,
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


@register
class IDAStarPDB(Solver):
    """IDA* with additive 6-6-3 (or 7-8) pattern databases and their reflection (numba):
    optimal on the 15-puzzle in milliseconds to seconds; on the 24-puzzle with 6-6-6-6."""

    compiled: ClassVar[bool] = True
    name: ClassVar[str] = "idastar-pdb"
    counter_names: ClassVar[frozenset[str] | None] = frozenset({
        "nodes_generated", "nodes_expanded", "iterations", "start_h", "steps", "pdb_bytes", "pdb_build_s",
        "pdb_load_s", "dual_cutoffs", "expanded_before_last"})
    problems: ClassVar[frozenset[str]] = frozenset({"sliding"})
    honours: ClassVar[frozenset[str]] = frozenset({"time_limit", "max_nodes"})
    complete: ClassVar[bool] = True
    exact: ClassVar[bool] = True
    params: ClassVar[dict[str, Any]] = {"reflect": Param(True), "blank_aware": Param(False),
                                        "partition": Param("6-6-3", choices=PARTITION_CHOICES),
                                        "dual": Param(False)}

    @classmethod
    def prepare_runs(cls, params: Mapping[str, Any], instance: Any) -> None:
        """In the fork server: map this goal's tables when the cache holds them (never build:
        a missing table is the runs' to build) and load the kernels by solving the warm-up
        instance once, so that every run forked after it inherits both instead of loading
        them in its warm-up (the 7-8 tables and their kernels: 20-25 ms of each run's)."""
        solver = cls(**params)
        if (not isinstance(instance, SlidingInstance) or solver.refusal(instance)
                or instance.rows * instance.cols > MAX_BOARD_CELLS or not solvable(instance)):
            return
        rel = relabel(instance)
        try:
            if solver._compact(instance):
                compact_databases(rel.rows, rel.cols, rel.blank_goal, build=False)
            else:
                databases(rel.rows, rel.cols, rel.blank_goal,
                          "blank" if solver.config["blank_aware"] else "compressed", build=False)
        except FileNotFoundError:
            return
        solver.solve(instance, PREPARE_BUDGET, np.random.default_rng(0))

    def refusal(self, instance: SlidingInstance | None = None) -> str | None:
        """Why this combination of options cannot run (None: it can); on ``instance``'s board
        when given (each partition on its own boards: 6-6-3 and 7-8 on at most 16 cells,
        6-6-6-6 beyond them, where the default 6-6-3 stands for it)."""
        large = instance is not None and instance.rows * instance.cols > MAX_CELLS
        partition = self.config["partition"]
        if partition == "6-6-6-6" and instance is not None and not large:
            return f"partition=6-6-6-6 is the 24-puzzle's: boards of {MAX_CELLS + 1} to 25 cells"
        if partition == "7-8" and large:
            return f"partition=7-8 is the 15-puzzle's: boards of at most {MAX_CELLS} cells"
        if (large or partition != "6-6-3") and self.config["blank_aware"]:
            return "blank_aware tables exist for partition=6-6-3 on boards of at most 16 cells only"
        if self.config["dual"] and (partition != "7-8" or large):
            return "dual lookups are offered with partition=7-8 on boards of at most 16 cells only"
        return None

    def _compact(self, instance: SlidingInstance) -> bool:
        """Whether this run reads compact-ranked tables (7-8, or any board of more than 16 cells:
        6-6-6-6, which the default ``6-6-3`` stands for there)."""
        return self.config["partition"] == "7-8" or instance.rows * instance.cols > MAX_CELLS

    def solve(self, instance: SlidingInstance, budget: Budget, rng: np.random.Generator) -> Proposal:
        if not solvable(instance):
            return Proposal(claim=Claim.INFEASIBLE, counters={"nodes_generated": 0})
        if instance.rows * instance.cols > MAX_BOARD_CELLS:  # refused without trying
            return Proposal(claim=Claim.DECLINED, counters={"nodes_generated": 0},
                            note=f"declined: idastar-pdb handles boards of at most {MAX_BOARD_CELLS} cells")
        refused = self.refusal(instance)
        if refused:
            return Proposal(claim=Claim.DECLINED, counters={"nodes_generated": 0},
                            note=f"declined: idastar-pdb: {refused}")
        rel = relabel(instance)
        if self._compact(instance):
            return self._solve_compact(instance, rel, budget)
        blank_aware = bool(self.config["blank_aware"])
        dbs = databases(rel.rows, rel.cols, rel.blank_goal, "blank" if blank_aware else "compressed")
        look = lookup(dbs, rel.rows, rel.cols, bool(self.config["reflect"]) and rel.reflects)
        caps = kernel_caps(budget)  # the framework's caps, passed into the compiled call
        max_nodes, deadline = caps.max_nodes, caps.deadline
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

    def _solve_compact(self, instance: SlidingInstance, rel: Any, budget: Budget) -> Proposal:
        """The compact-ranked search (7-8; 6-6-6-6 on 5×5), with the same counters and the nodes
        expanded."""
        dbs = compact_databases(rel.rows, rel.cols, rel.blank_goal)
        look = compact_lookup(dbs, rel.rows, rel.cols, bool(self.config["reflect"]) and rel.reflects)
        tiles = np.asarray(rel.tiles, np.int64)
        before_last = -1
        table_bytes = sum(db.nbytes for db in dbs)
        if rel.rows * rel.cols > MAX_CELLS:  # the 24-puzzle: the tables spread to sparse indices
            sparse = sparse_lookup(dbs, rel.rows, rel.cols, bool(self.config["reflect"]) and rel.reflects,
                                   look.popcount)
            table_bytes = sparse.nbytes
            caps = kernel_caps(budget)
            status, moves, nodes, iterations, h0, expanded, before_last = idastar_sparse_kernel(
                tiles, rel.rows, rel.cols, sparse.table, sparse.base, sparse.pattern_of, sparse.weight,
                sparse.reflect, caps.max_nodes, caps.deadline)
            dual_cuts = 0
        elif not self.config["dual"]:
            caps = kernel_caps(budget)
            status, moves, nodes, iterations, h0, expanded, before_last = idastar_batch_kernel(
                tiles, rel.rows, rel.cols, look.tables, look.pattern_tiles, look.pattern_start,
                look.pattern_size, look.pattern_of, look.reflect, look.popcount, caps.max_nodes,
                caps.deadline)
            dual_cuts = 0
        else:
            caps = kernel_caps(budget)
            status, moves, nodes, iterations, h0, dual_cuts, expanded = idastar_compact_kernel(
                tiles, rel.rows, rel.cols, look.tables, look.pattern_tiles, look.pattern_start,
                look.pattern_size, look.pattern_of, look.reflect, look.popcount,
                bool(self.config["dual"]), caps.max_nodes, caps.deadline)
        counters: dict[str, int | float] = {
            "nodes_generated": int(nodes), "nodes_expanded": int(expanded), "iterations": int(iterations),
            "start_h": int(h0), "steps": len(moves), "pdb_bytes": table_bytes,
            "pdb_build_s": round(sum(db.build_s for db in dbs), 3),
            "pdb_load_s": round(sum(db.load_s for db in dbs), 4),
        }
        if self.config["dual"]:
            counters["dual_cutoffs"] = int(dual_cuts)
        if before_last >= 0:
            counters["expanded_before_last"] = int(before_last)
        if status == 1:
            answer = original_moves(moves, rel, instance.start.index(0))
            return Proposal(answer=answer, claim=Claim.SOLVED, counters=counters, optimal=True)
        return Proposal(claim=Claim.UNKNOWN, counters=counters, note="budget exhausted")
