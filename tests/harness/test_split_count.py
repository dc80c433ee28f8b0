"""Split counts (issue 40 §2): the sub-problems of every way to split sum to the direct
count; a split count's runs are sealed, judged and stored; a count killed half-way resumes
with no sub-problem run twice; a crashed sub-problem is run again and never summed as zero; a
wrong one makes the total wrong; a total OEIS does not list is checked by another split."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from puzzlebench.contract import Budget
from puzzlebench.harness.campaign.design.study import derive_seed
from puzzlebench.harness.campaign.split_count import (
    SplitCountError,
    check_total,
    count_split,
    study_name,
)
from puzzlebench.harness.campaign.storage.store import Store, load_records, study_definition
from puzzlebench.problems import get_problem
from puzzlebench.problems.count_splits import split_count
from puzzlebench.records.record import Outcome
from puzzlebench_baselines.bitboard import BitboardCounter
from puzzlebench_baselines.constellation_counter import ConstellationCounter
from tests.plugins.split_counters import FABRICATED

PLUGINS = Path(__file__).resolve().parents[1] / "plugins" / "split_counters.py"
SPLITS = ("constellations:1", "constellations:2", "constellations:7", "constellations:64",
          "rows:1", "rows:2")


@pytest.mark.parametrize("how", SPLITS)
def test_every_split_of_every_board_up_to_14_sums_to_the_direct_count(how: str) -> None:
    """In this process (the sums, not the harness, are under test here): each sub-problem
    counted by the solver the split is made for, weighted and summed, equals that solver's
    direct count of the board — and its unique count too, where unique counts sum."""
    rows = how.startswith("rows")
    solver = BitboardCounter() if rows else ConstellationCounter()
    nqueens = get_problem("nqueens")
    for n in range(1, 15):
        if rows and int(how[-1]) > n:
            continue
        split = split_count(n, how)
        direct = solver.count(nqueens.make(n), Budget(60), unique=not rows)
        counts = [solver.count(p.instance, Budget(60), unique=split.sums_unique)
                  for p in split.parts]
        total = sum(p.weight * int(c.count or 0) for p, c in zip(split.parts, counts, strict=True))
        assert total == direct.count == nqueens.known_count(nqueens.make(n)), (n, how)
        if split.sums_unique:
            assert sum(int(c.unique or 0) for c in counts) == direct.unique, (n, how)


def test_a_split_count_is_sealed_judged_and_stored(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    result = count_split("constellations", 10, "constellations:8", db, unique=True, workers=2,
                         quiet=True)
    assert (result.total, result.unique, result.status) == (724, 92, "verified")
    assert result.checked_by == "OEIS A000170 and A002562" and result.ran == 8
    records = load_records(db)
    assert len(records) == 8 and {r.key.problem for r in records} == {"nqueens-split"}
    # each part's count was judged against the judge's own enumeration (n ≤ 10)
    assert all(r.verdict.outcome in (Outcome.SOLVED, Outcome.INFEASIBLE) and r.verdict.verified
               for r in records)
    assert all(r.provenance.isolated for r in records)
    kept = study_definition(db, study_name(10, "constellations:8", "constellations"))
    assert "724 solutions (92 unique), verified (OEIS A000170 and A002562)" in str(
        kept["description"])  # what the study's report opens with
    again = count_split("constellations", 10, "constellations:8", db, unique=True, quiet=True)
    assert (again.stored, again.ran, again.total) == (8, 0, 724)
    # a unique count is not made of runs that did not count unique solutions
    plain = count_split("constellations", 10, "constellations:8", db, quiet=True)
    assert (plain.ran, plain.total, plain.unique) == (8, 724, None)


def stored_runs(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0])
    except sqlite3.Error:
        return 0


@pytest.mark.slow  # slow tier (docs/development.md); cover: test_a_split_count_is_sealed_judged_and_stored
def test_a_count_killed_half_way_resumes_with_no_sub_problem_run_twice(tmp_path: Path) -> None:
    db = tmp_path / "killed.sqlite"
    command = [sys.executable, "-m", "puzzlebench", "count", "nqueens", "10", "--split",
               "constellations:12", "--solver", f"{PLUGINS}:NappingConstellations",
               "--db", str(db), "--workers", "1", "--quiet"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    while stored_runs(db) < 3:  # a few sub-problems stored: then kill it, runs and all
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    before = {r.key.instance_id for r in load_records(db)}
    assert 3 <= len(before) < 12
    ran: list[str] = []
    result = count_split(f"{PLUGINS}:NappingConstellations", 10, "constellations:12", db,
                         workers=2, quiet=True, on_record=lambda r: ran.append(r.key.instance_id))
    assert (result.total, result.status, result.stored) == (724, "verified", len(before))
    assert not set(ran) & before and len(ran) == len(set(ran)) == 12 - len(before)
    assert len(load_records(db)) == 12  # one run per sub-problem, none twice


def test_a_crashing_sub_problem_is_run_again_and_never_summed_as_zero(tmp_path: Path) -> None:
    db = tmp_path / "crash.sqlite"
    solver = f"{PLUGINS}:CrashingConstellations"
    result = count_split(solver, 9, "constellations:4", db, retries=1, workers=2, quiet=True)
    assert result.status == "incomplete" and result.total is None
    assert result.missing == ["nqueens-split-9-2of4"] and result.ran == 5  # 4 + 1 re-run
    crashed = [r for r in load_records(db) if r.key.instance_id == "nqueens-split-9-2of4"]
    assert sorted(r.key.repeat for r in crashed) == [0, 1]
    assert {r.verdict.outcome for r in crashed} == {Outcome.CRASH}
    # the next call runs only the missing part again, as new attempts
    again = count_split(solver, 9, "constellations:4", db, retries=0, quiet=True)
    assert (again.stored, again.ran, again.status) == (3, 1, "incomplete")


def test_a_wrong_sub_count_makes_the_total_wrong(tmp_path: Path) -> None:
    result = count_split(f"{PLUGINS}:MiscountingConstellations", 8, "constellations:3",
                         tmp_path / "w.sqlite", quiet=True)
    assert result.status == "wrong" and result.total is None
    assert result.wrong == ["nqueens-split-8-1of3"] and result.ran == 3  # never re-run


def test_beyond_oeis_another_stored_split_checks_the_total(tmp_path: Path) -> None:
    db = tmp_path / "big.sqlite"
    assert check_total(28, "constellations:64", "constellations", 5, None, db)[0] == "unverified"
    with Store(db) as store:
        store.save_study(study_name(28, "rows:2", "bitboard"), {"split_count": {
            "split": "rows:2", "solver": "bitboard", "total": 5, "code": "b1"}})
        store.save_study(study_name(28, "constellations:8", "bitboard"), {"split_count": {
            "split": "constellations:8", "solver": "bitboard", "total": None,
            "code": "b1"}})  # incomplete
    status, by = check_total(28, "constellations:64", "constellations", 5, None, db, code="c1")
    assert (status, by) == ("verified", "split rows:2 by bitboard agrees")
    assert check_total(28, "constellations:64", "constellations", 6, None, db,
                       code="c1")[0] == "wrong"
    # the stored count itself is not its own check, nor is another split by the same code
    assert check_total(28, "rows:2", "bitboard", 5, None, db, code="b1")[0] == "unverified"
    assert check_total(28, "constellations:2", "bitboard", 5, None, db,
                       code="b1")[0] == "unverified"
    # a stored count that names no code checks nothing
    with Store(db) as store:
        store.save_study(study_name(28, "rows:1", "other"), {"split_count": {
            "split": "rows:1", "solver": "other", "total": 5}})
    assert check_total(28, "constellations:2", "bitboard", 5, None, db,
                       code="b1")[0] == "unverified"


def test_two_splits_by_one_fabricating_solver_agreeing_verify_nothing(tmp_path: Path) -> None:
    """Issue 53 §2: a plugin that makes n = 28's total up makes two of its splits agree; the
    second is still unverified (splits by the same code check nothing), and checking it with
    its own code is refused."""
    db = tmp_path / "made-up.sqlite"
    solver = f"{PLUGINS}:FabricatingCounter"
    first = count_split(solver, 28, "constellations:1", db, quiet=True, workers=1)
    second = count_split(solver, 28, "rows:1", db, quiet=True, workers=1)
    assert first.total == second.total == FABRICATED  # the two splits agree …
    assert (first.status, second.status) == ("unverified", "unverified")  # … and check nothing
    assert "same solver" in second.checked_by and "--check-with" in second.checked_by
    with pytest.raises(SplitCountError, match="own code"):
        count_split(solver, 28, "rows:1", db, quiet=True, check_with=solver)


@pytest.mark.slow  # slow tier (docs/development.md); cover: two splits by one solver
def test_check_with_another_solver_verifies_a_total_beyond_the_known_values(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Beyond the judge's table (here: n = 9 with the table hidden from check_total),
    ``check_with`` runs another solver's split of the board: its agreeing total verifies."""
    nqueens = get_problem("nqueens")
    monkeypatch.setattr(nqueens, "known_count", lambda board, unique=False: None)
    db = tmp_path / "nine.sqlite"
    alone = count_split("constellations", 9, "constellations:2", db, quiet=True, workers=1)
    assert (alone.total, alone.status) == (352, "unverified")
    checked = count_split("constellations", 9, "constellations:2", db, quiet=True, workers=1,
                          check_with="bitboard")
    assert (checked.total, checked.status) == (352, "verified")
    assert checked.checked_by == "split rows:2 by bitboard agrees"
    kept = study_definition(db, study_name(9, "constellations:2", "constellations"))
    assert kept["split_count"]["status"] == "verified"  # type: ignore[index]


def test_a_solver_that_cannot_count_the_sub_problems_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SplitCountError, match="cannot count the sub-problems"):
        count_split("bitboard", 8, "constellations:4", tmp_path / "x.sqlite", quiet=True)
    with pytest.raises(SplitCountError, match="unique counts do not sum"):
        count_split("bitboard", 8, "rows:1", tmp_path / "x.sqlite", unique=True, quiet=True)


@pytest.mark.slow  # slow tier (docs/development.md); cover: the sealed split count
def test_before_go_a_run_cannot_tell_which_sub_problem_it_will_get(tmp_path: Path) -> None:
    """Issue 53 §3: a plugin looks for its task in memory at import (before ``go``) and works
    0.8 s there. What it finds is the same for every part (no seed, no instance: both come
    with ``go``), each run's own seed still differs, and the pre-go work is noted."""
    solver = f"{PLUGINS.with_name('counts_before_go.py')}:CountsBeforeGo"
    result = count_split(solver, 8, "constellations:2", tmp_path / "g.sqlite", quiet=True,
                         workers=1)
    assert (result.total, result.status) == (92, "verified")
    records = load_records(tmp_path / "g.sqlite")
    assert len(records) == 2
    study = study_name(8, "constellations:2", "counts-before-go")
    seeds = {derive_seed(0, study, r.key.instance_id, 0) for r in records}
    assert len(seeds) == 2 and 0 not in seeds  # the tasks' seeds name their parts …
    assert {r.figures.counters["seen_instances"] for r in records} == {0}
    assert {r.figures.counters["seen_seed"] for r in records} == {0}  # … and are sent with go only
    assert all("the run worked before go" in r.provenance.notes for r in records), \
        [r.provenance.notes for r in records]
