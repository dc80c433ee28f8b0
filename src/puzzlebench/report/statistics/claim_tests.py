"""A study's own claims (``[[claims]]`` in its file, :mod:`puzzlebench.records.claims`), each given
exactly one verdict from one test that uses every run: **confirmed**, **contradicted**,
**equivalent** (within the claim's ``margin``) or **inconclusive**, with its effect size, a
95 % interval, the test and its Holm-adjusted p.

* The claims are the study's pre-registered family: Holm runs over them and nothing else.
* The test is van Elteren's rank test stratified by instance (``report.stratified``): runs
  are replicates within an instance, never pooled across instances as if independent, never
  one test per size. Repeats that are the same run again (same value, same
  counters: ``stratified.runs_of``) are one observation.
* The measure per run (lower is better once turned round): ``success`` 1 for a verified
  success, 0 otherwise; ``time`` and ``par2`` the PAR-2 score (the run's time when verified
  solved, floored at the noise floor when taken once; 2 × the time limit otherwise — the rank
  test sees only the order, so an unsolved run is worse than every solved one);
  ``evaluations`` and ``counter:NAME`` the run's counter when verified solved and *censored*
  (worse than every solved run, never its value at the cap or at the stop) otherwise.
* The effect: for ``success`` the difference of success rates (better − than), for the others
  the ratio of medians (better / than, geometric mean over instances), each with a two-level
  bootstrap interval; and Vargha–Delaney's A (the chance that a run of ``better`` beats a run
  of ``than`` on the same instance).
* **Equivalent** needs a ``margin``: the 90 % interval of the effect inside ±margin (success)
  or inside [1/margin, margin] (a ratio) — two one-sided tests at 5 % each (TOST), only where
  the difference test did not separate the two.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from puzzlebench.records.claims import Claim
from puzzlebench.records.record import NOISE_FLOOR_S
from puzzlebench.report.statistics.findings import ALPHA, p_text
from puzzlebench.report.statistics.scaling import ScalingVerdict, scaling_claim_row
from puzzlebench.report.statistics.scores import holm, time_limit_of
from puzzlebench.report.statistics.stratified import Comparison, Effect, compare_strata, runs_of
from puzzlebench.report.summary import below_floor

VERDICTS = ("confirmed", "contradicted", "equivalent", "inconclusive")
CLAIM_COLUMNS = ["says", "problem", "measure", "verdict", "effect", "ci_low", "ci_high",
                 "A", "A_ci_low", "A_ci_high", "p", "p_adjusted", "test", "instances",
                 "runs", "solved", "why"]


@dataclass(frozen=True)
class ClaimVerdict:
    """One claim's verdict and what it rests on."""

    claim: Claim
    verdict: str
    comparison: Comparison | None
    p_adjusted: float | None
    why: str
    solved: str = ""

    def sentence(self) -> str:
        """The claim and its verdict in one sentence, with the effect and its interval."""
        c = self.comparison
        head = f"{self.claim.says}: {self.verdict}"
        if c is None or c.instances == 0:
            return f"{head} ({self.why})."
        effect = effect_text(self.claim, c)
        p = "" if self.p_adjusted is None else f", adjusted {p_text(self.p_adjusted)}"
        return (f"{head} ({effect}, better on {c.wins_a} of {c.instances} instances, worse on "
                f"{c.wins_b}{p}" + (f"; {self.why}" if self.why else "") + ").")


def effect_text(claim: Claim, c: Comparison) -> str:
    """The effect in words: a difference of success rates (better − than) or a ratio (better /
    than), with its 95 % interval."""
    lo, hi = c.effect_ci
    if c.effect_kind == "difference":
        return (f"success rate {c.effect * 100:+.0f} points "
                f"[{lo * 100:+.0f}, {hi * 100:+.0f}]")
    if c.effect_kind == "ratio" and math.isfinite(c.effect):
        what = "PAR-2" if claim.on in ("time", "par2") else claim.on.removeprefix("counter:")
        interval = f" [{lo:.3g}, {hi:.3g}]" if math.isfinite(lo) and math.isfinite(hi) else ""
        return f"{what} ratio {c.effect:.3g}{interval}"
    return f"A = {c.a12:.2f} [{c.a12_ci[0]:.2f}, {c.a12_ci[1]:.2f}]"


def measure(frame: pd.DataFrame, claim: Claim) -> pd.Series:
    """The claim's measure for each run of ``frame``, lower is better (see the module's doc):
    ``inf`` for a censored run, NaN where a run has no value."""
    solved = frame["success"].astype(bool)
    if claim.on == "success":
        return (~solved).astype(float)
    if claim.on in ("time", "par2"):
        floored = solved & below_floor(frame)
        time = frame["time_s"].astype(float).where(~floored, NOISE_FLOOR_S)
        return time.where(solved, 2 * time_limit_of(frame))
    column = claim.column
    if column not in frame:
        return pd.Series(np.nan, index=frame.index)
    values = pd.to_numeric(frame[column], errors="coerce").astype(float)
    # a solver that records the counter: its unsolved runs are censored, whatever they say
    counts = values.notna().groupby(frame["solver"]).transform("any").astype(bool)
    return values.where(solved, np.where(counts, np.inf, np.nan))


def _strata(frame: pd.DataFrame, claim: Claim) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    values = frame.assign(value=measure(frame, claim)).dropna(subset=["value"])
    out = {}
    for (problem, instance), group in values.groupby(["problem", "instance_id"]):
        a = runs_of(group[group["solver"] == claim.better], "value")
        b = runs_of(group[group["solver"] == claim.than], "value")
        if len(a) and len(b):
            out[f"{problem} {instance}"] = (a, b)
    return out


def _solved_text(frame: pd.DataFrame, claim: Claim) -> str:
    parts = []
    for name in (claim.better, claim.than):
        runs = frame[frame["solver"] == name]
        parts.append(f"{name} {int(runs['success'].sum())}/{len(runs)}")
    return "solved in " + ", ".join(parts) + " runs"


def _one(frame: pd.DataFrame, claim: Claim) -> tuple[Comparison | None, str, str]:
    mine = frame[frame["solver"].isin([claim.better, claim.than])]
    if claim.problem:
        mine = mine[mine["problem"] == claim.problem]
    where = f" on {claim.problem}" if claim.problem else ""
    if mine.empty or mine["solver"].nunique() < 2:
        return None, f"no runs of both {claim.better} and {claim.than}{where}", ""
    if claim.on not in ("success", "time", "par2") and claim.column not in mine:
        return None, f"no run recorded the counter {claim.on.removeprefix('counter:')}", ""
    strata = _strata(mine, claim)
    if not strata:
        return None, f"no instance where both {claim.better} and {claim.than} have a value", ""
    kind: Effect = "difference" if claim.on == "success" else "ratio"
    return (compare_strata(strata, effect=kind), "",
            _solved_text(mine, claim))


def _equivalent(claim: Claim, c: Comparison) -> bool:
    if claim.margin is None:
        return False
    lo, hi = c.effect_ci90
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return False
    if c.effect_kind == "difference":
        return -claim.margin <= lo and hi <= claim.margin
    return 1 / claim.margin <= lo and hi <= claim.margin


def claim_verdicts(frame: pd.DataFrame, claims: Iterable[Claim]) -> list[ClaimVerdict]:
    """One verdict per claim, Holm over the claims (the pre-registered family) only."""
    claims = list(claims)
    tested = [_one(frame, c) for c in claims]
    raw = np.array([np.nan if comp is None or comp.p is None else comp.p
                    for comp, _, _ in tested], float)
    adjusted = holm(raw) if len(raw) else raw
    out = []
    for claim, (comp, why, solved), p_adj in zip(claims, tested, adjusted, strict=True):
        if comp is None:
            out.append(ClaimVerdict(claim, "inconclusive", None, None, why))
            continue
        if comp.p is None:
            verdict = "equivalent" if _equivalent(claim, comp) else "inconclusive"
            out.append(ClaimVerdict(claim, verdict, comp, None,
                                    "" if verdict == "equivalent" else comp.method, solved))
            continue
        p = float(p_adj)
        if p < ALPHA:
            verdict = "confirmed" if comp.a_better else "contradicted"
            why = ""
        elif _equivalent(claim, comp):
            verdict, why = "equivalent", (f"within the margin {claim.margin:g} (90 % interval, "
                                          "two one-sided tests)")
        else:
            verdict = "inconclusive"
            # could the design have separated them? Holm's first step over the claims
            if comp.p_min is None:
                why = "not separated by the runs"
            elif comp.p_min * max(1, len(claims)) >= ALPHA:
                why = (f"this design cannot separate them: the smallest p it can reach is "
                       f"{comp.p_min:.2g}, too large to confirm anything after the correction")
            else:
                why = (f"the runs do not separate them (the design could: a p as small as "
                       f"{comp.p_min:.2g} was within reach)")
            if claim.margin is None:
                why += "; state a margin to test equivalence"
        out.append(ClaimVerdict(claim, verdict, comp, p, why, solved))
    return out


def claims_table(verdicts: Sequence[ClaimVerdict | ScalingVerdict]) -> pd.DataFrame:
    """``tables/claims.csv``: one row per claim (``CLAIM_COLUMNS``), a scaling claim's from
    ``report.scaling``."""
    rows = []
    for v in verdicts:
        if isinstance(v, ScalingVerdict):
            rows.append(scaling_claim_row(v))
            continue
        c = v.comparison
        row: dict[str, object] = {"says": v.claim.says, "problem": v.claim.problem or "all shared",
                                  "measure": v.claim.on, "verdict": v.verdict, "why": v.why,
                                  "solved": v.solved}
        if c is not None and c.instances:
            row.update({"effect": _round(c.effect), "ci_low": _round(c.effect_ci[0]),
                        "ci_high": _round(c.effect_ci[1]), "A": round(c.a12, 3),
                        "A_ci_low": round(c.a12_ci[0], 3), "A_ci_high": round(c.a12_ci[1], 3),
                        "p": None if c.p is None else float(f"{c.p:.3g}"),
                        "p_adjusted": None if v.p_adjusted is None else float(f"{v.p_adjusted:.3g}"),
                        "test": f"van Elteren stratified by instance ({c.method})",
                        "instances": c.instances, "runs": f"{c.runs_a} vs {c.runs_b}"})
        rows.append(row)
    return pd.DataFrame(rows, columns=CLAIM_COLUMNS)


def _round(x: float) -> float | None:
    return None if not math.isfinite(x) else float(f"{x:.4g}")
