"""Honest statistics: the test matches the design (paired only when runs pair by instance),
sentences name test, n and p, and say "not enough data" below the minimum sample."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from puzzlebench.report.statistics.bootstrap import median_ci
from puzzlebench.report.statistics.findings import MIN_SAMPLE, Finding, compare, sentences, trend
from puzzlebench.report.statistics.scores import pairwise_tests


def _frame(rows: list[dict]) -> pd.DataFrame:
    base = {"problem": "nqueens", "params_key": "{}", "budget": {"time_limit": 10.0},
            "success": True}
    return pd.DataFrame([{**base, **r} for r in rows])


def test_repeats_of_stochastic_solvers_are_replicates_within_their_instance() -> None:
    rng = np.random.default_rng(1)
    rows = [{"solver": s, "instance_id": f"i{k}", "repeat": r, "seed": r,
             "time_s": float(rng.exponential(0.1 if s == "fast" else 1.0))}
            for s in ("fast", "slow") for k in range(3) for r in range(10)]
    out = pairwise_tests(_frame(rows))
    assert len(out) == 1
    row = out.iloc[0]
    assert row["test"].startswith("van Elteren by instance")
    assert row["instances"] == 3 and row["runs A"] == row["runs B"] == 30
    assert row["p"] < 0.01 and row["A beats B"] > 0.8  # "fast" scores lower
    lo, hi = (float(x) for x in re.findall(r"-?[\d.e+-]+", row["95% CI ratio"]))
    assert lo <= row["PAR-2 ratio A/B"] <= hi and hi < 1


def test_one_run_per_instance_is_a_sign_test_by_instance() -> None:
    rows = [{"solver": s, "instance_id": f"i{k}", "repeat": 0, "seed": 0,
             "time_s": (k + 1) * (1.0 if s == "a" else 1.5)} for s in ("a", "b") for k in range(8)]
    row = pairwise_tests(_frame(rows)).iloc[0]
    assert "exact permutation" in row["test"]
    assert row["A better on"] == 8 and row["B better on"] == 0
    assert row["p"] == 2 / 2 ** 8 and row["A beats B"] == 1.0  # every sign in A's favour


def test_deterministic_repeats_count_once() -> None:
    """Five identical repeats per instance are one observation, not five: the p-value is the
    sign test's on the instances, not a test on 5 × as many runs."""
    rows = [{"solver": s, "instance_id": f"i{k}", "repeat": r, "seed": r, "success": False,
             "time_s": 20.0} for s in ("a", "b") for k in range(6) for r in range(5)]
    for row in rows:
        if row["solver"] == "a":
            row.update(success=True, time_s=1.0)
    out = pairwise_tests(_frame(rows)).iloc[0]
    assert out["runs A"] == out["runs B"] == 6
    assert out["p"] == 2 / 2 ** 6


def test_no_difference_on_any_instance_gives_no_p_value() -> None:
    rows = [{"solver": s, "instance_id": f"i{k}", "repeat": 0, "seed": 0, "time_s": 1.0 + k}
            for s in ("a", "b") for k in range(3)]
    row = pairwise_tests(_frame(rows)).iloc[0]
    assert "differ" in row["note"] and np.isnan(row["p"])


def test_unsolved_runs_count_as_twice_the_limit() -> None:
    rows = [{"solver": "a", "instance_id": f"i{k}", "repeat": 0, "seed": 0, "time_s": 1.0}
            for k in range(6)]
    rows += [{"solver": "b", "instance_id": f"i{k}", "repeat": 0, "seed": 0, "time_s": 0.5,
              "success": False} for k in range(6)]
    row = pairwise_tests(_frame(rows)).iloc[0]
    assert row["PAR-2 ratio A/B"] == 1.0 / 20.0 and row["A better on"] == 6


def test_compare_names_test_n_and_p_and_each_verdict() -> None:
    rng = np.random.default_rng(2)
    small, big = rng.normal(1, 0.1, 30), rng.normal(2, 0.1, 30)

    def say(*tests: Finding) -> str:
        return sentences(list(tests))[0]

    yes = say(compare("claim", small, big, names=("x", "y"), expect="less"))
    assert re.search(r"(?<!not )confirmed here", yes) and "Mann–Whitney U" in yes
    assert "n = 30 vs 30" in yes and "p < 0.001" in yes
    assert "contradicted here" in say(compare("claim", big, small, names=("x", "y"),
                                              expect="less"))
    same = say(compare("claim", rng.normal(1, 0.1, 30), rng.normal(1, 0.1, 30),
                       names=("x", "y"), expect="less"))
    assert "not confirmed here" in same and re.search(r"p = 0\.\d{3}", same)
    few = say(compare("claim", small[:MIN_SAMPLE - 1], big, names=("x", "y"), expect="less"))
    assert "not enough data" in few and "p =" not in few and "p <" not in few


def test_holm_adjustment_can_withdraw_a_confirmation() -> None:
    """p = 0.03 alone confirms; beside nine null tests, Holm's adjustment withdraws it."""
    lone = Finding("c", "Mann–Whitney U", "n = 5 vs 5 runs", p=0.03, as_claimed=True)
    nulls = [Finding(f"null {i}", "Mann–Whitney U", "n = 5 vs 5 runs", p=0.9, as_claimed=True)
             for i in range(9)]
    assert re.search(r"(?<!not )confirmed here", sentences([lone])[0])
    text = sentences([lone, *nulls])[0]
    assert "not confirmed here" in text
    assert "Holm-adjusted over this report's 10 findings tests: p = 0.300" in text


def test_claims_tested_per_size_are_counted_per_size() -> None:
    rng = np.random.default_rng(5)
    tests = [compare("claim", rng.normal(1, 0.1, 10), rng.normal(2, 0.1, 10), names=("a", "b"),
                     expect="less", stratum=f"n = {n}") for n in (8, 9)]
    tests.append(compare("claim", [1.0, 2.0], [3.0, 4.0], names=("a", "b"), expect="less",
                         stratum="n = 10"))
    text = sentences(tests)[0]
    assert text.startswith("claim: confirmed at 2 (n = 8, n = 9); not enough data at 1 (n = 10)")
    assert "of 3 sizes (Mann–Whitney U per size, Holm-adjusted over this report's 2 findings tests" in text


def test_trend_uses_every_run_not_medians() -> None:
    rng = np.random.default_rng(3)
    x = np.repeat([0.1, 0.3, 0.5, 0.8], 10)
    y = 5 - 4 * x + rng.normal(0, 0.3, x.size)
    text = sentences([trend("falls", x, y, expect="decreasing")])[0]
    assert re.search(r"(?<!not )confirmed here", text) and "n = 40 runs" in text
    assert "Spearman ρ = -" in text
    four = trend("falls", [0.1, 0.3, 0.5, 0.8], [4, 3, 2, 1], expect="decreasing")
    assert four.verdict == "not enough data"  # four medians are not a sample


def test_bootstrap_is_seeded_and_covers_the_median() -> None:
    values = np.random.default_rng(4).exponential(1.0, 200)
    a = median_ci(values, np.random.default_rng(0))
    b = median_ci(values, np.random.default_rng(0))
    assert a == b and a[0] < np.median(values) < a[1]


def test_large_sample_medians_are_drawn_from_the_exact_resampling_distribution() -> None:
    """Above DIRECT_MAX the resampled medians come from the binomial law of the order
    statistic; their quantiles agree with brute-force resampling."""
    from puzzlebench.report.statistics.bootstrap import DIRECT_MAX, resampled_medians

    x = np.random.default_rng(6).exponential(1.0, DIRECT_MAX + 1001)
    brute = np.median(x[np.random.default_rng(7).integers(0, x.size, size=(2000, x.size))],
                      axis=1)
    fast = resampled_medians(x, np.random.default_rng(7))
    q = [2.5, 25, 50, 75, 97.5]
    spread = np.percentile(brute, 97.5) - np.percentile(brute, 2.5)
    assert np.allclose(np.percentile(fast, q), np.percentile(brute, q), atol=0.1 * spread)
    assert not np.allclose(np.percentile(fast, q), np.median(x), atol=0.01 * spread)


def test_holm_keeps_a_missing_p_missing() -> None:
    from puzzlebench.report.statistics.scores import holm

    out = holm(np.array([0.01, np.nan, 0.02]))
    assert np.isnan(out[1]) and out[0] == 0.02 and out[2] == 0.02


def test_bootstrap_drops_non_finite_values_alike_at_every_size() -> None:
    for n in (50, 5000):
        x = np.random.default_rng(8).exponential(1.0, n)
        with_nan = np.append(x, [np.nan, np.inf])
        assert median_ci(with_nan, np.random.default_rng(0)) == median_ci(
            x, np.random.default_rng(0))
    assert all(np.isnan(median_ci(np.array([np.nan]), np.random.default_rng(0))))
