"""The agreement matrix of stored runs: per instance, each solver's claim and count, whether
the runs agree, and how many ended without an answer.

Agreement means agreement: ``agree`` says ``NO`` only for a disagreement — a run judged
``wrong`` (an invalid answer, a claim the facts or another run contradict, an exact answer
another exact solver beat), solvers claiming both ``solved`` and ``infeasible`` on one
instance, or different counts. A run that ran out of time or memory, crashed or stopped on its
budget disagrees with nobody: it is counted in ``no answer`` instead.
"""

from __future__ import annotations

import re

import pandas as pd

from puzzlebench.records.record import SUCCESS_VALUES

#: Outcomes that carry no answer to compare (not disagreements).
NO_ANSWER = ("timeout", "memout", "crash", "budget", "declined")
#: How a cell marks an ``infeasible`` claim verified by a proof or by agreement (a rule: no
#: mark), the stronger rung first.
RUNG_MARKS = (("certificate", " (certified)"), ("agreement", " (agreed)"))


def natural_key(text: str) -> list[int | str]:
    """Sort key that orders numbers by value: ``nqueens-8`` before ``nqueens-10``."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", str(text))]


def agreement_matrix(frame: pd.DataFrame) -> pd.DataFrame:
    """Instances (in natural order) × solvers: the majority claim of each solver's runs
    ('solved', 'infeasible', a count '#92', or the outcome), an ``agree`` column and a
    ``no answer`` column (see the module docstring)."""
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
            rungs = set(g.loc[g["outcome"] == top, "verified_by"]) if "verified_by" in g else set()
            mark = next((m for r, m in RUNG_MARKS if r in rungs), "") if top == "infeasible" else ""
            cells[(iid, solver)] = top + (" (unverified)" if shy else mark)
    table = pd.Series(cells).unstack().fillna("")
    table = table.loc[sorted(table.index, key=natural_key)].sort_index(axis=1)
    agree, no_answer = [], []
    for iid in table.index:
        sub = frame[frame["instance_id"] == iid]
        wrong = (sub["outcome"] == "wrong").any()
        claims = set(sub.loc[sub["outcome"].isin(SUCCESS_VALUES), "outcome"])
        counted = sub.loc[sub["outcome"].isin(SUCCESS_VALUES), "count"].dropna()
        agree.append("NO" if wrong or len(claims) > 1 or counted.nunique() > 1 else "yes")
        no_answer.append(int(sub["outcome"].isin(NO_ANSWER).sum()))
    table["agree"] = agree
    table["no answer"] = no_answer
    return table.reset_index().rename(columns={"index": "instance"})
