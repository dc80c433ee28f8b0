"""The answer any study gets (report.answer) and the claims a study file states
(report.claim_tests): golden stores made here, assertions on the sentences and the rows."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from puzzlebench.harness.campaign.storage.store import Store, load, study_definition
from puzzlebench.records.claims import Claim, ClaimError, parse_claim
from puzzlebench.records.record import Outcome, RunRecord
from puzzlebench.report import write_report
from puzzlebench.report.answer import answer, rank
from puzzlebench.report.statistics.borda import borda_overall, borda_table
from puzzlebench.report.statistics.claim_tests import claim_verdicts

SIZES = (6, 8, 10, 12, 14, 16, 18, 20)


def run(solver: str, n: int, t: float, *, rep: int = 0, problem: str = "nqueens",
        outcome: Outcome = Outcome.SOLVED, verified: bool | None = True,
        counters: dict | None = None) -> RunRecord:
    solved = outcome is Outcome.SOLVED
    return RunRecord.of(problem=problem, size=n, instance_id=f"{problem}-{n}", solver=solver,
                     params={}, seed=rep, outcome=outcome, claim="solved" if solved else "",
                     valid=True if solved and outcome is not Outcome.WRONG else
                     (False if outcome is Outcome.WRONG else None),
                     verified=verified if solved else None, time_s=t,
                     counters=counters or {"nodes": int(t * 1e4)},
                     budget={"time_limit": 2.0}, study="golden", repeat=rep)


def store_of(tmp_path: Path, records: list[RunRecord], name: str = "golden") -> Path:
    db = tmp_path / f"{name}.sqlite"
    with Store(db) as store:
        for i, r in enumerate(records):
            store.add(f"{i}", r)
    return db


def frame_of(tmp_path: Path, records: list[RunRecord]) -> pd.DataFrame:
    return load(store_of(tmp_path, records), rejudged=False)


def clear_best(rng: np.random.Generator, repeats: int = 1) -> list[RunRecord]:
    """fast ≈ 10 ms, mid ≈ 100 ms, slow ≈ 1 s on every instance: fast is clearly best."""
    out = []
    for n in SIZES:
        for rep in range(repeats):
            for solver, base in (("fast", 0.01), ("mid", 0.1), ("slow", 1.0)):
                out.append(run(solver, n, base * (1 + 0.1 * rng.random()), rep=rep))
    return out


def test_a_clearly_best_solver_is_named_and_separated(tmp_path: Path) -> None:
    frame = frame_of(tmp_path, clear_best(np.random.default_rng(1)))
    ranking = rank(frame, "nqueens")
    text = " ".join(ranking.sentences)
    assert "van Elteren" in text and "Friedman" not in text and "Nemenyi" not in text
    assert ranking.headline.startswith("Best on nqueens by mean rank: fast")
    assert "it beats mid (PAR-2 ratio 0.0994, A = 1.00" in ranking.headline
    assert ranking.headline.endswith("and slow (adjusted p ≤ 0.023).")
    assert "Separated by the test: fast beats mid and slow" in text
    table = ranking.table.set_index("configuration")
    assert list(ranking.table["configuration"]) == ["fast", "mid", "slow"]
    assert set(table.at["fast", "group"]).isdisjoint(table.at["slow", "group"])
    assert ranking.chart is not None and ranking.chart.slug == "cd_nqueens"


def test_two_tied_solvers_share_a_group(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    records = []
    for n in SIZES:
        a, b = 0.1 * (1 + rng.random()), 0.1 * (1 + rng.random())  # indistinguishable
        records += [run("a", n, a), run("b", n, b), run("c", n, 1.5 + rng.random() * 0.1)]
    ranking = rank(frame_of(tmp_path, records), "nqueens")
    text = " ".join(ranking.sentences)
    assert ("Not separated by the pairwise tests: a and b" in text
            or "Not separated by the pairwise tests: b and a" in text)
    assert "tied" not in text and "tied" not in ranking.headline
    table = ranking.table.set_index("configuration")
    assert set(table.at["a", "group"]) & set(table.at["b", "group"])
    assert not set(table.at["a", "group"]) & set(table.at["c", "group"])
    assert ranking.tied and sorted(ranking.tied[0]) == ["a", "b"]


def test_wrong_and_unverified_runs_come_first(tmp_path: Path) -> None:
    records = clear_best(np.random.default_rng(3))
    records.append(run("mid", 22, 0.1, outcome=Outcome.WRONG))
    records.append(run("slow", 22, 0.5, verified=False))
    records.append(run("fast", 22, 0.1, outcome=Outcome.CRASH).with_(reason="boom: bad state"))
    headline = answer(frame_of(tmp_path, records))[0].headline
    assert headline.startswith("Crashes on nqueens (counted as unsolved): fast 1 run(s); "
                               "first reason: boom: bad state.")
    assert "Wrong answers on nqueens" in headline and "mid 1" in headline
    assert "Unverified successes on nqueens" in headline and "slow 1" in headline
    assert headline.index("Unverified") < headline.index("Best on nqueens")


def test_times_below_the_noise_floor_make_no_time_claim(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    records = [run(s, n, 1e-5 * (1 + rng.random())) for n in SIZES for s in ("x", "y", "z")]
    ranking = rank(frame_of(tmp_path, records), "nqueens")
    text = " ".join(ranking.sentences)
    assert "noise floor" in text and "no time-based claim" in text
    assert "every configuration scored the same" in text  # all floored: nothing to test
    assert set(ranking.table["group"]) == {"a"}
    assert "adds anything measurable" in text or "add nothing measurable" in text


def test_the_virtual_best_solver_credits_the_one_that_alone_solves(tmp_path: Path) -> None:
    records = []
    for n in SIZES:
        records.append(run("steady", n, 0.05))
        solved = n != 20  # only "rescue" solves n = 20
        records.append(run("quick", n, 0.01) if solved
                       else run("quick", n, 2.0, outcome=Outcome.TIMEOUT))
        records.append(run("rescue", n, 1.0 if n != 20 else 0.5))
        if n == 20:
            records[-3] = run("steady", n, 2.0, outcome=Outcome.TIMEOUT)
    ranking = rank(frame_of(tmp_path, records), "nqueens")
    table = ranking.table.set_index("configuration")
    assert table.at["rescue", "VBS loses without it"].startswith("1 solved")
    # "quick" wins most instances; "rescue" alone solves n = 20: mean rank and PAR-2 disagree
    assert ranking.headline.startswith("Best on nqueens by mean rank: quick")
    assert "rescue (1 instance" in " ".join(ranking.sentences)


def test_one_solver_is_not_ranked_and_borda_overall_needs_every_problem(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    records = clear_best(rng)
    records += [run("fast", n, 0.01, problem="torus-queens") for n in (5, 7, 11)]
    records += [run("lonely", n, 0.2, problem="queens-knights") for n in (6, 8)]
    frame = frame_of(tmp_path, records)
    rankings = {r.scope: r for r in answer(frame)}
    assert "only fast ran" in rankings["torus-queens"].sentences[0]
    borda = borda_table(frame)
    assert (borda.loc[borda["problem"] == "torus-queens", "rank"] == "-").all()
    overall = borda_overall(borda)
    assert overall.empty  # nothing but nqueens is contested: no sum over problems
    assert "No overall ranking" in rankings["all problems"].sentences[0]


def test_the_report_opens_with_the_answer_and_keeps_tables_narrow(tmp_path: Path) -> None:
    frame = frame_of(tmp_path, clear_best(np.random.default_rng(6), repeats=2))
    out = tmp_path / "rep"
    write_report(frame, out, title="golden")
    md = (out / "report.md").read_text()
    answer_part = md.split("## Details")[0]
    assert "Best on nqueens by mean rank: fast" in answer_part
    assert "Virtual best solver" not in answer_part and "Virtual best solver" in md
    assert "figures/cd_nqueens.png" in answer_part
    assert sorted(p.name for p in out.iterdir()) == [".puzzlebench-report", "figures",
                                                      "report.html", "report.md", "tables"]
    for csv in (out / "tables").glob("nqueens_*.csv"):
        assert f"(tables/{csv.name})" in md, csv.name
    summary = pd.read_csv(out / "tables" / "nqueens_summary.csv")
    assert len(summary.columns) <= 12
    assert "nodes median [IQR]" in pd.read_csv(out / "tables" / "nqueens_counters.csv").columns
    html = (out / "report.html").read_text()
    assert html.index("Best on nqueens") < html.index("<h2>Details</h2>") \
        < html.index("Virtual best solver") < html.index("<h2>Legend: labels")


def claim(on: str = "time", better: str = "fast", than: str = "slow") -> Claim:
    return Claim(f"{better} beats {than} on {on}", better, than, on, "nqueens")


def test_claims_are_confirmed_or_contradicted_with_one_verdict_each(tmp_path: Path) -> None:
    frame = frame_of(tmp_path, clear_best(np.random.default_rng(7), repeats=5))
    true, false = claim(), claim(better="slow", than="fast")
    verdicts = claim_verdicts(frame, [true, false])
    assert [v.verdict for v in verdicts] == ["confirmed", "contradicted"]
    c = verdicts[0].comparison
    assert c is not None and c.instances == len(SIZES) and c.runs_a == 5 * len(SIZES)
    assert c.effect < 0.1 and c.effect_ci[1] < 0.1  # fast / slow ≈ 0.01
    assert verdicts[0].p_adjusted is not None and verdicts[0].p_adjusted < 0.001
    assert "better on 8 of 8 instances, worse on 0" in verdicts[0].sentence()


def test_a_claim_on_a_counter_and_on_success(tmp_path: Path) -> None:
    records = clear_best(np.random.default_rng(8), repeats=10)
    records = [r.with_(outcome=Outcome.TIMEOUT, claim="", valid=None, verified=None)
               if r.key.solver == "slow" and r.key.repeat < 9 else r for r in records]
    frame = frame_of(tmp_path, records)
    found = claim_verdicts(frame, [claim("counter:nodes"), claim("success"),
                                   claim("counter:missing")])
    assert [v.verdict for v in found] == ["confirmed", "confirmed", "inconclusive"]
    assert found[1].comparison is not None and found[1].comparison.effect == pytest.approx(0.9)
    assert found[2].why == "no run recorded the counter missing"


def test_claim_fields_are_checked() -> None:
    with pytest.raises(ClaimError, match="unknown measure"):
        parse_claim({"better": "a", "than": "b", "on": "speed"}, "s [[claims]][0]")
    with pytest.raises(ClaimError, match="unknown key 'beter'"):
        parse_claim({"beter": "a", "than": "b"}, "s [[claims]][0]")
    with pytest.raises(ClaimError, match="same solver"):
        parse_claim({"better": "a", "than": "a"}, "s [[claims]][0]")
    assert parse_claim({"better": "a", "than": "b"}, "w").says == "a beats b on time"


STUDY = {"study": {"name": "claimed", "time_limit": 2.0},
         "problems": [{"problem": "nqueens", "sizes": "4..6"}],
         "solvers": [{"name": "mod12"}, {"name": "bitboard"}]}


@pytest.mark.parametrize(("claim_table", "message"), [
    ({"better": "mod12", "than": "cpsat"}, "'cpsat' is not one of the study's solvers"),
    ({"better": "mod12", "than": "bitboard", "problem": "sliding"}, "not one of the study's problems"),
    ({"better": "mod12", "than": "bitboard", "on": "evaluations"}, "does not count evaluations"),
    ({"better": "mod12", "than": "bitboard", "on": "fast"}, "unknown measure"),
])
def test_a_claim_the_study_cannot_test_is_refused_before_any_run(claim_table: dict,
                                                                  message: str) -> None:
    from puzzlebench.harness.campaign.design.study import StudyError
    from puzzlebench.harness.campaign.design.study_file import study_from_dict

    with pytest.raises(StudyError, match=message):
        study_from_dict({**STUDY, "claims": [claim_table]}, "s.toml")


def test_a_studys_claims_reach_its_report_through_the_store(tmp_path: Path) -> None:
    from puzzlebench.cli import main

    study = tmp_path / "s.toml"
    study.write_text('[study]\nname = "claimed"\ndescription = "does mod12 beat bitboard?"\n'
                     'time_limit = 2.0\n[[problems]]\nproblem = "nqueens"\nsizes = "4..6"\n'
                     '[[solvers]]\nname = "mod12"\n[[solvers]]\nname = "bitboard"\n'
                     '[[claims]]\nsays = "mod12 is faster than bitboard"\nbetter = "mod12"\n'
                     'than = "bitboard"\n')
    db = tmp_path / "s.sqlite"
    assert main(["run", str(study), "--db", str(db), "--quiet", "--workers", "1"]) == 0
    assert study_definition(db, "claimed")["claims"] == [
        {"says": "mod12 is faster than bitboard", "better": "mod12", "than": "bitboard",
         "on": "time", "problem": ""}]  # no margin key: the dict stores made before held
    assert main(["report", "--db", str(db), "--out", str(tmp_path / "r")]) == 0
    md = (tmp_path / "r" / "report.md").read_text()
    assert "| mod12 is faster than bitboard |" in md
    assert "does mod12 beat bitboard?" in md and "# Study 'claimed'" in md


def test_a_store_without_the_studies_table_still_reports(tmp_path: Path) -> None:
    import sqlite3

    db = store_of(tmp_path, clear_best(np.random.default_rng(9)))
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE studies")
    conn.execute("PRAGMA user_version=3")  # as the previous release wrote it
    conn.commit()
    conn.close()
    assert study_definition(db, "golden") == {}
    # the store's runs load and rank as before (write_report takes the loaded frame: the
    # store's tables are behind it, so a whole report here would only redraw the figures)
    assert rank(load(db), "nqueens").headline.startswith("Best on nqueens by mean rank: fast")


def test_mean_rank_and_mean_par2_disagreeing_is_said(tmp_path: Path) -> None:
    records = []
    for n in SIZES:  # "often" wins seven instances narrowly and times out on one
        records.append(run("often", n, 0.05) if n != 20
                       else run("often", n, 2.0, outcome=Outcome.TIMEOUT))
        records.append(run("always", n, 0.06))
    ranking = rank(frame_of(tmp_path, records), "nqueens")
    text = " ".join(ranking.sentences)
    assert ranking.headline.startswith("Best on nqueens by mean rank: often")
    assert ("always has the lowest mean PAR-2 (0.06 s against 0.5437 s for often) but a worse "
            "mean rank: it is alone best on 1 instance, often on 7.") in text


@pytest.mark.parametrize(("sizes", "said"), [
    (SIZES, "the runs do not separate it from"),  # 8 instances: p ≥ 2^-7 reachable, × 3 pairs
    (SIZES[:3], "this design cannot separate it from"),  # 3 instances: p ≥ 0.25 at best
])
def test_the_headline_says_whether_the_design_could_have_separated_them(
        tmp_path: Path, sizes: tuple[int, ...], said: str) -> None:
    """Two indistinguishable configurations beside a slow one: the headline never calls them
    tied, and says whether the runs failed to separate them or the design never could."""
    rng = np.random.default_rng(2)
    records = []
    for n in sizes:
        a, b = 0.1 * (1 + rng.random()), 0.1 * (1 + rng.random())
        records += [run("a", n, a), run("b", n, b), run("c", n, 1.5 + rng.random() * 0.1)]
    headline = rank(frame_of(tmp_path, records), "nqueens").headline
    assert said in headline, headline
    assert "tied" not in headline
