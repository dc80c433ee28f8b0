"""README's tour, run as a newcomer runs it: every command of its "A short tour" block, literally
and in order, from the root of a fresh copy of the repository (the files the repository ships,
nothing a earlier test or a developer left), each timed. A command that exits non-zero fails
the test with its output. Slow tier: the tour runs every baseline (``agree``, ``certify``)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.docs.test_examples import console_script

ROOT = Path(__file__).resolve().parents[2]
TOUR = re.compile(r"## A short tour\s+```bash\n(?P<body>.*?)```", re.S)
FIRST = re.compile(r"# 1\. install and run the main job.*?\n(?P<line>pip install \. && .*?)\n")
COMMAND_TIMEOUT_S = 600


def tour_commands() -> list[str]:
    """The tour's commands, as README writes them (comments after ``#`` dropped by the shell's
    rules, as a shell would)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = TOUR.search(text)
    assert match, "README.md has no 'A short tour' bash block"
    commands = []
    for line in match.group("body").splitlines():
        words = shlex.split(line, comments=True)
        if words:
            commands.append(shlex.join(words))
    return commands


def main_job() -> str:
    """README's first command without its install step (the package is installed here)."""
    match = FIRST.search((ROOT / "README.md").read_text(encoding="utf-8"))
    assert match, "README.md's first command is not 'pip install . && …'"
    return match.group("line").split("&&", 1)[1].strip()


def shipped_files() -> list[str]:
    """What a fresh clone holds: the files git tracks (plus untracked, unignored ones, so that
    a change not yet committed is tested as it will be shipped)."""
    done = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    return [f for f in done.stdout.splitlines() if (ROOT / f).is_file()]


@pytest.fixture
def fresh_copy() -> Iterator[Path]:
    """A copy of the shipped files under the repository's ``test-artifacts/`` (a sealed run
    has a private ``/tmp``, where a solver file in the caller's ``/tmp`` is not found)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs the repository's git checkout to list its shipped files")
    base = ROOT / "test-artifacts"
    base.mkdir(exist_ok=True)
    top = Path(tempfile.mkdtemp(prefix="tour-", dir=base))
    for name in shipped_files():
        target = top / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    yield top
    shutil.rmtree(top, ignore_errors=True)


def test_the_tour_lists_what_readme_promises() -> None:
    commands = tour_commands()
    assert len(commands) >= 12
    assert all(c.startswith("puzzlebench ") for c in commands), commands
    for name in ("examples/mysolver.py", "examples/queens.mzn", "examples/my-study.toml",
                 "studies/example.toml"):
        assert any(name in c for c in commands), name
        assert (ROOT / name).is_file(), f"the tour uses {name}, which the repository lacks"


@pytest.mark.covers("my-restart-mc")
def test_readmes_solver_solves_both_its_problems_through_the_harness() -> None:
    from puzzlebench.harness.execute import run_solve
    from puzzlebench.problems import get_problem
    from puzzlebench.records.record import Outcome

    solver = f"{ROOT / 'examples' / 'mysolver.py'}:MySolver"
    for problem, n in (("nqueens", 16), ("torus-queens", 11)):
        record = run_solve(solver, get_problem(problem).make(n), seed=3)
        assert record.key.solver == "my-restart-mc"
        v = record.verdict
        assert v.outcome is Outcome.SOLVED and v.verified, (problem, v.reason)
        assert record.figures.counters["iterations"] >= 1


@pytest.mark.slow
def test_every_tour_command_runs_as_written(fresh_copy: Path) -> None:
    if shutil.which("minizinc") is None:
        pytest.skip("the tour runs a MiniZinc model: needs Debian's minizinc (.ci/run installs it)")
    timings = []
    for command in [main_job(), *tour_commands()]:
        argv = shlex.split(command)
        start = time.monotonic()
        done = subprocess.run([*console_script(), *argv[1:]], cwd=fresh_copy,
                              capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S,
                              check=False)
        timings.append(f"{time.monotonic() - start:6.1f} s  exit {done.returncode}  {command}")
        assert done.returncode == 0, (
            f"`{command}` exited {done.returncode} in a fresh copy\n"
            f"stdout:\n{done.stdout[-3000:]}\nstderr:\n{done.stderr[-3000:]}")
    print("\n".join(timings))  # shown with -s or -rP: the tour's time, command by command
    assert (fresh_copy / "report" / "report.md").is_file()
    answer = (fresh_copy / "my-report" / "report.md").read_text(encoding="utf-8")
    assert "Best on nqueens" in answer and "my-restart-mc is faster than CP-SAT on nqueens: " in answer
