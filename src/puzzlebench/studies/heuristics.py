"""Source study 000: H1, H2, H3 × greedy and A* on n = 8..16, 10 random starts each.

Each run is budgeted in nodes generated (``NODE_BUDGET``), with a time limit behind it as a
guard only. Why not time, as before: a run that stops at a time limit stops at a different node
on every machine and under every load, so the table of who solved what changed between two
invocations on one machine (issue 57); a run that stops at a node budget stops at the same
node everywhere, and the same seed gives the same outcome and counters on every host. The
source study set no limit at all (its runs went to the end); A* with H1 and H2 in its exact
expansion order needs tens of millions of nodes from some starts, so some budget is needed,
and 2,000,000 nodes holds every start that the compiled search solved within 2 M nodes in
the last 10 s-limit run (36 of A* H1's 47 solved, 39 of H2's 50) while the study's 540 runs
take about a minute and a half on two cores.
"""

from __future__ import annotations

import pandas as pd

from puzzlebench.report.statistics.findings import Finding, compare
from puzzlebench.report.statistics.scores import (
    largest_budget,
    run_time_or_penalty,
    time_limit_of,
)
from puzzlebench.studies import BuiltinStudy, split_analysis
from puzzlebench.studies.measurement import SHORT_RUNS_MIN_TIME

SOLVERS = ["greedy-h1", "astar-h1", "greedy-h2", "astar-h2", "greedy-h3", "astar-h3"]
#: Nodes generated a run may spend (the full grid): where it stops is the same on every host.
NODE_BUDGET = 2_000_000
#: The quick grid's budget (n = 8..11).
QUICK_NODE_BUDGET = 200_000


def _grid(sizes: str, repeats: int, limit: float, nodes: int) -> dict:
    return {
        "study": {"name": "heuristics", "master_seed": 0, "repeats": repeats, "time_limit": limit,
                  "max_nodes": nodes, "min_time": SHORT_RUNS_MIN_TIME},
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
    nodes = largest_budget(frame, "max_nodes")
    scored = frame.assign(score=run_time_or_penalty(frame, 2 * limit))
    budget = (f"{nodes:,.0f} nodes generated per run (a {limit:g} s time limit behind it)"
              if nodes else f"{limit:g} s per run")
    lines = [f"{len(frame)} runs over n = {frame['size'].min()}..{frame['size'].max()} with "
             f"{budget}; success means a verified solution within the budget."]
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
        stops = out["stopped_by"].fillna("").value_counts()
        why = ", ".join(f"{v} at {STOPS.get(k, k)}" for k, v in stops.items())
        lines.append(f"{len(out)} runs ended unsolved ({by}): {why}.")
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


#: How a stop (``stopped_by``) reads in the sentence on unsolved runs; '' is a record made
#: before the searches named their stored-state cap.
STOPS = {"max_nodes": "the node budget", "time_limit": "the time limit",
         "memory_cap": "the search's stored-state cap", "": "a stop the record does not name"}


narrative, findings = split_analysis(analysis)


STUDY = BuiltinStudy(
    name="heuristics", source="000",
    description="Source study 000: greedy and A* with H1 (attacking pairs), H2 (attacked "
                "queens) and H3 (diagonal pairs over permutations) on n-queens, n = 8..16, 10 "
                "random starts each (the source study's grid). Each run may generate "
                f"{NODE_BUDGET:,} nodes (a 10 s time limit stands behind it as a guard): a "
                "budget in nodes stops a run at the same node on every machine, so the same "
                "seeds give the same table everywhere. The question is how each heuristic "
                "scales; a sentence below counts the runs the budget stopped. Unsolved runs "
                "count as 2 × the time limit (PAR-2), behind every solved run.",
    full=_grid("8..16", 10, 10.0, NODE_BUDGET),
    quick=_grid("8..11", 3, 2.0, QUICK_NODE_BUDGET),
    narrative=narrative, findings=findings,
    extras=lambda f: [("Mean steps, time and success by n", steps_table(f))],
)
