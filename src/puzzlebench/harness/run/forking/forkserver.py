"""A fork server: a lean process, started once per batch of runs, that forks each run's process.

Forking the harness itself costs the harness's loop 3–5 ms per run (its page tables: pandas,
the report code, the store) and hands every run a copy of the harness's memory — including the
instances of runs not yet made. The fork server is spawned fresh (``python -m
puzzlebench.harness.run.forking.forkserver_main``), imports only the run side (``harness.run.child``) and the
project's own solver modules as they are asked for (never a plugin's: a plugin's code runs only
in its run's process, after the fork), and starts numba's compiler once where its runs use it.
The harness sends it one request per run — the sealed task (no instance) and the run's set-up,
with the result pipe, the control pipe and the log file as file descriptors — and it forks the
run, reaps it, and reports the run's exit status and resource usage back. So a run's process
holds nothing of the harness's and nothing of any other run, and the fork costs the harness's
loop nothing.

Tasks whose solver class exists only in the harness's memory (a class an API user or a test
made at run time, not importable by name) are forked from the harness as before.

A harness keeps two servers (``fork_server`` below): one for solvers whose code uses
numba (``RunRequest.jit``: compiled ones, and those importing a module that imports it), which starts
numba's compiler at once (its runs inherit it: 160 MB), and a *lean* one for the rest, which
never loads numba (40 MB). Forking a process and tearing it down costs in proportion to the
memory it maps, so a pure-Python run forked from the lean server costs the machine less: a
quarter less per sealed run in all (``benchmarks/harness_overhead.py``).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pickle
import select
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass
from typing import Any

#: Largest request or reply on the server's socket.
MAX_MESSAGE = 1 << 20
#: Longest a project solver's throwaway warm-up may take (``_prime``) before it is killed.
PRIME_LIMIT_S = 120.0
#: Longest a project solver's ``prepare_runs`` may take in the server (cut like a warm-up).
PREPARE_LIMIT_S = 10.0
PrimeKey = tuple[str, str, str, str]  # (solver, warm-up instance, parameters, method)


def prime_key(task: Any) -> PrimeKey | None:
    """What a primer warms for a run (``_Server._prime``): its solver, warm-up instance,
    parameters and the method the warm-up calls (``solve``, ``count``, ``count unique``,
    ``enumerate``); None for a run that is not warmed.

    The method is part of the key because each reaches kernels of its own: a note left by a
    ``solve`` primer of the bitboard solver (a pure-Python first solution) names none of its
    counting kernels, so with the method left out every sealed ``count`` skipped its primer and
    compiled its counting kernel in memory, in its warm-up, on every run (0.9 s of a 1.8 s
    ``count nqueens 4``)."""
    if not task.warmup or task.warmup_instance is None:
        return None
    method = f"{task.kind} unique" if task.kind == "count" and task.unique else task.kind
    return (task.solver, task.warmup_instance.instance_id, repr(sorted(task.params.items())),
            method)


#: Environment variables a run takes from the harness as they are at the run's start.
ENV_PREFIX = "PUZZLEBENCH_"


def module_path() -> list[str]:
    """The harness's module path as the processes it starts get it: without ``""`` (whatever
    folder is current), so that none of them imports a module from the user's current folder
    (a ``select.py`` there would run in the fork server, the parent of every run)."""
    return [p for p in sys.path if p]


def python_command(module: str) -> list[str]:
    """The command that runs ``module`` in a fresh interpreter of the harness's. ``-P`` (safe
    path): Python puts neither the current folder (``-m``) nor a script's folder first on the
    new process's path; it finds its modules on ``python_env``'s ``PYTHONPATH`` only."""
    return [sys.executable, "-P", "-m", module]


def python_env() -> dict[str, str]:
    """The environment a ``python_command`` process runs in: the harness's, with the harness's
    module path (``module_path``) as ``PYTHONPATH``, so it finds what the harness finds."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(module_path())}


@dataclass(frozen=True, slots=True)
class Exit:
    """How a run's process ended, as the server's ``wait4`` saw it."""

    status: int
    cpu_s: float
    maxrss_kb: int


class ForkServerError(RuntimeError):
    """The fork server is gone or broke its protocol (the harness falls back to forking)."""


class ForkServer:
    """The harness's handle on one fork server process.

    Thread-safe: a Dask worker runs several tasks at once in one process, and they share its
    fork server. One lock covers the socket and the replies read from it, so a thread never
    reads (and files away) a reply while another waits on the socket for it."""

    def __init__(self, *, jit: bool = True) -> None:
        parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.jit = jit  # starts numba's compiler at once (else: once a module loads numba)
        self.proc = subprocess.Popen(
            [*python_command("puzzlebench.harness.run.forking.forkserver_main"), str(child.fileno()),
             "jit" if jit else "lean"],
            pass_fds=(child.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, env=python_env(), start_new_session=True)
        child.close()
        self.sock = parent
        self.exits: dict[int, Exit] = {}
        self.started: dict[int, int | None] = {}  # request → pid (None: the fork failed)
        self._next = 0
        self._lock = threading.Lock()

    def start(self, body: bytes, fds: tuple[int, int, int], preload: str | None,
              sandbox: str | None = None, solver: str | None = None,
              prime: PrimeKey | None = None, prepare: bytes | None = None) -> int:
        """Ask for a run to be forked: ``body`` is the pickled (sealed task, set-up); ``fds``
        its result pipe (write end), control pipe (read end) and log file; ``sandbox`` the
        run's sandbox mode (None: the default), so that the server can make its PID namespace.
        ``prepare``: what the server hands a project solver's ``prepare_runs`` before forking
        the run (``starting.prepare_blob``). Returns the request's number; ``pid`` gives the
        run's pid once the server has forked it."""
        with self._lock:
            self._next += 1
            number = self._next
            request = pickle.dumps({
                "id": number, "preload": preload, "solver": solver, "body": body,
                "sandbox": sandbox, "prime": prime, "prepare": prepare,
                "path": module_path(),
                "env": {k: v for k, v in os.environ.items() if k.startswith(ENV_PREFIX)}})
            try:
                socket.send_fds(self.sock, [request], list(fds))
            except OSError as exc:
                raise ForkServerError(f"the fork server is gone: {exc}") from None
        return number

    def pid(self, request: int) -> int | None:
        """The pid of the run forked for ``request`` (waiting for the server's reply; None if
        it could not fork)."""
        with self._lock:  # the server answers every request promptly, in order
            while request not in self.started:
                self._receive(block=True)
            return self.started.pop(request)

    def poll(self) -> None:
        """Take the exit reports that have arrived (another thread reading takes them)."""
        if not self._lock.acquire(blocking=False):
            return
        try:
            while self._receive(block=False) is not None:
                pass
        finally:
            self._lock.release()

    def wait_exit(self, pid: int, timeout: float = 10.0) -> Exit | None:
        """The run's exit, waiting up to ``timeout`` seconds for the server to report it."""
        deadline = monotonic_now() + timeout
        while True:
            with self._lock:  # short turns, so that a thread waiting for a pid gets its own
                if pid in self.exits:
                    return self.exits.pop(pid)
                if select.select([self.sock], [], [], min(0.01, max(0.0, deadline - monotonic_now())))[0]:
                    self._receive(block=False)
                    continue
            if monotonic_now() >= deadline:
                return None

    def _receive(self, *, block: bool) -> tuple[Any, ...] | None:
        if not block and not select.select([self.sock], [], [], 0)[0]:
            return None
        try:
            data = self.sock.recv(MAX_MESSAGE)
        except OSError as exc:
            raise ForkServerError(f"the fork server is gone: {exc}") from None
        if not data:
            raise ForkServerError("the fork server is gone")
        reply = pickle.loads(data)  # written by the server, which runs no solver code
        if reply[0] == "exited":
            self.exits[int(reply[1])] = Exit(int(reply[2]), float(reply[3]), int(reply[4]))
        elif reply[0] == "started":
            self.started[int(reply[1])] = int(reply[2])
        elif reply[0] == "failed":
            self.started[int(reply[1])] = None
        return tuple(reply)

    def close(self) -> None:
        """End the server (its runs are the harness's to kill; it has none left by now)."""
        with contextlib.suppress(OSError):
            self.sock.close()
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        self.proc.wait()


#: This process's fork servers: numba's compiler started (True) or lean (False).
SERVERS: dict[bool, ForkServer] = {}


def fork_server(jit: bool = False) -> ForkServer | None:
    """This process's fork server for solvers that use numba (``jit``: its compiler started,
    inherited by every run; ``RunRequest.jit``) or for the rest (lean: a run forked from it maps a
    quarter of the memory, and its fork and teardown cost the machine half as much); started
    on first use (None where it cannot start)."""
    server = SERVERS.get(jit)
    if server is not None and server.proc.poll() is None:
        return server
    SERVERS.pop(jit, None)
    try:
        server = ForkServer(jit=jit)
    except OSError:
        return None
    SERVERS[jit] = server
    atexit.register(server.close)
    return server


def forget(server: ForkServer) -> None:
    """Stop handing out a server that broke (the next ``fork_server`` starts a new one)."""
    if SERVERS.get(server.jit) is server:
        del SERVERS[server.jit]


def monotonic_now() -> float:
    import time  # kept out of the module's imports: the server starts lean

    return time.monotonic()
