"""``puzzlebench tune`` end to end on tiny budgets: the command and its fragment (read by a
study file, its record in the report's manifest), a killed tuning resumed to the same
incumbent, a lying plugin never the incumbent, and bad input refused in one line."""

from __future__ import annotations

import tomllib
from pathlib import Path

import optuna
import pytest

from puzzlebench.cli import main
from puzzlebench.harness.campaign.design.study_file import study_from_dict
from puzzlebench.harness.campaign.storage.store import Store
from puzzlebench.tune import TuneError, storage_path, tune

HERE = Path(__file__).resolve().parent
LYING = f"{HERE / 'lying_solver.py'}:Lying"
#: Deterministic tuning: the evaluations objective (a seeded climber's count, not a time).
SMALL = {"train": [8, 10], "test": [12], "budget": 10, "objective": "evaluations",
         "max_evaluations": 20_000, "time_limit": 5.0, "options": {"queens": 4}, "seed": 3,
         "workers": 1}


def test_the_command_tunes_tests_and_writes_a_fragment_a_study_reads(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    frag, db = tmp_path / "tuned.toml", tmp_path / "t.sqlite"
    code = main(["tune", "first-choice-hc", "--problem", "queens-knights", "--queens", "4",
                 "--train", "8,10", "--test", "12", "--budget", "10", "--objective",
                 "evaluations", "--max-evaluations", "20000", "--time-limit", "5",
                 "--repeats", "2", "--seed", "1", "--db", str(db), "--workers", "2",
                 "--out", str(frag)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "tune: 1 configurations; #0 complete" in err  # progress: the defaults first
    assert "incumbent #" in err and "runs spent" in err
    assert "held out (sizes 12)" in out and "verdict: tuned beats default" in out
    assert "training-test gap: evaluations tuned / default: training" in out
    assert storage_path(db).exists()
    data = tomllib.loads(frag.read_text())
    entry = data["solvers"][0]
    assert entry["name"] == "first-choice-hc" and set(entry["params"]) <= {"max_iter",
                                                                          "neighbourhood"}
    assert entry["tuned"]["budget"] == 10 and entry["tuned"]["train"] == [8, 10]
    assert entry["tuned"]["verdict"] in ("confirmed", "contradicted", "equivalent",
                                         "inconclusive", "same")
    # every evaluation was a judged, stored run of the tuning study, named by its parameters
    with Store(db) as store:
        records = list(store.records("tune-first-choice-hc-queens-knights"))
    assert records and all(r.verdict.verified is not None for r in records)
    # report on the tuning's own store: its manifest says how the configuration was found
    assert main(["report", "--db", str(db), "--out", str(tmp_path / "tuning")]) == 0
    assert "tuned configuration" in (tmp_path / "tuning" / "tables" / "manifest.csv").read_text()
    # a study takes the fragment as it is, and its report's manifest says how it was found
    study = study_from_dict({"study": {"name": "uses-tuned", "time_limit": 5.0},
                             "problems": [{"problem": "queens-knights", "sizes": [8],
                                           "queens": 4}], **data})
    assert study.solvers[0]["tuned"]["seed"] == 1
    toml = tmp_path / "study.toml"
    toml.write_text('[study]\nname = "uses-tuned"\ntime_limit = 5.0\n[[problems]]\n'
                    'problem = "queens-knights"\nsizes = "8"\nqueens = 4\n' + frag.read_text())
    assert main(["run", str(toml), "--db", str(tmp_path / "s.sqlite"), "--workers", "1",
                 "--quiet"]) == 0
    assert main(["report", "--db", str(tmp_path / "s.sqlite"), "--out",
                 str(tmp_path / "rep")]) == 0
    manifest = (tmp_path / "rep" / "tables" / "manifest.csv").read_text()
    assert "tuned configuration" in manifest and "optuna" in manifest


def test_a_killed_tuning_resumes_to_the_incumbent_of_an_uninterrupted_one(
        tmp_path: Path) -> None:
    whole = tune("first-choice-hc", "queens-knights", db=tmp_path / "a.sqlite", **SMALL)
    assert whole.heldout is not None and len(whole.trials) >= 3
    part = tune("first-choice-hc", "queens-knights", db=tmp_path / "b.sqlite", stop_after=2,
                **SMALL)
    assert part.heldout is None and len(part.trials) == 2
    # a kill in the middle of the third trial: Optuna's storage holds it running
    storage = optuna.storages.RDBStorage(f"sqlite:///{storage_path(tmp_path / 'b.sqlite')}")
    name = storage.get_all_studies()[0].study_name
    optuna.load_study(study_name=name, storage=storage).ask()
    resumed = tune("first-choice-hc", "queens-knights", db=tmp_path / "b.sqlite", **SMALL)
    assert [t.params for t in resumed.trials] == [t.params for t in whole.trials]
    assert resumed.params == whole.params and resumed.score == whole.score
    assert resumed.runs == whole.runs
    with Store(tmp_path / "a.sqlite") as a, Store(tmp_path / "b.sqlite") as b:
        assert a.keys() == b.keys()  # the same runs, none made twice


def test_racing_stops_clearly_worse_configurations_early(tmp_path: Path) -> None:
    result = tune("first-choice-hc", "queens-knights", db=tmp_path / "r.sqlite",
                  **{**SMALL, "train": [8, 9, 10], "budget": 16})
    raced = [t for t in result.trials if not t.complete]
    assert raced, [(t.params, t.score) for t in result.trials]
    assert all(len(t.scores) < 3 and t.runs < 3 for t in raced)


def test_a_cpu_seconds_budget_stops_the_search_once_spent(tmp_path: Path) -> None:
    result = tune("first-choice-hc", "queens-knights", db=tmp_path / "c.sqlite",
                  **{**SMALL, "budget": 0.03, "budget_unit": "cpu-seconds"})
    assert result.heldout is not None and result.record["budget_unit"] == "cpu-seconds"
    assert all(t.cpu_s > 0 for t in result.trials)  # each run's CPU time, as measured
    assert sum(t.cpu_s for t in result.trials[:-1]) < 0.03  # no trial began after it was spent


def test_a_lying_plugin_never_becomes_the_incumbent(tmp_path: Path) -> None:
    result = tune(LYING, "nqueens", train=[6, 8], test=[10], budget=12, seed=2,
                  time_limit=2.0, db=tmp_path / "l.sqlite", workers=2)
    lies = [t for t in result.trials if t.params["mode"] == "lie"]
    assert lies, "the seed must make the tuner try the lie"
    assert result.params["mode"] == "honest"
    assert all(t.score >= 2 * 2.0 for t in lies)  # judged failures: twice the time limit
    with Store(tmp_path / "l.sqlite") as store:  # the study is named by the solver's name
        wrong = [r for r in store.records("tune-lying-nqueens") if r.key.params["mode"] == "lie"]
    assert wrong and all(r.verdict.outcome.value == "wrong" for r in wrong)


@pytest.mark.parametrize(("args", "says"), [
    (["nope"], "unknown solver"),
    (["mod12"], "declares no param_space"),
    (["first-choice-hc", "--train", ""], "--train: no sizes"),
    (["first-choice-hc", "--test", " "], "--test: no sizes"),
    (["first-choice-hc", "--budget", "0"], "--budget must be positive"),
    (["first-choice-hc", "--objective", "evaluations"], "needs --max-evaluations"),
    (["first-choice-hc", "--budget-unit", "hours"], "--budget-unit"),
    (["first-choice-hc", "--train", "8,10", "--budget", "1"], "does not cover one evaluation"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], says: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    base = {"--problem": "nqueens", "--train": "8", "--test": "10", "--budget": "4",
            "--db": str(tmp_path / "x.sqlite")}
    given = dict(zip(args[1::2], args[2::2], strict=True))
    flat = [x for k, v in {**base, **given}.items() for x in (k, v)]
    code = main(["tune", args[0], *flat])
    _, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1 and says in lines[0], err
    assert not (tmp_path / "x.sqlite").exists()  # refused before any run


def test_the_api_raises_its_own_error() -> None:
    with pytest.raises(TuneError, match="no sizes"):
        tune("first-choice-hc", "nqueens", train=[], test=[10], budget=4)
