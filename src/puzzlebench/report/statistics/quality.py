"""Answer quality beside speed, where a problem has an objective (``Problem.objective``: on
the sliding puzzle the answer's length in moves, fewer is better).

Each instance's reference is its known optimum (the record's ``optimum``, which the judge
holds for the instance) or, where none is known, the shortest answer any verified run of an
exact solver (``exact``) found on it — the table says which. Per configuration: its verified
solved runs with an answer on instances with a reference, the share of them at the reference
(optimal %), and their mean and largest excess in moves and mean excess in % of the
reference. Instances with no reference are counted apart, never scored."""

from __future__ import annotations

import numpy as np
import pandas as pd

from puzzlebench.report.series_styles import label_order
from puzzlebench.report.statistics.borda import objectives
from puzzlebench.report.summary import with_labels

KNOWN, BEST_EXACT = "known optimum", "best verified exact answer"
COLUMNS = ["problem", "solver", "objective", "solved runs", "optimal %", "mean excess",
           "max excess", "mean excess %", "reference", "instances without a reference"]


def references(runs: pd.DataFrame, objective: str) -> pd.DataFrame:
    """Per instance of one problem: ``reference`` (the objective's best known value) and
    ``source`` (``KNOWN`` or ``BEST_EXACT``); instances with neither are left out."""
    rows = []
    for instance, inst in runs.groupby("instance_id", sort=True):
        known = pd.to_numeric(inst.get("optimum"), errors="coerce").dropna() \
            if "optimum" in inst else pd.Series(dtype=float)
        if len(known):
            rows.append({"instance_id": instance, "reference": float(known.min()),
                         "source": KNOWN})
            continue
        exact = inst["exact"].fillna(False).astype(bool) if "exact" in inst else False
        found = pd.to_numeric(inst.loc[inst["success"] & exact, objective],
                              errors="coerce").dropna()
        if len(found):
            rows.append({"instance_id": instance, "reference": float(found.min()),
                         "source": BEST_EXACT})
    return pd.DataFrame(rows, columns=["instance_id", "reference", "source"])


def quality_table(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per (problem with an objective, configuration); empty when no problem of
    ``frame`` has one."""
    frame = with_labels(frame)
    rows = []
    for problem, objective in sorted(objectives(frame["problem"].unique()).items()):
        runs = frame[frame["problem"] == problem]
        ref = references(runs, objective)
        sources = sorted(set(ref["source"]))
        without = runs["instance_id"].nunique() - len(ref)
        scored = runs[runs["success"]].merge(ref, on="instance_id")
        value = pd.to_numeric(scored[objective], errors="coerce")
        scored = scored.assign(excess=value - scored["reference"])[value.notna()]
        for lab in sorted(runs["label"].unique(), key=label_order):
            mine = scored[scored["label"] == lab]
            excess = mine["excess"].to_numpy(float)
            share = excess / mine["reference"].to_numpy(float).clip(min=1)
            rows.append({"problem": problem, "solver": lab, "objective": objective,
                         "solved runs": len(mine),
                         "optimal %": round(100 * float(np.mean(excess <= 0)), 1) if len(mine) else np.nan,
                         "mean excess": round(float(excess.mean()), 3) if len(mine) else np.nan,
                         "max excess": float(excess.max()) if len(mine) else np.nan,
                         "mean excess %": round(100 * float(share.mean()), 1) if len(mine) else np.nan,
                         "reference": " and ".join(sources) or "none",
                         "instances without a reference": without})
    return pd.DataFrame(rows, columns=COLUMNS)
