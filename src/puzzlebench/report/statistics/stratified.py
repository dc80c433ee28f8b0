"""The one inference every comparison of two configurations in a report uses: a rank test
stratified by instance, with an effect size and its bootstrap interval.

Why this test (docs/concepts/statistics.md says more):

* **Blocks are instances, runs are replicates within them.** Runs on different instances are
  not exchangeable (sizes change times by orders of magnitude), runs of one configuration on
  one instance are. The test is van Elteren's stratified rank-sum test: within each instance
  the runs of both configurations are ranked together, each instance's rank sum weighted by
  1/(N+1), the weighted sums added. Its null distribution is the permutation distribution of
  the configuration labels *within* each instance, computed exactly when it has at most
  :data:`EXACT_LIMIT` arrangements (a sign test on one value per side and instance, for
  example) and by van Elteren's normal approximation (ties corrected) otherwise. Pooling runs
  as if independent (Mann–Whitney on all runs) or testing each size apart (a design of five
  against five runs per size cannot reach p < 0.05 after a correction over dozens of tests)
  are both avoided.
* **Deterministic repeats are one value.** Where every repeat of a configuration on an
  instance is the same run again — the same value and the same native counters, as a
  deterministic solver's are whatever the seed (``runs_of``) — the repeats are one
  observation, never several; a stochastic solver's five successes stay five.
* **Censored runs.** The values are "lower is better" and a run the budget or limit ended
  carries ``inf``: it ranks below every finished run and ties with the other unfinished ones,
  so its stop time or its counter at the cap is never read as an observed value.
* **Effect size.** Vargha and Delaney's A (the probability that a run of A beats a run of B
  on the same instance, ties counting half), averaged over instances, with a bootstrap
  interval that resamples the runs within each instance and keeps the instances fixed — the
  test's own conditioning, so a confirmed difference and its interval speak of the same
  instances and do not disagree: 0.5 is no difference, 1 is A always better. The same
  bootstrap gives the interval of the measure's own effect (a difference of success rates,
  or a ratio of medians) used for equivalence within a margin. A deterministic measure on
  one instance has no spread there: its interval is the instances' values themselves.

Every generator is seeded from the data compared (never global state): the same runs give the
same report.
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

import numpy as np
import pandas as pd

#: At most this many arrangements of the labels within the instances: the exact permutation
#: distribution; above it the normal approximation.
EXACT_LIMIT = 65_536
#: Bootstrap resamples for effect-size intervals.
BOOTSTRAP = 1000

Stratum = tuple[np.ndarray, np.ndarray]
Effect = Literal["difference", "ratio"]


@dataclass(frozen=True)
class Comparison:
    """A against B on the instances both ran (lower values better, ``inf`` = censored).

    ``p`` is two-sided (None when no instance differs or none is shared); ``p_min`` is the
    smallest p this design could give (every run of one side better than every run of the
    other on every instance). ``a12`` is A's probability of beating B, averaged over instances,
    with its 95 % interval (runs resampled within the instances); ``effect`` is the measure's
    own effect (``effect_kind``) with its 95 % and 90 % intervals (NaN when undefined, e.g. a
    ratio of unfinished medians)."""

    instances: int
    runs_a: int
    runs_b: int
    wins_a: int
    wins_b: int
    a12: float
    a12_ci: tuple[float, float]
    p: float | None
    p_min: float | None
    method: str
    effect: float = math.nan
    effect_ci: tuple[float, float] = (math.nan, math.nan)
    effect_ci90: tuple[float, float] = (math.nan, math.nan)
    effect_kind: str = ""

    @property
    def a_better(self) -> bool:
        return self.a12 > 0.5


def runs_of(group: pd.DataFrame, column: str) -> np.ndarray:
    """One configuration's values of ``column`` on one instance as observations: a single
    value where its repeats are the same run again — equal values *and* equal native counters
    (a deterministic solver gives the same nodes and evaluations whatever the seed) — every
    run otherwise. A stochastic solver that succeeded in each of five repeats has five
    observations (its counters differ), never one."""
    values = group[column].to_numpy(float)
    if len(values) < 2 or not np.all(values == values[0]):
        return values
    counters = [c for c in group.columns if c.startswith("counter.")]
    same = all(group[c].nunique(dropna=False) <= 1 for c in counters)
    return values[:1] if same else values  # no counters recorded: identical values are one


def _midranks(x: np.ndarray) -> np.ndarray:
    """Average ranks (ties share their mean rank), as ``scipy.stats.rankdata(x, "average")``
    gives them: written out because the summary line ranks thousands of two-value strata, where
    scipy's per-call overhead and its import (0.5-1 s) were most of ``compare``'s last second."""
    if np.isnan(x).any():
        return np.full(len(x), math.nan)  # rankdata's default: NaN propagates
    order = np.argsort(x, kind="mergesort")
    inverse = np.empty(len(x), dtype=np.intp)
    inverse[order] = np.arange(len(x))
    ordered = x[order]
    first = np.concatenate([[True], ordered[1:] != ordered[:-1]])
    dense = np.cumsum(first)[inverse]
    bounds = np.concatenate([np.flatnonzero(first), [len(x)]])
    return 0.5 * (bounds[dense] + bounds[dense - 1] + 1)


def _two_sided_normal(z: float) -> float:
    """P(|Z| >= z) for a standard normal Z (``2 * norm.sf(z)``, without importing scipy)."""
    return math.erfc(z / math.sqrt(2.0))


def _stratum_sums(ranks: np.ndarray, m: int) -> np.ndarray:
    """Every rank sum the first side could take in this stratum, one per arrangement."""
    return np.array([ranks[list(c)].sum() for c in combinations(range(len(ranks)), m)])


def _arrangements(strata: Sequence[Stratum]) -> float:
    total = 1.0
    for a, b in strata:
        total *= math.comb(len(a) + len(b), len(a))
    return total


def van_elteren(strata: Sequence[Stratum]) -> tuple[float | None, str]:
    """Two-sided p of van Elteren's test over ``strata`` ((A's values, B's values) per
    instance) and how it was computed."""
    used = [(np.asarray(a, float), np.asarray(b, float)) for a, b in strata
            if len(a) and len(b)]
    if not used:
        return None, "no instance with runs of both"
    stat, mean, var = 0.0, 0.0, 0.0
    parts = []
    for a, b in used:
        n = len(a) + len(b)
        ranks = _midranks(np.concatenate([a, b]))
        w = 1.0 / (n + 1)
        stat += w * ranks[:len(a)].sum()
        mean += w * len(a) * (n + 1) / 2
        _, ties = np.unique(ranks, return_counts=True)
        tie = float(np.sum(ties ** 3 - ties)) / (n * (n - 1)) if n > 1 else 0.0
        var += w * w * len(a) * len(b) / 12 * ((n + 1) - tie)
        parts.append((ranks, len(a), w))
    if var <= 0:
        return None, "no instance where the two differ"
    observed = abs(stat - mean)
    if _arrangements(used) <= EXACT_LIMIT:
        dist = {0.0: 1.0}
        for ranks, m, w in parts:
            sums = _stratum_sums(ranks, m) * w
            share = 1.0 / len(sums)
            nxt: dict[float, float] = {}
            for value, prob in dist.items():
                for s in sums:
                    key = round(value + float(s), 9)
                    nxt[key] = nxt.get(key, 0.0) + prob * share
            dist = nxt
        p = sum(prob for value, prob in dist.items() if abs(value - mean) >= observed - 1e-9)
        return min(1.0, p), "exact permutation"
    z = observed / math.sqrt(var)
    return min(1.0, _two_sided_normal(z)), "normal approximation"


def smallest_p(design: Sequence[tuple[int, int]]) -> float | None:
    """The smallest two-sided p van Elteren's test can give on a design of (runs of A, runs of
    B) per instance: every run of A better than every run of B everywhere."""
    return _smallest_p(tuple((int(m), int(k)) for m, k in design))


@functools.lru_cache(maxsize=1024)
def _smallest_p(design: tuple[tuple[int, int], ...]) -> float | None:
    """``smallest_p`` of one design, computed once (every pair of a grid shares it)."""
    strata = [(np.arange(m, dtype=float), np.arange(m, m + k, dtype=float))
              for m, k in design if m and k]
    return van_elteren(strata)[0] if strata else None


def _seed(strata: Sequence[Stratum]) -> int:
    digest = hashlib.sha256()
    for a, b in strata:
        digest.update(np.asarray(a, float).tobytes() + b"|" + np.asarray(b, float).tobytes() + b";")
    return int.from_bytes(digest.digest()[:8], "big")


def _a12(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Vargha–Delaney A of A beating B (lower better) for each resample row: a (R, m), b (R, k)."""
    less = (a[:, :, None] < b[:, None, :]).mean(axis=(1, 2))
    tied = (a[:, :, None] == b[:, None, :]).mean(axis=(1, 2))
    return np.asarray(less + 0.5 * tied, float)


def _own_effect(a: np.ndarray, b: np.ndarray, kind: Effect | None) -> np.ndarray:
    """Per resample row: success-rate difference (values 0 = success, 1 = not: B's failure
    rate minus A's) or the log of the ratio of medians (A / B; ±inf where unfinished)."""
    if kind == "difference":
        return np.asarray(b.mean(axis=1) - a.mean(axis=1), float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(np.log(_row_medians(a)) - np.log(_row_medians(b)), float)


def _row_medians(x: np.ndarray) -> np.ndarray:
    """Each row's median; a one-column array is its own (np.median's per-call cost, thousands of
    times over a grid of one run per instance)."""
    return x[:, 0] if x.shape[1] == 1 else np.median(x, axis=1)


def compare_strata(strata: Mapping[str, Stratum], *, effect: Effect | None = None
                   ) -> Comparison:
    """Compare A with B over the instances of ``strata`` (lower is better, ``inf`` censored):
    van Elteren's test, the A measure with an interval from resampling runs within each
    instance, and the measure's own effect (``effect``) with its intervals."""
    pairs = []
    for key in sorted(strata):
        a, b = (np.asarray(v, float) for v in strata[key])
        a, b = a[~np.isnan(a)], b[~np.isnan(b)]
        if len(a) and len(b):
            pairs.append((a, b))
    if not pairs:
        return Comparison(0, 0, 0, 0, 0, math.nan, (math.nan, math.nan), None, None,
                          "no instance with runs of both")
    p, method = van_elteren(pairs)
    p_min = smallest_p([(len(a), len(b)) for a, b in pairs])
    medians = [(float(np.median(a)), float(np.median(b))) for a, b in pairs]
    wins_a = sum(ma < mb for ma, mb in medians)
    wins_b = sum(mb < ma for ma, mb in medians)
    rng = np.random.default_rng(_seed(pairs))
    per_stratum_a12 = np.empty((len(pairs), BOOTSTRAP))
    per_stratum_eff = np.empty((len(pairs), BOOTSTRAP))
    for i, (a, b) in enumerate(pairs):
        ra = a[rng.integers(0, len(a), (BOOTSTRAP, len(a)))]
        rb = b[rng.integers(0, len(b), (BOOTSTRAP, len(b)))]
        per_stratum_a12[i] = _a12(ra, rb)
        per_stratum_eff[i] = _own_effect(ra, rb, effect)
    point_a12 = float(np.mean([_a12(a[None, :], b[None, :])[0] for a, b in pairs]))
    boot_a12 = per_stratum_a12.mean(axis=0)  # the instances fixed, as in the test
    a12_ci = (float(np.quantile(boot_a12, 0.025)), float(np.quantile(boot_a12, 0.975)))
    out = Comparison(len(pairs), sum(len(a) for a, _ in pairs), sum(len(b) for _, b in pairs),
                     wins_a, wins_b, point_a12, a12_ci, p, p_min, method)
    if effect is None:
        return out
    point = float(np.mean([_own_effect(a[None, :], b[None, :], effect)[0] for a, b in pairs]))
    boot = per_stratum_eff.mean(axis=0)
    with np.errstate(invalid="ignore"):
        q = np.quantile(boot, [0.025, 0.975, 0.05, 0.95]) if np.all(np.isfinite(boot)) else (
            np.full(4, math.nan))
    if effect == "ratio":  # back from logs; an unfinished median leaves the ratio undefined
        point, q = math.exp(point) if math.isfinite(point) else math.nan, np.exp(q)
    return Comparison(out.instances, out.runs_a, out.runs_b, wins_a, wins_b, point_a12, a12_ci,
                      p, p_min, method, point, (float(q[0]), float(q[1])),
                      (float(q[2]), float(q[3])), effect)
