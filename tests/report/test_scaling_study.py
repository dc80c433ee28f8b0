"""The built-in study 'scaling': both grids are valid studies, its claims are scaling claims
checked against its grid, and only counting solvers run its counting table; min-conflicts runs
from Minton's greedy start to n = 2^20 and its sentence reads Minton's finding off the fit;
Knuth's estimate covers backtracking's sizes and is fitted beside the measured nodes."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pandas as pd
import pytest

from puzzlebench.harness.campaign.design.study_file import study_from_dict
from puzzlebench.records.claims import ScalingClaim
from puzzlebench.studies import get_study
from puzzlebench.studies.scaling import KNUTH_LABEL, knuth_fits, knuth_table, narrative


@pytest.mark.parametrize("quick", [True, False])
def test_the_scaling_study_is_a_valid_study_with_scaling_claims(quick: bool) -> None:
    study = study_from_dict(get_study("scaling").definition(quick), "study scaling")
    assert study.claims and all(isinstance(c, ScalingClaim) for c in study.claims)
    runs = study.runs()
    counters = {r.name for r in runs if r.kind == "count"}
    assert counters == {"bitboard", "constellations"}
    mc = [r for r in runs if r.name == "min-conflicts"]
    assert mc and min(r.size for r in mc) == 64 and {r.kind for r in mc} == {"solve"}
    assert all(r.params["restart_after"] == 10**9 and r.params["start"] == "greedy" for r in mc)
    sizes = sorted({r.size for r in mc})
    assert len({b / a for a, b in pairwise(sizes)}) == 1  # powers of one base
    assert {r.repeat for r in mc} == set(range(3 if quick else 20))
    if not quick:
        assert max(sizes) == 2**20
    astar = {r.size for r in runs if r.name == "astar-h3"}
    assert len(astar) >= 5 and max(astar) <= 16


def _frame(rows: list[dict]) -> pd.DataFrame:
    base = {"problem": "nqueens", "params_key": "{}", "outcome": "solved", "repeat": 0}
    frame = pd.DataFrame([{**base, **r} for r in rows])
    frame["success"] = frame["outcome"] == "solved"
    return frame


def _min_conflicts(repairs: object) -> pd.DataFrame:
    """Five runs per power of two, 64..2^20, repairs drawn by ``repairs(n, rng)``."""
    rng = np.random.default_rng(0)
    rows = [{"solver": "min-conflicts", "size": 1 << k, "instance_id": f"{k}", "seed": s,
             "time_s": 1e-3 * (1 << k), "counter.repairs": float(repairs(1 << k, rng)),
             "counter.evaluations": float((1 << k) * 50), "counter.start_attacked": 10.0}
            for k in range(6, 21) for s in range(5)]
    return _frame(rows)


def test_minton_sentence_reads_the_exponent_off_the_fit() -> None:
    flat = narrative(_min_conflicts(lambda n, rng: rng.integers(40, 45)))[0]
    assert "polynomial consistent" in flat and "as Minton et al. (1992) found" in flat, flat
    assert "n = 1,048,576" in flat and "10 queens attacked" in flat
    growing = narrative(_min_conflicts(lambda n, rng: n ** 0.8 * rng.uniform(0.95, 1.05)))[0]
    assert "not Minton et al.'s (1992) same repairs at every n" in growing, growing


def test_knuth_estimate_covers_backtracking_sizes_and_is_fitted_beside_the_runs() -> None:
    rows = [{"solver": "backtracking", "size": n, "instance_id": f"{n}", "seed": 0,
             "time_s": 1e-4 * 2 ** n, "counter.nodes": float(3 ** (n - 5))}
            for n in range(8, 17) for _ in range(3)]
    frame = _frame(rows)
    table = knuth_table(frame)
    assert table["n"].tolist() == list(range(8, 17))
    exact = table.set_index("n")["whole tree (exact)"]
    assert exact.loc[8] == 2057 and exact.loc[14] == 27358553  # the classic tree's sizes
    assert exact.loc[15:].isna().all()  # past n = 14 the exact count is not made
    assert (table.set_index("n")["nodes to the first solution (runs)"] == 3.0 ** (
        np.arange(8, 17) - 5)).all()
    knuth, measured = knuth_fits(frame)
    assert knuth.label == KNUTH_LABEL and [s.size for s in knuth.sizes] == list(range(8, 17))
    assert len(knuth.models) == 3 and measured.solver == "backtracking"
    assert measured.measure == "nodes" and measured.label == "backtracking"
    lead = narrative(frame)[1]
    assert lead.startswith("Backtracking, Knuth's estimate of the whole tree (n = 8..16)")
