"""Bootstrap confidence intervals (percentile method), with the generator passed in so a
report is the same every time it is made from the same runs."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def bootstrap_ci(statistic: Callable[..., np.ndarray], samples: list[np.ndarray],
                 rng: np.random.Generator, *, reps: int = 1000, level: float = 0.95
                 ) -> tuple[float, float]:
    """Percentile bootstrap CI of ``statistic`` applied to resamples (with replacement) of each
    sample; ``statistic`` takes one (reps, n_i) array per sample and returns reps values."""
    draws = [x[rng.integers(0, len(x), size=(reps, len(x)))] for x in samples]
    values = statistic(*draws)
    lo, hi = np.percentile(values, [50 * (1 - level), 50 * (1 + level)])
    return float(lo), float(hi)


def median_ci(values: np.ndarray, rng: np.random.Generator) -> tuple[float, float]:
    """Bootstrap 95% CI of the median."""
    return bootstrap_ci(lambda a: np.median(a, axis=1), [np.asarray(values, float)], rng)
