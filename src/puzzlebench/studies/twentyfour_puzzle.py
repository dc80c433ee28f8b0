"""Korf & Felner's 24-puzzles: IDA* with their 6-6-6-6 pattern databases and the reflected
lookup, beside their published optimal lengths and nodes expanded (AIJ 134 (2002) 9-22).

Extension of the ``fifteen-puzzle`` study to the board of the paper. Every answer is checked
against the published optimal length. The full study runs the fifteen instances Korf & Felner
solved in under 10^10 nodes expanded (``FIFTEEN``: 28.7·10^9 in all), the largest first so that
two workers finish together, each with a limit of ``LIMIT`` seconds (a run stopped by it is
``budget``, not a failure of the check, and the report says how many); the quick study the five
under 10^9. The four tables (486 MiB) are built once beforehand (``puzzlebench pdb build --shape
5x5``, about 6 minutes) or by the first run that needs them; the search reads them spread to
sparse indices (977 MB, made from them once and cached: ``search.sparse_tables``).

Nodes: ``nodes_expanded`` is Korf & Felner's count; ``expanded_before_last`` is the part of it
in the complete iterations, which with the same heuristic does not depend on the order the moves
are tried in — the last iteration stops where the goal is met, and that depends on the order.
"""

from __future__ import annotations

import pandas as pd

from puzzlebench.problems.korf_instances import KORF24_GOAL, korf24
from puzzlebench.records.record import Outcome
from puzzlebench.studies import BuiltinStudy, wrong_or_crashed
from puzzlebench.studies.korf_tables import korf_grid, outcome_shown

PDB = "idastar-pdb"
#: The per-instance limit of the full study (s).
LIMIT = 1200.0
#: The five instances under 10^9 published nodes (the quick study).
FIVE = (25, 32, 38, 40, 44)
#: The fifteen under 10^10 published nodes, the most published nodes first.
FIFTEEN = tuple(k.number for k in sorted(korf24(), key=lambda k: -k.nodes_expanded)
                if k.nodes_expanded < 10**10)


def _grid(numbers: tuple[int, ...], limit: float) -> dict:
    by_number = {k.number: k for k in korf24()}
    return korf_grid("twentyfour-puzzle", [by_number[n].start for n in numbers], KORF24_GOAL,
                     24, limit, [{"name": PDB, "params": {"partition": "6-6-6-6"}}])


def beside_korf_felner(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per instance run: the published length and nodes, then ours (nodes of a run cut
    off by its limit are those it had made by then, when the solver could report them)."""
    by_start = {k.start: k for k in korf24()}
    rows = []
    for _, r in frame[frame["solver"] == PDB].iterrows():
        k = by_start.get(tuple(r["instance"]["start"]))
        if k is None:
            continue
        c = dict(r["counters"]) if isinstance(r["counters"], dict) else {}
        solved = r["outcome"] == Outcome.SOLVED
        expanded = int(c.get("nodes_expanded", 0))
        rows.append({
            "#": k.number, "optimal (published)": k.optimal,
            "nodes expanded (published)": k.nodes_expanded,
            "outcome": outcome_shown(r),
            "moves": r["answer_length"] if solved else None,
            "nodes expanded": expanded if solved else None,
            "before the last iteration": int(c.get("expanded_before_last", 0)) if solved else None,
            "ours / published": round(expanded / k.nodes_expanded, 2) if solved else None,
            "nodes generated": int(c.get("nodes_generated", 0)) if solved else None,
            "s": round(float(r["time_s"]), 2),
        })
    return pd.DataFrame(rows).sort_values("#") if rows else pd.DataFrame(rows)


def narrative(frame: pd.DataFrame) -> list[str]:
    table = beside_korf_felner(frame)
    if table.empty:
        return ["No runs of idastar-pdb on Korf & Felner's instances."]
    solved = table[table["outcome"] == Outcome.SOLVED]
    ok = solved[solved["moves"] == solved["optimal (published)"]]
    limit = float(frame["budget"].apply(lambda b: dict(b).get("time_limit") or 0).max()) \
        if "budget" in frame else LIMIT
    lines = [f"idastar-pdb with Korf & Felner's 6-6-6-6 databases and their reflection solved {len(solved)} "
             f"of the {len(table)} instances within {limit:g} s each; {len(ok)} answers have the "
             "published optimal length (each checked by the judge)."]
    if len(solved):
        ratio = solved["nodes expanded"].sum() / max(solved["nodes expanded (published)"].sum(), 1)
        gen = solved["nodes generated"].sum()
        lines.append(f"On those it expanded {int(solved['nodes expanded'].sum()):,} nodes against "
                     f"{int(solved['nodes expanded (published)'].sum()):,} published ({ratio:.2f}×), "
                     f"{int(solved['before the last iteration'].sum()):,} of them before the last "
                     f"iteration (the part the order of the moves cannot change), and generated "
                     f"{int(gen):,} in {solved['s'].sum():.1f} s of timed solving "
                     f"({gen / max(solved['s'].sum(), 1e-9) / 1e6:.1f} M nodes/s).")
    rest = table[table["outcome"] != Outcome.SOLVED]
    if len(rest):
        counts = rest["outcome"].value_counts().to_dict()
        how = ", ".join(f"{v} {k}" for k, v in counts.items())
        lines.append(f"The other {len(rest)} ran into the limit ({how}); "
                     f"Korf & Felner needed between {int(rest['nodes expanded (published)'].min()):,} and "
                     f"{int(rest['nodes expanded (published)'].max()):,} nodes expanded for them.")
    lines.append(wrong_or_crashed(frame))
    return lines


STUDY = BuiltinStudy(
    name="twentyfour-puzzle", source="001+",
    description="Korf & Felner's 24-puzzles (2002): the fifteen of their 50 they solved in under 10^10 "
                "nodes expanded, by IDA* with additive 6-6-6-6 pattern databases and their reflection "
                f"({LIMIT:g} s per instance), beside the published optimal lengths and nodes expanded.",
    full=_grid(FIFTEEN, LIMIT), quick=_grid(FIVE, 300.0), narrative=narrative,
    extras=lambda f: [("Beside Korf & Felner's table", beside_korf_felner(f))],
)
