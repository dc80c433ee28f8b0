"""The 24-puzzle with the real 6-6-6-6 tables (slow tier: building them from a cold cache takes
about 6 minutes and 1.4 GiB; with ``$PUZZLEBENCH_CACHE`` warm, seconds): ``idastar-pdb`` solves
Korf & Felner's #40 optimally (82 moves, judged against the published length)."""

from __future__ import annotations

import numpy as np
import pytest

from puzzlebench.contract import Budget, Claim
from puzzlebench.problems import get_problem
from puzzlebench.search.sliding.idastar_pdb import IDAStarPDB

SL = get_problem("sliding")

pytestmark = pytest.mark.slow


def test_korf_and_felners_40_is_solved_optimally() -> None:
    inst = SL.make(24, start="korf24:40")
    proposal = IDAStarPDB().solve(inst, Budget(time_limit=600.0), np.random.default_rng(0))
    assert proposal.claim == Claim.SOLVED
    assert SL.validate(inst, proposal.answer).valid
    assert len(proposal.answer) == SL.known_optimum(inst) == 82
    c = proposal.counters
    # the search reads the four 6-6-6-6 tables spread to tile-position indices (25^6 entries
    # each, one byte an entry: search/pattern_databases/sparse_tables.py), not the compact ones
    assert c["start_h"] <= 82 and c["pdb_bytes"] == 4 * 25**6
    assert 0 < c["expanded_before_last"] < c["nodes_expanded"] < c["nodes_generated"]
