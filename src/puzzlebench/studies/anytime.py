"""The anytime view: every tracing (incomplete) solver on n-queens and torus-queens under one
evaluation budget, compared by how fast its best conflict count falls.

Equal budgets: each run may spend ``EVALUATIONS`` evaluations (``max_evaluations`` for the GAs
and hill climbers; ``max_iterations`` — repairs, swaps tried, library steps — for
min-conflicts, qs4 and constraint-minconflicts, whose iteration is their evaluation), with a
wall-clock limit as a safety net. The torus sizes have gcd(n, 6) = 1, so a solution exists.
The report's anytime table (who reaches 0 conflicts first, who stalls), its anytime section
(ERT per target, fixed-budget curves, ECDF and its area) and the success-rate table come from
the stored runs and traces.
"""

from __future__ import annotations

import pandas as pd

from puzzlebench.studies import BuiltinStudy

EVALUATIONS = 20_000
SOLVERS = ["ga-seed002", "ga-permutation", "deap-ga", "first-choice-hc", "stochastic-hc",
           "min-conflicts", "qs4"]


def _grid(queens: list[int], torus: list[int], repeats: int) -> dict:
    return {
        "study": {"name": "anytime", "master_seed": 12, "repeats": repeats, "time_limit": 5.0,
                  "max_evaluations": EVALUATIONS, "max_iterations": EVALUATIONS},
        "problems": [{"problem": "nqueens", "sizes": queens},
                     {"problem": "torus-queens", "sizes": torus}],
        "solvers": [{"name": s} for s in SOLVERS]
        + [{"name": "constraint-minconflicts", "params": {"max_n": 64}, "max_size": 64}],
    }


def narrative(frame: pd.DataFrame) -> list[str]:
    lines = [f"{len(frame)} runs of {frame['solver'].nunique()} solvers, each allowed "
             f"{EVALUATIONS:,} evaluations (and 5 s); {int(frame['success'].sum())} found a "
             "solution the judge accepted."]
    return lines


def success_rates(frame: pd.DataFrame) -> pd.DataFrame:
    """Share of runs that found a verified solution within the budget, per problem and size
    (rows) and solver (columns); blank where a solver did not run."""
    rate = frame.groupby(["problem", "size", "solver"])["success"].mean().unstack("solver")
    shown = rate.map(lambda v: "" if pd.isna(v) else f"{v:.0%}")
    return shown.reset_index()


STUDY = BuiltinStudy(
    name="anytime", source="000-004",
    description="Anytime performance of the incomplete solvers (both GAs, DEAP's GA, the two hill "
                "climbers, min-conflicts, qs4, python-constraint's min-conflicts) on n-queens "
                "n = 32..256 and torus-queens n = 25, 35, 49, 20 seeds, equal evaluation budgets.",
    full=_grid([32, 64, 128, 256], [25, 35, 49], 20),
    quick=_grid([32, 64], [25], 5),
    narrative=narrative,
    extras=lambda f: [("Success rate within the budget", success_rates(f))],
)
