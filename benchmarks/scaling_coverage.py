"""Benchmark: how often the scaling check (``report.scaling_models``) rejects the true model
and how often it rejects the wrong ones, on seeded synthetic runs.

Medians per size drawn as c·n^1.5 (sizes 8..1024) and c·1.02^n (sizes 20..220), each run with
a lognormal spread (σ = 0.3), 5, 10 and 20 runs per size, 200 seeds each (400 resamples per
fit to keep it quick). Prints, per design, the share of seeds where each model was rejected.
Run: ``python benchmarks/scaling_coverage.py`` (about a minute on one core).
"""

from __future__ import annotations

import numpy as np

from puzzlebench.report.statistics.scaling_models import MODELS, fit_scaling

POLY = (8, 16, 32, 64, 128, 256, 512, 1024)
EXPO = (20, 40, 60, 80, 100, 140, 180, 220)
SEEDS = 200


def rejections(truth: str, runs: int) -> dict[str, float]:
    counts = dict.fromkeys(MODELS, 0)
    for seed in range(SEEDS):
        rng = np.random.default_rng(seed)
        if truth == "polynomial":
            data = {n: 3 * n ** 1.5 * rng.lognormal(0, 0.3, runs) for n in POLY}
        else:
            data = {n: 5 * 1.02 ** n * rng.lognormal(0, 0.3, runs) for n in EXPO}
        fit = fit_scaling(data, bootstrap=400)
        for m in fit.models:
            counts[m.model] += m.verdict == "rejected"
    return {k: v / SEEDS for k, v in counts.items()}


def main() -> None:
    for truth in ("polynomial", "exponential"):
        for runs in (5, 10, 20):
            shares = rejections(truth, runs)
            print(f"truth {truth:11s} runs/size {runs:2d}: rejected "
                  + ", ".join(f"{k} {v:.1%}" for k, v in shares.items()))


if __name__ == "__main__":
    main()
