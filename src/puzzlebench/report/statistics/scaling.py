"""How cost grows with size, as a finding: for each configuration and problem with at least
five sizes, the three scaling models of :mod:`puzzlebench.report.statistics.scaling_models` fitted to the
median of each measure the configuration records (time, and each native counter: evaluations,
nodes, iterations…) over the smaller sizes and challenged on the largest; and the verdicts of
the study's scaling claims (``on = "scaling"``) on those fits.

A run that was not verified solved is censored (``inf``) in every measure: its stop time or its
counter at the cap is never read as an observed value. A count of 0 is taken as 1 (the models
live on a log scale). ``tables/scaling.csv`` has one row per fitted model; the report's details
say per configuration which models are consistent, which rejected and where, and what each
consistent model predicts one power of ten beyond the largest size (when several are, the
sentence says the runs support no one extrapolation: the held-out sizes do not tell them apart).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from puzzlebench.records.claims import SCALING_MIN_SIZES, ScalingClaim
from puzzlebench.report.series_styles import label_order
from puzzlebench.report.statistics.count_runs import SUFFIX as COUNT_SUFFIX
from puzzlebench.report.statistics.scaling_models import (
    FORMULA,
    LEVEL,
    ModelFit,
    ScalingFit,
    fit_scaling,
)
from puzzlebench.report.summary import counter_columns

SCALING_COLUMNS = ["problem", "solver", "measure", "model", "formula", "a", "a_low", "a_high",
                   "b", "b_low", "b_high", "fitted_sizes", "held_out_sizes", "observed",
                   "predicted", "verdict", "why", "censored_sizes", "quantile"]
#: Smallest positive time a run can be fitted at (a clock that read 0).
MIN_TIME_S = 1e-9


#: The native counters of effort the report fits (others — a frontier's size, a start's
#: heuristic value, a move count — are not costs; a scaling claim may still name one).
EFFORT = ("evaluations", "nodes", "nodes_generated", "nodes_expanded", "iterations",
          "repairs", "backtracks")


def measures(runs: pd.DataFrame, also: Iterable[str] = ()) -> list[str]:
    """The measures fitted for a configuration's runs: ``time``, every effort counter some
    solved run reports, and the counters named in ``also`` (a claim's) that it reports."""
    solved = runs[runs["success"].astype(bool)]
    wanted = set(EFFORT) | set(also)
    return ["time"] + [c.removeprefix("counter.") for c in counter_columns(solved)
                       if c.removeprefix("counter.") in wanted and solved[c].notna().any()]


def values_by_size(runs: pd.DataFrame, measure: str) -> dict[int, np.ndarray]:
    """Each size's runs as values of ``measure`` (``inf`` where not verified solved)."""
    column = "time_s" if measure == "time" else f"counter.{measure}"
    floor = MIN_TIME_S if measure == "time" else 1.0
    solved = runs["success"].astype(bool).to_numpy()
    raw = pd.to_numeric(runs[column], errors="coerce").to_numpy(float)
    values = np.where(solved, np.maximum(raw, floor), np.inf)
    values = np.where(solved & np.isnan(raw), np.nan, values)  # solved, counter not recorded
    out = {}
    for n, idx in runs.groupby("size").indices.items():
        v = values[idx]
        out[int(n)] = v[~np.isnan(v)]
    return out


def scaling_fits(frame: pd.DataFrame, *, quantile: float = 0.5,
                 claims: Iterable[ScalingClaim] = ()) -> list[ScalingFit]:
    """Every (problem, configuration, measure) fit of ``frame`` (records with a ``label``
    column) where the configuration ran at least five sizes of the problem; ``claims`` add
    the counters they name to their solver's measures."""
    named: dict[str, set[str]] = {}
    for c in claims:
        named.setdefault(c.solver, set()).add(c.measure)
    out = []
    labelled = frame if "label" in frame else frame.assign(label=frame["solver"])
    for (problem, label), runs in labelled.groupby(["problem", "label"], sort=True):
        if runs["size"].nunique() < SCALING_MIN_SIZES:
            continue
        solver = str(runs["solver"].iloc[0])
        for measure in measures(runs, named.get(solver, ())):
            out.append(fit_scaling(values_by_size(runs, measure), quantile=quantile,
                                   problem=str(problem), label=str(label), solver=solver,
                                   measure=measure))
    return sorted(out, key=lambda f: (f.problem, label_order(f.label), f.measure != "time",
                                      f.measure))


def number(x: float) -> str:
    """A statistic in three significant digits; ``10^k`` past the float range."""
    if not math.isfinite(x):
        return "∞" if x > 0 else "-"
    return f"{x:.3g}"


def log10_number(x: float) -> str:
    """A number given by its log10, written as :func:`number` would (no overflow)."""
    if not math.isfinite(x):
        return "-"
    return number(10 ** x) if abs(x) < 300 else f"10^{x:.1f}"


def parameter(b: float, ci: tuple[float, float]) -> str:
    """``b [lo, hi]`` with as many digits as it takes to tell the three apart (a base of
    1.0003 is not written 1, nor one of 1.000004)."""
    for digits in range(3, 10):
        texts = [f"{v:.{digits}g}" for v in (b, *ci)]
        # a base written "1" when it is not 1 reads as "no growth": more digits then
        rounded_to_one = texts[0] == "1" and b != 1
        if (len(set(texts)) == 3 and not rounded_to_one) or not all(map(math.isfinite, ci)):
            break
    if not all(map(math.isfinite, ci)):
        return texts[0]
    return f"{texts[0]} [{texts[1]}, {texts[2]}]"


def formula(m: ModelFit) -> str:
    """The fitted model in words: ``12.3·n^1.10 [1.02, 1.19]``."""
    a, b = number(m.a), parameter(m.b, m.b_ci)
    if m.model == "polynomial":
        return f"{a}·n^{b}"
    return f"{a}·{b}^{'n' if m.model == 'exponential' else '√n'}"


def sizes_text(sizes: Sequence[int]) -> str:
    return ", ".join(map(str, sizes))


def extrapolation_size(fit: ScalingFit) -> int:
    """Where a report extrapolates: the first power of ten beyond the largest size run."""
    largest = max(s.size for s in fit.sizes)
    return 10 ** (math.floor(math.log10(largest)) + 1)


def power_of_ten(n: int) -> str:
    k = round(math.log10(n))
    return f"10^{k}" if n == 10 ** k and k >= 3 else str(n)


def sentence(fit: ScalingFit) -> str:
    """One configuration's measure on one problem in a sentence: the consistent models with
    their parameters' intervals, the rejected ones with where, the censored sizes, and each
    consistent model's extrapolation."""
    head = f"{fit.problem}, {fit.label}: {fit.measure}"
    censored = (f"; n = {sizes_text(fit.censored)}: fewer than half the runs finished, no "
                "median, not fitted" if fit.censored else "")
    if not fit.models:
        return f"{head}: {fit.note}{censored}."
    parts = []
    for m in fit.models:
        if m.verdict == "consistent":
            parts.append(f"≈ {formula(m)} ({m.model}, consistent)")
        elif m.verdict == "rejected":
            parts.append(f"{m.model} rejected at n = {sizes_text(m.rejected_at)}")
        else:
            parts.append(f"{m.model} inconclusive ({m.why})")
    out = (f"{head} ({'median' if fit.quantile == 0.5 else f'q{fit.quantile:g}'}, fitted on "
           f"n = {sizes_text(fit.fitted)}, held out n = {sizes_text(fit.held_out)}): "
           + "; ".join(parts) + censored)
    ok = fit.consistent
    if ok:
        n = extrapolation_size(fit)
        said = []
        for m in ok:
            point, lo, hi = (float(v) for v in m.predict_log10(float(n)))
            said.append(f"{log10_number(point)} [{log10_number(lo)}, {log10_number(hi)}]"
                        f"{f' ({m.model})' if len(ok) > 1 else ''}")
        if len(ok) == 1:
            out += f"; predicted for n = {power_of_ten(n)} ({ok[0].model}): {said[0]}"
        else:
            out += (f"; predicted for n = {power_of_ten(n)}: " + ", ".join(said)
                    + f" — the held-out sizes do not tell these {len(ok)} models apart, so the "
                    "runs support no one extrapolation beyond them")
    return out + "."


def scaling_table(fits: Iterable[ScalingFit]) -> pd.DataFrame:
    """``tables/scaling.csv``: one row per fitted model (``SCALING_COLUMNS``); a fit that could
    not be made has one row with its reason."""
    rows: list[dict[str, object]] = []
    for f in fits:
        base = {"problem": f.problem, "solver": f.label, "measure": f.measure,
                "fitted_sizes": sizes_text(f.fitted), "held_out_sizes": sizes_text(f.held_out),
                "censored_sizes": sizes_text(f.censored), "quantile": f.quantile}
        if not f.models:
            rows.append({**base, "model": "-", "verdict": "inconclusive", "why": f.note})
            continue
        for m in f.models:
            rows.append({**base, "model": m.model, "formula": FORMULA[m.model],
                         "a": _round(m.a), "a_low": _round(m.a_ci[0]), "a_high": _round(m.a_ci[1]),
                         "b": _round(m.b, 6), "b_low": _round(m.b_ci[0], 6),
                         "b_high": _round(m.b_ci[1], 6),
                         "observed": "; ".join(number(c.observed) for c in m.checks),
                         "predicted": "; ".join(f"{number(c.predicted)} [{number(c.low)}, "
                                                f"{number(c.high)}]" for c in m.checks),
                         "verdict": m.verdict, "why": m.why})
    return pd.DataFrame(rows, columns=SCALING_COLUMNS)


def _round(x: float, digits: int = 4) -> float | None:
    return float(f"{x:.{digits}g}") if math.isfinite(x) else None


@dataclass(frozen=True)
class ScalingVerdict:
    """A scaling claim's verdict (confirmed / contradicted / inconclusive) and the fits it
    rests on (one per configuration of the solver and problem the claim covers)."""

    claim: ScalingClaim
    verdict: str
    fits: tuple[ScalingFit, ...]
    why: str

    comparison = None  # no rank test: the claims table's test columns stay empty
    p_adjusted = None

    def effect_text(self) -> str:
        """The claimed model's growth parameter with its interval, per fit."""
        parts = []
        for f in self.fits:
            m = f.model(self.claim.model)
            if m is not None:
                what = "exponent" if m.model == "polynomial" else "base"
                where = f" ({f.label}, {f.problem})" if len(self.fits) > 1 else ""
                parts.append(f"{what} {parameter(m.b, m.b_ci)}{where}")
        return "; ".join(parts) or "-"

    def sentence(self) -> str:
        effect = self.effect_text()
        inner = "; ".join(x for x in (effect if effect != "-" else "", self.why) if x)
        return f"{self.claim.says}: {self.verdict}" + (f" ({inner})." if inner else ".")


def _one(claim: ScalingClaim, fit: ScalingFit) -> tuple[str, str]:
    """The claim's verdict on one fit, and why."""
    m = fit.model(claim.model)
    if m is None:
        return "inconclusive", f"{fit.label} on {fit.problem}: {fit.note}"
    if m.verdict == "rejected":
        where = f"held-out n = {sizes_text(m.rejected_at)}"
        # every family rejected: the measure follows none of them over these sizes (a size
        # far off every curve), which says nothing for or against the claimed family alone
        if all(o.verdict == "rejected" for o in fit.models):
            return "inconclusive", (f"{claim.model} rejected at {where}, and so is every "
                                    "other model: the held-out sizes follow none of them")
        return "contradicted", f"{claim.model} rejected at {where}"
    if m.verdict != "consistent":
        return "inconclusive", m.why
    held = f"consistent at held-out n = {sizes_text(fit.held_out)}"
    if claim.at_most is not None:
        lo, hi = m.b_ci
        if hi <= claim.at_most:
            return "confirmed", f"{held}; {LEVEL:.0%} interval at most {claim.at_most:g}"
        if lo > claim.at_most:
            return "contradicted", f"{held}, but the interval lies above {claim.at_most:g}"
        return "inconclusive", f"{held}; the interval includes {claim.at_most:g}"
    others = [o.model for o in fit.models if o.model != claim.model and o.verdict != "rejected"]
    if others:
        return "inconclusive", (f"{held}, but {' and '.join(others)} not rejected: the held-out "
                                "sizes do not tell them apart")
    return "confirmed", f"{held}; the other models rejected"


def scaling_verdicts(fits: Sequence[ScalingFit],
                     claims: Iterable[ScalingClaim]) -> list[ScalingVerdict]:
    """One verdict per scaling claim: contradicted where any fit it covers contradicts it,
    confirmed where every one confirms it, inconclusive otherwise. No correction over claims:
    a verdict rests on held-out sizes, not on a p-value."""
    out = []
    for claim in claims:
        mine = tuple(f for f in fits if f.solver == claim.solver and f.measure == claim.measure
                     and (not claim.problem or f.problem in (claim.problem,
                                                              claim.problem + COUNT_SUFFIX)))
        if not mine:
            where = f" on {claim.problem}" if claim.problem else ""
            out.append(ScalingVerdict(claim, "inconclusive", (), f"no runs of {claim.solver} "
                                      f"over five sizes{where} that record {claim.measure}"))
            continue
        results = [_one(claim, f) for f in mine]
        kinds = [v for v, _ in results]
        verdict = ("contradicted" if "contradicted" in kinds else
                   "confirmed" if all(k == "confirmed" for k in kinds) else "inconclusive")
        why = "; ".join(dict.fromkeys(w for v, w in results if v == verdict or
                                      verdict == "inconclusive"))
        out.append(ScalingVerdict(claim, verdict, mine, why))
    return out


def scaling_claim_row(v: ScalingVerdict) -> dict[str, object]:
    """The claim's row of ``tables/claims.csv`` (``claim_tests.CLAIM_COLUMNS``)."""
    first = v.fits[0].model(v.claim.model) if len(v.fits) == 1 else None
    bound = "" if v.claim.at_most is None else f", at most {v.claim.at_most:g}"
    row: dict[str, object] = {
        "says": v.claim.says, "problem": v.claim.problem or "all it runs",
        "measure": f"scaling: {v.claim.measure} ({v.claim.model}{bound})",
        "verdict": v.verdict, "why": v.why,
        "test": "model fitted to the smaller sizes' medians, checked at the held-out largest "
                "(bootstrap over runs within sizes; no Holm)"}
    if first is not None:
        row.update({"effect": _round(first.b, 6), "ci_low": _round(first.b_ci[0], 6),
                    "ci_high": _round(first.b_ci[1], 6)})
    return row


def scaling_shown(fits: Iterable[ScalingFit]) -> pd.DataFrame:
    """The report's scaling table: one row per model, the fit in words (every number is in
    ``tables/scaling.csv``)."""
    rows = []
    for f in fits:
        for m in f.models or (None,):
            rows.append({"problem": f.problem, "solver": f.label, "measure": f.measure,
                         "model": "-" if m is None else m.model,
                         "fit [95% CI of b]": "-" if m is None else formula(m),
                         "held out": sizes_text(f.held_out) or "-",
                         "verdict": "inconclusive" if m is None else m.verdict,
                         "why": (f.note if m is None else m.why) or "-"})
    return pd.DataFrame(rows, columns=["problem", "solver", "measure", "model",
                                       "fit [95% CI of b]", "held out", "verdict", "why"])
