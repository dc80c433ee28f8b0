# mypy: disable-error-code="assignment,index,arg-type"
"""IDA* with Manhattan distance + linear conflict for the 15-puzzle (and any board of up to
16 cells), its depth-first inner loop compiled with numba.

Each iteration is a depth-first search bounded by f = g + h ≤ bound; the next bound is the
least f that exceeded it. h is kept incrementally: a move changes one tile's Manhattan term
in O(1) and re-evaluates linear conflict on the two lines the tile leaves and enters. The
inverse of the previous move is never tried. The wall clock is read every 2^18 nodes.
Budget: one compiled call, not stepped by the framework; its node cap and deadline are the
framework's (``iterative.kernel_caps``), passed in as arguments.
"""

from __future__ import annotations

from typing import ClassVar

import numba
import numpy as np

from puzzlebench.problems.sliding import SlidingInstance
from puzzlebench.search.sliding.sliding_kernels import MAX_CELLS, col_conflict, goal_tables, row_conflict
from puzzlebench.search.sliding.sliding_search import solvable
from puzzlebench.solvers.compiled_clock import now
from puzzlebench.solvers.contract import Budget, Claim, Proposal, Solver
from puzzlebench.solvers.iterative import kernel_caps
from puzzlebench.solvers.registry import register


@numba.njit(cache=True)
def idastar_kernel(start: np.ndarray, goal: np.ndarray, rows: int, cols: int, max_nodes: int,
                   deadline: float) -> tuple[int, np.ndarray, int, int]:
    """(status 1 solved / -1 budget, moves 0U 1D 2L 3R, nodes generated, iterations)."""
    cells = rows * cols
    goal_row, goal_col = goal_tables(goal, cols)
    buf = np.zeros(max(rows, cols), np.int64)
    tiles = start.copy()
    blank = 0
    md = 0
    for p in range(cells):
        x = tiles[p]
        if x == 0:
            blank = p
        else:
            md += abs(p // cols - goal_row[x]) + abs(p % cols - goal_col[x])
    lines = np.zeros(rows + cols, np.int64)
    for r in range(rows):
        lines[r] = row_conflict(tiles, r, cols, goal_row, goal_col, buf)
    for c in range(cols):
        lines[rows + c] = col_conflict(tiles, c, rows, cols, goal_row, goal_col, buf)
    lc = lines.sum()
    dr = (-1, 1, 0, 0)
    dc = (0, 0, -1, 1)
    inverse = (1, 0, 3, 2)
    max_depth = 256
    path = np.zeros(max_depth, np.int64)
    next_mv = np.zeros(max_depth + 1, np.int64)
    saved_a = np.zeros(max_depth, np.int64)
    saved_b = np.zeros(max_depth, np.int64)
    saved_md = np.zeros(max_depth, np.int64)
    nodes = 0
    iterations = 0
    if md + lc == 0:
        return 1, np.zeros(0, np.int64), 0, 0
    bound = md + lc
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
                # undo the move that led here
                depth -= 1
                mv = path[depth]
                src = blank - (dr[mv] * cols + dc[mv])  # where the blank came from
                tiles[blank], tiles[src] = tiles[src], 0
                old_blank = blank
                blank = src
                md = saved_md[depth]
                if dr[mv] != 0:
                    lines[old_blank // cols] = saved_a[depth]
                    lines[blank // cols] = saved_b[depth]
                else:
                    lines[rows + old_blank % cols] = saved_a[depth]
                    lines[rows + blank % cols] = saved_b[depth]
                continue
            mv = next_mv[depth]
            next_mv[depth] += 1
            if depth > 0 and mv == inverse[path[depth - 1]]:
                continue
            br, bc = blank // cols, blank % cols
            nr, nc = br + dr[mv], bc + dc[mv]
            if nr < 0 or nr >= rows or nc < 0 or nc >= cols:
                continue
            src = nr * cols + nc
            x = tiles[src]
            nodes += 1
            saved_md[depth] = md
            md += (abs(br - goal_row[x]) + abs(bc - goal_col[x])
                   - abs(nr - goal_row[x]) - abs(nc - goal_col[x]))
            tiles[blank] = x
            tiles[src] = 0
            if dr[mv] != 0:  # the tile moved from row nr to row br
                saved_a[depth] = lines[nr]
                saved_b[depth] = lines[br]
                lines[nr] = row_conflict(tiles, nr, cols, goal_row, goal_col, buf)
                lines[br] = row_conflict(tiles, br, cols, goal_row, goal_col, buf)
            else:
                saved_a[depth] = lines[rows + nc]
                saved_b[depth] = lines[rows + bc]
                lines[rows + nc] = col_conflict(tiles, nc, rows, cols, goal_row, goal_col, buf)
                lines[rows + bc] = col_conflict(tiles, bc, rows, cols, goal_row, goal_col, buf)
            h = md + lines.sum()
            f = depth + 1 + h
            path[depth] = mv
            if f > bound or depth + 1 >= max_depth:
                if f < next_bound:
                    next_bound = f
                # undo at once
                tiles[src] = x
                tiles[blank] = 0
                md = saved_md[depth]
                if dr[mv] != 0:
                    lines[nr] = saved_a[depth]
                    lines[br] = saved_b[depth]
                else:
                    lines[rows + nc] = saved_a[depth]
                    lines[rows + bc] = saved_b[depth]
                continue
            blank = src
            depth += 1
            if h == 0:
                return 1, path[:depth].copy(), nodes, iterations
            next_mv[depth] = 0
            if (nodes & 262143) == 0 and now() >= deadline:
                return -1, np.zeros(0, np.int64), nodes, iterations
            if max_nodes >= 0 and nodes >= max_nodes:
                return -1, np.zeros(0, np.int64), nodes, iterations
        bound = next_bound
        if now() >= deadline or (max_nodes >= 0 and nodes >= max_nodes):
            return -1, np.zeros(0, np.int64), nodes, iterations


@register
class IDAStarLinearConflict(Solver):
    """IDA* with Manhattan + linear conflict (numba inner loop): optimal, O(depth) memory."""

    compiled: ClassVar[bool] = True  # numba: warmed, untimed, before each timed run

    name: ClassVar[str] = "idastar-linear-conflict"
    counter_names: ClassVar[frozenset[str] | None] = frozenset({"nodes_generated", "iterations", "steps"})
    problems: ClassVar[frozenset[str]] = frozenset({"sliding"})
    honours: ClassVar[frozenset[str]] = frozenset({"time_limit", "max_nodes"})
    complete: ClassVar[bool] = True
    exact: ClassVar[bool] = True

    def solve(self, instance: SlidingInstance, budget: Budget, rng: np.random.Generator) -> Proposal:
        if not solvable(instance):
            return Proposal(claim=Claim.INFEASIBLE, counters={"nodes_generated": 0})
        if instance.rows * instance.cols > MAX_CELLS:  # refused without trying
            return Proposal(claim=Claim.DECLINED, counters={"nodes_generated": 0},
                            note=f"declined: idastar-linear-conflict handles boards of at most "
                                 f"{MAX_CELLS} cells")
        caps = kernel_caps(budget)  # the framework's caps, passed into the compiled call
        status, moves, nodes, iterations = idastar_kernel(
            np.asarray(instance.start, np.int64), np.asarray(instance.goal, np.int64),
            instance.rows, instance.cols, caps.max_nodes, caps.deadline,
        )
        counters = {"nodes_generated": int(nodes), "iterations": int(iterations),
                    "steps": len(moves)}
        if status == 1:
            return Proposal(answer="".join("UDLR"[m] for m in moves), claim=Claim.SOLVED,
                            counters=counters, optimal=True)
        return Proposal(claim=Claim.UNKNOWN, counters=counters, note="budget exhausted")
