"""Empirical scaling models fitted to the smaller sizes and challenged on the larger ones
(Hoos & Stützle 2014; Mu & Hoos 2015; Pushak, Mu & Hoos's ESA 2020).

The statistic per size is a quantile (the median by default) of one measure over the runs at
that size. A run that did not succeed is *censored*: its value counts as ``+inf``, so a size
where fewer than half the runs finished has no median; such a size is left out of the fit and
the check, and said (:attr:`ScalingFit.censored`). Three two-parameter families are fitted by
least squares on the logarithm of the statistic, each linear in its own feature of the size:

* polynomial ``a·n^b``:            log y = log a + b·log n
* exponential ``a·b^n``:           log y = log a + (log b)·n
* root-exponential ``a·b^√n``:     log y = log a + (log b)·√n

The largest sizes (two, or a quarter of the sizes when there are more than eleven) are held
out. The runs are resampled with replacement within each size (:data:`BOOTSTRAP` times, a
generator seeded from the data), the statistic recomputed, each model refitted: the 2.5 and
97.5 percentiles give the parameters' intervals and the prediction interval of the statistic at
each held-out size (each refit's prediction shifted by that size's own resampled deviation from
its observed statistic: the interval holds the fit's uncertainty and the held-out statistic's
sampling noise, as ESA compares observed with predicted intervals; at level 1 − 5 %/k over k
held-out sizes, Bonferroni, so a true model is rejected at most 5 % of the time). A model is
**consistent** where the observed statistic at every held-out size lies inside its predicted
interval, **rejected** where it lies outside at any (the sizes are named), **inconclusive**
where the interval cannot be made: too many resamples leave a fitted size without its
statistic, or the runs do not vary at all (a deterministic count: resampling runs then gives
a point, not an interval).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from puzzlebench.records.claims import SCALING_MIN_SIZES, SCALING_MODELS

MODELS = SCALING_MODELS
#: Bootstrap resamples of the runs within each size.
BOOTSTRAP = 1000
#: Two-sided level of every interval.
LEVEL = 0.95
#: Below this share of resamples with a statistic at every fitted size, no interval is made.
MIN_VALID = 0.95
#: The families from the asymptotically slowest-growing (any polynomial is overtaken by any
#: root-exponential of base > 1, and that by any exponential of base > 1).
GROWTH_ORDER = ("polynomial", "root-exponential", "exponential")
FORMULA = {"polynomial": "a·n^b", "exponential": "a·b^n", "root-exponential": "a·b^√n"}



def _exp(v: float) -> float:
    """e**v, infinite where a float cannot hold it (an exponential model at large sizes)."""
    return math.exp(v) if v < 709.0 else math.inf

def feature(model: str, n: np.ndarray | float) -> np.ndarray:
    """The model's feature of the size, on which log y is linear."""
    x = np.asarray(n, float)
    if model == "polynomial":
        return np.log(x)
    if model == "exponential":
        return x
    if model == "root-exponential":
        return np.sqrt(x)
    raise ValueError(f"unknown scaling model {model!r}; one of {', '.join(MODELS)}")


def statistic(values: np.ndarray, q: float = 0.5) -> np.ndarray:
    """The ``q``-quantile of each row of ``values`` (runs on the last axis, ``inf`` censored):
    linear interpolation between order statistics; ``inf`` when fewer than a share ``q`` of
    the runs finished; where the share is reached but the upper neighbour is censored, the
    lower order statistic (exactly half finished: the lower middle value)."""
    v = np.sort(np.asarray(values, float), axis=-1)
    m = v.shape[-1]
    h = (m - 1) * q
    lo, hi = math.floor(h), math.ceil(h)
    w = h - lo
    low, high = v[..., lo], v[..., hi]
    finished = np.isfinite(v).sum(axis=-1)
    with np.errstate(invalid="ignore"):
        inner = low * (1 - w) + high * w if w else low
    out = np.where(np.isfinite(high), inner, np.where(finished >= q * m, low, np.inf))
    return np.asarray(out, float)


def fit_lines(x: np.ndarray, logy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Least-squares intercept and slope of ``logy`` (rows × sizes) on ``x`` (sizes)."""
    xm = x.mean()
    dx = x - xm
    slope = (logy - logy.mean(axis=-1, keepdims=True)) @ dx / float(dx @ dx)
    return logy.mean(axis=-1) - slope * xm, slope


@dataclass(frozen=True)
class SizeStat:
    """One size: its runs, how many finished, and the statistic (``inf``: no statistic, fewer
    than the quantile's share of runs finished)."""

    size: int
    runs: int
    finished: int
    value: float


@dataclass(frozen=True)
class HeldOut:
    """The check at one held-out size: observed statistic against the predicted interval."""

    size: int
    observed: float
    predicted: float
    low: float
    high: float

    @property
    def inside(self) -> bool:
        return self.low <= self.observed <= self.high


@dataclass(frozen=True)
class ModelFit:
    """One model fitted to the smaller sizes: its parameters (``b`` the exponent of a
    polynomial, the base of the others) with their intervals, its held-out checks and its
    verdict (consistent / rejected / inconclusive, ``why`` for the latter two). ``rmse`` is
    the fit's root-mean-square error in log10 on the fitted sizes."""

    model: str
    a: float
    a_ci: tuple[float, float]
    b: float
    b_ci: tuple[float, float]
    rmse: float
    checks: tuple[HeldOut, ...]
    verdict: str
    why: str = ""
    line: tuple[float, float] = (math.nan, math.nan)
    boot: np.ndarray = field(default_factory=lambda: np.empty((0, 2)), compare=False,
                             repr=False)

    @property
    def rejected_at(self) -> tuple[int, ...]:
        return tuple(c.size for c in self.checks if not c.inside)

    def predict_log10(self, n: np.ndarray | float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """log10 of the predicted statistic at ``n``: the fit's, and the interval's ends
        (NaN without resamples). Logs, so an exponential far out does not overflow."""
        f = feature(self.model, n)
        point = (self.line[0] + self.line[1] * f) / math.log(10)
        if not len(self.boot):
            nan = np.full_like(point, np.nan)
            return point, nan, nan
        per = (self.boot[:, :1] + self.boot[:, 1:] * np.atleast_1d(f)[None, :]) / math.log(10)
        lo, hi = np.quantile(per, [(1 - LEVEL) / 2, (1 + LEVEL) / 2], axis=0)
        shape = np.shape(point)
        return point, lo.reshape(shape), hi.reshape(shape)


@dataclass(frozen=True)
class ScalingFit:
    """One configuration's measure on one problem: the statistic per size, which sizes were
    fitted, held out and censored, and the three models (none, with ``note``, when fewer than
    :data:`SCALING_MIN_SIZES` sizes have a statistic)."""

    problem: str
    label: str
    solver: str
    measure: str
    quantile: float
    sizes: tuple[SizeStat, ...]
    fitted: tuple[int, ...]
    held_out: tuple[int, ...]
    censored: tuple[int, ...]
    models: tuple[ModelFit, ...]
    note: str = ""

    def model(self, name: str) -> ModelFit | None:
        return next((m for m in self.models if m.model == name), None)

    @property
    def consistent(self) -> tuple[ModelFit, ...]:
        """The consistent models, asymptotically slowest-growing family first
        (:data:`GROWTH_ORDER`)."""
        ok = [m for m in self.models if m.verdict == "consistent"]
        return tuple(sorted(ok, key=lambda m: GROWTH_ORDER.index(m.model)))

    @property
    def best(self) -> ModelFit | None:
        """The consistent model a report leads with: the only one, or, when the held-out sizes
        leave several standing, the asymptotically slowest-growing family among them.

        Why not the lowest fitting error: when several families pass the held-out check their
        errors differ by noise, and a near-flat series (min-conflicts' repairs) then fitted an
        exponential of base 1.000004 best, whose n = 10^7 "prediction" of 10^19 the runs in no
        way support. The slowest family is the one whose parameter reads as the finding
        (an exponent near 0 is Minton's "about the same at every n"); the report still gives
        every other consistent model's prediction beside it."""
        ok = self.consistent
        return ok[0] if ok else None


def check_quantiles(held_out: int) -> list[float]:
    """The ends of each held-out size's prediction interval: Bonferroni over the held-out
    sizes (97.5 % each for two), so a true model is rejected at most 5 % of the time."""
    alpha = (1 - LEVEL) / max(1, held_out)
    return [alpha / 2, 1 - alpha / 2]


def held_out_count(sizes: int) -> int:
    """How many of the largest sizes are held out: two, or a quarter of them."""
    return max(2, sizes // 4)


def _seed(runs: Mapping[int, np.ndarray], q: float) -> int:
    digest = hashlib.sha256(repr(q).encode())
    for n in sorted(runs):
        digest.update(f"{n}:".encode() + np.asarray(runs[n], float).tobytes() + b";")
    return int.from_bytes(digest.digest()[:8], "big")


def fit_scaling(runs: Mapping[int, np.ndarray], *, quantile: float = 0.5,
                problem: str = "", label: str = "", solver: str = "", measure: str = "",
                bootstrap: int = BOOTSTRAP) -> ScalingFit:
    """Fit the three models to ``runs`` (size → each run's value, ``inf`` for a run that did
    not succeed; values must be positive) and check them on the held-out largest sizes."""
    clean = {int(n): np.asarray(v, float) for n, v in runs.items() if len(v)}
    stats = tuple(SizeStat(n, len(v), int(np.isfinite(v).sum()),
                           float(statistic(v[None, :], quantile)[0]))
                  for n, v in sorted(clean.items()))
    usable = tuple(s.size for s in stats if math.isfinite(s.value))
    censored = tuple(s.size for s in stats if not math.isfinite(s.value))
    head = dict(problem=problem, label=label, solver=solver, measure=measure, quantile=quantile,
                sizes=stats, censored=censored)
    if len(usable) < SCALING_MIN_SIZES:
        note = (f"a statistic at {len(usable)} of {len(stats)} sizes, fewer than "
                f"{SCALING_MIN_SIZES}: no fit")
        return ScalingFit(**head, fitted=usable, held_out=(), models=(), note=note)  # type: ignore[arg-type]
    k = held_out_count(len(usable))
    fitted, held = usable[:-k], usable[-k:]
    rng = np.random.default_rng(_seed(clean, quantile))
    boot = np.empty((bootstrap, len(usable)))
    for j, n in enumerate(usable):
        v = clean[n]
        boot[:, j] = statistic(v[rng.integers(0, len(v), (bootstrap, len(v)))], quantile)
    observed = np.array([s.value for s in stats if s.size in usable])
    nf = len(fitted)
    valid = np.isfinite(boot[:, :nf]).all(axis=1)
    models = tuple(_fit_model(model, np.array(usable, float), observed, boot[valid], nf,
                              float(valid.mean()))
                   for model in MODELS)
    return ScalingFit(**head, fitted=fitted, held_out=held, models=models)  # type: ignore[arg-type]


def _fit_model(model: str, sizes: np.ndarray, observed: np.ndarray, boot: np.ndarray, nf: int,
               valid_share: float) -> ModelFit:
    x = feature(model, sizes)
    log_a, slope = fit_lines(x[:nf], np.log(observed[None, :nf]))
    la, sl = float(log_a[0]), float(slope[0])
    resid = (np.log(observed[:nf]) - (la + sl * x[:nf])) / math.log(10)
    rmse = float(np.sqrt(np.mean(resid ** 2)))
    b = sl if model == "polynomial" else _exp(sl)
    nan2 = (math.nan, math.nan)
    checks_point = [(int(n), float(observed[j]), _exp(la + sl * x[j]))
                    for j, n in enumerate(sizes) if j >= nf]
    if valid_share < MIN_VALID:
        why = (f"no interval: {100 * (1 - valid_share):.0f} % of the resamples leave a fitted "
               "size with fewer than half its runs finished")
        return ModelFit(model, _exp(la), nan2, b, nan2, rmse,
                        tuple(HeldOut(n, o, p, math.nan, math.nan) for n, o, p in checks_point),
                        "inconclusive", why, (la, sl))
    b_log_a, b_slope = fit_lines(x[:nf], np.log(boot[:, :nf]))
    q = [(1 - LEVEL) / 2, (1 + LEVEL) / 2]
    a_ci = tuple(float(v) for v in np.exp(np.quantile(b_log_a, q)))
    s_ci = np.quantile(b_slope, q)
    b_ci = tuple(float(v) for v in (s_ci if model == "polynomial" else np.exp(s_ci)))
    # the prediction interval of the statistic at a held-out size: each refit's prediction
    # shifted by that size's own resampled deviation (the observed median is noisy too)
    with np.errstate(divide="ignore"):
        noise = np.log(boot[:, nf:]) - np.log(observed[None, nf:])
    pred = b_log_a[:, None] + b_slope[:, None] * x[None, nf:] + noise
    # a held-out size with censored runs has resamples without a statistic (+inf): the ends
    # are order statistics, not interpolated (inf − inf would make a NaN end, and a NaN end
    # read as "no interval"); the upper end is +inf where more than its share is censored
    q_lo, q_hi = check_quantiles(len(sizes) - nf)
    with np.errstate(over="ignore"):  # an exponential model at large sizes: inf, said so
        lo = np.exp(np.quantile(pred, q_lo, axis=0, method="lower"))
        hi = np.exp(np.quantile(pred, q_hi, axis=0, method="higher"))
    checks = tuple(HeldOut(n, o, p, float(lo[i]), float(hi[i]))
                   for i, (n, o, p) in enumerate(checks_point))
    pairs = np.column_stack([b_log_a, b_slope])
    if not np.all(hi > lo):
        flat = [int(n) for i, (n, _, _) in enumerate(checks_point) if not hi[i] > lo[i]]
        why = ("no interval: the runs at each fitted size do not vary, so resampling them "
               "gives a point" if np.ptp(boot[:, :nf], axis=0).max() == 0 else
               f"no interval at held-out n = {', '.join(map(str, flat))}: its runs do not vary")
        return ModelFit(model, _exp(la), a_ci, b, b_ci, rmse, checks,  # type: ignore[arg-type]
                        "inconclusive", why, (la, sl), pairs)
    outside = [c.size for c in checks if not c.inside]
    verdict = "rejected" if outside else "consistent"
    why = f"outside the predicted interval at n = {', '.join(map(str, outside))}" if outside else ""
    return ModelFit(model, _exp(la), a_ci, b, b_ci, rmse, checks,  # type: ignore[arg-type]
                    verdict, why, (la, sl), pairs)
