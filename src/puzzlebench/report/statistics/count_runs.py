"""Count runs beside solve runs of the same problem: a study may solve a problem with some
solvers and count its solutions with others (``task = "count"``). The report compares
like with like, so where a problem's runs hold both tasks its count runs are reported as the
problem ``PROBLEM-count`` (their own tables, ranking and figures); a store of one task is
left as it is."""

from __future__ import annotations

import pandas as pd

#: What the report calls the count runs of a problem that is also solved.
SUFFIX = "-count"


def separate_counts(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with the count runs of every problem that also has solve runs renamed
    ``PROBLEM-count``."""
    if "task" not in frame or frame.empty:
        return frame
    task = frame["task"].fillna("solve").astype(str)
    both = task.groupby(frame["problem"]).transform("nunique") > 1
    counted = both & (task == "count")
    if not counted.any():
        return frame
    return frame.assign(problem=frame["problem"].where(~counted, frame["problem"] + SUFFIX))
