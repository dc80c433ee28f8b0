"""Anytime traces: the sink, the harness's check, every tracing solver, the store, the
analysis, and the IOHprofiler export read back by iohinspector."""

from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pandas as pd
import pytest

from puzzlebench.cli import main
from puzzlebench.contract import Budget, Claim, Proposal, Solver
from puzzlebench.evolution.population_fitness import attacking_pairs
from puzzlebench.harness.campaign.design.study_file import study_from_dict
from puzzlebench.harness.campaign.runner import run_study
from puzzlebench.harness.campaign.storage.ioh_export import export_ioh
from puzzlebench.harness.campaign.storage.records_frame import records_to_frame
from puzzlebench.harness.campaign.storage.store import SCHEMA_VERSION, Store, load_records, load_traces
from puzzlebench.harness.execute import run_solve
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.local.compiled_random import new_state
from puzzlebench.local.min_conflicts import Lines
from puzzlebench.local.qs4 import QS4
from puzzlebench.local.queens_knights_board import objective, random_placement, recount
from puzzlebench.problems import get_problem
from puzzlebench.records.record import Outcome, RunRecord
from puzzlebench.records.trace import Trace, buffers, check_points, thin
from puzzlebench.records.trace_kernels import thin as compiled_thin
from puzzlebench.records.trace_kernels import trace_point
from puzzlebench.report import write_report
from puzzlebench.report.statistics.anytime_statistics import RunTrace, anytime_scores, auc, ecdf, ert_table
from puzzlebench.solvers.iterative import KernelPoints, Run, kernel_caps
from puzzlebench.solvers.registry import REGISTRY, spec_of

TRACING = sorted(s.name for s in REGISTRY.all()
                 if s.factory is not None and getattr(s.factory, "traces", False))


def test_the_expected_solvers_trace() -> None:
    assert set(TRACING) == {"ga-seed002", "ga-permutation", "deap-ga", "first-choice-hc",
                            "stochastic-hc", "min-conflicts", "qs4", "constraint-minconflicts"}


# --- the sink ------------------------------------------------------------------------------

def test_sink_keeps_improvements_only_and_stamps_time() -> None:
    t = Trace()
    for e, b in [(1, 10), (2, 10), (3, 12), (4, 7), (9, 7), (10, 0)]:
        t.improve(e, b)
    pts = t.points()
    assert [(p[0], p[1]) for p in pts] == [(1, 10), (4, 7), (10, 0)]
    assert all(b[2] >= a[2] >= 0 for a, b in itertools.pairwise(pts))


def test_thinning_keeps_first_last_and_log_spacing() -> None:
    e, b, s = buffers(64)
    n = 0
    for i in range(10_000):
        n = trace_point(e, b, s, n, i, 10_000 - i)
    assert n <= 64
    assert b[0] == 10_000 and b[n - 1] == 1 and e[n - 1] == 9_999
    assert np.all(np.diff(e[:n]) > 0) and np.all(np.diff(b[:n]) < 0)
    # log-spaced: the thinned points are not crowded at the end
    assert (e[:n] < 100).sum() >= 5
    assert compiled_thin(e, b, s, n) <= n


def test_the_python_sink_and_the_compiled_recorder_keep_the_same_points() -> None:
    # one thinning rule on both sides: a pure-Python solver's trace (no numba loaded) and a
    # kernel's thin a long run to the same evaluations and bests
    sink = Trace(cap=64)
    e, b, s = buffers(64)
    n = 0
    for i in range(10_000):
        sink.improve(i, 10_000 - i)
        n = trace_point(e, b, s, n, i, 10_000 - i)
    assert [(p[0], p[1]) for p in sink.points()] == list(zip(e[:n].tolist(), b[:n].tolist(),
                                                             strict=True))
    e2, b2, s2 = (a.copy() for a in (e, b, s))
    assert thin(e, b, s, n) == compiled_thin(e2, b2, s2, n)
    assert np.array_equal(e, e2) and np.array_equal(b, b2)


def test_a_pure_python_trace_never_loads_numba() -> None:
    # the sink and the solver-side helpers load no numba: a pure-Python solver's fork server
    # starts without it (issue 38 §5); only the compiled recorder loads it
    code = ("import sys; import puzzlebench.records.trace, puzzlebench.solvers.iterative; "
            "t = puzzlebench.records.trace.Trace(); t.improve(1, 5); "
            "assert 'numba' not in sys.modules, 'numba loaded'; "
            "import puzzlebench.records.trace_kernels; assert 'numba' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


@pytest.mark.parametrize(("points", "solved", "ok"), [
    ([[1, 5, 0.1], [4, 2, 0.2], [9, 0, 0.3]], True, True),
    ([[1, 5, 0.1], [4, 2, 0.2]], False, True),
    ([], False, True),
    ([[1, 5, 0.1], [4, 0, 0.2]], False, False),  # claims 0 without an accepted answer
    ([[1, 5, 0.1], [4, 2, 0.2]], True, False),  # solved but the trace does not end at 0
    ([[4, 5, 0.1], [1, 2, 0.2]], False, False),  # effort goes backwards
    ([[1, 5, 0.1], [4, 5, 0.2]], False, False),  # not an improvement
    ([[1, 5, 0.3], [4, 2, 0.2]], False, False),  # time goes backwards
    ([[1, -1, 0.1]], False, False),
    ([[1, float("nan"), 0.1]], False, False),
    ([[1, 5]], False, False),
    ("nonsense", False, False),
    ([[1, 2**70, 0.1], [2, 1, 0.2]], False, False),  # beyond what the store can hold
    ([[1, 2.5, 0.1], [2, 1, 0.2]], False, False),  # conflicts are whole numbers
    ([[1, 5, 0.1], [2, True, 0.2]], False, False),
    ([[1, 5, 99.0]], False, False),  # dated after the run ended (wall 1 s)
    ([[i, 5000 - i, 0.0] for i in range(2049)], False, False),  # more points than the cap
])
def test_the_harness_check_of_a_trace(points: Any, solved: bool, ok: bool) -> None:
    assert (check_points(points, solved, wall_s=1.0) == "") is ok


# --- the solvers -----------------------------------------------------------------------------

def _instance_for(name: str):
    spec = resolve_solver(name)
    problem = "nqueens" if "nqueens" in spec.problems else sorted(spec.problems)[0]
    return get_problem(problem).make(12)


@pytest.mark.parametrize("name", TRACING)
def test_every_tracing_solver_records_a_checked_trace(name: str) -> None:
    instance = _instance_for(name)
    record = run_solve(name, instance, seed=7, budget=Budget(time_limit=10, max_evaluations=200_000,
                                                               max_iterations=200_000))
    assert "trace dropped" not in record.provenance.notes, record.provenance.notes
    assert record.figures.trace, f"{name} recorded no trace"
    assert check_points(record.figures.trace, record.verdict.outcome is Outcome.SOLVED) == ""
    if record.verdict.outcome is Outcome.SOLVED:
        assert record.figures.trace[-1][1] == 0
    else:
        assert record.figures.trace[-1][1] > 0
    assert record.figures.trace[-1][0] <= record.figures.counters["evaluations"]
    if name != "constraint-minconflicts":  # the library shows only its solution
        assert len(record.figures.trace) >= 2 or record.figures.trace[0][1] == 0


@pytest.mark.parametrize("name", ["ga-permutation", "min-conflicts", pytest.param(
    "qs4", marks=pytest.mark.slow), "first-choice-hc", "deap-ga"])  # qs4's: the slow tier
def test_same_seed_same_trace_apart_from_times(name: str) -> None:
    instance = _instance_for(name)
    budget = Budget(max_evaluations=5_000, max_iterations=5_000)
    a = run_solve(name, instance, seed=3, budget=budget).figures.trace
    b = run_solve(name, instance, seed=3, budget=budget).figures.trace
    assert a and [p[:2] for p in a] == [p[:2] for p in b]


def test_untraced_solvers_still_work_and_store_no_trace() -> None:
    record = run_solve("backtracking", get_problem("nqueens").make(8))
    assert record.verdict.outcome is Outcome.SOLVED and record.figures.trace is None


def test_min_conflicts_pair_bookkeeping_is_exact() -> None:
    rng = np.random.default_rng(1)
    for torus, n in ((False, 9), (True, 7)):
        cols = rng.integers(0, n, n)
        lines = Lines(cols, torus)
        pairs = lines.pairs(cols)
        assert pairs == attacking_pairs(cols[None, :], torus)[0]
        for _ in range(300):
            r, new = int(rng.integers(n)), int(rng.integers(n))
            pairs += lines.move(r, int(cols[r]), new)
            cols[r] = new
            assert pairs == attacking_pairs(cols[None, :], torus)[0]


def test_hill_climbing_objective_is_attacking_pairs_on_nqueens() -> None:
    n = 10
    state = new_state(np.random.default_rng(2))
    queen, pr, pc = np.zeros(n, np.bool_), np.zeros(n, np.int64), np.zeros(n, np.int64)
    occ, cnt = np.full(n * n, -1, np.int64), np.zeros(n, np.int64)
    for _ in range(20):
        random_placement(n, n, state, queen, pr, pc, occ, True)
        h = recount(queen, pr, pc, cnt)
        cols = np.zeros(n, np.int64)
        cols[pr] = pc
        assert objective(cnt, h, True) == attacking_pairs(cols[None, :], False)[0]
        assert objective(cnt, h, False) == h


def test_qs4_pair_bookkeeping_is_exact() -> None:
    for torus, n in ((False, 200), (True, 35), (True, 8), (True, 36)):
        instance = get_problem("torus-queens" if torus else "nqueens").make(n)
        for tries in (0, 50, 500, 5000):
            solver = QS4(max_kicks=3)
            run = Run(caps=kernel_caps(Budget(max_iterations=tries)), traced=True,
                      points=KernelPoints(*buffers()))
            st = solver.init(instance, np.random.default_rng(tries), run)
            while not solver.solved(st) and solver.counters(st)["tries"] < max(tries, 1) \
                    and not solver.step(st):
                pass
            pairs = attacking_pairs(np.asarray(st.cols, np.int64)[None, :], torus)[0]
            assert solver.conflicts(st) == pairs


class LyingTracer(Solver):
    """Claims 0 conflicts in its trace but returns nothing."""

    name: ClassVar[str] = "lying-tracer"
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens"})
    traces: ClassVar[bool] = True

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator, trace: Trace | None = None
              ) -> Proposal:
        if trace is not None:
            trace.improve(1, 3)
            trace.improve(2, 0)
        return Proposal(claim=Claim.UNKNOWN, counters={"evaluations": 2})


def test_a_lying_trace_is_dropped_with_a_note() -> None:
    record = run_solve(spec_of(LyingTracer), get_problem("nqueens").make(8))
    assert record.figures.trace is None and "trace dropped" in record.provenance.notes
    assert record.figures.traced  # still a traced run: the analysis counts it as never reaching a target


def trace_rows(records: list[RunRecord]) -> pd.DataFrame:
    """``load_traces``-shaped rows for records made in this process."""
    return pd.DataFrame([{"key": f"run-{n}", "study": k.study, "solver": k.solver,
                          "params": json.dumps(k.params, sort_keys=True), "instance_id": k.instance_id,
                          "seed": k.seed, "repeat": k.repeat, "fingerprint": k.fingerprint,
                          "budget": json.dumps(k.budget, sort_keys=True), "hard_limit": k.hard_limit,
                          "memory_limit_mb": k.memory_limit_mb, "point": i, "evaluations": e,
                          "best": b, "time_s": t}
                         for n, (k, trace) in enumerate((r.key, r.figures.trace) for r in records)
                         if trace for i, (e, b, t) in enumerate(trace)])


def test_runs_differing_only_in_their_limits_are_not_merged() -> None:
    """Two runs with the same solver, instance and seed but other budgets keep their own traces."""
    from puzzlebench.report.statistics.anytime_statistics import group_runs

    inst = get_problem("nqueens").make(10)
    a = run_solve("min-conflicts", inst, seed=4, budget=Budget(max_iterations=1000))
    b = run_solve("min-conflicts", inst, seed=4, budget=Budget(max_iterations=2000))
    runs = group_runs(trace_rows([a, b]), records_to_frame([a, b]))[("nqueens", 10)]
    assert len(runs) == 2
    for run in runs:
        assert np.all(np.diff(run.evals) >= 0) and np.all(np.diff(run.best) < 0)


def test_qs4_kicks_that_solve_end_the_trace_at_zero() -> None:
    solved = 0
    for n in range(5, 13):
        for torus in (False, True):
            instance = get_problem("torus-queens" if torus else "nqueens").make(n)
            for seed in range(25):
                trace = Trace()
                p = QS4(tail=32, max_kicks=50).solve(instance, Budget(), np.random.default_rng(seed),
                                                     trace=trace)
                if p.claim is Claim.SOLVED:
                    solved += 1
                    assert trace.points()[-1][1] == 0, (n, torus, seed)
    assert solved > 100


def test_runs_without_trace_points_count_as_never_hitting() -> None:
    """ERT and the ECDF include every traced run: one with no point (or a dropped trace)
    adds its whole effort and no hit."""
    from puzzlebench.report.statistics.anytime_statistics import group_runs

    good = run_solve("min-conflicts", get_problem("nqueens").make(8), seed=1)
    liar = run_solve(spec_of(LyingTracer), get_problem("nqueens").make(8), seed=1)
    frame = records_to_frame([good, liar])
    runs = group_runs(trace_rows([good, liar]), frame)[("nqueens", 8)]
    assert sorted(r.config for r in runs) == ["lying-tracer", "min-conflicts"]
    table = ert_table(runs, [0]).set_index("solver")
    assert table.loc["lying-tracer", "runs"] == 1 and table.loc["lying-tracer", "hits"] == 0
    assert math.isinf(table.loc["lying-tracer", "ERT evaluations"])
    assert table.loc["min-conflicts", "hits"] == 1


def test_report_with_a_traced_solver_that_recorded_nothing(tmp_path: Path) -> None:
    """Its series stay in every figure's legend (saying why they are empty); nothing crashes.
    Five runs per configuration: enough for the anytime table's ranking."""
    seeds = range(1, 6)
    runs = [run_solve("min-conflicts", get_problem("nqueens").make(8), seed=s) for s in seeds]
    runs += [run_solve(spec_of(LyingTracer), get_problem("nqueens").make(8), seed=s) for s in seeds]
    # notes cleared: a loaded machine may cut a warm-up short, and the report leaves such a
    # run out (report/statistics/distorted.py) — not what this test is about
    write_report(records_to_frame(runs).assign(notes=""), tmp_path, traces=trace_rows(runs))
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert (tmp_path / "figures" / "anytime_nqueens.png").exists()
    headline = pd.read_csv(tmp_path / "tables" / "anytime_headline.csv").iloc[0]
    assert headline["fewest evaluations to 0 conflicts (ERT in the common unit)"].startswith(
        "min-conflicts (ERT ")
    assert headline["shortest time to 0 conflicts (ERT in seconds)"].startswith("min-conflicts (ERT ")
    assert headline["stalled (no run reached 0)"] == (
        "lying-tracer (no intermediate values recorded)")
    assert "### Anytime at a glance" in md and "lying-tracer (no intermediate values" in md
    assert "not enough data to rank" not in md


# --- store, export, analysis -------------------------------------------------------------------

STUDY = {"study": {"name": "tiny-anytime", "repeats": 3, "time_limit": 5.0,
                   "max_evaluations": 3000, "max_iterations": 3000},
         "problems": [{"problem": "nqueens", "sizes": [8, 12]}],
         "solvers": [{"name": "ga-permutation"}, {"name": "min-conflicts"},
                     {"name": "backtracking"}]}


@pytest.fixture(scope="module")
def traced_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("traces") / "t.sqlite"
    run_study(study_from_dict(STUDY, "test"), db, workers=2, quiet=True)
    return db


def test_traces_are_stored_with_their_runs(traced_store: Path) -> None:
    traces = load_traces(traced_store)
    records = {r.key.solver: r for r in load_records(traced_store, rejudged=False)}
    assert set(traces["solver"]) == {"ga-permutation", "min-conflicts"}  # backtracking: none
    assert traces.groupby("key").ngroups == 2 * 2 * 3
    for col in ("study", "problem", "size", "instance_id", "solver", "params", "seed", "repeat",
                "evaluations", "time_s", "best", "run_evaluations", "run_time_s"):
        assert col in traces.columns
    for _, run in traces.groupby("key"):
        assert run["best"].is_monotonic_decreasing and run["evaluations"].is_monotonic_increasing
    assert records  # the runs themselves are there too
    with Store(traced_store) as store:  # one transaction per run: counts agree
        keys_with = {k for (k,) in store.conn.execute("SELECT DISTINCT key FROM traces")}
        assert keys_with <= store.keys()


def test_resume_does_not_duplicate_traces(traced_store: Path) -> None:
    before = len(load_traces(traced_store))
    run_study(study_from_dict(STUDY, "test"), traced_store, workers=2, quiet=True)
    assert len(load_traces(traced_store)) == before


def test_export_traces_csv(traced_store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "traces.csv"
    assert main(["export", "--db", str(traced_store), "--traces", "--out", str(out)]) == 0
    frame = pd.read_csv(out)
    assert len(frame) == len(load_traces(traced_store)) and "best" in frame.columns
    assert main(["export", "--db", str(traced_store), "--format", "ioh"]) == 2


def test_ioh_export_reads_back_in_iohinspector(traced_store: Path, tmp_path: Path) -> None:
    import iohinspector

    traces = load_traces(traced_store)
    out = tmp_path / "ioh"
    assert main(["export", "--db", str(traced_store), "--format", "ioh", "--out", str(out)]) == 0
    dm = iohinspector.DataManager()
    dm.add_folder(str(out))
    overview = dm.overview.to_pandas()
    runs = traces.groupby("key").agg(solver=("solver", "first"), size=("size", "first"),
                                     best=("best", "last"), evals=("evaluations", "last"),
                                     total=("run_evaluations", "first"))
    assert len(overview) == len(runs)
    assert sorted(overview["best_y"]) == sorted(runs["best"].astype(float))
    expected = sorted(int(max(r.evals, r.total, 1)) for r in runs.itertuples())
    assert sorted(overview["evals"].astype(int)) == expected
    assert set(overview["algorithm_name"]) == {"ga-permutation", "min-conflicts"}
    assert set(overview["dimension"]) == {8, 12}
    data = dm.load(monotonic=False).to_pandas()  # its monotonic filter diffs across runs
    assert data.groupby("data_id").ngroups == len(runs)
    final = data.sort_values("evaluations").groupby("data_id")["raw_y"].last()
    assert sorted(final) == sorted(runs["best"].astype(float))


@pytest.mark.slow  # slow tier (docs/development.md); cover: the first screen
def test_report_has_the_anytime_section(traced_store: Path, tmp_path: Path) -> None:
    frame = records_to_frame(load_records(traced_store))
    assert frame.loc[frame["solver"] == "backtracking", "traced"].eq(False).all()
    assert frame.loc[frame["solver"] != "backtracking", "traced"].all()
    write_report(frame, tmp_path, traces=load_traces(traced_store))
    md = (tmp_path / "report.md").read_text()
    assert "Anytime performance" in md and "ERT per target" in md and "Anytime ranking" in md
    for n in (8, 12):
        assert f"nqueens, n = {n}" in md and (tmp_path / "tables" / f"anytime_nqueens_{n}_ert.csv").exists()
    # Three runs per configuration: tables, but no ranking sentence and no figure (it could
    # only say "not enough data to rank")
    assert not list((tmp_path / "figures").glob("anytime_*"))
    assert "reaches 0 conflicts with the fewest evaluations" not in md
    assert "fewest evaluations to 0 conflicts" not in md
    assert "nqueens n = 8, 12: fewer than 5 traced runs per configuration" in md


def _run(best: list[int], evals: list[int], total: float) -> RunTrace:
    return RunTrace("s", np.array(evals, float), np.array(best, float),
                    np.array(evals, float) / 100, total, total / 100)


def test_ert_is_hansens_definition() -> None:
    runs = [_run([5, 2, 0], [1, 10, 40], 40), _run([6, 3], [1, 20], 100), _run([4, 0], [1, 5], 5)]
    table = ert_table(runs, [0, 3]).set_index("target")
    # target 0: hit by runs 1 (40) and 3 (5); run 2 spent 100 → (40 + 100 + 5) / 2
    assert table.loc[0, "ERT evaluations"] == pytest.approx(72.5)
    assert table.loc[0, "hits"] == 2
    # target 3: hit at 10, 20 and 5 (run 3's 4 at evaluation 1 is not ≤ 3) → 35 / 3
    assert table.loc[3, "ERT evaluations"] == pytest.approx(35 / 3)
    assert math.isinf(ert_table([_run([5], [1], 9)], [0])["ERT evaluations"].iloc[0])


def test_ecdf_and_its_area() -> None:
    runs = [_run([2, 0], [1, 10], 10), _run([2, 1], [1, 100], 100)]
    budgets = np.array([1.0, 10.0, 100.0])
    values = ecdf(runs, [2, 1, 0], budgets)
    assert list(values) == [pytest.approx(2 / 6), pytest.approx(4 / 6), pytest.approx(5 / 6)]
    assert auc(np.ones(3), budgets) == pytest.approx(1.0)
    assert 0 < auc(values, budgets) < 1
    scores = anytime_scores(runs, [2, 1, 0])
    assert list(scores["rank (evaluations)"]) == [1] and scores["solved"].iloc[0] == 1
    assert list(scores["rank (seconds)"]) == [1]


def test_old_stores_gain_the_traces_table(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "old.sqlite"
    with Store(db):
        pass
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE traces")
    conn.execute("PRAGMA user_version=2")
    conn.commit()
    conn.close()
    assert load_traces(db).empty  # read-only: no table, no error
    with Store(db) as store:  # opened for writing: migrated
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        store.conn.execute("SELECT COUNT(*) FROM traces").fetchone()


def test_export_ioh_needs_traces(tmp_path: Path) -> None:
    from puzzlebench.problems.base import PuzzlebenchError
    with pytest.raises(PuzzlebenchError):
        export_ioh(load_traces_empty(), tmp_path / "x")


def load_traces_empty() -> pd.DataFrame:
    return pd.DataFrame(columns=["key", "solver", "params", "problem", "size"])


def test_trace_json_round_trip_through_the_payload() -> None:
    record = run_solve("min-conflicts", get_problem("nqueens").make(10), seed=1)
    assert json.loads(json.dumps(record.figures.trace)) == record.figures.trace


@pytest.mark.slow  # slow tier: see docs/development.md
def test_run_then_report_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's path: ``puzzlebench run`` with a GA and a hill climber stores traces and
    ``puzzlebench report`` shows the anytime section."""
    toml = tmp_path / "s.toml"
    toml.write_text("""
[study]
name = "cli-anytime"
repeats = 2
time_limit = 5.0
max_evaluations = 4000

[[problems]]
problem = "nqueens"
sizes = [8, 10]

[[solvers]]
name = "ga-seed002"

[[solvers]]
name = "first-choice-hc"
""", encoding="utf-8")
    db = tmp_path / "s.sqlite"
    assert main(["run", str(toml), "--db", str(db), "--workers", "2"]) in (0, 1)
    traces = load_traces(db)
    assert set(traces["solver"]) == {"ga-seed002", "first-choice-hc"}
    assert traces.groupby("key").ngroups == 2 * 2 * 2
    assert main(["report", "--db", str(db), "--out", str(tmp_path / "r")]) == 0
    md = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert "## Anytime performance" in md and "nqueens, n = 10" in md
    capsys.readouterr()


class ForgedTracer(Solver):
    """Solves honestly (by backtracking, slowly) but stamps its trace at 0 s and 1 evaluation."""

    name = "forged-tracer"
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens"})
    traces: ClassVar[bool] = True

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator, trace: Trace | None = None
              ) -> Proposal:
        import time

        time.sleep(0.3)
        if trace is not None:
            trace.extend(np.array([1]), np.array([0]), np.array([trace.start]), 1)
        n = instance.n
        return Proposal(answer=list(range(1, n, 2)) + list(range(0, n, 2)), claim=Claim.SOLVED,
                        counters={"evaluations": 5000})


def test_a_forged_trace_reaches_its_solution_when_the_run_ends() -> None:
    """The solution point of a trace is placed at the run's checked time and its whole
    reported effort: a trace stamped at 0 s and 1 evaluation ranks nothing."""
    from puzzlebench.report.statistics.anytime_statistics import group_runs

    forged = run_solve(spec_of(ForgedTracer), get_problem("nqueens").make(10), seed=1)
    assert forged.verdict.outcome is Outcome.SOLVED and forged.figures.trace is not None
    assert forged.figures.trace[-1][:2] == [1, 0]  # as the run claimed it
    runs = group_runs(trace_rows([forged]), records_to_frame([forged]))[("nqueens", 10)]
    evals, seconds = runs[0].hit(0) or (0.0, 0.0)
    assert evals == 5000 and seconds >= 0.3 and seconds == pytest.approx(forged.figures.time_s)


class InflatedTracer(Solver):
    """Its trace claims more evaluations than the run's own count."""

    name = "inflated-tracer"
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens"})
    traces: ClassVar[bool] = True

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator, trace: Trace | None = None
              ) -> Proposal:
        if trace is not None:
            trace.improve(10, 3)
            trace.improve(900, 1)
        return Proposal(claim=Claim.UNKNOWN, counters={"evaluations": 50})


def test_a_trace_claiming_more_evaluations_than_its_run_is_dropped() -> None:
    from puzzlebench.records.trace_points import check_points

    assert "more than the run's own count" in check_points([[900, 1, 0.1]], False, evaluations=50)
    assert check_points([[50, 1, 0.1]], False, evaluations=50) == ""
    record = run_solve(spec_of(InflatedTracer), get_problem("nqueens").make(8))
    assert record.figures.trace is None and "more than the run's own count of 50" in record.provenance.notes
