"""n-queens completion on generated instances: the five solvers that take the family, side by
side, where the generator puts instances at the solvability threshold.

Not one of the source studies: the family is here because plain n-queens has a closed form and
completion does not (Gent, Jefferson & Nightingale, JAIR 2017).
"""

from __future__ import annotations

import pandas as pd

from puzzlebench.report.statistics.findings import Finding, compare
from puzzlebench.report.statistics.scores import run_time_or_penalty, time_limit_of
from puzzlebench.studies import BuiltinStudy, split_analysis
from puzzlebench.studies.measurement import SHORT_RUNS_MIN_TIME

COMPLETE = ("cpsat", "bitboard", "backtracking")


def _grid(sizes: list[int], generate: int, limit: float) -> dict:
    return {
        "study": {"name": "completion", "master_seed": 17, "time_limit": limit,
                  "min_time": SHORT_RUNS_MIN_TIME,
                  "description": "n-queens completion: generated instances at the solvability "
                                 "threshold (half the rows pre-placed)."},
        "problems": [{"problem": "nqueens-completion", "sizes": sizes, "generate": generate}],
        "solvers": [{"name": "cpsat"}, {"name": "bitboard"}, {"name": "backtracking"},
                    {"name": "min-conflicts"},
                    {"name": "constraint-backtracking", "max_size": 16}],
    }


def per_size(frame: pd.DataFrame) -> pd.DataFrame:
    """Per size: instances, how many some run solved, how many were proved infeasible (and
    how many of those by a checked certificate — with the longest proof check — or, failing
    one, by agreement), and each solver's verified successes."""
    rows = []
    for n, sub in frame.groupby("size"):
        solved = sub[(sub["outcome"] == "solved") & sub["success"]]["instance_id"].nunique()
        infeasible = sub[(sub["outcome"] == "infeasible") & sub["success"]]
        rung = _rungs(infeasible)
        certified = infeasible[rung == "certificate"]
        row = {"n": int(n), "instances": sub["instance_id"].nunique(), "solvable": solved,
               "infeasible (verified)": infeasible["instance_id"].nunique(),
               "of which certified": certified["instance_id"].nunique(),
               "of which by agreement": infeasible[
                   (rung == "agreement") & ~infeasible["instance_id"].isin(
                       certified["instance_id"])]["instance_id"].nunique()}
        if "certify_s" in certified and certified["certify_s"].notna().any():
            row["proof check s (max)"] = round(float(certified["certify_s"].max()), 3)
        for solver, runs in sub.groupby("solver"):
            row[f"{solver}: successes"] = f"{int(runs['success'].sum())}/{len(runs)}"
        rows.append(row)
    return pd.DataFrame(rows)


def _rungs(runs: pd.DataFrame) -> pd.Series:
    """Each run's rung (``verified_by``); for records made before the ladder, agreement when
    the reason says so."""
    if "verified_by" in runs:
        return runs["verified_by"].fillna("")
    agreed = runs["reason"].str.contains("agreed", na=False)
    return agreed.map({True: "agreement", False: ""})


def _count(k: int, noun: str) -> str:
    return f"{k} {noun}{'' if k == 1 else 's'}"


def analysis(frame: pd.DataFrame) -> tuple[list[str], list[Finding]]:
    frame = frame.assign(score=run_time_or_penalty(frame, 2 * time_limit_of(frame)))
    instances = frame["instance_id"].nunique()
    solvable = frame[(frame["outcome"] == "solved") & frame["success"]]["instance_id"].nunique()
    proved = frame[(frame["outcome"] == "infeasible") & frame["success"]]["instance_id"].nunique()
    unverified = int(frame["unverified"].sum())
    open_ = instances - solvable - proved
    lines = [f"{_count(instances, 'generated instance')}, {len(frame)} runs: "
             f"{_count(solvable, 'instance')} solved by some run, {proved} proved infeasible (by "
             "the validator's own enumeration for n ≤ 10, by the attacking-placement rule, by a "
             "DRUP proof the judge checked, or by two complete solvers agreeing), "
             f"{open_} undecided within the limit; "
             f"{_count(unverified, 'success claim')} stayed unverified."]
    tests = []
    cp = frame[frame["solver"] == "cpsat"]
    for other in ("bitboard", "backtracking", "min-conflicts"):
        sub = frame[frame["solver"] == other]
        if len(cp) and len(sub):
            tests.append(compare(f"CP-SAT decides completion faster than {other} (PAR-2 time "
                                 "per run)", cp["score"], sub["score"],
                                 names=("cpsat", other), expect="less"))
    return lines, tests


narrative, findings = split_analysis(analysis)


STUDY = BuiltinStudy(
    name="completion", source="",
    description="n-queens completion: CP-SAT, bitboard and row-by-row backtracking, "
                "min-conflicts and python-constraint on generated instances at the "
                "solvability threshold.",
    full=_grid([16, 20, 24, 28, 32], 10, 10.0), quick=_grid([16, 20], 3, 5.0),
    narrative=narrative, findings=findings,
    extras=lambda f: [("Instances and successes per size", per_size(f))],
)
