"""A run's PID namespace: its init (PID 1, whose death ends every process the run made), the
keeper that waits outside it for the run and ends as the run ended, and — for the fork server,
as root — a namespace entered before the fork, so the run needs no keeper of its own.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import signal
from functools import lru_cache
from typing import NoReturn

from puzzlebench.harness.run.sealed.linux_calls import (
    CLONE_NEWPID,
    SandboxError,
    check,
    die_with_parent,
    libc,
)


def system_program(name: str) -> str | None:
    """``name`` found on the absolute folders of ``PATH`` only: an empty or relative entry
    means the current folder, and a ``setpriv`` planted there would run in the fork server
    (root, the parent of every run)."""
    folders = [p for p in os.environ.get("PATH", os.defpath).split(os.pathsep) if os.path.isabs(p)]
    return shutil.which(name, path=os.pathsep.join(folders))


def start_init() -> int:
    """PID 1 of the new PID namespace: ``sleep infinity``, spawned (no copy of this process's
    memory; a fork where there is no ``sleep``). Its death ends every process of the namespace,
    and it dies with the process that made it (util-linux ``setpriv --pdeathsig``, or
    ``prctl`` in the fork): a fork server or keeper killed outright takes its runs with it
    instead of leaving them to work on, orphaned, until their time limit. Call it from the
    main thread (the death signal follows the thread)."""
    sleep = system_program("sleep")
    if sleep is not None:
        setpriv = system_program("setpriv")
        argv = ([setpriv, "--pdeathsig", "KILL", "--", sleep, "infinity"] if setpriv
                else [sleep, "infinity"])
        null = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
        try:
            return os.posix_spawn(argv[0], argv, {}, file_actions=[
                (os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, null, 1),
                (os.POSIX_SPAWN_DUP2, null, 2)], setsigdef=(signal.SIGINT, signal.SIGTERM))
        except OSError:
            pass
        finally:
            os.close(null)
    init = os.fork()
    if init == 0:
        try:
            die_with_parent()
            os.closerange(0, 65536)
            signal.signal(signal.SIGCHLD, lambda *_: None)  # so that pause() wakes to reap
            while True:  # reap whatever is orphaned to it, until killed
                with contextlib.suppress(ChildProcessError, InterruptedError):
                    os.wait()
                signal.pause()
        finally:
            os._exit(0)
    return init


def keep(run: int, init: int) -> NoReturn:
    """The keeper: wait for the run, end its namespace (init's death kills whatever the run
    left), then end as the run ended — its exit status or its signal — so the harness sees the
    run's own end, and its resource usage covers the run."""
    try:
        os.closerange(0, 65536)
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
            signal.signal(sig, signal.SIG_IGN)
        status = 70 << 8
        while True:
            try:
                _, status = os.waitpid(run, 0)
                break
            except InterruptedError:
                continue
            except ChildProcessError:
                break
        with contextlib.suppress(OSError):
            os.kill(init, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.waitpid(init, 0)
        end_as(status)
    finally:
        os._exit(70)


def end_as(status: int) -> NoReturn:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        with contextlib.suppress(OSError, ValueError):
            signal.signal(sig, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {sig})
            os.kill(os.getpid(), sig)
        os._exit(128 + sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 70)


def enter_pid_namespace() -> int:
    """Make this process's next child PID 2 of a new PID namespace (the fork server, as root,
    before forking a run: the run then needs no keeper and no fork of its own). Returns the
    namespace's init, which the caller kills when the run has ended; :func:`leave_pid_namespace`
    after the fork. Raises SandboxError where it cannot."""
    if os.geteuid() != 0:  # a user namespace would be the server's own, for good
        raise SandboxError(errno.EPERM, "a PID namespace per run needs root in the fork server")
    _own_pid_namespace()
    check(libc().unshare(CLONE_NEWPID), "unshare(CLONE_NEWPID)")
    try:
        return start_init()
    except OSError:
        leave_pid_namespace()
        raise


def leave_pid_namespace() -> None:
    """This process's children are made in its own PID namespace again."""
    check(libc().setns(_own_pid_namespace(), CLONE_NEWPID), "setns(CLONE_NEWPID)")


@lru_cache(maxsize=1)
def _own_pid_namespace() -> int:
    return os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
