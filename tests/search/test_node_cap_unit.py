"""``max_nodes`` counts nodes generated in every search (``contract.Budget``): A*'s best-first
search (compiled or not) stops once it has generated the cap, as IDA* does — not after that many expansions,
which would let it generate up to four times as many children on the sliding puzzle."""

from __future__ import annotations

import numpy as np

from puzzlebench.contract import Budget
from puzzlebench.problems import get_problem
from puzzlebench.solvers.registry import REGISTRY


def test_astar_stops_at_the_cap_on_nodes_generated() -> None:
    instance = get_problem("sliding").make(8, start="867254301")  # 31 moves: far from the cap
    solver = REGISTRY.load("astar-misplaced").create()
    proposal = solver.solve(instance, Budget(time_limit=30, max_nodes=200),
                            np.random.default_rng(0))
    assert proposal.answer is None
    generated, expanded = proposal.counters["nodes_generated"], proposal.counters["nodes_expanded"]
    assert generated <= 200 + 4 and expanded < generated  # on generated (within one expansion)
