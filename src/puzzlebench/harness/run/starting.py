"""The three ways a run's process is made: forked by the fork server (``harness.run.forkserver``;
the usual way), spawned as ``python -P -m puzzlebench.harness.run.inside.child`` (Dask's daemonic
workers, which should not fork; ``forkserver.python_command``: a safe path), or forked from the
harness itself (a solver class that lives only in the harness's memory cannot reach the fork
server). Each gets the same pipes and the same set-up.
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
from typing import IO

from puzzlebench.harness.run.forking.forkserver import python_command, python_env
from puzzlebench.harness.run.inside.child import RunSetup, child_main
from puzzlebench.harness.run_request import RunRequest


def spawn_run(write_fd: int, control_read: int, log: IO[bytes]) -> subprocess.Popen[bytes]:
    """A fresh interpreter running the run's side, its task to come on the control pipe."""
    return subprocess.Popen(
        [*python_command("puzzlebench.harness.run.inside.child"), str(write_fd)],
        stdin=control_read, stdout=log, stderr=log, pass_fds=(write_fd,), env=python_env(),
        start_new_session=True,
    )


def fork_here(sealed: RunRequest, setup: RunSetup, write_fd: int, control_read: int, log_fd: int,
              *, close: tuple[int, ...]) -> int:
    """Fork the run from the harness (a session of its own; ``close``: the harness's ends of
    the pipes); returns the child's pid. The child never returns."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            for fd in close:
                os.close(fd)
            os.setsid()
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            child_main(sealed, write_fd, log_fd, control_read, setup)
        finally:
            os._exit(70)
    return pid


def forks_in_server(task: RunRequest) -> bool:
    """Whether the fork server can make this run: its solver is found by reference or by
    registered name (a class that lives only in the harness's memory cannot cross)."""
    return task.factory is None


def project_module(task: RunRequest) -> str | None:
    """The project module that defines the task's solver, for the server to import before
    forking so that runs inherit it: a handwritten or a reference solver's (``execute`` sets
    it by origin, since the references live in their own package), never a plugin's — plugin
    code runs only in its run's process."""
    return task.project_module or None


def prepare_blob(task: RunRequest) -> bytes | None:
    """What the fork server hands a project solver's ``Solver.prepare_runs`` before forking its
    runs: the run's parameters and warm-up instance (never its own instance), pickled; None for
    a plugin's solver, a run that is not warmed, or a warm-up instance of a problem family that
    is not the project's (unpickling it would load a plugin's code in the server)."""
    warm = task.warmup_instance
    if not task.project_module or not task.warmup or warm is None:
        return None
    if not type(warm).__module__.startswith("puzzlebench."):
        return None
    try:
        return pickle.dumps((dict(task.params), warm))
    except Exception:
        return None
