"""A study's own claims (``[[claims]]`` in its file, :mod:`puzzlebench.claims`) tested on its
runs as the built-in findings are: per size, on individual runs, with the unpaired Mann–Whitney
U test (``findings.compare``), the p-values Holm-adjusted together with every other finding of
the report. The measure is read per run: ``time`` is the run's time, ``par2`` its time when
verified solved and 2 × its time limit otherwise, ``success`` 1 for a verified success and 0
otherwise, ``evaluations`` and ``counter:NAME`` the run's own counter (runs without it are left
out, and a size where either side has none says "not enough data")."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from puzzlebench.claims import Claim
from puzzlebench.report.findings import MIN_SAMPLE, Finding, compare
from puzzlebench.report.scores import run_time_or_penalty, time_limit_of


def measure(frame: pd.DataFrame, claim: Claim) -> pd.Series:
    """The claim's measure for each run of ``frame`` (NaN where a run has none)."""
    if claim.on == "success":
        return frame["success"].astype(float)
    if claim.on == "par2":
        return run_time_or_penalty(frame, 2 * time_limit_of(frame))
    column = claim.column
    if column not in frame:
        return pd.Series(np.nan, index=frame.index)
    return pd.to_numeric(frame[column], errors="coerce").astype(float)


def claim_findings(frame: pd.DataFrame, claims: Iterable[Claim]) -> list[Finding]:
    """One Finding per claim and size (of the claim's problem, or of every problem both
    solvers ran, the size then named ``problem n``), then one over all sizes: the claim's
    row "… (all sizes, paired by instance)" — the measure's mean per instance, compared
    paired by instance with Wilcoxon's signed-rank test (the per-size tests need
    ``MIN_SAMPLE`` runs of each solver at a size; pairing by instance lets a few repeats per
    size add up)."""
    out: list[Finding] = []
    for claim in claims:
        mine = frame[frame["solver"].isin([claim.better, claim.than])]
        if claim.problem:
            mine = mine[mine["problem"] == claim.problem]
        ran = mine.groupby("problem")["solver"].nunique()
        problems = sorted(ran[ran == 2].index)
        if not problems:
            out.append(Finding(claim.says, "Mann–Whitney U",
                               f"no runs of both {claim.better} and {claim.than}"
                               + (f" on {claim.problem}" if claim.problem else "")))
            continue
        unit = {"time": "s", "par2": "s", "success": "(1 = solved)"}.get(claim.on, claim.on)
        for problem in problems:
            sub = mine[mine["problem"] == problem]
            values = sub.assign(value=measure(sub, claim))
            for size in sorted(sub["size"].unique()):
                at = values[values["size"] == size]
                a = at.loc[at["solver"] == claim.better, "value"].dropna()
                b = at.loc[at["solver"] == claim.than, "value"].dropna()
                stratum = f"{size}" if claim.problem or len(problems) == 1 else f"{problem} {size}"
                out.append(compare(claim.says, a.to_numpy(), b.to_numpy(),
                                   names=(claim.better, claim.than),
                                   expect="greater" if claim.higher_is_better else "less",
                                   unit=unit, stratum=stratum))
        out.append(_paired(claim, mine[mine["problem"].isin(problems)], unit))
    return out


def _paired(claim: Claim, frame: pd.DataFrame, unit: str) -> Finding:
    """The claim over all sizes: per-instance means, Wilcoxon signed-rank paired by instance."""
    from scipy import stats  # on use: 0.5-1 s to import, and listing the studies tests nothing
    title = f"{claim.says} (all sizes, paired by instance)"
    test = "Wilcoxon signed-rank"
    means = (frame.assign(value=measure(frame, claim))
             .groupby(["instance_id", "solver"])["value"].mean().unstack("solver"))
    if claim.better not in means or claim.than not in means:
        return Finding(title, test, "no instance with values of both")
    pairs = means[[claim.better, claim.than]].dropna()
    diff = (pairs[claim.better] - pairs[claim.than]).to_numpy(float)
    nonzero = diff[diff != 0]
    detail = (f"{len(pairs)} instances, {len(nonzero)} with a difference; median "
              f"{claim.better} − {claim.than} {np.median(diff) if len(diff) else float('nan'):.4g} "
              f"{unit}")
    if len(pairs) >= MIN_SAMPLE and not len(nonzero):
        return Finding(title, test, detail + "; identical on every instance", as_claimed=False)
    if len(nonzero) < MIN_SAMPLE:
        return Finding(title, test, f"{detail}; at least {MIN_SAMPLE} differing instances needed")
    p = float(stats.wilcoxon(pairs[claim.better], pairs[claim.than], zero_method="wilcox").pvalue)
    up = float(np.sum(stats.rankdata(np.abs(nonzero))[nonzero > 0]))
    down = float(np.sum(stats.rankdata(np.abs(nonzero))[nonzero < 0]))
    better_is_higher = up > down  # the better-named solver's values tend to be higher
    return Finding(title, test, detail, p,
                   better_is_higher if claim.higher_is_better else not better_is_higher)
