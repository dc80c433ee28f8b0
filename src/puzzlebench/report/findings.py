"""Sentences that check a source study's finding against our runs, saying how.

Each sentence names the test, the sample sizes and the p-value, and gives one of four
verdicts: *confirmed here* (significant at ALPHA in the claimed direction), *contradicted here*
(significant the other way), *not confirmed here* (no significant difference), or *not enough
data* (fewer than MIN_SAMPLE observations in a group). Tests work on individual runs, never on
a handful of medians: two groups are compared with the unpaired Mann–Whitney U test (runs of
stochastic solvers are independent draws), a trend with Spearman's ρ over runs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
from scipy import stats

ALPHA = 0.05
MIN_SAMPLE = 5


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _verdict(significant: bool, as_claimed: bool) -> str:
    if not significant:
        return "not confirmed here"
    return "confirmed here" if as_claimed else "contradicted here"


def compare(claim: str, a: Sequence[float], b: Sequence[float], *, names: tuple[str, str],
            expect: Literal["less", "greater"], unit: str = "s", what: str = "runs") -> str:
    """Whether ``a`` tends to be less (or greater) than ``b`` — two-sided Mann–Whitney U."""
    x, y = np.asarray(a, float), np.asarray(b, float)
    x, y = x[np.isfinite(x)], y[np.isfinite(y)]
    sizes = f"n = {len(x)} vs {len(y)} {what}"
    if min(len(x), len(y)) < MIN_SAMPLE:
        return f"{claim}: not enough data ({sizes}; at least {MIN_SAMPLE} each needed)."
    mx, my = float(np.median(x)), float(np.median(y))
    if np.all(x == x[0]) and np.all(y == x[0]):
        return f"{claim}: not confirmed here (all {what} equal, {mx:.4g} {unit}; {sizes})."
    res = stats.mannwhitneyu(x, y, alternative="two-sided")
    shift = 2 * float(res.statistic) / (len(x) * len(y)) - 1  # >0: a tends to be greater
    as_claimed = shift < 0 if expect == "less" else shift > 0
    return (f"{claim}: {_verdict(float(res.pvalue) < ALPHA, as_claimed)} (Mann–Whitney U, "
            f"{sizes}, {_p(float(res.pvalue))}; medians {mx:.4g} {unit} for {names[0]} vs "
            f"{my:.4g} {unit} for {names[1]}, rank-biserial {shift:+.2f}).")


def trend(claim: str, x: Sequence[float], y: Sequence[float], *,
          expect: Literal["increasing", "decreasing"], what: str = "runs") -> str:
    """Whether ``y`` rises (or falls) with ``x`` — Spearman's ρ over the individual points."""
    xs, ys = np.asarray(x, float), np.asarray(y, float)
    keep = np.isfinite(xs) & np.isfinite(ys)
    xs, ys = xs[keep], ys[keep]
    if len(xs) < MIN_SAMPLE or len(np.unique(xs)) < 3:
        return (f"{claim}: not enough data (n = {len(xs)} {what} over {len(np.unique(xs))} "
                f"values; at least {MIN_SAMPLE} runs over 3 values needed).")
    if np.all(ys == ys[0]):
        return f"{claim}: not confirmed here (no variation, n = {len(xs)} {what})."
    res = stats.spearmanr(xs, ys)
    rho, p = float(res.statistic), float(res.pvalue)
    as_claimed = rho > 0 if expect == "increasing" else rho < 0
    return (f"{claim}: {_verdict(p < ALPHA, as_claimed)} (Spearman ρ = {rho:+.2f}, "
            f"n = {len(xs)} {what}, {_p(p)}).")
