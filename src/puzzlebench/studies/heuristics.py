"""Seed 000: H1, H2, H3 × greedy and A* on n = 8..16, 10 random starts each."""

from __future__ import annotations

import pandas as pd

from puzzlebench.report.findings import compare
from puzzlebench.report.scores import run_time_or_penalty, time_limit_of
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


def _largest_all_solved(sub: pd.DataFrame) -> int | None:
    rate = sub.groupby("size")["success"].all()
    sizes = [int(n) for n, ok in rate.items() if ok]
    return max(sizes) if sizes else None


def narrative(frame: pd.DataFrame) -> list[str]:
    """Per solver: success and reach; seed 000's finding (H3 best) tested per search, on each
    run's PAR-2 time (unsolved = 2 × limit, so a timeout counts against a heuristic)."""
    limit = time_limit_of(frame)
    scored = frame.assign(score=run_time_or_penalty(frame, 2 * limit))
    lines = [f"{len(frame)} runs over n = {frame['size'].min()}..{frame['size'].max()} with "
             f"{limit:g} s per run; success means a verified solution within the limit."]
    for s in SOLVERS:
        sub = frame[frame["solver"] == s]
        if sub.empty:
            continue
        reach = _largest_all_solved(sub)
        lines.append(f"{s} solved {int(sub['success'].sum())} of {len(sub)} runs "
                     f"({sub['success'].mean():.0%}); "
                     + (f"every run up to n = {reach}." if reach is not None
                        else "no size where every run was solved."))
    for search in ("greedy", "astar"):
        h3 = scored[scored["solver"] == f"{search}-h3"]["score"]
        for other in ("h1", "h2"):
            rival = scored[scored["solver"] == f"{search}-{other}"]["score"]
            lines.append(compare(
                f"Seed 000 found H3 (permutation start) best; {search}-h3 against "
                f"{search}-{other}, PAR-2 time per run", h3, rival,
                names=(f"{search}-h3", f"{search}-{other}"), expect="less", unit="s"))
    solved = frame[frame["success"]]
    lines.append(compare(
        "A* returns shorter move sequences than greedy search (solved runs)",
        solved[solved["solver"].str.startswith("astar")]["counter.steps"],
        solved[solved["solver"].str.startswith("greedy")]["counter.steps"],
        names=("A*", "greedy"), expect="less", unit="moves"))
    lines.append(compare(
        "A* takes longer than greedy search (PAR-2 time per run)",
        scored[scored["solver"].str.startswith("astar")]["score"],
        scored[scored["solver"].str.startswith("greedy")]["score"],
        names=("A*", "greedy"), expect="greater", unit="s"))
    return lines


STUDY = BuiltinStudy(
    name="heuristics", seed="000",
    description="Seed 000: greedy and A* with H1 (attacking pairs), H2 (attacked queens) and "
                "H3 (diagonal pairs over permutations) on n-queens, n = 8..16, 10 random starts "
                "each (the seed's grid). The limit is 10 s per run: greedy search with every "
                "heuristic, and A* with H3, finish in well under a second up to n = 16, while A* "
                "with H1 or H2 runs out of time from about n = 10 on (A* with H1 does not finish "
                "n = 14 even in 60 s) — a longer limit would spend its time on those "
                "timeouts (about 100 runs: up to 50 more minutes on two cores at 60 s) without "
                "changing which heuristic scales. Unsolved runs count as 2 × the limit (PAR-2).",
    full=_grid("8..16", 10, 10.0), quick=_grid("8..11", 3, 2.0),
    narrative=narrative, extras=lambda f: [("Mean steps, time and success by n", steps_table(f))],
)
