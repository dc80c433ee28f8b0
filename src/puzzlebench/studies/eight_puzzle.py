"""Source study 001: its nine inputs; its own loop beside A* with each heuristic."""

from __future__ import annotations

import pandas as pd

from puzzlebench.problems.sliding_distances import optimal_length
from puzzlebench.studies import BuiltinStudy
from puzzlebench.studies.measurement import SHORT_RUNS_MIN_TIME

SOURCE_TABLE = {  # input: (its step, its total nodes, its seconds) in source study 001
    "125408367": (388, 667, 4.609), "876403521": (341, 568, 3.703), "142635780": (90, 154, 0.258),
    "327601845": (536, 909, 8.404), "876543210": (503, 860, 7.828), "347508621": (325, 558, 3.237),
    "617805234": (526, 901, 8.277), "760843521": (557, 929, 8.893), "102643785": (86, 146, 0.222),
}
SOLVERS = ["seed001-loop", "astar-rowcol", "astar-misplaced", "astar-manhattan",
           "astar-linear-conflict", "idastar-linear-conflict"]


def _grid() -> dict:
    return {"study": {"name": "eight-puzzle", "master_seed": 0, "time_limit": 30.0,
                      "min_time": SHORT_RUNS_MIN_TIME},
            "problems": [{"problem": "sliding", "sizes": [8], "starts": list(SOURCE_TABLE)}],
            "solvers": [{"name": s} for s in SOLVERS]}


def beside_source(frame: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for start, (step, nodes, secs) in SOURCE_TABLE.items():
        sub = frame[frame["instance"].apply(lambda d: "".join(map(str, d["start"]))) == start]
        row = {"input": start, "optimum": optimal_length(tuple(int(c) for c in start)),
               "001: step": step, "001: nodes": nodes, "001: s": secs}
        for _, r in sub.sort_values("solver").iterrows():
            c = r["counters"]
            examined = c.get("nodes_examined", c.get("nodes_expanded", c.get("nodes_generated")))
            row[f"{r['solver']}: moves/examined"] = f"{r['answer_length']}/{examined}"
        loop = sub[sub["solver"] == "seed001-loop"]
        if len(loop):
            c = loop.iloc[0]["counters"]
            row["ours = 001's counts"] = (c["nodes_examined"], c["nodes_generated"]) == (step, nodes)
        rows.append(row)
    return pd.DataFrame(rows)


def narrative(frame: pd.DataFrame) -> list[str]:
    table = beside_source(frame)
    same = int(table["ours = 001's counts"].sum()) if "ours = 001's counts" in table else 0
    loop = frame[frame["solver"] == "seed001-loop"]
    opt = frame[frame["solver"] == "astar-linear-conflict"]
    longer = loop["answer_length"].mean() - table["optimum"].mean()
    lines = [f"Source study 001's loop reproduced: its node counts match the source study's "
             f"published table on {same} of {len(table)} inputs.",
             "The source study's paths are not optimal: its loop returns paths "
             f"{loop['answer_length'].mean():.1f} moves long on average where the optimum "
             f"averages {table['optimum'].mean():.1f} ({longer:.1f} moves too many per input)."]
    exact = frame[frame["solver"].str.startswith(("astar", "idastar"))]
    wrong = int((~exact["success"]).sum())
    lines.append(f"Every A*/IDA* answer was checked against the BFS distance table: "
                 f"{len(exact) - wrong} of {len(exact)} optimal.")
    reported = sum(v[2] for v in SOURCE_TABLE.values())
    lines.append(f"A* with linear conflict takes {opt['time_s'].sum() * 1000:.1f} ms for the nine "
                 f"inputs together; the source study reported {reported:.1f} s.")
    return lines


STUDY = BuiltinStudy(
    name="eight-puzzle", source="001",
    description="Source study 001: the nine 8-puzzle inputs; the source study's own loop beside A* with each "
                "heuristic and IDA*.",
    full=_grid(), quick=_grid(), narrative=narrative,
    extras=lambda f: [("Beside source study 001's published table", beside_source(f))],
)
