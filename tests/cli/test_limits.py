"""Limits and sizes beyond what the suite can hold are bad input, refused at once (issue 53,
items 16-18): one line on stderr, exit status 2, before any run or allocation — never a run
stored as a crash, never a MemoryError after a silent minute.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.contract import MAX_TIME_LIMIT_S, Budget, SolverConfigError

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
    with pytest.raises(SolverConfigError, match="at most"):
        Budget(time_limit=1e12)
