"""Best-first search over any state class: greedy best-first and A* (seed 000's framework).

A state exposes ``key`` (hashable identity), ``g`` and ``h`` (ints), ``is_goal()`` and
``successors()`` yielding ``(move, child)``. The search keeps a closed set, breaks ties
deterministically — by f, then h, then insertion order (never hash order) — and counts nodes
expanded, nodes generated, the largest frontier and the effective branching factor.

A* orders by f = g + h and re-opens a closed state reached with a smaller g (so it stays
correct with inconsistent heuristics); greedy orders by h alone and never re-opens. The goal
test is made when a node is taken off the frontier, so A* with an admissible h is optimal.
"""

from __future__ import annotations

import heapq
import itertools
import time
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterator, Sized
from dataclasses import dataclass, field
from typing import Any

from puzzlebench.solvers.contract import Budget
from puzzlebench.solvers.iterative import Caps, kernel_caps


class SearchState(ABC):
    """What the search needs from a state; concrete classes use __slots__ for speed."""

    __slots__ = ()
    g: int
    h: int

    @property
    @abstractmethod
    def key(self) -> Hashable:
        """Identity of the state (equal keys ⇒ same state)."""

    @abstractmethod
    def is_goal(self) -> bool:
        """True for a solution state."""

    @abstractmethod
    def successors(self) -> Iterator[tuple[Any, SearchState]]:
        """(move, child) pairs in a fixed order."""

    @property
    def size(self) -> int:
        """Cells the state holds: the search's memory cap counts them."""
        key = self.key
        return len(key) if isinstance(key, Sized) else 1


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The end of a search: the goal state and the move path, or why it stopped."""

    goal: SearchState | None
    moves: list[Any]
    exhausted: bool
    counters: dict[str, Any] = field(default_factory=dict)


def effective_branching_factor(generated: int, depth: int) -> float:
    """b* with N + 1 = 1 + b* + b*^2 + ... + b*^d (Russell & Norvig), by bisection."""
    if depth <= 0 or generated <= 0:
        return 0.0
    target = generated + 1

    def total(b: float) -> float:
        if b == 1.0:
            return float(depth + 1)
        try:
            return (b ** (depth + 1) - 1) / (b - 1)
        except OverflowError:
            return float("inf")

    lo, hi = 0.0, float(target) ** (1.0 / depth) + 1.0  # b*^d <= N + 1 bounds the root
    for _ in range(100):
        mid = (lo + hi) / 2
        if total(mid) < target:
            lo = mid
        else:
            hi = mid
    return round((lo + hi) / 2, 4)


#: Children generated between two looks at the clock and the memory held; every child
#: once states hold LARGE_STATE cells (making one child then costs far more than a look).
CHECK_EVERY = 64
LARGE_STATE = 1024
#: Most state cells (states held × their size) a search keeps before it stops by itself,
#: unsolved: about 1 GB of Python tuples. Past it a large board's search would not end in
#: any time limit a user can wait for, and would take the machine's memory first.
STORED_CELLS = 120_000_000


def best_first(start: SearchState, limits: Budget | Caps, *, astar: bool) -> SearchResult:
    """Greedy best-first (``astar=False``) or A* from ``start`` within the framework's caps
    (``iterative.kernel_caps`` of the run's budget, made here from a budget: ``max_nodes`` on
    nodes generated — the unit every search's cap counts, IDA*'s too — and the deadline)."""
    caps = kernel_caps(limits) if isinstance(limits, Budget) else limits
    tie = itertools.count()
    frontier: list[tuple[int, int, int, SearchState]] = []
    heapq.heappush(frontier, (start.g + start.h if astar else start.h, start.h, next(tie), start))
    parent: dict[Hashable, tuple[Hashable | None, Any]] = {start.key: (None, None)}
    best_g: dict[Hashable, int] = {start.key: start.g}
    closed: set[Hashable] = set()
    expanded = generated = 0
    largest = 1
    cells = start.size
    every = CHECK_EVERY if cells < LARGE_STATE else 1  # a large state's child costs O(n) or more

    def finish(goal: SearchState | None, exhausted: bool) -> SearchResult:
        moves: list[Any] = []
        if goal is not None:
            k: Hashable | None = goal.key
            while k is not None:
                k, move = parent[k]
                if k is not None:
                    moves.append(move)
            moves.reverse()
        counters = {
            "nodes_expanded": expanded,
            "nodes_generated": generated,
            "max_frontier": largest,
            "steps": len(moves),
            "effective_branching": effective_branching_factor(generated, len(moves)),
        }
        return SearchResult(goal, moves, exhausted, counters)

    while frontier:
        _, _, _, node = heapq.heappop(frontier)
        key = node.key
        if key in closed or node.g > best_g[key]:
            continue  # a stale entry
        if node.is_goal():
            return finish(node, False)
        if time.perf_counter() >= caps.deadline:  # once per expansion: cheap beside the children
            return finish(None, False)
        closed.add(key)
        expanded += 1
        for move, child in node.successors():
            generated += 1
            if caps.max_nodes >= 0 and generated > caps.max_nodes:  # the cap counts generated
                return finish(None, False)                         # nodes, as IDA*'s does
            # within an expansion too: at n = 10,000 one expansion makes 20,000 children of
            # 10,000 columns each, seconds of work and gigabytes of states
            if generated % every == 0 and (time.perf_counter() >= caps.deadline
                                                 or len(best_g) * cells > STORED_CELLS):
                return finish(None, False)
            ck = child.key
            known = best_g.get(ck)
            if known is not None and (not astar or child.g >= known):
                continue
            if ck in closed:
                closed.discard(ck)  # A* re-opens a state reached more cheaply
            best_g[ck] = child.g
            parent[ck] = (key, move)
            f = child.g + child.h if astar else child.h
            heapq.heappush(frontier, (f, child.h, next(tie), child))
        if len(frontier) > largest:
            largest = len(frontier)
    return finish(None, True)
