"""Source study 001's own search loop, reproduced as the named solver ``seed001-loop``.

(The source studies are the documents the project comes from; the solver keeps its older name
``seed001-loop`` because it is part of every stored run's key, and run keys name this module by
its first name, ``search.seed001_loop``. "Seed" alone means the random seed: see the glossary.)

The source calls it A*, but it always takes the open node with the least h (the first such node
in insertion order) and keeps no g: it is greedy best-first. Its heuristic is ``calculate_h``
(tiles outside their goal row + tiles outside their goal column); children are generated in
the seed's order — blank right, down, left, up — and a child is kept only if it was never
generated before (the seed's ``close_set`` holds every generated state). Counters keep the
seed's names: ``nodes_examined`` is its ``step`` (nodes taken off the open list, the goal
included) and ``nodes_generated`` its ``number of nodes`` (the start included). The seed
printed no path; we follow parent links to report one, so its length can be set beside the
optimum. The seed's solvability test (inversion parity) is replaced by the general parity rule.
Budget: a search loop of its own (a complete search, not stepped by the framework); its node
cap and deadline are the framework's (``iterative.kernel_caps``), checked once per node.
"""

from __future__ import annotations

import heapq
import itertools
import time
from typing import ClassVar

import numpy as np

from puzzlebench.problems.sliding import SlidingInstance
from puzzlebench.search.sliding.sliding_heuristics import Heuristic, Tables
from puzzlebench.search.sliding.sliding_search import solvable
from puzzlebench.solvers.contract import Budget, Claim, Proposal, Solver
from puzzlebench.solvers.iterative import kernel_caps
from puzzlebench.solvers.registry import register

SEED_ORDER: tuple[tuple[str, int, int], ...] = (("R", 0, 1), ("D", 1, 0), ("L", 0, -1), ("U", -1, 0))


@register
class Seed001Loop(Solver):
    """Seed 001's loop: least-h first, no g, every generated state closed (greedy)."""

    name: ClassVar[str] = "seed001-loop"
    counter_names: ClassVar[frozenset[str] | None] = frozenset({
        "nodes_examined", "nodes_generated", "steps"})
    problems: ClassVar[frozenset[str]] = frozenset({"sliding"})
    honours: ClassVar[frozenset[str]] = frozenset({"time_limit", "max_nodes"})
    complete: ClassVar[bool] = True

    def solve(self, instance: SlidingInstance, budget: Budget, rng: np.random.Generator) -> Proposal:
        if not solvable(instance):
            return Proposal(claim=Claim.INFEASIBLE, counters={"nodes_examined": 0})
        caps = kernel_caps(budget)  # the framework's caps: max_nodes on examined, the deadline
        heur = Heuristic("rowcol", Tables.build(instance.rows, instance.cols, instance.goal))
        rows, cols = instance.rows, instance.cols
        start = instance.start
        tie = itertools.count()
        open_heap = [(heur.full(start), next(tie), start)]
        parent: dict[tuple[int, ...], tuple[tuple[int, ...] | None, str]] = {start: (None, "")}
        examined, generated = 0, 1
        while open_heap:
            h, _, state = heapq.heappop(open_heap)
            examined += 1
            if h == 0 and state == instance.goal:
                moves = []
                key: tuple[int, ...] | None = state
                while key is not None:
                    key, move = parent[key]
                    if key is not None:
                        moves.append(move)
                moves.reverse()
                counters = {"nodes_examined": examined, "nodes_generated": generated,
                            "steps": len(moves)}
                return Proposal(answer="".join(moves), claim=Claim.SOLVED, counters=counters)
            if (caps.max_nodes >= 0 and examined >= caps.max_nodes) or (
                examined % 64 == 0 and time.perf_counter() >= caps.deadline
            ):
                break
            blank = state.index(0)
            r, c = divmod(blank, cols)
            for move, dr, dc in SEED_ORDER:
                nr, nc = r + dr, c + dc
                if not (0 <= nr < rows and 0 <= nc < cols):
                    continue
                src = nr * cols + nc
                cells = list(state)
                cells[blank], cells[src] = cells[src], 0
                child = tuple(cells)
                if child in parent:
                    continue
                parent[child] = (state, move)
                generated += 1
                heapq.heappush(open_heap, (heur.full(child), next(tie), child))
        counters = {"nodes_examined": examined, "nodes_generated": generated, "steps": 0}
        return Proposal(claim=Claim.UNKNOWN, counters=counters, note="budget exhausted")
