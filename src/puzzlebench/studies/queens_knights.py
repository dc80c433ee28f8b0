"""Seed 004: every A on 12×12 and 15×15, five runs each, first-choice against stochastic."""

from __future__ import annotations

import pandas as pd

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
    lines = [f"{len(frame)} runs, {int((frame['outcome'] == 'solved').sum())} solved (the seed: "
             "290 runs in 9.48 hours, its longest 81 minutes); ours took "
             f"{frame['time_s'].sum():.1f} s of solver time in all."]
    for n in sorted(frame["size"].unique()):
        sub = frame[frame["size"] == n]
        rho = sub[["A", "time_s"]].corr(method="spearman").iloc[0, 1]
        lines.append(f"{n}×{n}: time against the number of queens A has Spearman ρ = {rho:+.2f} — "
                     f"{'agrees with' if rho > 0 else 'differs from'} the seed's finding that "
                     "more queens make the search slower.")
        t = sub.groupby("solver")["time_s"].mean()
        if {"first-choice-hc", "stochastic-hc"} <= set(t.index):
            winner = "stochastic" if t["stochastic-hc"] < t["first-choice-hc"] else "first-choice"
            lines.append(f"{n}×{n}: mean time {t['first-choice-hc']:.4f} s (first-choice) against "
                         f"{t['stochastic-hc']:.4f} s (stochastic): {winner} is faster here"
                         + ("" if n < 15 else "; the seed found stochastic faster on larger boards")
                         + ".")
    return lines


STUDY = BuiltinStudy(
    name="queens-knights", seed="004",
    description="Seed 004: first-choice against stochastic hill climbing for every number of "
                "queens A on 12×12 and 15×15 boards.",
    full=_grid([12, 15], 5), quick=_grid([12], 2), narrative=narrative,
    extras=lambda f: [("Mean iterations and time per A", per_a(f))],
)
