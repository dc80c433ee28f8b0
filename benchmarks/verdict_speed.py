"""Benchmark: the summary's verdict line, today's statistics against the scipy-based ones they
replaced, side by side (issue 57 §1: README's first command).

The verdict line ranks every solver of a ``compare`` with van Elteren's test on every pair (253
pairs for README's first command). It used ``scipy.stats.rankdata`` per stratum, scipy's normal
tail, ``np.median`` on one-column resamples, an uncached smallest-p and each instance's runs
reduced once per pair. ``reference`` mode puts those back (monkeypatched, in this file only);
``current`` runs the package as it is. Each timing is one fresh process (the import of
``scipy.stats`` is part of what was saved), the two modes alternating round by round on the
same stored runs; the verdict's text must be the same in both (checked).

    python benchmarks/verdict_speed.py [--db runs.sqlite] [--rounds 5]

Without ``--db`` it first stores README's first command (``compare nqueens --sizes 4..10``).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _reference_statistics() -> None:
    """The verdict's statistics as they were before issue 57 §1 (scipy per call)."""
    import numpy as np
    from scipy import stats

    from puzzlebench.report import answer
    from puzzlebench.report.statistics import scores, stratified

    stratified._midranks = lambda x: np.asarray(stats.rankdata(x, method="average"), float)
    stratified._two_sided_normal = lambda z: float(2 * stats.norm.sf(z))
    stratified._row_medians = lambda x: np.median(x, axis=1)
    stratified.smallest_p = stratified._smallest_p.__wrapped__  # type: ignore[attr-defined]

    def pairwise(frame, labels):  # type: ignore[no-untyped-def]
        scored = frame.assign(score=scores.run_scores(frame))
        groups = {key: g for key, g in scored.groupby(["instance_id", "label"])}
        out = {}
        for a, b in itertools.combinations(labels, 2):
            strata = {}
            for iid in sorted(scored["instance_id"].unique()):
                ga, gb = groups.get((iid, a)), groups.get((iid, b))
                if ga is not None and gb is not None:
                    strata[str(iid)] = (stratified.runs_of(ga, "score"),
                                        stratified.runs_of(gb, "score"))
            out[(a, b)] = stratified.compare_strata(strata, effect="ratio")
        return out

    scores.pairwise_comparisons = answer.pairwise_comparisons = pairwise


def child(mode: str, db: str) -> None:
    """One timing: load the runs (untimed), then the verdict line; prints seconds and a digest
    of the text."""
    from puzzlebench.cli.summary import print_verdict
    from puzzlebench.harness.campaign.storage.store import load_records

    records = load_records(db)
    out = io.StringIO()
    start = time.perf_counter()
    if mode == "reference":
        _reference_statistics()  # its scipy import is timed: the old path paid it too
    with contextlib.redirect_stdout(out):
        print_verdict(records, wide=True)
    seconds = time.perf_counter() - start
    print(f"{seconds:.4f} {hashlib.sha256(out.getvalue().encode()).hexdigest()[:12]}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", help="a store of runs (default: README's first command, stored)")
    ap.add_argument("--rounds", type=int, default=5, help="timings per mode")
    ap.add_argument("--child", choices=("reference", "current"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.db)
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(Path(tmp) / "first.sqlite")
        if not args.db:
            subprocess.run(["puzzlebench", "compare", "nqueens", "--sizes", "4..10", "--db", db],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times: dict[str, list[float]] = {"reference": [], "current": []}
        digests: set[str] = set()
        print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
              f"load average at start {os.getloadavg()[0]:.2f}; {args.rounds} rounds, "
              "modes alternating, one fresh process per timing")
        for r in range(args.rounds):
            for mode in (("reference", "current") if r % 2 == 0 else ("current", "reference")):
                done = subprocess.run([sys.executable, __file__, "--child", mode, "--db", db],
                                      check=True, capture_output=True, text=True)
                seconds, digest = done.stdout.split()
                times[mode].append(float(seconds))
                digests.add(digest)
                print(f"#   {mode}: {float(seconds):.3f} s, load {os.getloadavg()[0]:.2f}")
        if len(digests) != 1:
            raise SystemExit("the two modes printed different verdicts")
        ref, cur = (statistics.median(times[m]) for m in ("reference", "current"))
        print(f"verdict line, median of {args.rounds}: reference {ref:.3f} s, current {cur:.3f} s, "
              f"current / reference {cur / ref:.2f} (the same text in every timing)")


if __name__ == "__main__":
    main()
