"""Sentences that test a claim — a source study's finding, or a comparison the report makes —
against our runs, saying how.

A claim is tested on individual runs, never on a handful of medians: two groups with the
unpaired Mann–Whitney U test (runs of stochastic solvers are independent draws), a trend with
Spearman's ρ. Where the runs span several sizes, a claim is tested *per size* (sizes change
times by orders of magnitude, so pooling them would mostly measure which group ran the larger
sizes) and the sentence counts the sizes. The p-values of all the tests a study's sentences
make are Holm-adjusted together (``sentences``). Each sentence names the test, the sample sizes
and the p-value, and gives one of four verdicts: *confirmed here* (significant after adjustment
in the claimed direction), *contradicted here* (significant the other way), *not confirmed
here* (no significant difference), *not enough data* (fewer than MIN_SAMPLE observations in a
group, or fewer than three distinct values for a trend)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np
import pandas as pd

from puzzlebench.report.statistics.scores import holm

ALPHA = 0.05
MIN_SAMPLE = 5


@dataclass(frozen=True)
class Finding:
    """One test of one claim (in one stratum). ``p`` is None when no test could be made."""

    claim: str
    test: str
    detail: str
    p: float | None = None
    as_claimed: bool | None = None
    stratum: str = ""
    p_adjusted: float | None = None

    @property
    def verdict(self) -> str:
        if self.p is None:
            return "not enough data" if self.as_claimed is None else "not confirmed here"
        p = self.p if self.p_adjusted is None else self.p_adjusted
        if p >= ALPHA:
            return "not confirmed here"
        return "confirmed here" if self.as_claimed else "contradicted here"


def _num(p: float) -> str:
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def p_text(p: float) -> str:
    """A p-value as every sentence of a report writes it: ``p < 0.001`` or ``p = 0.042``."""
    return f"p {_num(p)}" if p < 0.001 else f"p = {_num(p)}"


def compare(claim: str, a: Sequence[float], b: Sequence[float], *, names: tuple[str, str],
            expect: Literal["less", "greater"], unit: str = "s", what: str = "runs",
            stratum: str = "") -> Finding:
    """Whether ``a`` tends to be less (or greater) than ``b`` — two-sided Mann–Whitney U."""
    from scipy import stats  # on use: 0.5-1 s to import, and listing the studies tests nothing
    x, y = np.asarray(a, float), np.asarray(b, float)
    x, y = x[np.isfinite(x)], y[np.isfinite(y)]
    sizes = f"n = {len(x)} vs {len(y)} {what}"
    test = "Mann–Whitney U"
    if min(len(x), len(y)) < MIN_SAMPLE:
        return Finding(claim, test, f"{sizes}; at least {MIN_SAMPLE} each needed",
                       stratum=stratum)
    mx, my = float(np.median(x)), float(np.median(y))
    if np.all(x == x[0]) and np.all(y == x[0]):
        return Finding(claim, test, f"all {what} equal, {mx:.4g} {unit}; {sizes}",
                       as_claimed=False, stratum=stratum)
    res = stats.mannwhitneyu(x, y, alternative="two-sided")
    shift = 2 * float(res.statistic) / (len(x) * len(y)) - 1  # >0: a tends to be greater
    return Finding(claim, test, f"{sizes}; medians {mx:.4g} {unit} for {names[0]} vs "
                                f"{my:.4g} {unit} for {names[1]}, rank-biserial {shift:+.2f}",
                   float(res.pvalue), shift < 0 if expect == "less" else shift > 0, stratum)


def trend(claim: str, x: Sequence[float], y: Sequence[float], *,
          expect: Literal["increasing", "decreasing"], what: str = "runs",
          stratum: str = "") -> Finding:
    """Whether ``y`` rises (or falls) with ``x`` — Spearman's ρ over the individual points."""
    from scipy import stats  # on use: 0.5-1 s to import, and listing the studies tests nothing
    xs, ys = np.asarray(x, float), np.asarray(y, float)
    keep = np.isfinite(xs) & np.isfinite(ys)
    xs, ys = xs[keep], ys[keep]
    if len(xs) < MIN_SAMPLE or len(np.unique(xs)) < 3:
        return Finding(claim, "Spearman ρ", f"n = {len(xs)} {what} over {len(np.unique(xs))} "
                       f"values; at least {MIN_SAMPLE} runs over 3 values needed",
                       stratum=stratum)
    if np.all(ys == ys[0]):
        return Finding(claim, "Spearman ρ", f"no variation, n = {len(xs)} {what}",
                       as_claimed=False, stratum=stratum)
    res = stats.spearmanr(xs, ys)
    rho = float(res.statistic)
    return Finding(claim, f"Spearman ρ = {rho:+.2f}", f"n = {len(xs)} {what}",
                   float(res.pvalue), rho > 0 if expect == "increasing" else rho < 0, stratum)


def adjust(findings: list[Finding]) -> list[Finding]:
    """The findings with Holm-adjusted p-values over every test among them."""
    tested = [i for i, f in enumerate(findings) if f.p is not None]
    adjusted = (holm(np.array([findings[i].p for i in tested], float)).tolist() if tested
                else [])
    out = list(findings)
    for i, p in zip(tested, adjusted, strict=True):
        out[i] = replace(out[i], p_adjusted=float(p))
    return out


def _one(f: Finding, tests: int) -> str:
    if f.p is None:
        return f"{f.claim}: {f.verdict} ({f.test}, {f.detail})."
    holm_note = (f", Holm-adjusted over this report's {tests} findings tests: "
                 f"{p_text(f.p_adjusted if f.p_adjusted is not None else f.p)}" if tests > 1 else "")
    return f"{f.claim}: {f.verdict} ({f.test}, {f.detail}, {p_text(f.p)}{holm_note})."


def _strata(claim: str, group: list[Finding], tests: int) -> str:
    counts: dict[str, list[str]] = {}
    for f in group:
        counts.setdefault(f.verdict, []).append(f.stratum)
    order = ("confirmed here", "contradicted here", "not confirmed here", "not enough data")
    parts = [f"{v.removesuffix(' here')} at {len(counts[v])} ({', '.join(counts[v])})"
             for v in order if v in counts]
    test = group[0].test.split(" =")[0]
    ps = [f.p_adjusted for f in group if f.p_adjusted is not None]
    if not ps:
        worst = ""
    elif len(ps) == 1 or min(ps) == max(ps):
        worst = f"; adjusted {p_text(ps[0])}"
    else:
        worst = f"; adjusted p from {_num(min(ps))} to {_num(max(ps))}"
    sizes = "size" if len(group) == 1 else "sizes"
    adjusted = (f"Holm-adjusted over this report's {tests} findings tests" if tests > 1 else
                "one test, no adjustment" if tests == 1 else "no test made")
    return f"{claim}: {'; '.join(parts)} of {len(group)} {sizes} ({test} per size, {adjusted}{worst})."


def sentences(findings: list[Finding]) -> list[str]:
    """One sentence per claim, in order; p-values Holm-adjusted over all the tests. A claim
    tested in several strata (sizes) gets one sentence counting its verdicts per stratum."""
    done = adjust(findings)
    tests = sum(f.p is not None for f in done)
    by_claim: dict[str, list[Finding]] = {}
    for f in done:
        by_claim.setdefault(f.claim, []).append(f)
    return [_one(group[0], tests) if len(group) == 1 and not group[0].stratum
            else _strata(claim, group, tests) for claim, group in by_claim.items()]


VERDICTS = ("confirmed here", "contradicted here", "not confirmed here", "not enough data")


def findings_table(findings: list[Finding]) -> pd.DataFrame:
    """One row per claim: the test, how many sizes (strata) gave each verdict, and the range of
    Holm-adjusted p-values (adjusted over every test among ``findings``)."""
    done = adjust(findings)
    by_claim: dict[str, list[Finding]] = {}
    for f in done:
        by_claim.setdefault(f.claim, []).append(f)
    rows = []
    for claim, group in by_claim.items():
        counts = {v: sum(f.verdict == v for f in group) for v in VERDICTS}
        ps = sorted(f.p_adjusted for f in group if f.p_adjusted is not None)
        p_text = ("-" if not ps else _num(ps[0]) if ps[0] == ps[-1]
                  else f"{_num(ps[0])} – {_num(ps[-1])}")
        rows.append({"claim": claim, "test": group[0].test.split(" =")[0],
                     "sizes": len(group) if any(f.stratum for f in group) else "-",
                     "confirmed": counts["confirmed here"],
                     "contradicted": counts["contradicted here"],
                     "not confirmed": counts["not confirmed here"],
                     "too little data": counts["not enough data"],
                     "adjusted p": p_text})
    return pd.DataFrame(rows, columns=["claim", "test", "sizes", "confirmed", "contradicted",
                                       "not confirmed", "too little data", "adjusted p"])


def findings_detail(findings: list[Finding]) -> pd.DataFrame:
    """One row per test (claim × size): verdict, what was compared, raw and adjusted p."""
    rows = [{"claim": f.claim, "size": f.stratum or "-", "verdict": f.verdict, "test": f.test,
             "detail": f.detail, "p": "-" if f.p is None else _num(f.p),
             "adjusted p": "-" if f.p_adjusted is None else _num(f.p_adjusted)}
            for f in adjust(findings)]
    return pd.DataFrame(rows, columns=["claim", "size", "verdict", "test", "detail", "p",
                                       "adjusted p"])
