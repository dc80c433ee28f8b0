"""Scaling models fitted to the smaller sizes and challenged on the largest (report.scaling,
report.scaling_models), scaling claims (claims.ScalingClaim) from the study file to the
report: synthetic runs drawn from a known polynomial and a known exponential (seeded), each
recovered and the wrong family rejected; censored sizes left out and said; claims confirmed,
contradicted and refused at read time."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from puzzlebench.harness.campaign.design.study import StudyError
from puzzlebench.harness.campaign.design.study_file import study_from_dict
from puzzlebench.records.claims import Claim, ClaimError, ScalingClaim, claim_from_dict, parse_claim
from puzzlebench.records.record import Outcome, RunRecord
from puzzlebench.report.statistics.claim_tests import CLAIM_COLUMNS, claims_table
from puzzlebench.report.statistics.scaling import (
    SCALING_COLUMNS,
    parameter,
    scaling_fits,
    scaling_table,
    scaling_verdicts,
    sentence,
)
from puzzlebench.report.statistics.scaling_models import fit_scaling, statistic
from tests.report.test_answer import frame_of, run

POLY_SIZES = (8, 16, 32, 64, 128, 256, 512, 1024)
EXP_SIZES = (20, 40, 60, 80, 100, 140, 180, 220)


def poly_runs(rng: np.random.Generator, runs: int = 10, solver: str = "poly") -> list[RunRecord]:
    """evaluations = 3·n^1.5 × lognormal(0, 0.3); time proportional."""
    out = []
    for n in POLY_SIZES:
        for rep in range(runs):
            v = 3 * n ** 1.5 * rng.lognormal(0, 0.3)
            out.append(run(solver, n, v * 1e-6, rep=rep, counters={"evaluations": round(v)}))
    return out


def exp_runs(rng: np.random.Generator, runs: int = 10, solver: str = "expo",
             timeouts: dict[int, int] | None = None) -> list[RunRecord]:
    """nodes = 5·1.02^n × lognormal(0, 0.3); ``timeouts`` size → runs that time out."""
    out = []
    for n in EXP_SIZES:
        for rep in range(runs):
            v = 5 * 1.02 ** n * rng.lognormal(0, 0.3)
            if rep < (timeouts or {}).get(n, 0):
                out.append(run(solver, n, 2.0, rep=rep, outcome=Outcome.TIMEOUT,
                               counters={"nodes": 10 ** 9}))
            else:
                out.append(run(solver, n, v * 1e-6, rep=rep, counters={"nodes": round(v)}))
    return out


def fit_of(fits: list, label: str, measure: str):  # type: ignore[no-untyped-def]
    return next(f for f in fits if f.label == label and f.measure == measure)


def test_a_known_polynomial_is_recovered_and_the_other_families_rejected(tmp_path: Path) -> None:
    fits = scaling_fits(frame_of(tmp_path, poly_runs(np.random.default_rng(11))))
    fit = fit_of(fits, "poly", "evaluations")
    assert fit.fitted == POLY_SIZES[:-2] and fit.held_out == (512, 1024) and not fit.censored
    poly = fit.model("polynomial")
    assert poly is not None and poly.verdict == "consistent"
    assert poly.b_ci[0] <= 1.5 <= poly.b_ci[1] and poly.b_ci[1] - poly.b_ci[0] < 0.3
    assert poly.a_ci[0] <= 3 <= poly.a_ci[1]
    for wrong in ("exponential", "root-exponential"):
        m = fit.model(wrong)
        assert m is not None and m.verdict == "rejected" and m.rejected_at
    assert fit.best is poly
    text = sentence(fit)
    assert "(polynomial, consistent)" in text and "exponential rejected at n = 512, 1024" in text
    assert "predicted for n = 10^4 (polynomial)" in text
    # time is fitted as well, on the same runs
    assert fit_of(fits, "poly", "time").model("polynomial") is not None


def test_a_known_exponential_is_recovered_and_the_polynomial_rejected(tmp_path: Path) -> None:
    fits = scaling_fits(frame_of(tmp_path, exp_runs(np.random.default_rng(3))))
    fit = fit_of(fits, "expo", "nodes")
    expo, poly = fit.model("exponential"), fit.model("polynomial")
    assert expo is not None and poly is not None
    assert expo.verdict == "consistent" and expo.b_ci[0] <= 1.02 <= expo.b_ci[1]
    assert expo.a_ci[0] <= 5 <= expo.a_ci[1]
    assert poly.verdict == "rejected" and poly.rejected_at == (180, 220)


def test_the_same_runs_give_the_same_intervals() -> None:
    rng = np.random.default_rng(4)
    runs = {n: 2 * n ** 2.0 * rng.lognormal(0, 0.2, 6) for n in POLY_SIZES}
    a, b = fit_scaling(runs), fit_scaling(dict(reversed(list(runs.items()))))
    assert a == b and a.model("polynomial").b_ci == b.model("polynomial").b_ci  # type: ignore[union-attr]


def test_censored_sizes_have_no_median_and_are_not_fitted(tmp_path: Path) -> None:
    """At n = 100 six of ten runs time out (no median: left out, said); at n = 140 five do
    (exactly half finished: the lower middle value is the median). A censored run is never
    read at its cap (10^9 nodes)."""
    records = exp_runs(np.random.default_rng(5), timeouts={100: 6, 140: 5})
    fit = fit_of(scaling_fits(frame_of(tmp_path, records)), "expo", "nodes")
    assert fit.censored == (100,) and 100 not in fit.fitted + fit.held_out
    assert 140 in fit.fitted
    assert max(s.value for s in fit.sizes if math.isfinite(s.value)) < 1e6
    assert "n = 100: fewer than half the runs finished, no median, not fitted" in sentence(fit)
    assert statistic(np.array([[1.0, 2.0, np.inf, np.inf]]))[0] == 2.0
    assert statistic(np.array([[1.0, np.inf, np.inf]]))[0] == math.inf
    # so many censored sizes that fewer than five have a median: no fit, and why
    few = exp_runs(np.random.default_rng(6), solver="few",
                   timeouts={n: 8 for n in EXP_SIZES[3:]})
    (tmp_path / "few").mkdir()
    short = fit_of(scaling_fits(frame_of(tmp_path / "few", few)), "few", "nodes")
    assert not short.models and "a statistic at 3 of 8 sizes, fewer than 5" in short.note
    row = scaling_table([short]).iloc[0]
    assert row["verdict"] == "inconclusive" and row["censored_sizes"].startswith("80, 100")


def test_deterministic_counts_give_no_interval_and_say_so() -> None:
    fit = fit_scaling({n: np.full(4, float(n * n)) for n in POLY_SIZES})
    assert all(m.verdict == "inconclusive" and "do not vary" in m.why for m in fit.models)


def test_the_scaling_table_has_one_row_per_model(tmp_path: Path) -> None:
    fits = scaling_fits(frame_of(tmp_path, poly_runs(np.random.default_rng(11))))
    table = scaling_table(fits)
    assert list(table.columns) == SCALING_COLUMNS and len(table) == 3 * len(fits)
    row = table[(table["measure"] == "evaluations") & (table["model"] == "polynomial")].iloc[0]
    assert row["held_out_sizes"] == "512, 1024" and row["verdict"] == "consistent"
    assert row["b_low"] <= 1.5 <= row["b_high"]


def claim(model: str, at_most: float | None = None, solver: str = "poly",
          measure: str = "evaluations") -> ScalingClaim:
    return ScalingClaim(f"{solver} {model} {at_most}", solver, measure, model, "nqueens", at_most)


def test_scaling_claims_are_confirmed_and_contradicted_on_the_fits(tmp_path: Path) -> None:
    records = poly_runs(np.random.default_rng(11)) + exp_runs(np.random.default_rng(3))
    fits = scaling_fits(frame_of(tmp_path, records))
    claims = [claim("polynomial", 2.0), claim("polynomial", 1.2), claim("polynomial"),
              claim("exponential"), claim("exponential", 1.05, "expo", "nodes"),
              claim("polynomial", None, "expo", "nodes"), claim("polynomial", 2.0, "poly", "iterations"),
              claim("polynomial", 1.5)]
    verdicts = scaling_verdicts(fits, claims)
    assert [v.verdict for v in verdicts] == ["confirmed", "contradicted", "confirmed",
                                             "contradicted", "confirmed", "contradicted",
                                             "inconclusive", "inconclusive"]
    assert "consistent at held-out n = 512, 1024" in verdicts[0].why
    assert "the interval lies above 1.2" in verdicts[1].why
    assert "no runs of poly over five sizes" in verdicts[6].why
    assert "the interval includes 1.5" in verdicts[7].why
    assert verdicts[0].sentence().startswith("poly polynomial 2.0: confirmed (exponent 1.")
    table = claims_table(verdicts)
    assert list(table.columns) == CLAIM_COLUMNS
    assert table.iloc[0]["measure"] == "scaling: evaluations (polynomial, at most 2)"
    assert table.iloc[0]["ci_low"] <= 1.5 <= table.iloc[0]["ci_high"]
    assert pd.isna(table.iloc[0]["p_adjusted"])


def test_scaling_claims_parse_and_store_beside_the_others() -> None:
    parsed = parse_claim({"on": "scaling", "solver": "min-conflicts", "measure": "evaluations",
                          "model": "polynomial", "at_most": 1.5}, "s [[claims]][0]")
    assert isinstance(parsed, ScalingClaim) and parsed.at_most == 1.5
    assert parsed.says == "min-conflicts's evaluations grows polynomially with exponent at most 1.5"
    assert claim_from_dict(parsed.to_dict()) == parsed and parsed.to_dict()["kind"] == "scaling"
    old = Claim("a beats b", "a", "b")
    assert "kind" not in old.to_dict() and claim_from_dict(old.to_dict()) == old
    for table, key in (({"on": "scaling", "solver": "x", "model": "cubic"}, "model"),
                       ({"on": "scaling", "solver": "x", "model": "polynomial", "better": "y"},
                        "unknown key 'better'"),
                       ({"on": "scaling", "model": "polynomial"}, "solver"),
                       ({"on": "scaling", "solver": "x", "model": "exponential", "at_most": 0.5},
                        "at_most")):
        with pytest.raises(ClaimError, match=key):
            parse_claim(table, "s")


def study(sizes: str, claim_table: dict) -> dict:
    return {"study": {"name": "s"}, "problems": [{"problem": "nqueens", "sizes": sizes}],
            "solvers": [{"name": "min-conflicts"}, {"name": "bitboard", "max_size": 12}],
            "claims": [claim_table]}


def test_a_scaling_claim_is_checked_when_the_study_file_is_read() -> None:
    ok = study_from_dict(study("8..12", {"on": "scaling", "solver": "min-conflicts",
                                         "measure": "evaluations", "model": "polynomial"}))
    assert isinstance(ok.claims[0], ScalingClaim) and ok.claims[0].solver == "min-conflicts"
    refused = [
        (study("8..11", {"on": "scaling", "solver": "min-conflicts", "model": "polynomial"}),
         r"\[\[claims\]\] #1\.solver: min-conflicts runs 4 sizes of nqueens"),
        (study("8..16", {"on": "scaling", "solver": "bitboard", "model": "polynomial",
                         "problem": "nqueens"}),
         r"\[\[claims\]\] #1\.problem: bitboard runs 5 sizes|bitboard runs 5"),
        (study("8..12", {"on": "scaling", "solver": "bitboard", "measure": "evaluations",
                         "model": "polynomial"}),
         r"\[\[claims\]\] #1\.measure: bitboard does not count evaluations"),
        (study("8..12", {"on": "scaling", "solver": "ga", "model": "polynomial"}),
         r"\[\[claims\]\] #1\.solver: 'ga' is not one of the study's solvers"),
        (study("8..12", {"on": "scaling", "solver": "min-conflicts", "model": "polynomial",
                         "problem": "sliding"}),
         r"\[\[claims\]\] #1\.problem: 'sliding' is not one of the study's problems"),
    ]
    for data, message in refused[:1] + refused[2:]:
        with pytest.raises(StudyError, match=message):
            study_from_dict(data)
    # bitboard's max_size = 12 leaves it five of 8..16: accepted; 8..15 with max 12 is refused
    study_from_dict(refused[1][0])
    with pytest.raises(StudyError, match=r"\.problem: bitboard runs 4 sizes of nqueens"):
        study_from_dict(study("9..15", {"on": "scaling", "solver": "bitboard",
                                        "model": "polynomial", "problem": "nqueens"}))
    # a counter other than evaluations is taken on trust (the runs will say)
    study_from_dict(study("8..12", {"on": "scaling", "solver": "bitboard", "measure": "nodes",
                                    "model": "exponential", "at_most": 3}))


def test_the_report_command_loads_both_kinds_of_claim_and_writes_the_scaling_section(
        tmp_path: Path) -> None:
    """A store keeps a two-solver claim (its old dict form) and a scaling claim; ``report``
    judges both in one claims table, writes tables/scaling.csv, the section and its figures,
    and keeps the scaling sentences out of the answer box."""
    from puzzlebench.cli import main
    from puzzlebench.harness.campaign.storage.store import Store
    from tests.report.test_answer import store_of
    records = poly_runs(np.random.default_rng(11)) + exp_runs(np.random.default_rng(3))
    db = store_of(tmp_path, records)
    pair = Claim("expo beats poly on time", "expo", "poly")
    grows = ScalingClaim("poly's evaluations grow at most as n^2", "poly", "evaluations",
                         "polynomial", "nqueens", 2.0)
    with Store(db) as store:
        store.save_study("golden", {"description": "", "claims": [pair.to_dict(),
                                                                  grows.to_dict()]})
    out = tmp_path / "r"
    assert main(["report", "--db", str(db), "--out", str(out)]) == 0
    claims = pd.read_csv(out / "tables" / "claims.csv")
    assert list(claims["says"]) == [pair.says, grows.says]
    # the two solvers ran different sizes: no shared instance, so no rank test
    assert list(claims["verdict"]) == ["inconclusive", "confirmed"]
    assert claims.loc[0, "why"].startswith("no instance where both")
    scaling = pd.read_csv(out / "tables" / "scaling.csv")
    assert set(scaling["solver"]) == {"poly", "expo"} and set(scaling["model"]) == {
        "polynomial", "exponential", "root-exponential"}
    md = (out / "report.md").read_text()
    answer_box, details = md.split("## Details")
    assert "poly's evaluations grow at most as n^2: confirmed (exponent 1." in answer_box
    assert "## Scaling" in details and "nqueens, poly: evaluations" in details
    assert "nqueens, poly: evaluations" not in answer_box
    for name in ("nqueens_scaling_time.png", "nqueens_scaling_effort.png"):
        assert (out / "figures" / name).stat().st_size > 0
    assert 'id="scaling"' in (out / "report.html").read_text()


def test_a_flat_series_leaves_several_models_standing_and_no_one_extrapolation() -> None:
    """Min-conflicts' repairs: about the same at every n. The polynomial (exponent near 0) and
    the exponential (base near 1) both pass the held-out check; the report leads with the
    slowest-growing family and says the runs support no single prediction beyond them, rather
    than extrapolating the exponential that happened to fit the smaller sizes best."""
    rng = np.random.default_rng(5)
    sizes = (64, 256, 1024, 4096, 16384, 65536, 262144, 1048576)
    fit = fit_scaling({n: 42 * rng.lognormal(0, 0.4, 40) for n in sizes}, problem="nqueens",
                      label="flat", measure="repairs")
    poly, expo = fit.model("polynomial"), fit.model("exponential")
    assert poly is not None and expo is not None
    assert poly.verdict == expo.verdict == "consistent"
    assert poly.b_ci[0] <= 0 <= poly.b_ci[1] and expo.b_ci[0] <= 1 <= expo.b_ci[1]
    assert fit.best is poly and fit.consistent[0] is poly and expo in fit.consistent
    text = sentence(fit)
    assert "predicted for n = 10^7:" in text and "(polynomial)" in text
    assert "(exponential)" in text and "support no one extrapolation" in text
    # the exponential's base, a hair above or below 1, is never written as "1"
    assert expo.b != 1 and "·1 [" not in text
    # the base the scaling study's runs gave: six digits round it to 1 and its interval apart
    assert parameter(1.0000041, (0.999999, 1.00001)) == "1.000004 [0.999999, 1.00001]"
    # a fit where one model alone stands names it in the prediction, as before
    lone = fit_scaling({n: 3 * n ** 1.5 * rng.lognormal(0, 0.3, 10) for n in POLY_SIZES})
    assert [m.model for m in lone.consistent] == ["polynomial"]
    assert "predicted for n = 10^4 (polynomial)" in sentence(lone)


def test_a_censored_run_at_a_held_out_size_leaves_the_check_standing() -> None:
    """One run of five at the largest size unsolved: resamples without a median there made the
    interval's upper end inf − inf = NaN, and the model read "inconclusive: the runs do not
    vary" (A* with H3's nodes in the scaling study). The ends are order statistics now."""
    rng = np.random.default_rng(8)
    runs = {n: 3 * n ** 1.5 * rng.lognormal(0, 0.5, 5) for n in POLY_SIZES}
    runs[POLY_SIZES[-1]][0] = np.inf
    fit = fit_scaling(runs)
    poly = fit.model("polynomial")
    assert poly is not None and poly.verdict == "consistent", poly
    last = poly.checks[-1]
    assert last.size == POLY_SIZES[-1] and last.high == math.inf and last.low < last.observed
    for m in fit.models:
        assert "do not vary" not in m.why



def test_a_claim_is_not_contradicted_where_every_model_is_rejected() -> None:
    """A held-out size far below every curve (A* with H3's n = 15 is an easy size): the claimed
    family is rejected, but so is every other; the runs follow none of them over these sizes,
    so the claim is inconclusive, not contradicted (which would read as "another family")."""
    rng = np.random.default_rng(12)
    runs = {n: 3 * n ** 1.5 * rng.lognormal(0, 0.2, 10) for n in POLY_SIZES}
    runs[POLY_SIZES[-2]] = runs[POLY_SIZES[-2]] / 1000
    fit = fit_scaling(runs, problem="nqueens", label="dip", solver="dip", measure="nodes")
    assert all(m.verdict == "rejected" for m in fit.models)
    both = [ScalingClaim("dip grows exponentially", "dip", "nodes", "exponential", "nqueens"),
            ScalingClaim("dip grows polynomially", "dip", "nodes", "polynomial", "nqueens")]
    for v in scaling_verdicts([fit], both):
        assert v.verdict == "inconclusive" and "follow none of them" in v.why, v.why
