"""Ctrl-C on a study says what is stored and how to go on: the same command resumes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

NAPPING = Path(__file__).resolve().parents[1] / "plugins" / "napping.py"


def stored(db: Path) -> int:
    if not db.exists():  # never made here: an empty file is not a store
        return 0
    try:
        with sqlite3.connect(db) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0])
    except sqlite3.Error:
        return 0


@pytest.mark.slow  # slow tier (docs/development.md); cover: Ctrl-C at start-up
def test_ctrl_c_on_a_study_counts_what_is_stored_and_the_same_command_resumes(
        tmp_path: Path) -> None:
    study = tmp_path / "naps.toml"
    study.write_text(f'[study]\nname = "naps"\ntime_limit = 20.0\n[[problems]]\n'
                     f'problem = "nqueens"\nsizes = "4..15"\n[[solvers]]\nname = "{NAPPING}:Napping"\n'
                     f'params = {{ nap = 0.5 }}\n')
    db = tmp_path / "naps.sqlite"
    command = [sys.executable, "-m", "puzzlebench", "run", str(study), "--db", str(db),
               "--workers", "1"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while stored(db) < 1:  # at least one run stored: then Ctrl-C
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
        time.sleep(0.1)
    os.kill(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    lines = [line for line in err.splitlines() if "interrupted" in line]
    assert len(lines) == 1 and "Traceback" not in err, err
    count = stored(db)
    assert f"{count} of the study's 12 runs are stored in {db}" in lines[0]
    assert "run the same command to resume" in lines[0] and 1 <= count < 12
    resumed = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert f"{12 - count} runs made, {count} already stored" in resumed.stdout


def has_child(pid: int) -> bool:
    """Whether the process has started a child: the console script starts a `count`'s fork
    server (``early_server``) after it catches SIGINT and before the command line loads."""
    try:
        return bool(Path(f"/proc/{pid}/task/{pid}/children").read_text().split())
    except OSError:
        return False


@pytest.mark.parametrize(("entry", "after"), [("script", 0.0), ("script", 0.3), ("script", 1.0),
                                              ("python -m", 0.0)])
def test_ctrl_c_during_start_up_prints_one_line_and_exits_130(entry: str, after: float) -> None:
    """Issue 53, item 10: Ctrl-C while the command line loads (imports, the fork server's
    start), or once the count runs, is one line and status 130, never a traceback."""
    script = Path(sys.executable).parent / "puzzlebench"
    command = [str(script)] if entry == "script" else [sys.executable, "-m", "puzzlebench"]
    warm = subprocess.run([*command, "count", "nqueens", "4"], capture_output=True, text=True,
                          timeout=300)  # the solver index and kernels: the fork server starts early
    assert warm.returncode == 0, warm.stderr
    proc = subprocess.Popen([*command, "count", "nqueens", "17"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not has_child(proc.pid):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.002)
    time.sleep(after)
    os.kill(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, (out, err)
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert len(err.splitlines()) == 1 and err.startswith("puzzlebench: interrupted"), err
