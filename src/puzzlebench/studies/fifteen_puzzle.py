"""Korf's 100 15-puzzles: IDA* with pattern databases (6-6-3 and 7-8, both with the reflected
lookup) beside IDA* with linear conflict, and all beside Korf's 1985 table (IDA* with Manhattan
distance) and Felner, Korf & Hanan's (2004) node counts.

Extension of source study 001 (the 8-puzzle) to the board where heuristic search is measured against a
classic table. Every answer is checked against the published optimal length. The node counts
of the three searches are set side by side per instance; idastar-linear-conflict runs under a
per-instance limit (it would need hours for the hardest instances), so its missing rows are
timeouts, not failures of the check. The 7-8 tables (550 MiB) are built once beforehand
(``puzzlebench pdb build --partition 7-8``, about 10 minutes) or by the first run that needs them.
"""

from __future__ import annotations

import pandas as pd

from puzzlebench.problems.korf_instances import KORF_GOAL, korf100
from puzzlebench.records.record import Outcome
from puzzlebench.studies import BuiltinStudy, wrong_or_crashed
from puzzlebench.studies.korf_tables import korf_grid, outcome_shown

PDB, LC = "idastar-pdb", "idastar-linear-conflict"
#: The configurations set side by side: (short name, solver, its partition or None).
CONFIGS = (("pdb", PDB, "6-6-3"), ("pdb78", PDB, "7-8"), ("lc", LC, None))
#: Felner, Korf & Hanan (2004), JAIR 22: nodes per instance on Korf's 100 with the static
#: partitions and the reflected lookup (their partitions; ours are described in idastar_pdb).
FELNER_NODES = {"6-6-3": 617_555, "7-8": 36_710}
FELNER_663_NODES = FELNER_NODES["6-6-3"]
LIMIT = 10.0


def _grid(count: int) -> dict:
    return korf_grid("fifteen-puzzle", [k.start for k in korf100()[:count]], KORF_GOAL, 15, LIMIT,
                     [{"name": PDB}, {"name": PDB, "params": {"partition": "7-8"}}, {"name": LC}])


def _number(frame: pd.DataFrame) -> pd.Series:
    by_start = {k.start: k.number for k in korf100()}
    return frame["instance"].apply(lambda d: by_start.get(tuple(d["start"]), 0))


def _runs_of(frame: pd.DataFrame, solver: str, partition: str | None) -> pd.DataFrame:
    """The runs of one configuration (a partition of idastar-pdb; runs stored before the
    partition existed are 6-6-3)."""
    runs = frame[frame["solver"] == solver]
    if partition is None or runs.empty:
        return runs
    return runs[runs["params"].apply(lambda p: dict(p).get("partition", "6-6-3")) == partition]


def beside_korf(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per instance: published optimum and 1985 nodes, then each solver's run."""
    frame = frame.assign(number=_number(frame))
    rows = []
    for k in korf100():
        runs = frame[frame["number"] == k.number]
        if runs.empty:
            continue
        row: dict = {"#": k.number, "optimal": k.optimal, "Korf 1985 nodes (MD)": k.ida_nodes_1985}
        for short, solver, partition in CONFIGS:
            r = _runs_of(runs, solver, partition)
            if r.empty:
                continue
            r = r.iloc[0]
            row[f"{short}: outcome"] = outcome_shown(r)
            row[f"{short}: moves"] = r["answer_length"] if r["outcome"] == Outcome.SOLVED else None
            row[f"{short}: nodes"] = int(r["counters"].get("nodes_generated", 0))
            row[f"{short}: s"] = round(float(r["time_s"]), 4)
        rows.append(row)
    table = pd.DataFrame(rows)
    for short in ("pdb", "pdb78"):
        if len(table) and f"{short}: nodes" in table:
            table[f"1985 / {short} nodes"] = (table["Korf 1985 nodes (MD)"]
                                              / table[f"{short}: nodes"].clip(lower=1)).round(0)
    return table


def totals(frame: pd.DataFrame) -> pd.DataFrame:
    """Per solver: instances solved (verified optimal), nodes, time, nodes per second."""
    table = beside_korf(frame)
    out = [{"search": "Korf 1985, IDA* + Manhattan", "instances": len(table),
            "verified optimal": "(published)", "total nodes": int(table["Korf 1985 nodes (MD)"].sum()),
            "nodes per instance": f"{table['Korf 1985 nodes (MD)'].mean():,.0f}",
            "total s": None, "nodes/s": None, "hardest s": None}]
    for _, solver, partition in CONFIGS:
        runs = _runs_of(frame, solver, partition)
        if runs.empty:
            continue
        nodes = runs["counters"].apply(lambda c: int(c.get("nodes_generated", 0)))
        solved = runs[runs["success"]]
        out.append({"search": solver + (f" {partition} + reflection" if partition else ""),
                    "instances": len(runs), "verified optimal": len(solved),
                    "total nodes": int(nodes.sum()), "nodes per instance": f"{nodes.mean():,.0f}",
                    "total s": round(float(runs["time_s"].sum()), 2),
                    "nodes/s": f"{nodes.sum() / max(runs['time_s'].sum(), 1e-9):,.0f}",
                    "hardest s": round(float(runs["time_s"].max()), 3)})
        if partition in FELNER_NODES:
            out.append({"search": f"Felner, Korf & Hanan 2004, {partition} + reflection",
                        "instances": 100, "verified optimal": "(published)",
                        "total nodes": FELNER_NODES[partition] * 100,
                        "nodes per instance": f"{FELNER_NODES[partition]:,}",
                        "total s": None, "nodes/s": None, "hardest s": None})
    return pd.DataFrame(out)


def narrative(frame: pd.DataFrame) -> list[str]:
    table = beside_korf(frame)
    lines: list[str] = []
    for _, solver, partition in CONFIGS[:2]:
        pdb = _runs_of(frame, solver, partition)
        if pdb.empty:
            continue
        ok = int(pdb["success"].sum())
        nodes = pdb["counters"].apply(lambda c: int(c.get("nodes_generated", 0)))
        korf = int(table["Korf 1985 nodes (MD)"].sum())
        hard = pdb.loc[pdb["time_s"].idxmax()]
        felner = FELNER_NODES[str(partition)]
        lines.append(f"idastar-pdb with the {partition} databases and their reflection solved {ok} of "
                     f"{len(pdb)} instances with an answer of the published optimal length (each "
                     f"checked by the judge), in {pdb['time_s'].sum():.1f} s of solving in all; the "
                     f"hardest took {hard['time_s']:.2f} s.")
        lines.append(f"It generated {nodes.sum():,} nodes, {korf / max(nodes.sum(), 1):,.0f} times fewer "
                     f"than Korf's IDA* with Manhattan distance on the same instances ({korf:,}); "
                     f"{nodes.mean():,.0f} per instance against about {felner:,} reported by "
                     f"Felner, Korf and Hanan (2004) for their {partition} partition with reflection "
                     f"({nodes.mean() / felner:.2f}×).")
    lc = frame[frame["solver"] == LC]
    if len(lc):
        solved = lc[lc["success"]]
        lines.append(f"idastar-linear-conflict, limited to {LIMIT:g} s per instance, solved "
                     f"{len(solved)} of {len(lc)} optimally; the rest ran out of time.")
        both = table.dropna(subset=["lc: moves", "pdb: moves"]) if "lc: moves" in table else table.iloc[:0]
        if len(both):
            ratio = (both["lc: nodes"].sum() / max(both["pdb: nodes"].sum(), 1))
            lines.append(f"On the {len(both)} instances both solved, linear conflict generated "
                         f"{ratio:,.0f} times as many nodes as the 6-6-3 pattern databases.")
    lines.append(wrong_or_crashed(frame))
    return lines


STUDY = BuiltinStudy(
    name="fifteen-puzzle", source="001+",
    description="Korf's 100 15-puzzles (Korf 1985): IDA* with additive 6-6-3 and 7-8 pattern "
                f"databases (with their reflection) and with linear conflict ({LIMIT:g} s per "
                "instance), beside Korf's published optimal lengths and node counts and Felner, Korf "
                "& Hanan's (2004).",
    full=_grid(100), quick=_grid(10), narrative=narrative,
    extras=lambda f: [("Totals", totals(f)), ("Beside Korf's 1985 table", beside_korf(f))],
)
