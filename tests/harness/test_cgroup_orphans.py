"""What a dead harness left in the cgroup file system (a SIGKILLed Dask worker or runner never
runs its cleanup) is removed by the next harness that starts, its processes killed first; a
live harness's groups are never touched. Real cgroups (root on this machine)."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from puzzlebench.harness.run.sealed.cgroups import detect, sweep_orphans


def dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_a_dead_harnesss_groups_are_swept_and_a_live_ones_kept() -> None:
    layout, why = detect()
    if layout is None:
        pytest.skip(f"no writable cgroups here: {why}")
    sleeper = subprocess.Popen(["sleep", "60"])
    live = subprocess.Popen(["sleep", "60"])
    try:
        orphans, kept = [], []
        for ours in layout.parents.values():
            base = ours.parent
            pid = dead_pid()
            group = base / f"puzzlebench-{pid}" / f"run-{pid}-0"
            group.mkdir(parents=True)
            orphans.append(group)
            alive = base / f"puzzlebench-{live.pid}"  # a harness still running
            alive.mkdir()
            kept.append(alive)
        # the orphan's run still has a process in it (one hierarchy is enough to hold it)
        (orphans[0] / "cgroup.procs").write_text(str(sleeper.pid))
        for ctrl, ours in layout.parents.items():
            sweep_orphans(ours.parent, layout.version, ctrl)
        assert sleeper.wait(timeout=10) == -9  # killed, not left running
        assert not any(g.exists() or g.parent.exists() for g in orphans)
        assert all(k.exists() for k in kept)
    finally:
        for proc in (sleeper, live):
            proc.kill()
            proc.wait()
        time.sleep(0.05)
        for ours in layout.parents.values():
            for path in ours.parent.glob(f"puzzlebench-{live.pid}"):
                Path(path).rmdir()
