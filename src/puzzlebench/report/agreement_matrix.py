"""The agreement matrix of stored runs: per instance, each solver's claim and count, and
whether the complete solvers, the counters and the facts agree."""

from __future__ import annotations

import pandas as pd

from puzzlebench.harness.outcome import FAILURE_VALUES, SUCCESS_VALUES


def agreement_matrix(frame: pd.DataFrame) -> pd.DataFrame:
    """Instances × solvers: the majority claim of each solver's runs ('solved', 'infeasible',
    a count '#92', or the outcome), and an ``agree`` column."""
    if frame.empty:
        return pd.DataFrame()
    cells: dict[tuple[str, str], str] = {}
    for (iid, solver), g in frame.groupby(["instance_id", "solver"]):
        counts = g.loc[g["task"] == "count", "count"].dropna() if "task" in g else g["count"].dropna()
        if len(counts):
            cells[(iid, solver)] = "#" + "/".join(str(int(c)) for c in sorted(set(counts)))
        else:
            top = g["outcome"].value_counts().index[0]
            shy = "unverified" in g and bool(g.loc[g["outcome"] == top, "unverified"].any())
            cells[(iid, solver)] = top + (" (unverified)" if shy else "")
    table = pd.Series(cells).unstack().sort_index().sort_index(axis=1).fillna("")
    agree = []
    for iid, row in table.iterrows():
        sub = frame[frame["instance_id"] == iid]
        bad = sub["outcome"].isin(FAILURE_VALUES).any()
        claims = set(sub.loc[sub["outcome"].isin(SUCCESS_VALUES), "outcome"])
        counts = set(sub["count"].dropna())
        agree.append("yes" if not bad and len(claims) <= 1 and len(counts) <= 1 else "NO")
        del row
    table["agree"] = agree
    return table.reset_index().rename(columns={"index": "instance"})
