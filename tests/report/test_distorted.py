"""Runs with a distorting harness note are counted, named and left out of the statistics
(report/statistics/distorted.py), by the rule the manifest states."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from puzzlebench.harness.campaign.storage.records_frame import records_to_frame
from puzzlebench.records.record import Outcome, RunRecord
from puzzlebench.report import write_report
from puzzlebench.report.statistics.distorted import RULE, distortions, split_distorted

WARM = ("warm-up cut short: start-up and warm-up may use max(1 s, 25 % of the time limit), so "
        "first-call costs may fall in the timed phase")
CORES = "the run used more than one core: 3.03 s of CPU in 2.48 s (1.2 cores)"
REPEAT = ("the first solve took 0.5 s and the 4 repeats after it a median of 0.01 s: repeats in "
          "one process reused the first solve's work, so the first solve's time is the run's")
STARTUP = ("the time limit counts from the run's start: start-up and warm-up used their whole "
           "share of it (25 %), so the solver was given the rest")


def run(solver: str, rep: int, t: float, notes: str = "",
        outcome: Outcome = Outcome.SOLVED) -> RunRecord:
    solved = outcome is Outcome.SOLVED
    return RunRecord.of(problem="nqueens", size=8, instance_id="nqueens-8", solver=solver,
                        params={}, seed=rep, repeat=rep, outcome=outcome,
                        claim="solved" if solved else "", valid=solved if solved else False,
                        verified=True if solved else None, time_s=t, budget={"time_limit": 2.0},
                        study="t", notes=notes)


def frame() -> pd.DataFrame:
    return records_to_frame([
        run("a", 0, 0.001), run("a", 1, 0.0318, WARM), run("a", 2, 0.001, f"the solver says: hi; {CORES}"),
        run("b", 0, 0.5, REPEAT), run("b", 1, 0.01, STARTUP), run("b", 2, 0.01),
        run("c", 0, 0.2, WARM, outcome=Outcome.WRONG)])


def test_notes_in_words() -> None:
    assert distortions(f"{WARM}; {CORES}") == ["warm-up cut short", "more than one core used"]
    assert distortions(REPEAT) == []  # its time is already the first solve's: it stays in
    assert distortions(STARTUP) == distortions("") == distortions(None) == []


def test_split_keeps_clean_and_failed_runs_and_says_which() -> None:
    kept, excluded, sentence = split_distorted(frame())
    assert sorted(zip(excluded["solver"], excluded["repeat"], strict=True)) == [
        ("a", 1), ("a", 2)]
    assert len(kept) == 5 and "c" in set(kept["solver"])  # a wrong run stays wrong
    assert list(excluded["distortion"]) == ["warm-up cut short", "more than one core used"]
    assert sentence.startswith("2 of 7 runs left out of the statistics")
    assert "a 2" in sentence and "warm-up cut short: 1" in sentence
    clean, none, said = split_distorted(kept)
    assert len(clean) == 5 and none.empty and said == ""


def test_the_report_leaves_them_out_and_says_so(tmp_path: Path) -> None:
    write_report(frame(), tmp_path)
    manifest = pd.read_csv(tmp_path / "tables" / "manifest.csv").set_index("item")["value"]
    assert manifest["distorted runs"].startswith("2 of 7 runs left out")
    assert manifest["rule"] == RULE and manifest["runs"] == "7"
    listed = pd.read_csv(tmp_path / "tables" / "distorted.csv")
    assert len(listed) == 2 and "distortion" in listed
    per_instance = pd.read_csv(tmp_path / "tables" / "per_instance.csv").set_index("solver")
    assert per_instance.loc["a", "solved"] == "1/1" and per_instance.loc["b", "solved"] == "3/3"
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    # among the details (the answer is report/answer.py's to word)
    assert md.index("## Details") < md.index("2 of 7 runs left out") < md.index("## Legend")
