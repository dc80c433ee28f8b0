"""Seed 004: every A on 12×12 and 15×15, five runs each, first-choice against stochastic."""

from __future__ import annotations

import pandas as pd

from puzzlebench.report.findings import compare, trend
from puzzlebench.studies import BuiltinStudy


def _grid(sizes: list[int], repeats: int) -> dict:
    return {
        "study": {"name": "queens-knights", "master_seed": 4, "repeats": repeats,
                  "time_limit": 60.0},
        "problems": [{"problem": "queens-knights", "sizes": sizes,
                      "queens": list(range(0, max(sizes) + 1))}],
        "solvers": [{"name": "first-choice-hc"}, {"name": "stochastic-hc"}],
    }


def per_a(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame.assign(A=frame["instance"].apply(lambda d: d["queens"]))
    out = frame.pivot_table(index=["size", "A"], columns="solver",
                            values=["counter.iterations", "time_s"], aggfunc="mean")
    out.columns = [f"{s}: {'iterations' if v.startswith('counter') else 'time s'}"
                   for v, s in out.columns]
    return out.round(4).reset_index()


def narrative(frame: pd.DataFrame) -> list[str]:
    frame = frame.assign(A=frame["instance"].apply(lambda d: d["queens"]))
    lines = [f"{len(frame)} runs, {int(frame['success'].sum())} verified solved (the seed: "
             "290 runs in 9.48 hours, its longest 81 minutes); ours took "
             f"{frame['time_s'].sum():.1f} s of solver time in all."]
    for n in sorted(frame["size"].unique()):
        sub = frame[frame["size"] == n]
        lines.append(trend(f"{n}×{n}: seed 004 found that more queens A make the search slower",
                           sub["A"], sub["time_s"], expect="increasing"))
        fc = sub[sub["solver"] == "first-choice-hc"]["time_s"]
        st = sub[sub["solver"] == "stochastic-hc"]["time_s"]
        if len(fc) and len(st):
            claim = (f"{n}×{n}: seed 004 found stochastic hill climbing faster than first-choice "
                     "on the larger board" if n >= 15 else
                     f"{n}×{n}: stochastic against first-choice hill climbing, time per run")
            lines.append(compare(claim, st, fc, names=("stochastic", "first-choice"),
                                 expect="less"))
    return lines


STUDY = BuiltinStudy(
    name="queens-knights", seed="004",
    description="Seed 004: first-choice against stochastic hill climbing for every number of "
                "queens A on 12×12 and 15×15 boards.",
    full=_grid([12, 15], 5), quick=_grid([12], 2), narrative=narrative,
    extras=lambda f: [("Mean iterations and time per A", per_a(f))],
)
