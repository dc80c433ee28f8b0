"""A ``puzzlebench tune`` process killed outright (SIGKILL, in the middle of a trial) and run
again with the same command reaches the incumbent an uninterrupted tuning with the same seed
reaches, making none of the stored runs again. Slow tier: three tunings end to end (the
default tier's test_tune.py stops a tuning through the API and leaves a trial running)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from puzzlebench.harness.campaign.storage.store import Store

pytestmark = pytest.mark.slow


def _command(tmp: Path, name: str) -> list[str]:
    return [sys.executable, "-m", "puzzlebench", "tune", "first-choice-hc", "--problem",
            "queens-knights", "--queens", "4", "--train", "8,9,10", "--test", "12",
            "--budget", "24", "--objective", "evaluations", "--max-evaluations", "20000",
            "--time-limit", "5", "--seed", "7", "--workers", "1", "--db",
            str(tmp / f"{name}.sqlite"), "--out", str(tmp / f"{name}.toml")]


def test_a_killed_tune_resumes_to_the_uninterrupted_incumbent(tmp_path: Path) -> None:
    whole = subprocess.run(_command(tmp_path, "whole"), capture_output=True, text=True,
                           timeout=600)
    assert whole.returncode == 0, whole.stderr[-2000:]
    proc = subprocess.Popen(_command(tmp_path, "killed"), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert proc.stderr is not None
    deadline = time.monotonic() + 300
    for line in proc.stderr:  # the second configuration finished: kill during the third
        if "tune: 2 configurations" in line:
            break
        assert time.monotonic() < deadline
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    assert not (tmp_path / "killed.toml").exists()
    resumed = subprocess.run(_command(tmp_path, "killed"), capture_output=True, text=True,
                             timeout=600)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    a = tomllib.loads((tmp_path / "whole.toml").read_text())["solvers"][0]
    b = tomllib.loads((tmp_path / "killed.toml").read_text())["solvers"][0]
    assert a["params"] == b["params"] and a["tuned"]["trials"] == b["tuned"]["trials"]
    assert a["tuned"]["spent_runs"] == b["tuned"]["spent_runs"]
    with Store(tmp_path / "whole.sqlite") as x, Store(tmp_path / "killed.sqlite") as y:
        assert x.keys() == y.keys()
