"""Hostile and broken plugins through every front door: none is rewarded, nothing breaks.

Each plugin (``tests/plugins/hostile.py``) cheats or fails in one way. Through ``solve``,
``count``, ``agree``, ``compare``, ``run`` (local and Dask) and ``report``: no hostile run is a
verified success, the tool never prints a traceback, ``--json`` output always parses, every
study completes, and running it again adds nothing.
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from typing import Any

import pytest

from puzzlebench.cli import main
from puzzlebench.contract import Budget
from puzzlebench.harness.campaign.storage.records_frame import records_to_frame
from puzzlebench.harness.campaign.storage.store import load, load_records
from puzzlebench.harness.execute import run_count, run_solve
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.harness.run.isolation import fork_server
from puzzlebench.problems import get_problem
from puzzlebench.records.record import Outcome

PLUGINS = str(Path(__file__).with_name("hostile.py"))


def ref(name: str) -> str:
    return f"{PLUGINS}:{name}"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def json_lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def solve_json(capsys: pytest.CaptureFixture[str], plugin: str, *extra: str,
               problem: str = "nqueens", size: str = "8") -> tuple[int, dict[str, Any]]:
    code, out, _ = cli(capsys, "solve", problem, size, "--solver", ref(plugin), "--json", *extra)
    rows = json_lines(out)
    assert len(rows) == 1, out  # exactly what the harness wrote: one object, valid JSON
    return code, rows[0]


# -- 1. the judge cannot be reached ------------------------------------------------------------

def test_a_validator_patched_at_import_or_in_the_run_changes_nothing(capsys) -> None:
    code, row = solve_json(capsys, "PatchedValidator")
    assert (code, row["outcome"], row["valid"]) == (1, "wrong", False)
    code, out, _ = cli(capsys, "compare", "nqueens", "--sizes", "5..7", "--json", "--workers", "1",
                       "--solvers", f"{ref('PatchAndSabotage')},{ref('PatchedValidator')},mod12")
    rows = json_lines(out)
    assert code == 1 and len(rows) == 9
    assert {r["outcome"] for r in rows if r["solver"] != "mod12"} == {"wrong"}
    # runs after the saboteur, in the same command, are judged as if it never ran
    assert {(r["outcome"], r["verified"]) for r in rows if r["solver"] == "mod12"} == {("solved", True)}


def test_judge_tables_are_read_only() -> None:
    from puzzlebench.problems import sliding_distances

    _codes, dists = sliding_distances.table(8)
    with pytest.raises(ValueError):
        dists[0] = 99
    assert isinstance(get_problem("nqueens").known_count(get_problem("nqueens").make(8)), int)


def test_each_run_gets_a_fresh_process(monkeypatch) -> None:
    monkeypatch.setenv("PUZZLEBENCH_SANDBOX", "off")  # sealed, every run is PID 2 of its own
    inst = get_problem("nqueens").make(6)
    first = run_solve(ref("ReportsPid"), inst)
    second = run_solve(ref("ReportsPid"), inst)
    pids = {first.figures.counters["pid"], second.figures.counters["pid"], os.getpid()}
    # forked by the fork server (a lean process that never held the harness's memory)
    server = fork_server()
    assert server is not None
    assert len(pids) == 3 and first.figures.counters["ppid"] == server.proc.pid and first.provenance.isolated
    assert server.proc.pid != os.getpid()


def test_isolate_false_runs_here_and_says_so() -> None:
    rec = run_solve("mod12", get_problem("nqueens").make(8), isolate=False)
    assert rec.verdict.outcome is Outcome.SOLVED and rec.provenance.isolated is False


# -- 2. what is validated is what is stored ----------------------------------------------------

def test_a_mutated_instance_is_judged_and_recorded_as_the_original(capsys) -> None:
    _code, row = solve_json(capsys, "MutatesInstance")
    assert row["instance_id"] == "nqueens-8" and row["size"] == 8
    assert row["outcome"] == "wrong" and "expected 8" in row["reason"]
    assert "changed its copy of the instance" in row["notes"]


def test_a_two_faced_answer_is_converted_once(capsys) -> None:
    _code, row = solve_json(capsys, "TwoFacedAnswer")
    assert row["outcome"] == "wrong" and row["answer"] == [0] * 8  # the data judged = stored


def test_answers_are_stored_canonically(capsys) -> None:
    _code, row = solve_json(capsys, "FloatAnswer")
    assert row["outcome"] == "solved" and all(type(c) is int for c in row["answer"])
    _code, row = solve_json(capsys, "LowercaseKinds", "--queens", "0",
                           problem="queens-knights", size="4")
    assert row["outcome"] == "solved" and {p[0] for p in row["answer"]} == {"N"}


# -- 3. time is the harness's --------------------------------------------------------------------

def test_a_sleeper_is_killed_at_the_hard_limit(capsys) -> None:
    code, row = solve_json(capsys, "Sleeper", "--time-limit", "0.5")
    assert code == 1 and row["outcome"] == "timeout" and "hard limit" in row["error"]


def test_work_in_the_constructor_is_timed(capsys) -> None:
    _code, row = solve_json(capsys, "SlowInit")
    assert row["outcome"] == "solved" and row["time_s"] > 1.0  # slept 1.5 s in __init__ (was ~0)


# -- 4. forged output ----------------------------------------------------------------------------

def test_printed_records_are_only_the_solvers_log(capsys) -> None:
    _code, row = solve_json(capsys, "Forger")
    assert row["outcome"] == "wrong"
    rec = run_solve(ref("Forger"), get_problem("nqueens").make(8))
    assert rec.verdict.outcome is Outcome.WRONG and '"outcome": "solved"' in rec.provenance.log


# -- 6. counts -------------------------------------------------------------------------------------

def test_wrong_counts_are_wrong(capsys) -> None:
    code, out, _ = cli(capsys, "count", "nqueens", "8", "--solver", ref("CountsWrong"), "--json")
    assert code == 1 and json_lines(out)[0]["outcome"] == "wrong"


@pytest.mark.parametrize("plugin", ["CountsWrong", "CountsVector", "CountsBogusClaim",
                                    "CountsRaise", "UniqueWrong"])
def test_agree_names_every_bad_counter(capsys, plugin: str) -> None:
    code, out, _ = cli(capsys, "agree", "nqueens", "--sizes", "8", "--solver", ref(plugin),
                       "--time-limit", "30", "--json")
    report = json_lines(out)[0]
    # a wrong count is a disagreement; a counter that crashed (it raised, or its proposal
    # was malformed) said nothing to disagree with, and is named apart
    named = {d["solver"] for d in report["disagreements"] + report["unanswered"]}
    assert code == 1 and named == {get_name(plugin)}, report
    if plugin in ("CountsWrong", "UniqueWrong"):
        assert not report["agreed"] and report["disagreements"]


def get_name(plugin: str) -> str:
    return resolve_solver(ref(plugin)).name


def test_a_count_nothing_can_check_is_unverified() -> None:
    rec = run_count(ref("UnverifiableCount"), get_problem("nqueens").make(30))
    assert rec.verdict.outcome is Outcome.SOLVED and rec.verdict.verified is False
    assert not records_to_frame([rec])["success"].any()


# -- 7. infeasible claims contradicted in the same command -----------------------------------------

def test_an_infeasible_liar_is_wrong_in_compare(capsys) -> None:
    code, out, _ = cli(capsys, "compare", "queens-knights", "--sizes", "6..8", "--queens", "4",
                       "--solvers", f"{ref('InfeasibleLiar')},backtracking", "--json")
    rows = json_lines(out)
    liar = [r for r in rows if r["solver"] == "hostile-infeasible-liar"]
    solved = {r["instance_id"] for r in rows if r["solver"] == "backtracking"
              and r["outcome"] == "solved"}
    assert code == 1 and solved
    assert all(r["outcome"] == "wrong" for r in liar if r["instance_id"] in solved)


# -- 8./10./11. exits, interrupts, malformed proposals ---------------------------------------------

@pytest.mark.parametrize(("plugin", "why"), [
    ("ExitZero", "SystemExit"), ("OsExitZero", "status 0"), ("OsExitThree", "status 3"),
    ("Interrupts", "KeyboardInterrupt"), ("SetCounters", "malformed proposal"),
    ("NanCounters", "malformed proposal"), ("TextCounters", "malformed proposal"),
    ("NoneCounters", "malformed proposal"), ("ArrayCounters", "malformed proposal"),
    ("BogusClaim", "malformed proposal"), ("NotAProposal", "not a Proposal"),
    ("Unserialisable", "malformed proposal"),
])
def test_exits_and_malformed_proposals_are_crashes(capsys, plugin: str, why: str) -> None:
    code, row = solve_json(capsys, plugin)
    assert code == 1 and row["outcome"] == "crash" and why in row["error"], row


def test_an_exit_while_importing_is_one_line_and_status_2(capsys) -> None:
    path = str(Path(__file__).with_name("exit_at_import.py"))
    code, out, err = cli(capsys, "solve", "nqueens", "8", "--solver", f"{path}:X")
    assert code == 2 and out == "" and "SystemExit" in err and len(err.strip().splitlines()) == 1


# -- 12. orphans --------------------------------------------------------------------------------------

def test_no_process_of_a_killed_run_survives(monkeypatch) -> None:
    marker = f"hostile-orphan-{uuid.uuid4().hex}"
    monkeypatch.setenv("HOSTILE_MARKER", marker)
    rec = run_solve(ref("Orphans"), get_problem("nqueens").make(8), budget=Budget(time_limit=0.5))
    assert rec.verdict.outcome is Outcome.TIMEOUT
    alive = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in cmd:
                alive.append(pid)
    assert not alive


# -- exact claims -------------------------------------------------------------------------------------

def test_a_longer_answer_than_another_exact_solvers_is_wrong(capsys) -> None:
    start = ",".join(str(t) for t in [*range(1, 15), 0, 15])
    code, out, _ = cli(capsys, "compare", "sliding", "--start", start, "--json", "--solvers",
                       f"{ref('LongerThanOptimal')},idastar-linear-conflict")
    rows = {r["solver"]: r for r in json_lines(out)}
    assert rows["idastar-linear-conflict"]["outcome"] == "solved"
    assert rows["hostile-detour"]["outcome"] == "wrong" and code == 1


# -- studies: run + report, resumed; Dask -------------------------------------------------------------

HOSTILE_STUDY = ["PatchedValidator", "Forger", "OsExitThree", "SetCounters", "MutatesInstance",
                 "CpuBurner"]


def write_study(tmp_path: Path) -> Path:
    solvers = "\n".join(f'[[solvers]]\nname = "{ref(p)}"\n' for p in HOSTILE_STUDY)
    path = tmp_path / "hostile.toml"
    path.write_text(f"""
[study]
name = "hostile"
time_limit = 2.0
repeats = 2

[[problems]]
problem = "nqueens"
sizes = "6,8"

[[solvers]]
name = "mod12"

{solvers}
""", encoding="utf-8")
    return path


def check_store(db: Path) -> None:
    records = load_records(db)
    assert len(records) == 2 * 2 * (1 + len(HOSTILE_STUDY))
    honest = ("mod12", "hostile-cpu-burner")  # the burner's answers are right; its thread dies
    hostile = [r for r in records if r.key.solver not in honest]
    assert not any(r.verified_success for r in hostile)
    assert all(r.verified_success for r in records if r.key.solver in honest)


def test_run_and_report_survive_hostile_plugins(capsys, tmp_path: Path) -> None:
    study, db = write_study(tmp_path), tmp_path / "h.sqlite"
    code, _, _ = cli(capsys, "run", str(study), "--db", str(db), "--quiet")
    assert code == 1
    check_store(db)
    code, out, _ = cli(capsys, "run", str(study), "--db", str(db), "--quiet")
    assert "0 runs made" in out
    code, out, _ = cli(capsys, "report", "--db", str(db), "--out", str(tmp_path / "rep"))
    assert code == 0
    summary = (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")
    assert "hostile-patched-validator" in summary
    frame = load(db)
    rates = frame.groupby("solver")["success"].mean()
    assert rates["mod12"] == 1.0 and (rates.drop(["mod12", "hostile-cpu-burner"]) == 0.0).all()
    code, out, _err = cli(capsys, "export", "--db", str(db), "--format", "parquet",
                         "--out", str(tmp_path / "h.parquet"))
    assert code == 0


@pytest.mark.slow  # slow tier: see docs/development.md
def test_dask_judges_hostile_plugins_the_same(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    from puzzlebench.harness.campaign.design.study_file import load_study
    from puzzlebench.harness.campaign.runner import run_study

    study = load_study(write_study(tmp_path))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        run_study(study, tmp_path / "dask.sqlite", scheduler=cluster.scheduler_address, quiet=True)
    check_store(tmp_path / "dask.sqlite")


# -- memory figures and limits are each run's own -------------------------------------------------

def test_peak_memory_and_the_memory_limit_are_per_run(tmp_path: Path) -> None:
    from puzzlebench.harness.campaign.design.study_file import study_from_dict
    from puzzlebench.harness.campaign.runner import run_study

    def study(name: str, limit: int | None) -> Any:
        head: dict[str, Any] = {"name": name, "time_limit": 10.0}
        if limit is not None:
            head["memory_limit_mb"] = limit
        return study_from_dict({"study": head,
                                "problems": [{"problem": "nqueens", "sizes": [8]}],
                                "solvers": [{"name": ref("Allocates")}, {"name": "mod12"}]})

    result = run_study(study("peaks", None), tmp_path / "p.sqlite", workers=1, quiet=True)
    peak = {r.key.solver: r.figures.peak_rss_mb for r in result.new}
    assert peak["hostile-allocates"] > 300 and peak["mod12"] < peak["hostile-allocates"] - 200
    result = run_study(study("limits", 200), tmp_path / "l.sqlite", workers=1, quiet=True)
    outcome = {r.key.solver: r.verdict.outcome for r in result.new}
    assert outcome == {"hostile-allocates": Outcome.MEMOUT, "mod12": Outcome.SOLVED}


def test_resume_under_other_limits_makes_new_runs(capsys, tmp_path: Path) -> None:
    db = str(tmp_path / "r.sqlite")
    args = ["compare", "nqueens", "--sizes", "30", "--solvers", "cpsat", "--db", db, "--json"]
    cli(capsys, *args, "--time-limit", "0.001")
    _, out, err = cli(capsys, *args, "--time-limit", "5")
    assert json_lines(out)[0]["outcome"] == "solved" and "already stored" not in err
    _, out, err = cli(capsys, *args, "--time-limit", "5")
    assert [r["outcome"] for r in json_lines(out)] == ["solved"]  # only this command's run
    assert len(load_records(db)) == 2  # the 0.001 s run and the 5 s run, nothing repeated


def test_a_plugins_key_does_not_depend_on_the_path_naming_it(tmp_path: Path) -> None:
    from puzzlebench.harness.campaign.design.study_file import study_from_dict

    def keys(name: str) -> list[str]:
        return [s.key for s in study_from_dict({
            "study": {"name": "k"}, "problems": [{"problem": "nqueens", "sizes": [8]}],
            "solvers": [{"name": name}]}).runs()]

    other = Path(os.path.relpath(PLUGINS))
    assert keys(f"{PLUGINS}:FloatAnswer") == keys(f"{other}:FloatAnswer")


def test_cli_warns_about_a_cap_the_solver_ignores(capsys) -> None:
    code, _, err = cli(capsys, "solve", "nqueens", "8", "--solver", "cpsat", "--max-nodes", "5")
    assert code == 0 and "does not honour --max-nodes" in err


def test_a_count_in_a_solve_proposal_is_judged(capsys) -> None:
    code, row = solve_json(capsys, "CountsInSolve")
    assert code == 1 and row["outcome"] == "wrong" and "92" in row["reason"]


def test_a_huge_frame_on_the_harness_channel_is_a_crash(capsys) -> None:
    code, row = solve_json(capsys, "HugeFrame", "--time-limit", "20")
    assert code == 1 and row["outcome"] == "crash" and "frame" in row["error"]
