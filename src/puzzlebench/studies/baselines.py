"""The headline comparison: every solver on nqueens 4..64, large-n solvers up to 10^7."""

from __future__ import annotations

import pandas as pd

from puzzlebench.solvers.registry import REGISTRY
from puzzlebench.studies import BuiltinStudy, wrong_or_crashed
from puzzlebench.studies.measurement import SHORT_RUNS_MIN_TIME

LARGE = ["mod12", "qs4"]


def _grid(sizes: str, large: list[int], limit: float) -> dict:
    solvers = [{"name": s.name, "max_size": 64} for s in REGISTRY.all("nqueens")
               if s.name not in LARGE]
    solvers += [{"name": s} for s in LARGE]
    return {
        "study": {"name": "baselines", "master_seed": 1, "time_limit": limit, "min_time": SHORT_RUNS_MIN_TIME,
                  "hard_limit": 2 * limit + 5, "memory_limit_mb": 8192},
        "problems": [{"problem": "nqueens", "sizes": sizes},
                     {"problem": "nqueens", "sizes": large}],
        "solvers": solvers,
    }


def narrative(frame: pd.DataFrame) -> list[str]:
    small = frame[frame["size"] <= 64]
    rate = small.groupby("solver")["success"].mean()  # verified successes
    best = rate.sort_values(ascending=False)
    lines = [f"{len(frame)} runs, one per solver and size (stochastic solvers included: one seed "
             "each, so a single run stands for each cell); on n ≤ 64 the solvers with a verified "
             f"solution at every size are: {', '.join(best[best == 1.0].index) or 'none'}."]
    missed = []
    for solver in best[best < 1.0].index:
        sub = small[(small["solver"] == solver) & ~small["success"]]
        declined = (sub["outcome"].astype(str) == "declined") | (  # records made before the
            (sub["outcome"].astype(str) == "budget")                # outcome: the note said so
            & sub["reason"].astype(str).str.startswith("declined"))
        kinds = sub.loc[~declined, "outcome"].value_counts()
        words = {"budget": "out of budget", "timeout": "killed at the hard limit"}
        parts = [f"{v} {words.get(str(k), str(k))}" for k, v in kinds.items()]
        if declined.any():
            parts.append(f"{int(declined.sum())} declined (size beyond its own limit)")
        missed.append(f"{solver} ({int(small[small['solver'] == solver]['success'].sum())} of "
                      f"{int((small['solver'] == solver).sum())} sizes; {', '.join(parts)})")
    if missed:
        lines.append("Solvers without a verified solution at some sizes: " + "; ".join(missed)
                     + ".")
    big = frame[frame["size"] > 64]
    for (solver, n), g in sorted(big.groupby(["solver", "size"])):
        lines.append(f"{solver} at n = {n:,}: {g['outcome'].iloc[0]} in {g['time_s'].iloc[0]:.3f} s.")
    lines.append(wrong_or_crashed(frame))
    return lines


STUDY = BuiltinStudy(
    name="baselines", source="all",
    description="Every solver on n-queens n = 4..64 under a time limit, and the large-n solvers "
                "at 10^3..10^7.",
    full=lambda: _grid("4,5,6,8,10,12,16,20,24,32,48,64", [1000, 10**4, 10**5, 10**6, 10**7], 10.0),
    quick=lambda: _grid("4,6,8,12,16,24,32", [1000, 10**5, 10**6], 2.0),
    narrative=narrative,
)
