"""Source study 004: every A on 12×12 and 15×15, five runs each, first-choice against stochastic."""

from __future__ import annotations

import pandas as pd

from puzzlebench.report.statistics.findings import Finding, compare, trend
from puzzlebench.report.statistics.scores import run_time_or_penalty, time_limit_of
from puzzlebench.studies import BuiltinStudy, split_analysis
from puzzlebench.studies.measurement import SHORT_RUNS_MIN_TIME


def _grid(sizes: list[int], repeats: int) -> dict:
    return {
        "study": {"name": "queens-knights", "master_seed": 4, "repeats": repeats,
                  "time_limit": 60.0, "min_time": SHORT_RUNS_MIN_TIME},
        "problems": [{"problem": "queens-knights", "sizes": sizes,
                      "queens": list(range(0, max(sizes) + 1))}],
        "solvers": [{"name": "first-choice-hc"}, {"name": "stochastic-hc"}],
    }


def per_a(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame.assign(A=frame["instance"].apply(lambda d: d["queens"]))
    out = frame.pivot_table(index=["size", "A"], columns="solver",
                            values=["counter.iterations", "time_s"], aggfunc="mean")
    out.columns = [f"{s}: {'iterations' if v.startswith('counter') else 'time s'}"
                   for v, s in out.columns]
    return out.round(4).reset_index()


def analysis(frame: pd.DataFrame) -> tuple[list[str], list[Finding]]:
    """Source study 004's findings tested per board on effort (iterations: sub-millisecond times on
    these boards are mostly timer noise) and on PAR-2 time."""
    frame = frame.assign(A=frame["instance"].apply(lambda d: d["queens"]))
    frame = frame.assign(score=run_time_or_penalty(frame, 2 * time_limit_of(frame)))
    lines = [f"{len(frame)} runs, {int(frame['success'].sum())} verified solved; ours took "
             f"{frame['time_s'].sum():.1f} s of solver time in all, source study 004's 290 runs "
             "9.48 hours (its longest 81 minutes): the same boards, but a far shorter regime, so "
             "its timing findings are tested here on effort as well as on time."]
    tests = []
    for n in sorted(frame["size"].unique()):
        sub = frame[frame["size"] == n]
        board = f"{n}×{n}"
        tests.append(trend("Source study 004 found that more queens A make the search slower: "
                           "iterations rise with A", sub["A"], sub["counter.iterations"],
                           expect="increasing", stratum=board))
        tests.append(trend("The same, on PAR-2 time per run", sub["A"], sub["score"],
                           expect="increasing", stratum=board))
        fc, st = (sub[sub["solver"] == s] for s in ("first-choice-hc", "stochastic-hc"))
        if len(fc) and len(st):
            claim = ("Source study 004 found stochastic hill climbing faster than first-choice on the "
                     "larger board" if n >= 15 else
                     "Stochastic hill climbing faster than first-choice (the source study's claim is "
                     "for the larger board)")
            tests.append(compare(f"{claim}: fewer evaluations per run",
                                 st["counter.evaluations"], fc["counter.evaluations"],
                                 names=("stochastic", "first-choice"), expect="less",
                                 unit="evaluations", stratum=board))
            tests.append(compare(f"{claim}: PAR-2 time per run", st["score"], fc["score"],
                                 names=("stochastic", "first-choice"), expect="less",
                                 stratum=board))
    return lines, tests


narrative, findings = split_analysis(analysis)


STUDY = BuiltinStudy(
    name="queens-knights", source="004",
    description="Source study 004: first-choice against stochastic hill climbing for every number of "
                "queens A on 12×12 and 15×15 boards.",
    full=_grid([12, 15], 5), quick=_grid([12], 2), narrative=narrative, findings=findings,
    extras=lambda f: [("Mean iterations and time per A", per_a(f))],
)
