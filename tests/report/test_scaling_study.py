"""The built-in study 'scaling': both grids are valid studies, its claims are scaling claims
checked against its grid, and only counting solvers run its counting table."""

from __future__ import annotations

import pytest

from puzzlebench.harness.campaign.design.study_file import study_from_dict
from puzzlebench.records.claims import ScalingClaim
from puzzlebench.studies import get_study


@pytest.mark.parametrize("quick", [True, False])
def test_the_scaling_study_is_a_valid_study_with_scaling_claims(quick: bool) -> None:
    study = study_from_dict(get_study("scaling").definition(quick), "study scaling")
    assert study.claims and all(isinstance(c, ScalingClaim) for c in study.claims)
    runs = study.runs()
    counters = {r.name for r in runs if r.kind == "count"}
    assert counters == {"bitboard", "constellations"}
    mc = [r for r in runs if r.name == "min-conflicts"]
    assert mc and min(r.size for r in mc) == 64 and {r.kind for r in mc} == {"solve"}
    assert all(r.params["restart_after"] == 10**9 for r in mc)
    astar = {r.size for r in runs if r.name == "astar-h3"}
    assert len(astar) >= 5 and max(astar) <= 16
