"""Benchmark: ``puzzlebench report`` on a user's study of about 150 runs over two problems
(goal: within 20 s on the project's 2-core machine), time per stage, beside the same command
at an earlier revision measured in the same invocation.

The store is ``examples/my-study.toml`` run once (126 runs: a plugin solver beside four
baselines on n-queens and the torus, 3 repeats), or the store you name. Stages: loading the
store (with re-judging), the per-problem tables, the generated answer (ranking, tests, VBS),
building every chart as data with its interactive HTML, drawing the PNGs (on every core), and
rendering the two pages. Then the whole ``report`` command, best of ``--repeats``, here and at
``--against REV`` (a git worktree of that revision, run with its own code).

    python benchmarks/report_stages.py [--db my.sqlite] [--against 5b6f8b2] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def whole_command(db: Path, src: Path, repeats: int) -> float:
    """Best wall time of ``python -m puzzlebench report`` with the package at ``src``."""
    env = {**os.environ, "PYTHONPATH": f"{src / 'src'}{os.pathsep}{src / 'baselines'}"}
    best = float("inf")
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "puzzlebench", "report", "--db", str(db),
                            "--out", str(Path(tmp) / "r")], env=env, check=True,
                           capture_output=True, cwd=src)
            best = min(best, time.perf_counter() - start)
    return best


def stages(db: Path) -> list[tuple[str, float]]:
    """Seconds per stage of one report, in this process (the working tree's code)."""
    from puzzlebench.harness.campaign.storage.store import load, load_traces
    from puzzlebench.report import answer as verdict
    from puzzlebench.report import figures, plotly_render, png_render, summary
    from puzzlebench.report import write_report as write
    from puzzlebench.report.series_styles import SeriesStyles
    from puzzlebench.report.statistics import borda

    out: list[tuple[str, float]] = []
    t = time.perf_counter()
    frame, traces = load(db), load_traces(db)
    out.append(("load the store (re-judged)", time.perf_counter() - t))
    styles = SeriesStyles.from_frame(frame)
    labelled = styles.with_labels(frame)
    t = time.perf_counter()
    for problem in sorted(labelled["problem"].unique()):
        sub = labelled[labelled["problem"] == problem]
        summary.summary_table(sub), borda.borda_table(sub)
    out.append(("summary and Borda tables", time.perf_counter() - t))
    t = time.perf_counter()
    rankings = verdict.answer(labelled)
    out.append(("the answer (ranking, tests, VBS)", time.perf_counter() - t))
    t = time.perf_counter()
    charts = [c for p in sorted(labelled["problem"].unique())
              for c in figures.problem_charts(labelled[labelled["problem"] == p], p, styles)]
    charts += [r.chart for r in rankings if r.chart is not None]
    for c in charts:
        plotly_render.chart_html(c, styles)
    out.append((f"{len(charts)} charts as data + interactive HTML", time.perf_counter() - t))
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        png_render.write_pngs(charts, styles, Path(tmp))
        out.append((f"{len(charts)} PNGs, every core", time.perf_counter() - t))
        t = time.perf_counter()
        write(frame, Path(tmp) / "whole", traces=traces)
        out.append(("write_report whole (incl. anytime figures)", time.perf_counter() - t))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", type=Path, help="a store (default: run examples/my-study.toml)")
    ap.add_argument("--against", help="a git revision to time the whole command at")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(dir=ROOT / "test-artifacts"
                                     if (ROOT / "test-artifacts").is_dir() else None) as tmp:
        db = args.db
        if db is None:
            db = Path(tmp) / "my.sqlite"
            subprocess.run([sys.executable, "-m", "puzzlebench", "run",
                            str(ROOT / "examples" / "my-study.toml"), "--db", str(db),
                            "--quiet"], check=True, cwd=ROOT, capture_output=True)
        print(f"store: {db}; machine: {os.cpu_count()} cores")
        for name, seconds in stages(db):
            print(f"  {name:<46} {seconds:7.2f} s")
        here = whole_command(db, ROOT, args.repeats)
        print(f"whole `report` command, working tree: {here:.1f} s (best of {args.repeats}; "
              "goal ≤ 20 s)")
        if args.against:
            tree = Path(tmp) / "against"
            subprocess.run(["git", "worktree", "add", "--detach", str(tree), args.against],
                           cwd=ROOT, check=True, capture_output=True)
            old = Path(tmp) / "as-before.sqlite"  # the store as the earlier code wrote it
            shutil.copy(db, old)
            conn = sqlite3.connect(old)
            conn.execute("DROP TABLE IF EXISTS studies")
            conn.execute("PRAGMA user_version=3")
            conn.commit()
            conn.close()
            try:
                then = whole_command(old, tree, args.repeats)
                print(f"whole `report` command at {args.against}: {then:.1f} s "
                      f"(best of {args.repeats}); ratio now/then {here / then:.2f}")
            finally:
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                               check=False, capture_output=True)
                shutil.rmtree(tree, ignore_errors=True)


if __name__ == "__main__":
    main()
