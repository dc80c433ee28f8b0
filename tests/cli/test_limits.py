"""Limits and sizes beyond what the suite can hold are bad input, refused at once (issue 53,
items 16-18): one line on stderr, exit status 2, before any run or allocation — never a run
stored as a crash, never a MemoryError after a silent minute.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.harness.run.measure import MAX_TIME_LIMIT_S
from puzzlebench.solvers.registry import RegistryError

STUDY = """
[study]
name = "limits"
{head}

[[problems]]
problem = "nqueens"
sizes = "4"
{problem}

[[solvers]]
name = "mod12"
{solver}
"""

HUGE_LIMITS = ["1e12", "1e7", "nan", "inf", "-1", "0"]


def one_line_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, (code, out, err)
    assert len(lines) == 1 and lines[0].startswith("puzzlebench: error: "), err
    assert "Traceback" not in out + err
    return lines[0]


@pytest.mark.parametrize("value", HUGE_LIMITS)
@pytest.mark.parametrize("command", [
    ["solve", "nqueens", "8", "--solver", "mod12", "--time-limit"],
    ["count", "nqueens", "8", "--time-limit"],
    ["count", "nqueens", "8", "--split", "rows:1", "--time-limit"],
    ["compare", "nqueens", "--sizes", "4", "--solvers", "mod12", "--time-limit"],
    ["agree", "nqueens", "--sizes", "4", "--time-limit"],
    ["solve", "nqueens", "8", "--solver", "mod12", "--min-time"],
    ["solve", "nqueens", "8", "--solver", "mod12", "--startup-limit"],
], ids=lambda c: " ".join(c[:1] + c[-1:]) if isinstance(c, list) else c)
def test_a_limit_the_platform_cannot_hold_is_bad_input(command: list[str], value: str,
                                                       capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    """Item 16: ``--time-limit 1e12`` was stored as an honest run's crash (``OverflowError:
    timestamp out of range``); now it is refused before the run, naming the bound."""
    line = one_line_exit_2([*command, value] + (["--db", str(tmp_path / "s.sqlite")]
                                               if "--split" in command else []), capsys)
    assert command[-1] in line
    assert not (tmp_path / "s.sqlite").exists()


@pytest.mark.parametrize("key", ["time_limit", "hard_limit", "min_time", "startup_limit"])
def test_a_study_limit_the_platform_cannot_hold_is_refused_when_read(
        key: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    study = tmp_path / "limits.toml"
    head = f"{key} = 1e12" if key == "time_limit" else f"time_limit = 1.0\n{key} = 1e12"
    study.write_text(STUDY.format(head=head, problem="", solver=""), encoding="utf-8")
    line = one_line_exit_2(["run", str(study), "--db", str(tmp_path / "s.sqlite")], capsys)
    assert key in line and f"{MAX_TIME_LIMIT_S:,.0f}" in line
    assert not (tmp_path / "s.sqlite").exists()


def test_a_solver_entry_limit_is_bounded_too(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    study = tmp_path / "limits.toml"
    study.write_text(STUDY.format(head="time_limit = 1.0", problem="", solver="time_limit = 1e12"),
                     encoding="utf-8")
    assert "time_limit" in one_line_exit_2(["run", str(study)], capsys)


def test_the_largest_limit_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The bound itself is a limit the harness can wait on: an honest run is solved."""
    code = main(["solve", "nqueens", "8", "--solver", "mod12", "--time-limit",
                 str(MAX_TIME_LIMIT_S)])
    out, err = capsys.readouterr()
    assert code == 0 and "outcome=solved" in out, (out, err)


def test_the_api_refuses_it_with_a_clear_exception() -> None:
    import puzzlebench

    with pytest.raises(RegistryError, match="at most"):
        puzzlebench.solve("nqueens", 8, "mod12", time_limit=1e12)


@pytest.mark.parametrize("argv", [
    ["count", "nqueens", "12", "--split", "constellations:1000000000"],
    ["count", "nqueens", "12", "--split", "constellations:" + "9" * 4000],
    ["count", "nqueens", "12", "--split", "rows:1", "--workers", "1000000000"],
    ["solve", "nqueens-split", "12", "--part", "1/1000000000", "--solver", "constellations"],
], ids=["constellations:1e9", "constellations:4000 digits", "workers 1e9", "part 1/1e9"])
def test_a_split_beyond_its_bound_is_refused_at_once(argv: list[str], tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Item 17: ``count --split constellations:1000000000`` was silent for a minute, then a
    MemoryError traceback; every part a split makes is now bounded before any is made."""
    db = tmp_path / "split.sqlite"
    line = one_line_exit_2([*argv, *(["--db", str(db)] if argv[0] == "count" else [])], capsys)
    assert "at most" in line or "in 1.." in line or "whole number" in line
    assert len(line) < 300 and not db.exists()


@pytest.mark.parametrize(("head", "problem", "solver", "names"), [
    ("repeats = 1000000000000", "", "", "repeats"),
    ("", "sizes_list", "", "sizes"),
    ("repeats = 10000", 'sizes_more = ""', "", "runs"),
    ("", "generate = 1000000000000", "", "generate"),
    ("", "", "params = { a = [" + ", ".join(map(str, range(200))) + "], b = ["
     + ", ".join(map(str, range(200))) + "] }", "combinations"),
], ids=["repeats 1e12", "size list", "runs in all", "generate 1e12", "parameter grid"])
def test_a_study_grid_beyond_its_bounds_is_refused_when_read(
        head: str, problem: str, solver: str, names: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Item 18: ``repeats = 10**12`` in a study was silent for a minute, then a MemoryError;
    repeats, generated instances, parameter combinations and runs in all are bounded when
    the file is read, before anything is made per unit."""
    if problem == "sizes_list":  # a TOML list of 20,000 sizes
        text = STUDY.format(head="time_limit = 1.0", problem="", solver="")
        text = text.replace('sizes = "4"', f"sizes = {list(range(4, 20_004))}")
    elif problem.startswith("sizes_more"):  # 10,000 repeats × 200 sizes: 2,000,000 runs
        text = STUDY.format(head="time_limit = 1.0\n" + head, problem="", solver="")
        text = text.replace('sizes = "4"', 'sizes = "4..203"')
    elif problem.startswith("generate"):
        text = STUDY.format(head="time_limit = 1.0", problem="", solver="")
        text = text.replace('problem = "nqueens"\nsizes = "4"',
                            'problem = "nqueens-completion"\nsizes = "8"\n' + problem)
        text = text.replace('name = "mod12"', 'name = "backtracking"')
    else:
        text = STUDY.format(head="time_limit = 1.0\n" + head, problem=problem, solver=solver)
    study = tmp_path / "grid.toml"
    study.write_text(text, encoding="utf-8")
    db = tmp_path / "grid.sqlite"
    line = one_line_exit_2(["run", str(study), "--db", str(db)], capsys)
    assert names in line and "at most" in line, line
    assert not db.exists()


@pytest.mark.parametrize("argv", [
    ["compare", "nqueens", "--sizes", "4", "--solvers", "mod12", "--repeats", "1000000000000"],
    ["compare", "nqueens", "--sizes", "4..10003", "--solvers", "mod12", "--repeats", "100"],
    ["compare", "nqueens", "--sizes", "4", "--solvers", "mod12", "--workers", "1000000000"],
    ["compare", "nqueens", "--sizes", "4..100000000", "--solvers", "mod12"],
], ids=["repeats 1e12", "runs in all", "workers 1e9", "sizes 1e8"])
def test_compare_bounds_its_grid_before_making_it(argv: list[str],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    one_line_exit_2(argv, capsys)
