"""Whether a study's design can reach a verdict on each of its claims, said before any run.

A claim is confirmed when its Holm-adjusted p falls below 5 %; Holm's first step compares the
smallest p with 5 % / (number of claims). The smallest p van Elteren's test
(``report.stratified``) can give on a design — every run of one solver better than every run
of the other on every instance — depends only on how many observations each side has per
instance: the repeats (one where the solver is deterministic and the measure is a count,
since identical repeats are one observation) and the instances. A claim whose smallest
attainable p is not below 5 % / claims cannot be confirmed by any outcome of the runs; this
module says so, and what would (more repeats, or more instances).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from puzzlebench.records.claims import Claim
from puzzlebench.report.statistics.findings import ALPHA
from puzzlebench.report.statistics.stratified import smallest_p

#: Repeats or instances a suggestion goes up to.
SUGGEST_MAX = 64


@dataclass(frozen=True)
class ClaimDesign:
    """A claim and its design: per instance both solvers run, (observations of ``better``,
    observations of ``than``); ``replicated`` says which sides gain observations from repeats
    (a stochastic solver, or any solver's time)."""

    claim: Claim
    strata: Sequence[tuple[int, int]]
    replicated: tuple[bool, bool] = (True, True)


@dataclass(frozen=True)
class Reach:
    """What a design can show: the smallest attainable p and the threshold it must pass."""

    claim: Claim
    p_min: float | None
    needed: float
    instances: int
    advice: str

    @property
    def reachable(self) -> bool:
        return self.p_min is not None and self.p_min < self.needed


def reach(designs: Sequence[ClaimDesign]) -> list[Reach]:
    """Each claim's reach under Holm over all the claims."""
    needed = ALPHA / max(1, len(designs))
    out = []
    for d in designs:
        strata = [(m, k) for m, k in d.strata if m and k]
        p_min = smallest_p(strata) if strata else None
        advice = "" if p_min is not None and p_min < needed else _advice(d, strata, needed)
        out.append(Reach(d.claim, p_min, needed, len(strata), advice))
    return out


def _advice(d: ClaimDesign, strata: list[tuple[int, int]], needed: float) -> str:
    if not strata:
        return "no instance is run by both solvers"
    if any(d.replicated):
        for r in range(2, SUGGEST_MAX + 1):
            grown = [(r if d.replicated[0] else m, r if d.replicated[1] else k) for m, k in strata]
            p = smallest_p(grown)
            if p is not None and p < needed:
                return f"repeats = {r} would reach p = {p:.2g}"
    m, k = strata[0]
    for n in range(len(strata) + 1, len(strata) + SUGGEST_MAX + 1):
        p = smallest_p([(m, k)] * n)
        if p is not None and p < needed:
            return f"{n} instances would reach p = {p:.2g}"
    return "no design within reach of this study would"


def reach_lines(designs: Sequence[ClaimDesign]) -> list[str]:
    """One line per claim this design cannot confirm, numbered as a reader counts."""
    lines = []
    for i, r in enumerate(reach(designs), start=1):
        if r.reachable:
            continue
        at_best = ("no p at all" if r.p_min is None else
                   f"at best p = {r.p_min:.2g} over {r.instances} instance"
                   f"{'s' if r.instances != 1 else ''}")
        lines.append(f"claim {i} ({r.claim.says!r}) cannot be confirmed by this design: "
                     f"{at_best}, and a claim needs p < {r.needed:.2g} "
                     f"({ALPHA:g} over {len(designs)} claim{'s' if len(designs) != 1 else ''}, "
                     f"Holm); {r.advice}")
    return lines
