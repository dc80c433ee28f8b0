"""The fork server's own process: it forks each run it is asked for, reaps it and reports its
exit, primes project solvers' kernels, and keeps each run in a PID namespace of its own where it
may. ``harness.run.forkserver`` is the harness's side (the client) and says why there is one.

``python -m puzzlebench.harness.run.forking.forkserver_main FD [jit|lean]`` serves on the socket at FD.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import pickle
import select
import signal
import socket
import sys
from dataclasses import replace
from typing import Any, NoReturn

from puzzlebench.harness.run.forking.forkserver import (
    ENV_PREFIX,
    MAX_MESSAGE,
    PREPARE_LIMIT_S,
    PRIME_LIMIT_S,
    PrimeKey,
    monotonic_now,
)
from puzzlebench.harness.run.inside.numba_kernels import (
    kernels_on_disk,
    load_kernels,
    noting_kernels,
    start_compiler,
)


def serve(sock: socket.socket, *, jit: bool = True) -> NoReturn:
    """Fork runs on request and report their exits, until the harness closes the socket.
    With ``jit``, numba's compiler is started at once; else once a solver's module loads
    numba (``numba_kernels.start_compiler``)."""
    # imported here, not at the top: the harness imports this module for the client side
    # only, and the server's side pulls in the run code (start-up time)
    from puzzlebench.solvers.locators import kinds

    if jit:
        import numba  # noqa: F401 - loaded for start_compiler below

    start_compiler()  # every run inherits a started compiler
    with contextlib.suppress(Exception):  # and the kinds of solver reference, found once
        kinds()
    _Server(sock).loop()


class _Server:
    """The server's state: its runs, their namespaces' inits, and its primers (below)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_w, False)
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        self.children: set[int] = set()
        self.inits: dict[int, int] = {}  # run → the init of its PID namespace
        self.primed: set[PrimeKey] = set()
        self.prepared: set[bytes] = set()  # the (parameters, warm-up instance) prepared for
        #: primer → its key, its solver's module, its deadline
        self.primers: dict[int, tuple[PrimeKey, str, float]] = {}
        #: Requests for a solver whose primer is still warming it: forked when it ends.
        self.waiting: dict[PrimeKey, list[tuple[dict[str, Any], list[int]]]] = {}

    def loop(self) -> NoReturn:
        while True:
            timeout = 0.5 if self.primers else None  # a primer past its limit is killed
            ready, _, _ = select.select([self.sock.fileno(), self.wake_r], [], [], timeout)
            if self.wake_r in ready:
                with contextlib.suppress(BlockingIOError, InterruptedError):
                    os.read(self.wake_r, 4096)
            self._reap()
            if self.sock.fileno() not in ready:
                continue
            try:
                data, fds, _, _ = socket.recv_fds(self.sock, MAX_MESSAGE, 3)
            except InterruptedError:
                continue
            if not data:  # the harness is gone: so is the server
                os._exit(0)
            request = pickle.loads(data)  # from the harness only: no run can reach this socket
            if request.get("preload"):
                _preload(request["preload"], request.get("solver"))
                start_compiler()
                key = self._prime(request)
                if key is not None:  # this solver's primer is at work: the run waits for it
                    self.waiting.setdefault(key, []).append((request, list(fds)))
                    continue
            self._fork_run(request, list(fds))

    def _reap(self) -> None:
        """Report the runs that ended; fork the runs that waited for a primer that ended."""
        while self.children or self.primers:
            try:
                pid, status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                self.children.clear()
                break
            if pid == 0:
                break
            if pid in self.primers:
                self._primed(pid)
                continue
            if pid not in self.children:  # the init of a run's namespace, killed below
                continue
            self.children.discard(pid)
            if pid in self.inits:  # the run has ended: so does everything it left behind
                with contextlib.suppress(OSError):
                    os.kill(self.inits.pop(pid), signal.SIGKILL)
            self.sock.send(pickle.dumps(("exited", pid, os.waitstatus_to_exitcode(status),
                                         usage.ru_utime + usage.ru_stime, usage.ru_maxrss)))
        now = monotonic_now()
        for pid, (_key, _module, deadline) in list(self.primers.items()):
            if now > deadline:  # warmed too long: killed, and its runs go on without it
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, 0)
                self._primed(pid)

    def _primed(self, pid: int) -> None:
        key, module, _ = self.primers.pop(pid)
        load_kernels(module, key)  # what it wrote, loaded once for all
        for request, fds in self.waiting.pop(key, []):
            self._fork_run(request, fds)

    def _prime(self, request: dict[str, Any]) -> PrimeKey | None:
        """Warm a project solver once per server in a throwaway process that is not sealed, so
        that what it compiles is written to numba's cache; the key of the primer at work for
        this request's solver (None: none, fork the run now).

        A sealed run cannot write the cache (its file system is read-only): on a fresh
        checkout every sealed run of a numba solver would compile its kernels again in its
        warm-up, seconds each, for ever. Primed, each run loads them from the cache instead.
        Runs of other solvers are forked meanwhile; runs of this one wait for its primer (at
        most ``PRIME_LIMIT_S``; their start-up limit counts the wait, as it would count their
        own compiling). Only project solvers come here (``preload``): a plugin's code never
        runs outside its run. The primer is skipped when the one before it (in this server or
        another) noted cache entries that are all still on disk (``kernels_on_disk``): an index
        file holding only other argument types (an in-process test's) does not count. Either
        way the noted kernels are then loaded here (``load_kernels``), once, and every run
        forked afterwards inherits them instead of loading them from disk itself."""
        key = request.get("prime")  # the harness's (``prime_key``): no task read here
        if key is None:
            return None
        if any(k == key for k, _, _ in self.primers.values()):
            return key
        if key in self.primed:
            return None
        self.primed.add(key)
        if kernels_on_disk(request["preload"], key):  # nothing to write: loaded here, once
            load_kernels(request["preload"], key)
            return None
        try:
            pid = os.fork()
        except OSError:
            return None
        if pid == 0:  # the throwaway warm-up: never returns
            try:
                self._leave_server()
                _take_context(request["path"], request["env"])
                with noting_kernels(request["preload"], key):  # for the next server's check
                    _warm(pickle.loads(request["body"])[0])
            finally:
                os._exit(0)
        self.primers[pid] = (key, request["preload"], monotonic_now() + PRIME_LIMIT_S)
        return key

    def _leave_server(self) -> None:
        """In a process forked from the server: drop the server's socket, pipe and signals."""
        self.sock.close()
        os.close(self.wake_r)
        os.close(self.wake_w)
        signal.set_wakeup_fd(-1)
        os.setsid()
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGCHLD):
            signal.signal(sig, signal.SIG_DFL)

    def _fork_run(self, request: dict[str, Any], fds: list[int]) -> None:
        # imported in the server only (the harness imports this module for the client side)
        from puzzlebench.harness.run.inside.child import child_main
        from puzzlebench.harness.run.sealed.linux_calls import die_with_parent
        from puzzlebench.harness.run.sealed.pid_namespace import leave_pid_namespace

        prepare = request.get("prepare")
        if prepare is not None and prepare not in self.prepared and _own_context(request):
            self.prepared.add(prepare)  # once, before its first run
            _prepare_runs(request.get("solver"), prepare)
        init = _pid_namespace(request.get("sandbox"), request["env"], fds)
        # Every object the server holds goes to the collector's permanent generation before
        # the fork: a run inherits them all (numba's, the tables', a solver's module), and its
        # first full collection would otherwise walk them — 90 ms of a 7-8 run's start-up,
        # whenever the counters it inherited were due (measured: 100-150 ms a run against
        # 15-40 ms frozen). A run's own objects are collected as ever; nothing it computes
        # changes. (Instagram's pre-fork servers do the same, for the same reason.)
        gc.freeze()
        try:
            pid = os.fork()
        except OSError as exc:
            pid = -1
            for fd in fds:
                os.close(fd)
            self.sock.send(pickle.dumps(("failed", request["id"], str(exc))))
        if pid != 0 and init is not None:  # this server's children: in its own namespace again
            leave_pid_namespace()
            if pid < 0:
                os.kill(init, signal.SIGKILL)
        if pid < 0:
            return
        if pid == 0:  # the run: never returns
            try:
                die_with_parent()  # a server killed outright takes its runs along
                self._leave_server()
                _take_context(request["path"], request["env"])
                task, setup = pickle.loads(request["body"])
                child_main(task, fds[0], fds[2], fds[1],
                           replace(setup, pid_namespace=init is not None))
            finally:
                os._exit(70)
        for fd in fds:
            os.close(fd)
        self.children.add(pid)
        if init is not None:
            self.inits[pid] = init
        self.sock.send(pickle.dumps(("started", request["id"], pid)))


def _warm(task: Any) -> None:
    """The primer's work: the run's own warm-up, in a process that may write numba's cache."""
    # imported in the server only (the harness imports this module for the client side)
    from puzzlebench.harness.run.inside.warmup import warm_up
    from puzzlebench.solvers.locators import load_solver

    warm_up(load_solver(task.solver), task)


def _preload(module: str, solver: str | None) -> None:
    """Load a project solver (handwritten or a reference) here, registered by name, so that
    every run of it inherits its module and its registry entry: a run then finds it without
    reading the entry points or the registry's index (tens of milliseconds per run)."""
    # imported in the server only: the harness imports this module for the client side
    from puzzlebench.solvers.registry import REGISTRY

    with contextlib.suppress(Exception):  # a project module; the run reports errors
        if solver and not REGISTRY.known(solver):
            REGISTRY.load(solver)
        elif module not in sys.modules:
            importlib.import_module(module)


def _prepare_runs(solver: str | None, blob: bytes) -> None:
    """Let a project solver load here what its runs read before their search
    (``Solver.prepare_runs``: the pattern databases' tables and kernels), so that every run
    forked after it inherits them: loaded once per server, not once per run. ``blob`` is the
    harness's (``starting.prepare_blob``): the runs' parameters and warm-up instance, never a
    run's own instance. Bounded like a warm-up (``PREPARE_LIMIT_S``); whatever fails here, the
    runs load it themselves."""
    # imported in the server only: the harness imports this module for the client side
    from puzzlebench.harness.run.inside.warmup import WarmupCut, cut_at
    from puzzlebench.solvers.registry import REGISTRY

    spec = REGISTRY.find(solver) if solver and REGISTRY.known(solver) else None
    hook = getattr(spec.factory, "prepare_runs", None) if spec is not None else None
    if hook is None:
        return
    with contextlib.suppress(Exception, WarmupCut):
        params, instance = pickle.loads(blob)  # from the harness only
        with cut_at(monotonic_now() + PREPARE_LIMIT_S):
            hook(params, instance)


def _own_context(request: dict[str, Any]) -> bool:
    """Whether the request's puzzlebench settings are the server's own: only then does the server
    load what its runs read (``_prepare_runs``). Under other settings (another
    ``PUZZLEBENCH_CACHE``) it would load what those runs never use: they read their own cache,
    since what a process loaded is kept per cache directory (``pdb_lookup._LOADED``)."""
    own = {k: v for k, v in os.environ.items() if k.startswith(ENV_PREFIX)}
    return request.get("env") == own


def _take_context(path: list[str], env: dict[str, str]) -> None:
    """The harness's module path and puzzlebench settings as they are now (problem families
    loaded by reference among them), before the task is read."""
    # imported in the server only: the harness imports this module for the client side
    from puzzlebench.problems.catalogue import load_from_environment

    sys.path[:] = path
    for key in [k for k in os.environ if k.startswith(ENV_PREFIX)]:
        del os.environ[key]
    os.environ.update(env)
    load_from_environment()


def _pid_namespace(mode: str | None, env: dict[str, str], fds: list[int]) -> int | None:
    """Make the next child PID 2 of a PID namespace of its own, when the run is to be sealed
    and this server may (root): the run then seals itself without a keeper or a fork. Returns
    the namespace's init, or None (the run makes its namespace itself, or is not sealed)."""
    # imported in the server only: the harness imports this module for the client side
    from puzzlebench.harness.run.sealed.pid_namespace import enter_pid_namespace
    from puzzlebench.harness.run.sealed.sandbox import MODE_ENV

    if (mode or env.get(MODE_ENV) or "auto") == "off":
        return None
    for fd in fds:  # held by the run only: never by its init
        os.set_inheritable(fd, False)
    try:
        return enter_pid_namespace()
    except OSError:
        return None


def main() -> NoReturn:
    """``python -m puzzlebench.harness.run.forking.forkserver FD [jit|lean]``: serve on the socket at fd
    FD."""
    sock = socket.socket(fileno=int(sys.argv[1]))
    serve(sock, jit=sys.argv[2:3] != ["lean"])


if __name__ == "__main__":
    main()
