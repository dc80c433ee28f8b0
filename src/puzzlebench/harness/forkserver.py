"""A fork server: a lean process, started once per batch of runs, that forks each run's process.

Forking the harness itself costs the harness's loop 3–5 ms per run (its page tables: pandas,
the report code, the store) and hands every run a copy of the harness's memory — including the
instances of runs not yet made. The fork server is spawned fresh (``python -m
puzzlebench.harness.forkserver``), imports only the run side (``harness.child``) and the
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
numba (``Task.jit``: compiled ones, and those importing a module that imports it), which starts
numba's compiler at once (its runs inherit it: 160 MB), and a *lean* one for the rest, which
never loads numba (40 MB). Forking a process and tearing it down costs in proportion to the
memory it maps, so a pure-Python run forked from the lean server costs the machine less: a
quarter less per sealed run in all (``benchmarks/harness_overhead.py``).
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import pickle
import select
import signal
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass, replace
from typing import Any, NoReturn

#: Largest request or reply on the server's socket.
MAX_MESSAGE = 1 << 20
#: Longest a project solver's throwaway warm-up may take (``_prime``) before it is killed.
PRIME_LIMIT_S = 120.0
PrimeKey = tuple[str, str, str]  # (solver, warm-up instance, parameters)


def prime_key(task: Any) -> PrimeKey | None:
    """What a primer warms for a run (``_Server._prime``): its solver, warm-up instance and
    parameters; None for a run that is not warmed."""
    if not task.warmup or task.warmup_instance is None:
        return None
    return (task.solver, task.warmup_instance.instance_id, repr(sorted(task.params.items())))


#: Environment variables a run takes from the harness as they are at the run's start.
ENV_PREFIX = "PUZZLEBENCH_"


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
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self.jit = jit  # starts numba's compiler at once (else: once a module loads numba)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "puzzlebench.harness.forkserver", str(child.fileno()),
             "jit" if jit else "lean"],
            pass_fds=(child.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, env=env, start_new_session=True)
        child.close()
        self.sock = parent
        self.exits: dict[int, Exit] = {}
        self.started: dict[int, int | None] = {}  # request → pid (None: the fork failed)
        self._next = 0
        self._lock = threading.Lock()

    def start(self, body: bytes, fds: tuple[int, int, int], preload: str | None,
              sandbox: str | None = None, solver: str | None = None,
              prime: PrimeKey | None = None) -> int:
        """Ask for a run to be forked: ``body`` is the pickled (sealed task, set-up); ``fds``
        its result pipe (write end), control pipe (read end) and log file; ``sandbox`` the
        run's sandbox mode (None: the default), so that the server can make its PID namespace.
        Returns the request's number; ``pid`` gives the run's pid once the server has forked
        it."""
        with self._lock:
            self._next += 1
            number = self._next
            request = pickle.dumps({
                "id": number, "preload": preload, "solver": solver, "body": body,
                "sandbox": sandbox, "prime": prime,
                "path": list(sys.path),
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
        deadline = _now() + timeout
        while True:
            with self._lock:  # short turns, so that a thread waiting for a pid gets its own
                if pid in self.exits:
                    return self.exits.pop(pid)
                if select.select([self.sock], [], [], min(0.01, max(0.0, deadline - _now())))[0]:
                    self._receive(block=False)
                    continue
            if _now() >= deadline:
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
    inherited by every run; ``Task.jit``) or for the rest (lean: a run forked from it maps a
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


def _now() -> float:
    import time  # kept out of the module's imports: the server starts lean

    return time.monotonic()


# -- the server's side -------------------------------------------------------------------------

def serve(sock: socket.socket, *, jit: bool = True) -> NoReturn:
    """Fork runs on request and report their exits, until the harness closes the socket.
    With ``jit``, numba's compiler is started at once; else once a solver's module loads
    numba (``_start_jit``)."""
    # imported here, not at the top: the harness imports this module for the client side
    # only, and the server's side pulls in the run code (start-up time)
    from puzzlebench.references import kinds

    if jit:
        import numba  # noqa: F401 - loaded for _start_jit below

    _start_jit()  # every run inherits a started compiler
    with contextlib.suppress(Exception):  # and the kinds of solver reference, found once
        kinds()
    _Server(sock).loop()


def _start_jit() -> None:
    """Start numba's compiler here once numba is loaded (a compiled solver's run then only
    loads its cached kernels: ~0.03 s instead of ~0.35 s); never load numba for it."""
    if "numba" not in sys.modules:
        return
    # imported here: only a server whose runs use numba starts its compiler
    from puzzlebench.compiled_clock import prepare_jit

    prepare_jit()


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
        self.primers: dict[int, tuple[PrimeKey, float]] = {}  # primer → its key, deadline
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
                _start_jit()
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
        now = _now()
        for pid, (_key, deadline) in list(self.primers.items()):
            if now > deadline:  # warmed too long: killed, and its runs go on without it
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, 0)
                self._primed(pid)

    def _primed(self, pid: int) -> None:
        key, _ = self.primers.pop(pid)
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
        runs outside its run."""
        key = request.get("prime")  # the harness's (``prime_key``): no task read here
        if key is None:
            return None
        if any(k == key for k, _ in self.primers.values()):
            return key
        if key in self.primed:
            return None
        self.primed.add(key)
        if _kernels_on_disk(request["preload"]):  # nothing to write: the run loads them
            return None
        try:
            pid = os.fork()
        except OSError:
            return None
        if pid == 0:  # the throwaway warm-up: never returns
            try:
                self._leave_server()
                _take_context(request["path"], request["env"])
                _warm(pickle.loads(request["body"])[0])
            finally:
                os._exit(0)
        self.primers[pid] = (key, _now() + PRIME_LIMIT_S)
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
        from puzzlebench.harness.child import child_main
        from puzzlebench.harness.sandbox import leave_pid_namespace

        init = _pid_namespace(request.get("sandbox"), request["env"], fds)
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


def _kernels_on_disk(module: str) -> bool:
    """Whether every cached numba kernel of ``module`` and the project modules it imports has
    been compiled into numba's cache for their current source (an index file that numba
    reads as fresh): then a primer
    would only load what each run loads anyway (0.3-0.5 s per solver, measured)."""
    if "numba" not in sys.modules:  # the module and all it imports are loaded: no kernel
        return True
    # imported in the server only (the harness imports this module for the client side)
    from numba.core.registry import CPUDispatcher

    from puzzlebench.code_fingerprint import closure  # server only, as above

    try:
        names = closure(module) | {module}
    except Exception:  # a module it cannot read: prime, as if nothing were cached
        return False
    for name in names:
        for obj in getattr(sys.modules.get(name), "__dict__", {}).values():
            if not isinstance(obj, CPUDispatcher) or obj.targetoptions.get("inline") == "always":
                continue  # inlined helpers are compiled into their callers, never on their own
            cache_file = getattr(getattr(obj, "_cache", None), "_cache_file", None)
            index = getattr(cache_file, "_index_path", None)
            if index is not None and not os.path.exists(index):
                return False
            # an index written for an older source of the module is stale: numba ignores it
            # and every sealed run would compile the kernel again (and, bounded by its share
            # of the time limit, in its timed phase), so it counts as missing
            load = getattr(cache_file, "_load_index", None)
            if index is not None and callable(load):
                try:
                    if not load():
                        return False
                except Exception:
                    return False
    return True


def _warm(task: Any) -> None:
    """The primer's work: the run's own warm-up, in a process that may write numba's cache."""
    # imported in the server only (the harness imports this module for the client side)
    from puzzlebench.harness.child import warm_up
    from puzzlebench.references import load_solver

    warm_up(load_solver(task.solver), task)


def _preload(module: str, solver: str | None) -> None:
    """Load a project solver (handwritten or a reference) here, registered by name, so that
    every run of it inherits its module and its registry entry: a run then finds it without
    reading the entry points or the registry's index (tens of milliseconds per run)."""
    # imported in the server only: the harness imports this module for the client side
    from puzzlebench.registry import REGISTRY

    with contextlib.suppress(Exception):  # a project module; the run reports errors
        if solver and not REGISTRY.known(solver):
            REGISTRY.load(solver)
        elif module not in sys.modules:
            importlib.import_module(module)


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
    from puzzlebench.harness.sandbox import MODE_ENV, enter_pid_namespace

    if (mode or env.get(MODE_ENV) or "auto") == "off":
        return None
    for fd in fds:  # held by the run only: never by its init
        os.set_inheritable(fd, False)
    try:
        return enter_pid_namespace()
    except OSError:
        return None


def main() -> NoReturn:
    """``python -m puzzlebench.harness.forkserver FD [jit|lean]``: serve on the socket at fd
    FD."""
    sock = socket.socket(fileno=int(sys.argv[1]))
    serve(sock, jit=sys.argv[2:3] != ["lean"])


if __name__ == "__main__":
    main()
