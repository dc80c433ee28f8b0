"""Source study 000: H1, H2, H3 × greedy and A* on n = 8..16, 10 random starts each."""

from __future__ import annotations

import pandas as pd

from puzzlebench.report.statistics.findings import Finding, compare
from puzzlebench.report.statistics.scores import run_time_or_penalty, time_limit_of
from puzzlebench.studies import BuiltinStudy, split_analysis
from puzzlebench.studies.measurement import SHORT_RUNS_MIN_TIME

SOLVERS = ["greedy-h1", "astar-h1", "greedy-h2", "astar-h2", "greedy-h3", "astar-h3"]


def _grid(sizes: str, repeats: int, limit: float) -> dict:
    return {
        "study": {"name": "heuristics", "master_seed": 0, "repeats": repeats, "time_limit": limit,
                  "min_time": SHORT_RUNS_MIN_TIME},
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


def _reach(sub: pd.DataFrame) -> int | None:
    """The largest n such that every run at every size up to n was solved."""
    reach = None
    for n, ok in sub.groupby("size")["success"].all().sort_index().items():
        if not ok:
            break
        reach = int(n)
    return reach


def analysis(frame: pd.DataFrame) -> tuple[list[str], list[Finding]]:
    """Per solver: success and reach; the limit's cost; source study 000's finding (H3 best) and the
    A*/greedy trade-off tested per size on each run's PAR-2 time (unsolved = 2 × limit, so a
    timeout counts against a heuristic) or steps."""
    limit = time_limit_of(frame)
    scored = frame.assign(score=run_time_or_penalty(frame, 2 * limit))
    lines = [f"{len(frame)} runs over n = {frame['size'].min()}..{frame['size'].max()} with "
             f"{limit:g} s per run; success means a verified solution within the limit."]
    for s in SOLVERS:
        sub = frame[frame["solver"] == s]
        if sub.empty:
            continue
        reach = _reach(sub)
        lines.append(f"{s} solved {int(sub['success'].sum())} of {len(sub)} runs "
                     f"({sub['success'].mean():.0%}); "
                     + (f"every run at every size up to n = {reach}." if reach is not None
                        else f"not every run even at n = {sub['size'].min()}."))
    out = frame[~frame["success"]]
    if len(out):
        by = ", ".join(f"{k}: {v}" for k, v in out["solver"].value_counts().items())
        lines.append(f"{len(out)} runs ended unsolved at the limit ({by}); a 60 s limit would "
                     f"give them {60 - limit:g} s more each: up to "
                     f"{len(out) * (60 - limit) / 2 / 60:.0f} min more on two cores.")
    tests = []
    for n in sorted(frame["size"].unique()):
        at = scored[scored["size"] == n]
        for search in ("greedy", "astar"):
            h3 = at[at["solver"] == f"{search}-h3"]["score"]
            for other in ("h1", "h2"):
                rival = at[at["solver"] == f"{search}-{other}"]["score"]
                tests.append(compare(
                    f"Source study 000 found H3 (permutation start) best: {search}-h3 faster "
                    f"than {search}-{other} (PAR-2 time per run)", h3, rival,
                    names=(f"{search}-h3", f"{search}-{other}"), expect="less",
                    stratum=f"n = {n}"))
        for h in ("h1", "h2", "h3"):
            astar, greedy = (at[at["solver"] == f"{k}-{h}"] for k in ("astar", "greedy"))
            tests.append(compare(
                f"Among verified solved runs, astar-{h} returns shorter move sequences than "
                f"greedy-{h}", astar.loc[astar["success"], "counter.steps"],
                greedy.loc[greedy["success"], "counter.steps"],
                names=(f"astar-{h}", f"greedy-{h}"), expect="less", unit="moves",
                what="solved runs", stratum=f"n = {n}"))
            tests.append(compare(
                f"astar-{h} takes longer than greedy-{h} (PAR-2 time per run)", astar["score"],
                greedy["score"], names=(f"astar-{h}", f"greedy-{h}"), expect="greater",
                stratum=f"n = {n}"))
    return lines, tests


narrative, findings = split_analysis(analysis)


STUDY = BuiltinStudy(
    name="heuristics", source="000",
    description="Source study 000: greedy and A* with H1 (attacking pairs), H2 (attacked "
                "queens) and H3 (diagonal pairs over permutations) on n-queens, n = 8..16, 10 "
                "random starts each (the source study's grid). The limit is 10 s per run: the "
                "question is how each heuristic scales; a sentence below counts the runs that "
                "hit the limit and what a 60 s limit would add. Unsolved runs count as 2 × the "
                "limit (PAR-2).",
    full=_grid("8..16", 10, 10.0), quick=_grid("8..11", 3, 2.0),
    narrative=narrative, findings=findings,
    extras=lambda f: [("Mean steps, time and success by n", steps_table(f))],
)
