"""How cost grows with size, measured: the seeds' and the literature's scaling questions on
this machine (issue 54), answered by the report's scaling fits (``report.scaling``) and the
study's own scaling claims.

* min-conflicts (Minton et al. 1992) on n-queens, n = 64..8192: repairs and evaluations;
* row-by-row backtracking's nodes to the first solution (seed 003), with Knuth's estimate of
  the whole tree beside the exact count;
* the counting solvers (bitboard, constellations) counting every solution, n = 8..17;
* A* with H1, H2 and H3 over seed 000's sizes, n = 8..16.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from puzzlebench.studies import BuiltinStudy
from puzzlebench.studies.measurement import SHORT_RUNS_MIN_TIME

#: min-conflicts never restarts within these runs: its repairs are its own, not a restart's.
NO_RESTART = {"restart_after": 10**9, "max_repairs": 10**9}


def _grid(mc: str, mc_max: int, bt_max: int, count_max: int, astar_max: int,
          repeats: int) -> dict[str, Any]:
    return {
        "study": {"name": "scaling", "master_seed": 54, "repeats": repeats, "time_limit": 20.0,
                  "min_time": SHORT_RUNS_MIN_TIME,
                  "description": "How cost grows with size (issue 54)"},
        "problems": [{"problem": "nqueens", "sizes": f"8..{bt_max}"},
                     {"problem": "nqueens", "sizes": mc},
                     {"problem": "nqueens", "sizes": f"8..{count_max}", "task": "count"}],
        "solvers": [
            {"name": "min-conflicts", "params": NO_RESTART, "min_size": 64, "max_size": mc_max},
            {"name": "backtracking", "max_size": bt_max, "time_limit": 5.0},
            {"name": "bitboard", "max_size": count_max},
            {"name": "constellations", "max_size": count_max},
            {"name": "astar-h1", "max_size": astar_max, "time_limit": 2.0},
            {"name": "astar-h2", "max_size": astar_max, "time_limit": 2.0},
            {"name": "astar-h3", "max_size": astar_max, "time_limit": 10.0}],
        "claims": [
            {"on": "scaling", "solver": "min-conflicts", "measure": "repairs",
             "model": "polynomial", "at_most": 1.5, "problem": "nqueens",
             "says": "min-conflicts' repairs grow at most as n^1.5"},
            {"on": "scaling", "solver": "min-conflicts", "measure": "evaluations",
             "model": "polynomial", "problem": "nqueens",
             "says": "min-conflicts' evaluations grow polynomially"},
            {"on": "scaling", "solver": "astar-h3", "measure": "time", "model": "exponential",
             "problem": "nqueens", "says": "A* with H3 takes exponential time"}],
    }


def knuth_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Knuth's estimate of the backtracking tree (1,000 random probes) beside its exact size
    and beside the nodes the runs counted to their first solution."""
    # imported on use: the estimator's kernels load numba, which listing the studies never needs
    from puzzlebench.search.queens.knuth_estimate import estimate_tree, tree_nodes

    bt = frame[(frame["solver"] == "backtracking") & frame["success"].astype(bool)]
    first = bt.groupby("size")["counter.nodes"].median() if "counter.nodes" in bt else {}
    rows = []
    for n in range(8, 15):
        est = estimate_tree(n, 1000, np.random.default_rng(n))
        exact = tree_nodes(n)
        rows.append({"n": n, "whole tree (exact)": exact, "Knuth estimate": round(est.mean),
                     "95% CI low": round(est.ci_low), "95% CI high": round(est.ci_high),
                     "exact inside CI": est.ci_low <= exact <= est.ci_high,
                     "nodes to the first solution (runs)": first.get(n, None)})
    return pd.DataFrame(rows)


def _short(fits: list, solver: str, measure: str, problem: str = "nqueens") -> str:
    """One fit in a few words: the best consistent model with b's interval, or why none."""
    # imported on use: listing the studies loads no report code (``studies`` answers at once)
    from puzzlebench.report.statistics.scaling import formula
    fit = next((f for f in fits if (f.solver, f.measure, f.problem) == (solver, measure,
                                                                        problem)), None)
    if fit is None:
        return f"{solver} {measure}: not run"
    best = fit.best
    if best is not None:
        return f"{solver} {measure} ≈ {formula(best)} ({best.model})"
    why = fit.note or "no model consistent at the held-out sizes"
    if fit.models and all(m.verdict == "inconclusive" for m in fit.models):
        why = "no interval (the runs do not vary)"
    return f"{solver} {measure}: {why}"


def narrative(frame: pd.DataFrame) -> list[str]:
    """Three short lead sentences (the fits in words), then each fit behind them in full."""
    # imported on use: listing the studies loads no report code (``studies`` answers at once)
    from puzzlebench.report.statistics.count_runs import separate_counts
    from puzzlebench.report.statistics.scaling import scaling_fits, sentence
    fits = scaling_fits(separate_counts(frame))
    mc = frame[(frame["solver"] == "min-conflicts") & frame["success"].astype(bool)]
    per_n = (mc["counter.repairs"] / mc["size"]).median() if "counter.repairs" in mc else 0.0
    lines = [f"{_short(fits, 'min-conflicts', 'repairs')}: {per_n:.2f} repairs per queen from a "
             "random start, not Minton's near-constant count (greedy start).",
             f"Counting all solutions: {_short(fits, 'bitboard', 'time', 'nqueens-count')}; "
             f"{_short(fits, 'constellations', 'time', 'nqueens-count')}.",
             f"{_short(fits, 'astar-h3', 'nodes_generated')}; {_short(fits, 'astar-h1', 'time')}"
             f"; {_short(fits, 'backtracking', 'nodes')}."]
    picked = [("min-conflicts", "repairs"), ("min-conflicts", "evaluations"),
              ("backtracking", "nodes"), ("bitboard", "time"), ("constellations", "time"),
              ("astar-h1", "time"), ("astar-h2", "time"), ("astar-h3", "nodes_generated"),
              ("astar-h3", "time")]
    lines += [sentence(f) for key in picked for f in fits if (f.solver, f.measure) == key]
    return lines


STUDY = BuiltinStudy(
    name="scaling", source="all",
    description="How cost grows with size (issue 54): polynomial, exponential and "
                "root-exponential models fitted to the smaller sizes and checked at the "
                "largest (see Scaling), for min-conflicts (n = 64..8192), backtracking's nodes "
                "to the first solution (n = 8..22) with Knuth's estimate, the counting solvers "
                "(n = 8..17) and A* with H1/H2/H3 (seed 000's n = 8..16), with three scaling "
                "claims stated before the runs.",
    full=_grid("64,128,256,512,1024,2048,4096,8192", 8192, 22, 17, 16, 5),
    quick=_grid("64,128,256,512,1024", 1024, 14, 12, 12, 3),
    narrative=narrative,
    extras=lambda f: [("Backtracking: Knuth's estimate of the whole tree beside the exact "
                       "size and the nodes to the first solution", knuth_table(f))],
)
