"""Second adversarial sweep, §3: verdicts the first defences still got wrong.

The answer's type is part of the contract; unique counts are compared and checked; ``complete``
is self-declared, so agreement between plugins verifies nothing, and every command gives one
verdict for one run; solver names are unique across every kind of solver; no figure a run
reports about itself is trusted where the harness measures it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from puzzlebench.cli import main
from puzzlebench.harness.execute import run_solve
from puzzlebench.problems import get_problem
from puzzlebench.records.record import Outcome

HERE = Path(__file__).parent
PLUGINS = str(HERE / "sweep2.py")


def ref(name: str) -> str:
    return f"{PLUGINS}:{name}"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, out + err
    return code, out, err


def json_lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


# -- unique counts ------------------------------------------------------------------------------

@pytest.mark.parametrize(("plugin", "name"), [("UniqueThirteen", "sweep-unique-13"),
                                              ("UniqueUndeclared", "sweep-unique-undeclared")])
def test_agree_compares_unique_counts_with_a002562(capsys, plugin: str, name: str) -> None:
    code, out, _ = cli(capsys, "agree", "nqueens", "--sizes", "8", "--solver",
                       ref(plugin), "--time-limit", "30", "--json")
    report = json_lines(out)[0]
    assert code == 1 and not report["agreed"], report
    named = {d["solver"] for d in report["disagreements"]}
    assert named == {name}, report["disagreements"]
    assert any("12" in d["truth"] for d in report["disagreements"])
    asked = ["--unique"] if plugin == "UniqueThirteen" else []  # the other says it unasked
    code, out, _ = cli(capsys, "count", "nqueens", "8", "--solver", ref(plugin), "--json", *asked)
    assert code == 1 and json_lines(out)[0]["outcome"] == "wrong"


def test_unique_counts_differing_between_counters_are_wrong() -> None:
    from puzzlebench.harness.judging.cross_run import judge_across

    base = run_solve("mod12", get_problem("nqueens").make(8))
    a = base.with_(task="count", solver="a", count=92, unique=12, verified=True)
    b = base.with_(task="count", solver="b", count=92, unique=13, verified=None)
    out = {r.key.solver: r for r in judge_across([a, b])}
    assert out["a"].verdict.outcome is Outcome.SOLVED
    assert out["b"].verdict.outcome is Outcome.WRONG and "unique" in out["b"].verdict.reason
    # beyond the known values: two unverified unique counts that differ are both wrong
    c = base.with_(task="count", solver="c", count=5, unique=2, verified=False, instance_id="x")
    d = base.with_(task="count", solver="d", count=5, unique=3, verified=False, instance_id="x")
    assert {r.verdict.outcome for r in judge_across([c, d])} == {Outcome.WRONG}


# -- self-declared completeness -----------------------------------------------------------------

LIARS = f"{ref('CompleteLiarA')},{ref('CompleteLiarB')}"


@pytest.mark.parametrize(("problem", "extra"), [
    ("queens-knights", ["--sizes", "8", "--queens", "4"]),
    ("nqueens-completion", ["--sizes", "12", "--placed", "0:0"]),
])
def test_two_plugins_agreeing_never_verify_infeasibility(capsys, tmp_path: Path, problem: str,
                                                         extra: list[str]) -> None:
    db = str(tmp_path / "c.sqlite")
    code, out, _ = cli(capsys, "compare", problem, *extra, "--solvers", LIARS, "--json",
                       "--db", db)
    rows = json_lines(out)
    assert rows and all(r["verified"] is not True for r in rows), rows
    assert all(r["outcome"] in ("infeasible", "wrong") for r in rows)
    compare_verdict = {(r["solver"], r["outcome"], r["verified"]) for r in rows}
    # report and export say the same of the same runs
    code, _, _ = cli(capsys, "report", "--db", db, "--out", str(tmp_path / "rep"))
    assert code == 0
    csv = tmp_path / "runs.csv"
    code, _, _ = cli(capsys, "export", "--db", db, "--format", "csv", "--out", str(csv))
    import pandas as pd

    frame = pd.read_csv(csv)
    exported = {(r.solver, r.outcome, None if pd.isna(r.verified) else bool(r.verified))
                for r in frame.itertuples()}
    assert exported == compare_verdict
    from puzzlebench.harness.campaign.storage.store import load

    stored = load(db)
    assert not stored["success"].any()


def test_infeasibility_agreed_by_built_in_complete_solvers_is_verified() -> None:
    from puzzlebench.harness.judging.cross_run import judge_across

    base = run_solve("mod12", get_problem("nqueens").make(8))
    claims = [base.with_(solver=s, outcome=Outcome.INFEASIBLE, verified=False, origin=o,
                         instance_id="x", answer=None, valid=None)
              for s, o in (("cpsat", "baseline"), ("backtracking", "baseline"))]
    out = judge_across(claims, complete_solvers=["cpsat", "backtracking"])
    assert all(r.verdict.verified is True for r in out)
    plugins = [r.with_(origin="plugin") for r in claims]
    out = judge_across(plugins, complete_solvers=["cpsat", "backtracking"])
    assert all(r.verdict.verified is False for r in out)


def test_export_rejudges_like_report(capsys, tmp_path: Path) -> None:
    from puzzlebench.harness.campaign.storage.store import Store

    liar = run_solve(ref("CompleteLiarA"), get_problem("queens-knights").make(8, queens=4))
    honest = run_solve("backtracking", get_problem("queens-knights").make(8, queens=4))
    assert liar.verdict.outcome is Outcome.WRONG and honest.verdict.outcome is Outcome.SOLVED  # certification
    # the claim as a store made before certification holds it: only re-judging catches it
    liar = liar.with_(outcome=Outcome.INFEASIBLE, verified=False, verified_by="", certificate="",
                      reason="infeasibility not verified by a rule")
    db = tmp_path / "e.sqlite"
    with Store(db) as store:
        store.add("k-liar", liar)
        store.add("k-honest", honest)
    for fmt, name in (("csv", "e.csv"), ("json", "e.json")):
        code, _, err = cli(capsys, "export", "--db", str(db), "--format", fmt,
                           "--out", str(tmp_path / name))
        if code == 2 and "format" in err:
            continue
        text = (tmp_path / name).read_text(encoding="utf-8")
        assert "wrong" in text and "infeasible,\n" not in text


# -- memory figures -----------------------------------------------------------------------------

def test_a_run_cannot_change_its_recorded_peak_memory() -> None:
    from puzzlebench.harness.run.sealed.cgroups import detect

    layout, why = detect()
    if layout is None:
        pytest.skip(f"no cgroups here: {why}")
    record = run_solve(ref("MemoryLiar"), get_problem("nqueens").make(8))
    assert record.figures.measured_by.startswith("cgroup"), record.figures.measured_by
    assert record.figures.peak_rss_mb > 1400, record.figures.peak_rss_mb


def test_without_cgroups_the_peak_is_the_kernels_figure() -> None:
    from puzzlebench.harness.run.measure import Measurement

    record = run_solve(ref("MemoryLiar"), get_problem("nqueens").make(8),
                       measurement=Measurement(cgroups=False))
    assert record.figures.measured_by == "rusage"
    assert record.figures.peak_rss_mb > 1400, record.figures.peak_rss_mb


def test_exported_traces_carry_the_rejudged_outcome(tmp_path: Path) -> None:
    from puzzlebench.harness.campaign.storage.store import Store, load_traces

    inst = get_problem("nqueens").make(30)
    traced = run_solve("min-conflicts", inst)
    assert traced.figures.trace
    claim = traced.with_(solver="liar", outcome=Outcome.INFEASIBLE, answer=None, valid=None,
                         verified=False, judge_version="an earlier judge")
    honest = run_solve("mod12", inst)
    db = tmp_path / "t.sqlite"
    with Store(db) as store:
        store.add("k-claim", claim)
        store.add("k-honest", honest)
        # the same claim as today's judge's own verdict: a row no judge made, refused (issue 53)
        store.add("k-forged", claim.with_(judge_version=traced.verdict.judge_version))
    assert set(load_traces(db)["outcome"]) == {"wrong"}
    assert set(load_traces(db, rejudged=False)["outcome"]) == {"infeasible"}
    assert set(load_traces(db)["key"]) == {"k-claim"}


def test_a_plugins_exact_claim_gets_one_verdict_everywhere(capsys, tmp_path: Path) -> None:
    """A plugin declaring ``exact`` whose answer is longer than a built-in exact solver's is
    wrong in compare, and so in report and export of the same store (they cannot resolve the
    plugin: the record says the run was exact)."""
    from puzzlebench.harness.campaign.storage.store import load, load_records

    detour = f"{HERE / 'hostile.py'}:LongerThanOptimal"
    start = ",".join(str(t) for t in [*range(1, 15), 0, 15])
    db = str(tmp_path / "x.sqlite")
    code, out, _ = cli(capsys, "compare", "sliding", "--start", start, "--json", "--db", db,
                       "--solvers", f"{detour},idastar-linear-conflict")
    shown = {r["solver"]: r["outcome"] for r in json_lines(out)}
    assert code == 1 and shown["hostile-detour"] == "wrong"
    stored = {r.key.solver: r.verdict.outcome.value for r in load_records(db)}
    assert stored == shown
    assert dict(zip(load(db)["solver"], load(db)["outcome"], strict=True)) == shown
    csv = tmp_path / "x.csv"
    cli(capsys, "export", "--db", db, "--format", "csv", "--out", str(csv))
    import pandas as pd

    frame = pd.read_csv(csv)
    assert dict(zip(frame["solver"], frame["outcome"], strict=True)) == shown
