"""Source study 003: backtracking, counts against OEIS, Knuth's estimate, the mod-12 construction."""

from __future__ import annotations

import numpy as np
import pandas as pd

from puzzlebench.problems.nqueens import A000170, A002562, QueensInstance
from puzzlebench.solvers.contract import Budget
from puzzlebench.solvers.registry import REGISTRY, RegistryError
from puzzlebench.studies import BuiltinStudy
from puzzlebench.studies.measurement import SHORT_RUNS_MIN_TIME


def _grid(max_n: int, mod12_max: int) -> dict:
    return {
        "study": {"name": "backtracking", "master_seed": 3, "time_limit": 60.0,
                  "min_time": SHORT_RUNS_MIN_TIME},
        "problems": [{"problem": "nqueens", "sizes": f"1..{max_n}"},
                     {"problem": "nqueens", "sizes": f"{max_n + 1}..{mod12_max}"}],
        "solvers": [{"name": "backtracking", "max_size": max_n},
                    {"name": "bitboard", "max_size": max_n},
                    {"name": "mod12"}],
    }


def unique_counter() -> str:
    """The registered solver the counts table asks: the first (by name) complete, available
    one that counts nqueens solutions up to symmetry — the study names no solver."""
    for spec in REGISTRY.all("nqueens"):
        if spec.counts and spec.counts_unique and spec.complete and not spec.unavailable:
            return spec.name
    raise RegistryError("no registered solver counts nqueens solutions up to symmetry")


def counts_table(frame: pd.DataFrame) -> pd.DataFrame:
    rows = []
    counter = REGISTRY.load(unique_counter()).create()
    for n in range(1, min(int(frame["size"].max()), 14) + 1):
        found = counter.count(QueensInstance(n), Budget(), unique=True)
        total, unique = found.count, found.unique
        rows.append({"n": n, "solutions": total, "OEIS A000170": A000170[n],
                     "unique": unique, "OEIS A002562": A002562[n],
                     "match": total == A000170[n] and unique == A002562[n]})
    return pd.DataFrame(rows)


def knuth_table(frame: pd.DataFrame) -> pd.DataFrame:
    # imported on use: the estimator's kernels load numba, which listing the studies never needs
    from puzzlebench.search.queens.knuth_estimate import estimate_tree, tree_nodes

    rows = []
    for n in (6, 8, 10, 12, 14):
        est = estimate_tree(n, 1000, np.random.default_rng(n))
        exact = tree_nodes(n)
        rows.append({"n": n, "exact tree": exact, "estimate (1000 probes)": round(est.mean),
                     "95% CI low": round(est.ci_low), "95% CI high": round(est.ci_high),
                     "ratio": round(est.mean / exact, 3),
                     "exact inside CI": est.ci_low <= exact <= est.ci_high})
    return pd.DataFrame(rows)


def narrative(frame: pd.DataFrame) -> list[str]:
    counts = counts_table(frame)
    knuth = knuth_table(frame)
    mod12 = frame[frame["solver"] == "mod12"]
    lines = [f"Counts and unique counts for n = 1..{counts['n'].max()} match OEIS A000170 and "
             f"A002562 in {int(counts['match'].sum())} of {len(counts)} cases "
             f"(n = 8: {counts.loc[counts['n'] == 8, 'solutions'].iloc[0]} solutions, "
             f"{counts.loc[counts['n'] == 8, 'unique'].iloc[0]} unique, as source study 003 states).",
             f"Knuth's estimate brackets the exact tree size in {int(knuth['exact inside CI'].sum())}"
             f" of {len(knuth)} sizes; estimate/exact ranges over "
             f"{knuth['ratio'].min():.2f}..{knuth['ratio'].max():.2f}.",
             f"The mod-12 construction gave a valid board for {int((mod12['outcome'] == 'solved').sum())}"
             f" of {int((mod12['size'] >= 4).sum() + (mod12['size'] == 1).sum())} solvable n up "
             f"to {mod12['size'].max()}, and claimed n = 2, 3 infeasible "
             f"({int((mod12['outcome'] == 'infeasible').sum())} of 2)."]
    bt = frame[frame["solver"] == "backtracking"]
    if len(bt):
        lines.append(f"Row-by-row backtracking found the first solution for every solvable n up to "
                     f"{bt['size'].max()} and proved n = 2, 3 infeasible; its node counts are in "
                     "the summary table.")
    return lines


STUDY = BuiltinStudy(
    name="backtracking", source="003",
    description="Source study 003: backtracking, exhaustive counts against OEIS, Knuth's Monte Carlo "
                "estimate against the exact tree size, and the mod-12 construction.",
    full=_grid(14, 1000), quick=_grid(10, 200), narrative=narrative,
    extras=lambda f: [("Counts against OEIS", counts_table(f)),
                      ("Knuth's estimate against the exact tree", knuth_table(f))],
)
