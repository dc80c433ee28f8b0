"""Seed 000: H1, H2, H3 × greedy and A* on n = 8..16, 10 random starts each."""

from __future__ import annotations

import pandas as pd

from puzzlebench.studies import BuiltinStudy

SOLVERS = ["greedy-h1", "astar-h1", "greedy-h2", "astar-h2", "greedy-h3", "astar-h3"]


def _grid(sizes: str, repeats: int, limit: float) -> dict:
    return {
        "study": {"name": "heuristics", "master_seed": 0, "repeats": repeats, "time_limit": limit},
        "problems": [{"problem": "nqueens", "sizes": sizes}],
        "solvers": [{"name": s} for s in SOLVERS],
    }


def steps_table(frame: pd.DataFrame) -> pd.DataFrame:
    solved = frame[frame["success"]]
    mean_steps = solved.pivot_table(index="size", columns="solver", values="counter.steps",
                                    aggfunc="mean").round(1)
    mean_time = frame.pivot_table(index="size", columns="solver", values="time_s",
                                  aggfunc="mean").round(4)
    rate = frame.assign(ok=frame["success"]).pivot_table(
        index="size", columns="solver", values="ok", aggfunc="mean")
    out = pd.concat({"mean steps": mean_steps, "mean time s": mean_time, "solved": rate}, axis=1)
    out.columns = [f"{a}: {b}" for a, b in out.columns]
    return out.reset_index()


def narrative(frame: pd.DataFrame) -> list[str]:
    solved = frame[frame["success"]]
    rate = frame.groupby("solver")["success"].mean()
    t = solved.groupby("solver")["time_s"].mean()
    fastest = t.idxmin() if len(t) else "-"
    lines = [f"{len(frame)} runs over n = {frame['size'].min()}..{frame['size'].max()}; "
             f"{fastest} has the lowest mean time to a solution ({t.min():.4f} s)."]
    for s in SOLVERS:
        if s in rate:
            lines.append(f"{s} solved {rate[s]:.0%} of its runs within the limit.")
    h3 = solved[solved["solver"].str.endswith("h3")]["time_s"].mean()
    h1 = solved[solved["solver"].str.endswith("h1")]["time_s"].mean()
    if h3 == h3 and h1 == h1:
        verdict = "agrees with" if h3 < h1 else "differs from"
        lines.append(f"H3 averages {h3:.4f} s per solved run against {h1:.4f} s for H1, which "
                     f"{verdict} seed 000's finding that H3 (permutation start) performs best.")
    astar = solved[solved["solver"].str.startswith("astar")]["counter.steps"].mean()
    greedy = solved[solved["solver"].str.startswith("greedy")]["counter.steps"].mean()
    lines.append(f"A* paths average {astar:.1f} moves against {greedy:.1f} for greedy search: "
                 "A* pays in time for shorter move sequences.")
    return lines


STUDY = BuiltinStudy(
    name="heuristics", seed="000",
    description="Seed 000: greedy and A* with H1 (attacking pairs), H2 (attacked queens) and "
                "H3 (diagonal pairs over permutations) on n-queens.",
    full=_grid("8..16", 10, 10.0), quick=_grid("8..11", 3, 2.0),
    narrative=narrative, extras=lambda f: [("Mean steps, time and success by n", steps_table(f))],
)
