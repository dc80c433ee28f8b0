"""The anytime view: every tracing (incomplete) solver on n-queens and torus-queens, compared by
how fast its best conflict count falls — in two blocks.

- **Equal evaluations**: each run may spend ``EVALUATIONS`` evaluations in the common unit
  (``contract.EFFORT_UNIT``: candidate states whose conflict count was computed, counted alike
  by every solver — a min-conflicts repair of a row of n squares is n of them, a hill-climbing
  candidate move one, a GA individual one), with ``SAFETY_S`` seconds as a safety net.
- **Equal time**: each run may spend ``SECONDS`` seconds and no evaluation cap.

Both blocks run the same seeds. The torus sizes have gcd(n, 6) = 1, so a solution exists. The
report ranks each block apart, on evaluations and on seconds (its anytime table says which
axis each column ranks on); the extra tables give each block's success rates and which budget
stopped each run (``report.anytime_statistics.binding_budget``): in the evaluations block a
slow solver may be stopped by the safety net before its evaluations are spent.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from puzzlebench.report.statistics.anytime_statistics import binding_budget, budget_block
from puzzlebench.solvers.registry import REGISTRY
from puzzlebench.studies import BuiltinStudy

EVALUATIONS = 200_000
SAFETY_S = 5.0
SECONDS = 1.0
SOLVERS = ["ga-seed002", "ga-permutation", "deap-ga", "first-choice-hc", "stochastic-hc",
           "min-conflicts", "qs4"]
#: constraint-minconflicts rebuilds an n²-variable model per restart: n ≤ 64 only.
CONSTRAINT = {"name": "constraint-minconflicts", "params": {"max_n": 64}, "max_size": 64}


def _entries(budget: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"name": s, **budget} for s in SOLVERS] + [{**CONSTRAINT, **budget}]


def _grid(queens: list[int], torus: list[int], repeats: int, evaluations: int, safety: float,
          seconds: float) -> dict:
    return {
        "study": {"name": "anytime", "master_seed": 12, "repeats": repeats, "time_limit": safety},
        "problems": [{"problem": "nqueens", "sizes": queens},
                     {"problem": "torus-queens", "sizes": torus}],
        "solvers": _entries({"max_evaluations": evaluations, "time_limit": safety})
        + _entries({"time_limit": seconds}),
    }


def _blocks(frame: pd.DataFrame) -> pd.Series:
    return frame["budget"].map(budget_block)


def _bindings(frame: pd.DataFrame) -> pd.Series:
    return frame.apply(lambda r: binding_budget(str(r["outcome"]), r["counters"], r["budget"],
                                                float(r["time_s"]), r.get("stopped_by", "")),
                       axis=1)


def narrative(frame: pd.DataFrame) -> list[str]:
    """The study's first sentences: the blocks, the unit, and what bound the runs."""
    blocks = _blocks(frame)
    bound = _bindings(frame)
    lines = [f"{len(frame)} runs of {frame['solver'].nunique()} solvers in "
             f"{blocks.nunique()} budget blocks; {int(frame['success'].sum())} found a solution "
             "the judge accepted. Effort is counted in one unit for every solver: an evaluation "
             "is a candidate state whose conflict count was computed (a min-conflicts repair of "
             "a row of n squares is n evaluations, a hill-climbing candidate move or a GA "
             "individual one); the anytime tables rank on that unit and, separately, on seconds."]
    for block in sorted(blocks.unique()):
        mine = bound[blocks == block]
        stops = mine[mine != "-"].value_counts()
        said = ", ".join(f"{k} {v}" for k, v in stops.items()) or "none"
        lines.append(f"Block '{block}': {len(mine)} runs, {int((mine == '-').sum())} ended with "
                     f"an answer; the budget that stopped the others: {said}.")
    approx = sorted(s for s in frame["solver"].unique()
                    if (spec := REGISTRY.find(str(s))) is not None and spec.evaluation_approximate)
    if approx:
        lines.append(f"{', '.join(approx)} count evaluations only approximately (the library "
                     "hides its steps; see `puzzlebench solvers --json`).")
    lines += _hill_climbers(frame, blocks)
    lines.append("What changed (issue 27): earlier versions of this study let each solver count "
                 "its own step as one evaluation — a min-conflicts repair (n squares scored), a "
                 "qs4 swap, a library step — so its equal budgets were not equal and its rankings "
                 "followed the unit as much as the algorithm; a block with equal time now stands "
                 "beside the block with equal evaluations.")
    return lines


def _hill_climbers(frame: pd.DataFrame, blocks: pd.Series) -> list[str]:
    """Source study 004's comparison re-read on the common unit: first-choice against
    stochastic hill climbing, per block, by the median final best of their runs."""
    out = []
    hc = frame[frame["solver"].isin(["first-choice-hc", "stochastic-hc"])]
    for block in sorted(blocks[hc.index].unique()):
        parts = []
        for (problem, size), g in hc[blocks[hc.index] == block].groupby(["problem", "size"]):
            med = {s: pd.Series([(c or {}).get("best_conflicts") for c in sub["counters"]],
                                dtype=float).median()
                   for s, sub in g.groupby("solver")}
            if len(med) == 2:
                parts.append(f"{problem} n = {size}: first-choice {med['first-choice-hc']:g}, "
                             f"stochastic {med['stochastic-hc']:g}")
        if parts:
            out.append(f"Source study 004's comparison in block '{block}' (median pieces in "
                       "conflict at the end of the run, lower is better): " + "; ".join(parts) + ".")
    return out


def success_rates(frame: pd.DataFrame) -> pd.DataFrame:
    """Share of runs that found a verified solution within the budget, per budget block,
    problem and size (rows) and solver (columns); blank where a solver did not run."""
    frame = frame.assign(budget_block=_blocks(frame))
    rate = frame.groupby(["budget_block", "problem", "size", "solver"])["success"].mean() \
        .unstack("solver")
    shown = rate.map(lambda v: "" if pd.isna(v) else f"{v:.0%}")
    return shown.reset_index()


def binding_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Per budget block and solver: how many runs ended with an answer ('-') and how many each
    budget stopped (evaluations, time, the solver's own limit)."""
    frame = frame.assign(budget_block=_blocks(frame), stopped_by=_bindings(frame))
    table = frame.groupby(["budget_block", "solver", "stopped_by"]).size().unstack("stopped_by")
    return table.fillna(0).astype(int).reset_index()


STUDY = BuiltinStudy(
    name="anytime", source="000-004",
    description="Anytime performance of the incomplete solvers (both GAs, DEAP's GA, the two hill "
                "climbers, min-conflicts, qs4, python-constraint's min-conflicts) on n-queens "
                "n = 32..256 and torus-queens n = 25, 35, 49, 20 seeds, in two blocks: equal "
                f"budgets in the common unit ({EVALUATIONS:,} evaluations, {SAFETY_S:g} s safety "
                f"net) and equal time ({SECONDS:g} s).",
    full=_grid([32, 64, 128, 256], [25, 35, 49], 20, EVALUATIONS, SAFETY_S, SECONDS),
    quick=_grid([32, 64], [25], 5, EVALUATIONS, 2.0, 0.25),
    narrative=narrative,
    extras=lambda f: [("Success rate within the budget, per block", success_rates(f)),
                      ("Which budget stopped each run ('-': it ended with an answer)",
                       binding_table(f))],
)
