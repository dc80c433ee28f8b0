"""Ending a run's process for good: its process group killed, its exit status and resource
usage read (from the fork server that forked it, or from the kernel), and the runs killed after
they answered reaped later, off the harness's loop, with their cgroups removed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from types import SimpleNamespace
from typing import Any

from puzzlebench.harness.run.forking.forkserver import ForkServer
from puzzlebench.harness.run.sealed.cgroups import RunCgroup


def kill_group(pid: int) -> None:
    if pid <= 0:  # never made: nothing to kill (and killpg(0) would be the harness's group)
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


#: Runs killed after they answered, not yet reaped: (pid, Popen, cgroup, fork server).
ENDED: list[tuple[int, subprocess.Popen[bytes] | None, RunCgroup, ForkServer | None]] = []


def reap(*, block: bool = False) -> None:
    """Reap the ended runs whose processes are gone and remove their cgroups (with
    ``block``, wait for all of them)."""
    for item in list(ENDED):
        pid, proc, cgroup, server = item
        if pid <= 0:
            gone = True
        elif server is not None:
            gone = server.wait_exit(pid, timeout=10.0 if block else 0.0) is not None
        else:
            try:
                gone = os.waitpid(pid, 0 if block else os.WNOHANG)[0] != 0
            except ChildProcessError:
                gone = True
        if not gone and not block:
            continue
        if proc is not None:
            proc.returncode = -signal.SIGKILL
        cgroup.kill()
        if cgroup.remove(wait_s=1.0 if block else 0.0) or block:
            with contextlib.suppress(ValueError):  # reaped meanwhile by another thread
                ENDED.remove(item)


def wait_for(pid: int, proc: subprocess.Popen[bytes] | None, server: ForkServer | None = None,
          within: float | None = None) -> tuple[int | None, Any] | None:
    """The run's exit status and resource usage, waiting for it; with ``within``, None if it
    has not ended within that many seconds."""
    if pid <= 0:
        return None, None
    if server is not None:
        ended = server.wait_exit(pid, timeout=10.0 if within is None else within)
        if ended is None:
            return None if within is not None else (None, None)
        return ended.status, SimpleNamespace(ru_utime=ended.cpu_s, ru_stime=0.0,
                                             ru_maxrss=ended.maxrss_kb)
    deadline = time.monotonic() + (within or 0.0)
    try:
        while True:
            done, status, rusage = os.wait4(pid, 0 if within is None else os.WNOHANG)
            if done or within is None:
                break
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.001)
    except ChildProcessError:
        return (proc.returncode if proc is not None else None), None
    if proc is not None:
        proc.returncode = os.waitstatus_to_exitcode(status)
    return os.waitstatus_to_exitcode(status), rusage
