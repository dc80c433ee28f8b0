"""Reports: a deterministic pure function of the records, escaped, rendering in Chromium."""

from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path

import pandas as pd
import pytest

from puzzlebench.cli import main
from puzzlebench.contract import Budget
from puzzlebench.harness.campaign.storage.records_frame import records_to_frame
from puzzlebench.harness.execute import run_solve
from puzzlebench.records.record import Outcome
from puzzlebench.report import write_report
from tests.conformance.cases import make

ROOT = Path(__file__).resolve().parents[2]
EVIL = "<script>alert(1)</script>"


def sample_frame() -> pd.DataFrame:
    records = []
    for solver in ("mod12", "backtracking", "greedy-h3"):
        for n in (4, 5, 6, 8):
            for rep in range(3):
                records.append(run_solve(solver, make("nqueens", n), seed=rep,
                                         budget=Budget(time_limit=5), repeat=rep, study="t"))
    bad = records[0].with_(solver=EVIL, outcome=Outcome.WRONG, valid=False,
                           reason="queens share a diagonal <b>", params={"p": "<i>x</i>"})
    records.append(bad)
    return records_to_frame(records)


def test_report_files_and_escaping(tmp_path: Path) -> None:
    paths = write_report(sample_frame(), tmp_path, title="t")
    html = paths["html"].read_text()
    md = paths["markdown"].read_text()
    assert EVIL not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert EVIL not in md
    assert "&lt;b&gt;" in html and "diagonal <b>" not in html
    assert html.count('class="plotly-graph-div"') >= 5  # interactive figures
    # all inline: the packed library, one packed figure per chart, the loader, the tables' code
    assert html.count("<script") == 3 + html.count('class="plotly-graph-div"')
    from puzzlebench.report.plotly_render import plotly_js_packed

    assert html.count(plotly_js_packed()) == 1 and len(html) < 3_000_000
    figure = re.search(r'<script type="application/octet-stream" class="plotly-figure" '
                       r'data-target="(chart-[a-z_]+)">([A-Za-z0-9+/=]+)</script>', html)
    assert figure is not None and f'<div id="{figure[1]}"' in html
    spec = json.loads(gzip.decompress(base64.b64decode(figure[2])))
    assert spec["data"] and spec["layout"]["height"] > 0 and spec["config"]["displaylogo"] is False
    page = html.replace(plotly_js_packed(), "")
    for attr in ("src=", "href="):  # no network assets (the browser test also blocks them)
        assert f'{attr}"http' not in page and f"{attr}'http" not in page
    for name in ("nqueens_summary.csv", "nqueens_par2.csv", "nqueens_pairwise.csv",
                 "nqueens_agreement.csv", "nqueens_wrong.csv", "manifest.csv", "legend.csv",
                 "ranking.csv"):
        assert (tmp_path / "tables" / name).exists(), name
        assert f"(tables/{name})" in md, name  # report.md links every table it summarises
    for name in ("nqueens_cactus.png", "nqueens_profile.png", "nqueens_ecdf.png", "cd_nqueens.png"):
        assert (tmp_path / "figures" / name).exists(), name
    summary = pd.read_csv(tmp_path / "tables" / "nqueens_summary.csv")
    assert set(summary["runs"]) >= {12}
    wrong = pd.read_csv(tmp_path / "tables" / "nqueens_wrong.csv")
    assert len(wrong) == 1 and "diagonal" in wrong["reason"].iloc[0]
    pairwise = pd.read_csv(tmp_path / "tables" / "nqueens_pairwise.csv")
    assert {"test", "p", "p (Holm)", "A beats B", "95% CI ratio"} <= set(pairwise.columns)
    tested = pairwise.dropna(subset=["p"])
    assert len(tested) and (tested["p (Holm)"] >= tested["p"]).all()


@pytest.mark.slow  # slow tier (docs/development.md); cover: same seed, same record (conformance same-seed)
def test_report_is_deterministic(tmp_path: Path) -> None:
    frame = sample_frame()
    a, b = tmp_path / "a", tmp_path / "b"
    write_report(frame, a)
    write_report(frame.sample(frac=1.0, random_state=3), b)  # row order must not matter
    files = sorted(f.relative_to(a) for f in a.rglob("*") if f.is_file())
    assert files and files == sorted(f.relative_to(b) for f in b.rglob("*") if f.is_file())
    for f in files:
        assert (a / f).read_bytes() == (b / f).read_bytes(), f


@pytest.mark.slow  # slow tier: see docs/development.md
def test_study_report_regenerates_identically(tmp_path: Path) -> None:
    args = ["study", "eight-puzzle", "--out", str(tmp_path / "one"), "--workers", "2", "--quiet"]
    assert main(args) == 0
    db = tmp_path / "one" / "eight-puzzle.sqlite"
    # The same store reported twice gives identical files.
    assert main(["report", "--db", str(db), "--out", str(tmp_path / "r1")]) == 0
    assert main(["report", "--db", str(db), "--out", str(tmp_path / "r2")]) == 0
    r1, r2 = tmp_path / "r1", tmp_path / "r2"
    for f in sorted(f.relative_to(r1) for f in r1.rglob("*") if f.is_file()):
        assert (r1 / f).read_bytes() == (r2 / f).read_bytes(), f
    text = (tmp_path / "one" / "report.md").read_text()
    assert "node counts match the source study's published table on 9 of 9 inputs" in text
    # the study's page shares the plotly bundle beside its folder; --self-contained embeds it
    shared = (tmp_path / "one" / "report.html").read_text()
    assert 'src="../assets/plotly-' in shared and len(shared) < 2_000_000
    assert list((tmp_path / "assets").glob("plotly-*.min.js"))
    assert main(["study", "eight-puzzle", "--out", str(tmp_path / "one"), "--quiet",
                 "--self-contained"]) == 0  # every run already stored: only the report
    alone = (tmp_path / "one" / "report.html").read_text()
    # embedded packed (gzip + base64): about 2 MB, where the plain library alone was 4.8 MB
    assert 'src="../assets/plotly-' not in alone and 'id="plotly-js-packed"' in alone
    assert 1_500_000 < len(alone) < 3_000_000


def test_report_gives_the_answer_first(tmp_path: Path) -> None:
    """The lead sentences, the findings table and the key figure come before the details
    (legend, per-problem tables); the per-size tests are one click away; Markdown alike."""
    from puzzlebench.report.statistics.findings import compare

    frame = sample_frame()
    fast = frame[frame["solver"] == "mod12"]["time_s"]
    slow = frame[frame["solver"] == "backtracking"]["time_s"]
    findings = [compare("mod12 is faster than backtracking", fast, slow,
                        names=("mod12", "backtracking"), expect="less", stratum=f"n = {n}")
                for n in (4, 5)]
    narrative = ["lead one", "lead two", "lead three", "a detail", "another detail"]
    paths = write_report(frame, tmp_path, title="t", narrative=narrative, findings=findings)
    html = paths["html"].read_text()
    md = paths["markdown"].read_text()
    answer, details = html.index('id="answer"'), html.index("<h2>Details</h2>")
    for text in ("lead one", "lead three", "Best on nqueens", 'class="sortable findings"',
                 'class="sortable ranking"', 'id="key-figure"', 'class="plotly-graph-div"'):
        assert answer < html.index(text) < details, text
    assert details < html.index("a detail") < html.index("Legend: labels")
    assert "<details><summary>Each test, per size (2)</summary>" in html
    assert md.index("## The answer") < md.index("### Findings") < md.index("## Details") \
        < md.index("- a detail") < md.index("## Legend")
    assert html.index("lead three") < html.index("Best on nqueens")  # the study's own first
    table = pd.read_csv(tmp_path / "tables" / "findings.csv")
    assert list(table["claim"]) == ["mod12 is faster than backtracking"]
    assert int(table["sizes"].iloc[0]) == 2
    assert len(pd.read_csv(tmp_path / "tables" / "findings_per_size.csv")) == 2


def test_anytime_headline_is_a_table_row() -> None:
    import numpy as np

    from puzzlebench.report.anytime import headline
    from puzzlebench.report.statistics.anytime_statistics import RunTrace

    def run(config: str, hit: bool, last: float = 100.0) -> RunTrace:
        best = np.array([5, 2, 0] if hit else [5, 3, 3], float)
        return RunTrace(config, np.array([1.0, 10.0, last]), best, np.array([0.1, 0.2, 0.3]),
                        last, 0.3)

    runs = [run("a", True)] * 5 + [run("b", True, 400.0)] * 5 + [run("c", False)] * 5
    row = headline(runs, "nqueens", 32)
    assert row["problem"] == "nqueens" and row["n"] == 32
    assert row["fewest evaluations to 0 conflicts (ERT in the common unit)"].startswith(
        "a (ERT 100 evaluations, 5/5 runs)")
    assert row["next (evaluations)"].startswith("b (")
    assert row["shortest time to 0 conflicts (ERT in seconds)"].startswith("a (ERT 0.3 s, 5/5")
    assert row["stalled (no run reached 0)"] == "c (final best median 3, range 3–3)"


def test_a_study_says_which_source_studies_it_reproduces() -> None:
    from puzzlebench.studies import get_study

    assert get_study("baselines").origin == "all source studies"
    assert get_study("heuristics").origin == "source study 000"
    assert get_study("completion").origin == ""
