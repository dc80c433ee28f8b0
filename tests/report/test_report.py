"""Reports: a deterministic pure function of the records, escaped, rendering in Chromium."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from puzzlebench.cli import main
from puzzlebench.contract import Budget
from puzzlebench.harness.execute import run_solve
from puzzlebench.harness.frame import records_to_frame
from puzzlebench.harness.outcome import Outcome
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
    assert html.count("data:image/png;base64,") >= 5  # figures inlined
    assert "http://" not in html and "https://" not in html  # no network assets
    for name in ("nqueens_summary.csv", "nqueens_par2.csv", "nqueens_pairwise.csv",
                 "nqueens_agreement.csv", "nqueens_wrong.csv", "manifest.csv",
                 "nqueens_cactus.png", "nqueens_profile.png", "nqueens_ecdf.png"):
        assert (tmp_path / name).exists(), name
    summary = pd.read_csv(tmp_path / "nqueens_summary.csv")
    assert set(summary["runs"]) >= {12}
    wrong = pd.read_csv(tmp_path / "nqueens_wrong.csv")
    assert len(wrong) == 1 and "diagonal" in wrong["reason"].iloc[0]
    pairwise = pd.read_csv(tmp_path / "nqueens_pairwise.csv")
    assert {"p", "p (Holm)", "rank-biserial"} <= set(pairwise.columns)
    assert (pairwise["p (Holm)"] >= pairwise["p"]).all()


def test_report_is_deterministic(tmp_path: Path) -> None:
    frame = sample_frame()
    a, b = tmp_path / "a", tmp_path / "b"
    write_report(frame, a)
    write_report(frame.sample(frac=1.0, random_state=3), b)  # row order must not matter
    for f in sorted(a.iterdir()):
        assert f.read_bytes() == (b / f.name).read_bytes(), f.name


def test_study_report_regenerates_identically(tmp_path: Path) -> None:
    args = ["study", "eight-puzzle", "--out", str(tmp_path / "one"), "--workers", "2", "--quiet"]
    assert main(args) == 0
    db = tmp_path / "one" / "eight-puzzle.sqlite"
    # The same store reported twice gives identical files.
    assert main(["report", "--db", str(db), "--out", str(tmp_path / "r1")]) == 0
    assert main(["report", "--db", str(db), "--out", str(tmp_path / "r2")]) == 0
    for f in sorted((tmp_path / "r1").iterdir()):
        assert f.read_bytes() == (tmp_path / "r2" / f.name).read_bytes(), f.name
    text = (tmp_path / "one" / "report.md").read_text()
    assert "node counts match the seed's published table on 9 of 9 inputs" in text


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
def test_report_renders_in_headless_chromium(tmp_path: Path) -> None:
    paths = write_report(sample_frame(), tmp_path / "rep")
    page = paths["html"]
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}"]
    # The DOM after scripts ran, with a probe counting tables and loaded images.
    probe = tmp_path / "probe.html"
    probe.write_text(page.read_text().replace(
        "</body>",
        "<script>window.onload=function(){var ok=Array.from(document.images).every("
        "function(i){return i.complete&&i.naturalWidth>0});document.title='tables='+"
        "document.querySelectorAll('table').length+';images='+document.images.length+"
        "';loaded='+ok;};</script></body>"))
    dom = subprocess.run([CHROMIUM, *flags, "--virtual-time-budget=5000", "--dump-dom",
                          "--enable-logging=stderr", "--v=0", probe.as_uri()],
                         capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert "Uncaught" not in dom.stderr  # the page threw no error
    assert "loaded=true" in dom.stdout
    title = dom.stdout.split("<title>")[1].split("</title>")[0]
    tables = int(title.split("tables=")[1].split(";")[0])
    images = int(title.split("images=")[1].split(";")[0])
    assert tables >= 5 and images >= 5
    assert "alert(1)" not in dom.stdout.replace("&lt;script&gt;alert(1)&lt;/script&gt;", "")
    shot = ROOT / "test-artifacts" / "report.png"
    shot.parent.mkdir(exist_ok=True)
    png = subprocess.run([CHROMIUM, *flags, f"--screenshot={shot}", "--window-size=1200,2400",
                          page.as_uri()], capture_output=True, text=True, timeout=120)
    assert png.returncode == 0 and shot.exists() and shot.stat().st_size > 10_000
