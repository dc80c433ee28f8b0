"""No harness process imports a module from the user's current folder (issue 53, item 9).

The attack: a folder holding ``select.py`` and ``json.py`` (names every harness process imports)
that leave a marker when imported; the command is run from it. The outcome: no marker, and the
run is solved — the fork server, the run's process and any helper the harness starts with
``python -m`` find only the harness's own modules.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PLANTED = ("select", "json")
SCRIPT = Path(sys.executable).parent / "puzzlebench"


def plant(folder: Path) -> None:
    """Modules that leave a marker (named for the process) when imported, then refuse."""
    for name in PLANTED:
        (folder / f"{name}.py").write_text(
            "import os\n"
            f"open(os.path.join({str(folder)!r}, 'imported-{name}-%d' % os.getpid()), 'w').close()\n"
            f"raise ImportError('planted {name}.py imported')\n")


def markers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("imported-*"))


@pytest.mark.parametrize("entry", ["script", "python -m"])
def test_a_module_in_the_current_folder_is_never_imported(tmp_path: Path, entry: str) -> None:
    plant(tmp_path)
    command = ([str(SCRIPT)] if entry == "script" else [sys.executable, "-m", "puzzlebench"])
    done = subprocess.run([*command, "solve", "nqueens", "8", "--solver", "mod12"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert markers(tmp_path) == [], done.stdout + done.stderr
    assert done.returncode == 0, done.stdout + done.stderr
    assert "outcome=solved" in done.stdout


def test_a_spawned_run_imports_nothing_from_the_current_folder(tmp_path: Path) -> None:
    """The spawned way (``python -m puzzlebench.harness.run.inside.child``: Dask's workers), from a
    harness whose own path is safe, started in the planted folder."""
    plant(tmp_path)
    code = ("from puzzlebench.contract import Budget\n"
            "from puzzlebench.harness.execute import execute, make_request\n"
            "from puzzlebench.harness.resolve import resolve_solver\n"
            "from puzzlebench.problems import get_problem\n"
            "task = make_request(resolve_solver('mod12'), get_problem('nqueens').make(8), 'solve',\n"
            "                 budget=Budget(30.0))\n"
            "report = execute(task, spawn=True)\n"
            "print('STATUS', report.status, report.error)\n")
    done = subprocess.run([sys.executable, "-P", "-c", code], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert markers(tmp_path) == [], done.stdout + done.stderr
    assert "STATUS done" in done.stdout, done.stdout + done.stderr


def test_helper_processes_start_on_a_safe_path() -> None:
    """``-P``: Python prepends no current or script folder; and ``""`` (whatever folder is
    current) is never handed on."""
    from puzzlebench.harness.run.forking.forkserver import module_path, python_command

    assert python_command("x")[1:] == ["-P", "-m", "x"]
    sys.path.insert(0, "")
    try:
        assert "" not in module_path()
    finally:
        sys.path.remove("")


@pytest.mark.slow  # slow tier (docs/development.md); cover: the module and spawned-run tests here
def test_a_program_in_the_current_folder_is_never_run(tmp_path: Path) -> None:
    """The fork server starts each sealed run's namespace init (``setpriv``, ``sleep``) by
    name: with an empty entry in ``PATH`` (the current folder), a ``setpriv`` planted there
    ran as root. Programs the harness starts are found on absolute ``PATH`` folders only."""
    for name in ("setpriv", "sleep"):
        program = tmp_path / name
        program.write_text(f"#!/bin/sh\ntouch {tmp_path}/imported-{name}\nexit 1\n")
        program.chmod(0o755)
    env = {**os.environ, "PATH": os.pathsep + os.environ.get("PATH", os.defpath)}
    done = subprocess.run([str(SCRIPT), "solve", "nqueens", "8", "--solver", "mod12"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert markers(tmp_path) == [], done.stdout + done.stderr
    assert done.returncode == 0 and "outcome=solved" in done.stdout, done.stdout + done.stderr
