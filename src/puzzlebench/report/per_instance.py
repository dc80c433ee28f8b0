"""The per-instance table: every solver configuration on every instance it ran.

One row per (problem, instance, configuration): solved in k of r runs (verified successes),
the median time of its solved runs (marked † below the noise floor, ``NOISE_FLOOR_S``), the
median of its effort counter over the solved runs (``evaluations`` where the solver counts
them, else its native counter, named) and a ★ on the instance's best. A run the budget or the
limit ended is censored: its time and counters are never read as observed values, so medians
are over solved runs, with k/r beside them.

The best on an instance solved it in the largest share of its runs; among those, on a problem
with an objective (``Problem.objective``: moves on the sliding puzzle), the shortest median
answer; then the shortest median solved time, times below the noise floor counted as the floor
(two runs under 1 ms tie; every tied configuration is marked). A greedy search's fast but long
answers are not the best of an instance an exact search solved optimally."""

from __future__ import annotations

import numpy as np
import pandas as pd

from puzzlebench.records.record import NOISE_FLOOR_S
from puzzlebench.report.series_styles import label_order
from puzzlebench.report.statistics.agreement_matrix import natural_key
from puzzlebench.report.statistics.borda import objectives
from puzzlebench.report.summary import below_floor, counter_columns, with_labels

#: Effort counters in order of preference: the common unit first, then native ones.
EFFORT_PREFERENCE = ("counter.evaluations", "counter.nodes_expanded", "counter.nodes",
                     "counter.nodes_generated", "counter.branches", "counter.iterations")
#: The mark of the best configuration on an instance, and of a time below the noise floor.
BEST, FLOOR = "★", "†"
COLUMNS = ["problem", "instance", "solver", "solved", "median time s", "median effort",
           "effort counter", "median objective", "best"]


def effort_counter(runs: pd.DataFrame) -> str | None:
    """The counter that measures ``runs``' effort: evaluations where counted, else the first
    native counter they report (seconds a solver measured itself and best-so-far values are
    not effort)."""
    present = [c for c in counter_columns(runs) if runs[c].notna().any()
               and not c.endswith("_s") and not c.startswith("counter.best")]
    return next((c for c in EFFORT_PREFERENCE if c in present), present[0] if present else None)


def _time_text(t: float, single_shot: bool) -> str:
    """The median time, marked † below the noise floor when its runs were timed once (a time
    repeated to a minimum total is not noise)."""
    if not np.isfinite(t):
        return ""
    return f"{t:.4g}" + (f" {FLOOR}" if t < NOISE_FLOOR_S and single_shot else "")


def per_instance_table(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per (problem, instance, configuration), instances in natural order, with the
    best on each instance marked ★ (see the module docstring)."""
    frame = with_labels(frame)
    goals = objectives(frame["problem"].unique())
    rows: list[dict[str, object]] = []
    for (problem, instance), inst in frame.groupby(["problem", "instance_id"], sort=False):
        block: list[dict[str, object]] = []
        keys: list[tuple[float, float, float]] = []  # (−share solved, answer, floored time)
        goal = goals.get(str(problem))
        for lab, runs in inst.groupby("label", sort=False):
            solved = runs[runs["success"]]
            counter = effort_counter(runs)
            t = float(solved["time_s"].median()) if len(solved) else np.nan
            effort = (float(solved[counter].median()) if counter and len(solved)
                      and solved[counter].notna().any() else np.nan)
            length = (float(pd.to_numeric(solved[goal], errors="coerce").median())
                      if goal and len(solved) else np.nan)
            keys.append((-len(solved) / len(runs), length if np.isfinite(length) else np.inf,
                         max(t, NOISE_FLOOR_S) if np.isfinite(t) else np.inf))
            block.append({"problem": problem, "instance": instance, "solver": lab,
                          "solved": f"{len(solved)}/{len(runs)}",
                          "median time s": _time_text(t, bool(below_floor(solved).any())),
                          "median effort": effort,
                          "effort counter": counter.removeprefix("counter.") if counter else "",
                          "median objective": length,
                          "best": ""})
        first = min(keys)
        if first[0] < 0:  # someone solved it
            for b, key in zip(block, keys, strict=True):
                if key == first:
                    b["best"] = BEST
        rows += block
    if not rows:
        return pd.DataFrame(columns=COLUMNS)
    table = pd.DataFrame(rows)
    order = sorted(range(len(table)), key=lambda i: (
        table.at[i, "problem"], natural_key(str(table.at[i, "instance"])),
        label_order(str(table.at[i, "solver"]))))
    return table.iloc[order][COLUMNS].reset_index(drop=True)
