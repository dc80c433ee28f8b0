"""Runs whose figures a harness note says are distorted, set apart from the statistics.

The harness notes (``RunProvenance.notes``) when a run's time or budget is not what it seems: its
warm-up was cut short (first-call costs may fall in its timed phase: a 31.8 ms first run
beside 1 ms ones), or it kept more than one core busy (its time is not a one-core time). A
fired repeat rule (``--min-time`` repeats measurably cheaper than the first solve) is not
among them: the harness has already made the first solve's time the run's, an honest
single-shot time that the report floors at the noise floor like any other. A start-up that
used its whole share of the time limit is not among them either: the solver had less budget,
but what it measured is its own (the note stays on the run).

The rule every report states: such a run is left out of the statistics — tables, ranks,
tests, figures — and counted and named in the manifest and ``tables/distorted.csv``; a run
judged wrong or crashed stays in (a note on its timing does not change its outcome)."""

from __future__ import annotations

import pandas as pd

from puzzlebench.records.record import FAILURE_VALUES

#: Note prefixes that distort a run's figures, and what each means in a sentence.
DISTORTING_NOTES: dict[str, str] = {
    "warm-up cut short": "warm-up cut short",
    "the run used more than one core": "more than one core used",
}

#: The rule, as the report states it.
RULE = ("runs with a distorting harness note (warm-up cut short, more than one core used) "
        "are left out of the statistics, tables and figures; wrong and "
        "crashed runs stay in")


def distortions(notes: object) -> list[str]:
    """The distorting notes of one run's ``notes`` (sentences joined by "; "), in words."""
    if not isinstance(notes, str) or not notes:
        return []
    parts = [p.strip() for p in notes.split("; ")]
    return [said for prefix, said in DISTORTING_NOTES.items()
            if any(p.startswith(prefix) for p in parts)]


def split_distorted(frame: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """(kept runs, excluded runs, a sentence saying how many were left out, which and why).

    ``excluded`` has the frame's columns plus ``distortion`` (the notes in words); the
    sentence is empty when nothing was left out."""
    notes = frame["notes"] if "notes" in frame else pd.Series("", index=frame.index)
    said = notes.map(distortions)
    failed = frame["outcome"].isin(FAILURE_VALUES) if "outcome" in frame else False
    out = said.map(bool) & ~failed
    kept = frame[~out]
    excluded = frame[out].assign(distortion=said[out].map("; ".join))
    if excluded.empty:
        return kept, excluded, ""
    why: dict[str, int] = {}
    for reasons in said[out]:
        for r in reasons:
            why[r] = why.get(r, 0) + 1
    by_solver = excluded.groupby("solver").size() if "solver" in excluded else pd.Series()
    sentence = (f"{len(excluded)} of {len(frame)} runs left out of the statistics for a "
                "distorting harness note ("
                + ", ".join(f"{r}: {n}" for r, n in sorted(why.items())) + "; "
                + ", ".join(f"{s} {n}" for s, n in sorted(by_solver.items()))
                + "); listed in tables/distorted.csv")
    return kept, excluded, sentence


def distorted_table(excluded: pd.DataFrame) -> pd.DataFrame:
    """The left-out runs as the report lists them."""
    cols = [c for c in ("problem", "instance_id", "solver", "seed", "repeat", "outcome",
                        "time_s", "warmup_s", "distortion") if c in excluded]
    return excluded[cols].reset_index(drop=True)
