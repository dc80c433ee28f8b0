"""The judge's side of a run: a fresh process per run, watched, measured and killed from outside.

Every run gets a process of its own — forked by the fork server (``harness.forkserver``: a
lean process that never saw the harness's memory or another run's instance; forked from the
harness only for a solver class that exists nowhere but in the harness's memory) or spawned as
``python -m puzzlebench.harness.child`` (on Dask workers) — in a new session and, where the
machine allows, a cgroup of its own (``harness.cgroups``), so the run and every process it
starts form one group that the harness measures and kills. The harness opens the result pipe,
the control pipe and the log file before the solver's code is loaded; the child writes only
framed messages on the result pipe (see ``harness.child``). Nothing a run does can reach the
judge's process, the next run, or the command's output:

* the run is told its instance only after it is loaded and warm (``ready`` → ``go``); the
  timed phase starts when the harness sends ``go``. Its time is stamped in the run and checked
  against the harness's own window (``harness.measure``); CPU time and peak memory come from
  the run's cgroup (every process of the run, timed phase only), else from resource usage;
* the hard limit counts from ``go``; warm-up and start-up have their own limit;
* a process that ends without a ``done`` or ``error`` message is a crash with its exit status
  (or signal), whatever the status — the harness's own codes cannot collide with a solver's;
  every field of ``ready`` is type-checked, a malformed frame is a crash of that run only;
* after every run the whole process group and cgroup are killed, so no helper process
  outlives its run.

A solver can still write to the pipe itself (it shares the process); the most it can do is
propose an answer, which is judged like any other, at a time the harness bounds.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import pickle
import selectors
import signal
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import IO, Any

from puzzlebench.harness.cgroups import CgroupError, RunCgroup, detect
from puzzlebench.harness.child import RunSetup, Task, child_main, write_frame
from puzzlebench.harness.forkserver import ForkServer, ForkServerError
from puzzlebench.harness.measure import Measurement, Timing, check_stamps, stamp_ns, usable_cores
from puzzlebench.harness.payload import MAX_FRAME_BYTES

#: Seconds a run may spend starting and warming up before its timed phase.
STARTUP_LIMIT = 120.0
#: Seconds a run may spend comparing its repeats' answers after ``done``.
REPEATS_CHECK_LIMIT = 30.0
#: Bytes of the run's log kept in its record.
LOG_TAIL = 2000


@dataclass(frozen=True, slots=True)
class ChildReport:
    """What the harness saw of one run's process.

    ``status``: ``done`` (a proposal arrived: ``data``/``raw``), ``error`` (the child reported
    ``error_kind``: crash or memout), ``timeout`` (killed at the hard limit), ``died`` (ended
    without a report), ``startup`` (killed before its timed phase began).

    ``wall_s`` is the run's time as accepted (``timed_by``: the run's own stamps, or the
    harness's span), ``span_s`` the harness's own go → done window, ``cpu_s``/``peak_rss_mb``
    come from ``measured_by`` (``cgroup-v1``/``cgroup-v2``, ``rusage``, or ``process`` for
    in-process runs). With repeats, ``wall_s`` is the median repeat and ``cpu_s`` the CPU time
    per repeat.
    """

    status: str
    data: dict[str, Any] | None = None
    raw: bytes | None = None
    error: str = ""
    error_kind: str = ""
    wall_s: float = 0.0
    cpu_s: float = 0.0
    warmup_s: float = 0.0
    startup_s: float = 0.0
    peak_rss_mb: float = 0.0
    rss_base_mb: float = 0.0
    mutated: bool = False
    log: str = ""
    span_s: float = 0.0
    time_min_s: float = 0.0
    repeats: int = 1
    repeats_agree: bool | None = None
    timed_by: str = "harness"
    measured_by: str = "rusage"
    core: int | None = None
    notes: tuple[str, ...] = ()


def _number(value: object) -> float | None:
    """A finite, non-negative number from a frame field, else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if 0 <= value < float("inf") else None


class _Run:
    """One child process and what has arrived from it so far."""

    def __init__(self, task: Task, spawn: bool, measurement: Measurement, core: int | None,
                 server: ForkServer | None = None) -> None:
        self.task = task
        self.server: ForkServer | None = None  # the fork server that forked this run
        self._pid: int | None = None
        self._request = 0
        self.measurement = measurement
        self.core = core
        self.log: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed in finish()
        self.cgroup: RunCgroup | None = None
        self.notes: list[str] = []
        layout, _ = detect() if measurement.cgroups else (None, "")
        if layout is not None:
            try:
                self.cgroup = layout.make(cpus=str(core) if core is not None and layout.pins
                                          else None)
            except CgroupError as exc:
                self.notes.append(f"measured by rusage: {exc}")
        self.measured_by = layout.source if self.cgroup is not None and layout else "rusage"
        setup = RunSetup(tuple(self.cgroup.procs_files) if self.cgroup else (), core)
        sealed = task.sealed()
        read_fd, write_fd = os.pipe()
        control_read, self.control = os.pipe()
        self.t_start = time.monotonic()
        self.proc: subprocess.Popen[bytes] | None = None
        if spawn:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "puzzlebench.harness.child", str(write_fd)],
                stdin=control_read, stdout=self.log, stderr=self.log, pass_fds=(write_fd,),
                start_new_session=True,
            )
            self._pid = self.proc.pid
            os.close(write_fd)
            os.close(control_read)
            with contextlib.suppress(OSError):  # a child that died at once: its status says why
                write_frame(self.control, (sealed, setup))
        elif server is not None and forks_in_server(task):
            self.server = server
            self._request = server.start(pickle.dumps((sealed, setup)),
                                         (write_fd, control_read, self.log.fileno()),
                                         preload=_project_module(task))
            self._pid = None  # known when the server replies (``pid``)
            os.close(write_fd)
            os.close(control_read)
        else:
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:  # the child: never returns
                try:
                    os.close(read_fd)
                    os.close(self.control)
                    os.setsid()
                    signal.signal(signal.SIGINT, signal.SIG_DFL)
                    signal.signal(signal.SIGTERM, signal.SIG_DFL)
                    child_main(sealed, write_fd, self.log.fileno(), control_read, setup)
                finally:
                    os._exit(70)
            self._pid = pid
            os.close(write_fd)
            os.close(control_read)
        self.fd = read_fd
        os.set_blocking(read_fd, False)
        self.buffer = bytearray()
        self.messages: list[tuple[dict[str, Any], bytes | None]] = []
        self.t_ready: float | None = None
        self.t_done: float | None = None
        self.go_ns = 0
        self.stop_ns = 0  # when the run said its solves were over (``stopped``)
        self.done_ns = 0
        self.cpu_go: float | None = None
        self.cpu_stop: float | None = None
        self.cpu_done: float | None = None
        self.peak_mb: float | None = None
        self.ready: dict[str, Any] = {}
        self.pending_raw: dict[str, Any] | None = None
        self.eof = False
        self.killed = ""
        self.kill_is_crash = False
        self.awaits_repeats = False  # the run compares its repeats' answers after done
        self.repeats_agree: bool | None = None

    @property
    def pid(self) -> int:
        """The run's process (its process group has the same id); 0 if it was never made."""
        if self._pid is None:
            assert self.server is not None
            try:
                self._pid = self.server.pid(self._request) or 0
            except ForkServerError:
                self._pid = 0
        return self._pid

    # -- reading -------------------------------------------------------------------------
    def read(self) -> None:
        """Drain what the pipe holds; parse complete frames."""
        while True:
            try:
                chunk = os.read(self.fd, 1 << 20)
            except BlockingIOError:
                break
            except OSError:
                chunk = b""
            if not chunk:
                self.eof = True
                break
            self.buffer += chunk
        self._parse()

    def _parse(self) -> None:
        while len(self.buffer) >= 8:
            (size,) = struct.unpack_from("<Q", self.buffer)
            if size > MAX_FRAME_BYTES:  # a run cannot make the judge hold what it likes
                self.buffer.clear()
                self._take({"event": "garbage"}, None)
                self.kill(f"the run sent a {size:,}-byte frame (at most {MAX_FRAME_BYTES:,})",
                          crash=True)
                return
            if len(self.buffer) < 8 + size:
                return
            body = bytes(self.buffer[8:8 + size])
            del self.buffer[:8 + size]
            if self.pending_raw is not None:
                message, self.pending_raw = self.pending_raw, None
                self._take(message, body)
                continue
            try:
                message = json.loads(body)
            except (ValueError, RecursionError):  # not JSON, or nested past any real proposal
                message = {"event": "garbage"}
            if not isinstance(message, dict):
                message = {"event": "garbage"}
            payload = message.get("payload")
            if message.get("event") == "done" and isinstance(payload, dict) and isinstance(
                    payload.get("answer"), dict) and "int64_bytes" in payload["answer"]:
                self.pending_raw = message  # its raw frame follows
                continue
            self._take(message, None)

    def _take(self, message: dict[str, Any], raw: bytes | None) -> None:
        event = message.get("event")
        if event == "ready" and self.t_ready is None:
            self.t_ready = time.monotonic()
            if _number(message.get("warmup_s")) is None or _number(
                    message.get("rss_base_mb")) is None:
                self.kill("the run sent a malformed ready frame", crash=True)
                return
            self.ready = message
            self._go()
        elif event == "stopped" and self.go_ns and not self.stop_ns and self.t_done is None:
            self.stop_ns = stamp_ns()  # the solves are over: read the counters, then let the
            self._read_counters()  # run turn its result into data, unmeasured
            with contextlib.suppress(OSError):
                os.write(self.control, b"\x01")
            return
        elif (event == "error" or (event == "done" and self.go_ns)) and self.t_done is None:
            self.done_ns = stamp_ns()  # an error may come before ready (a plugin that fails
            self.t_done = time.monotonic()  # to load): it ends the run all the same
            self._read_counters()
            meta = message.get("meta")
            self.awaits_repeats = (event == "done" and isinstance(meta, dict)
                                   and meta.get("repeats_follow") is True)
        elif event == "repeats" and self.awaits_repeats:
            agree = message.get("agree")
            self.repeats_agree = agree if isinstance(agree, bool) else None
            self.awaits_repeats = False
            return
        else:
            message = {"event": "garbage"}
        self.messages.append((message, raw))

    def _go(self) -> None:
        """Send the instance: the timed phase starts now, its CPU and memory counted from here."""
        if self.cgroup is not None:
            try:
                if self.pid not in self.cgroup.pids():
                    raise CgroupError("the run's process is not in its cgroup")
                if self.task.memory_limit_mb is not None:
                    self.cgroup.limit_memory(self.cgroup.memory_bytes()
                                             + self.task.memory_limit_mb * 2**20)
                self.cgroup.reset_peak()
                self.cpu_go = self.cgroup.cpu_ns() / 1e9
            except (OSError, ValueError) as exc:
                self.notes.append(f"measured by rusage: {exc}")
                self.cgroup, self.measured_by, self.cpu_go = None, "rusage", None
        self.go_ns = stamp_ns()
        with contextlib.suppress(OSError):  # the run died meanwhile: its end says why
            write_frame(self.control, self.task.instance)

    def _read_counters(self) -> None:
        """CPU and peak memory at ``stopped`` (the figures recorded) and again at ``done`` (the
        whole window, for checking the run's stamps)."""
        if self.cgroup is None or self.cpu_go is None or self.cpu_done is not None:
            return
        try:
            now = self.cgroup.cpu_ns() / 1e9
            if self.cpu_stop is None:
                self.cpu_stop = now
                self.peak_mb = self.cgroup.peak_bytes() / 2**20
            if self.t_done is not None:
                self.cpu_done = now
        except (OSError, ValueError) as exc:
            self.notes.append(f"measured by rusage: {exc}")
            self.cgroup, self.measured_by, self.cpu_go = None, "rusage", None

    @property
    def finished(self) -> bool:
        return (self.t_done is not None and not self.awaits_repeats) or self.eof

    def deadline(self) -> float:
        if self.t_done is not None:  # done: the comparison of repeats has a limit of its own
            return self.t_done + REPEATS_CHECK_LIMIT
        if self.t_ready is None:
            return self.t_start + STARTUP_LIMIT
        if self.task.hard_limit is None:
            return float("inf")
        return self.t_ready + self.task.hard_limit

    # -- ending --------------------------------------------------------------------------
    def kill(self, why: str, *, crash: bool = False) -> None:
        """Kill the run's group: at a limit (a timeout), or for breaking the protocol (crash)."""
        self.killed, self.kill_is_crash = why, crash
        self._kill_all()

    def _kill_all(self) -> None:
        _kill_group(self.pid)
        if self.cgroup is not None:
            self.cgroup.kill()

    def finish(self) -> ChildReport:
        """Kill what is left of the run, reap it, and say what happened."""
        answered = self.cgroup is not None and self.t_done is not None and not self.killed
        if not answered:
            self._kill_all()
        os.close(self.fd)
        os.close(self.control)  # a run that answered exits when its control pipe closes
        status, rusage, oom = None, None, 0
        if answered:
            # measured and answered: the exit status says nothing more, so the process's
            # teardown is not waited for here; ``reap`` kills what is left of its cgroup
            # and removes it, between later events
            assert self.cgroup is not None
            oom = self.cgroup.oom_kills()
            _ENDED.append((self.pid, self.proc, self.cgroup, self.server))
        else:
            status, rusage = _reap(self.pid, self.proc, self.server)
            if self.cgroup is not None:
                oom = self.cgroup.oom_kills()
                self.cgroup.kill()
                if not self.cgroup.remove(wait_s=1.0):
                    self.notes.append("the run's cgroup could not be removed")
        self.log.seek(0, os.SEEK_END)
        size = self.log.tell()
        self.log.seek(max(0, size - LOG_TAIL))
        log = self.log.read().decode("utf-8", "replace")
        self.log.close()
        common = self._measures(rusage, log)
        if oom:
            return ChildReport("error", error=f"the run's process tree exceeded its memory limit "
                               f"of {self.task.memory_limit_mb} MB (the kernel killed {oom} "
                               f"process{'es' if oom > 1 else ''})", error_kind="memout", **common)
        final = [m for m in self.messages if m[0].get("event") in ("done", "error", "garbage")]
        done_first = bool(final) and final[0][0].get("event") == "done"
        if self.killed and self.kill_is_crash and not done_first:
            return ChildReport("error", error=self.killed, error_kind="crash", **common)
        if self.killed and not done_first:
            kind = "startup" if self.t_ready is None else "timeout"
            return ChildReport(kind, error=self.killed, **common)
        if final and final[0][0].get("event") == "done":
            message, raw = final[0]
            meta = message.get("meta") if isinstance(message.get("meta"), dict) else {}
            assert isinstance(meta, dict)
            payload = message.get("payload")
            if self.awaits_repeats:
                common["notes"] = (*common["notes"], "the run's repeats were not compared "
                                   f"within {REPEATS_CHECK_LIMIT:.0f} s")
            return ChildReport("done", data=payload if isinstance(payload, dict) else None,
                               raw=raw, mutated=meta.get("mutated") is True,
                               repeats_agree=self.repeats_agree, **common)
        if final and final[0][0].get("event") == "error":
            message = final[0][0]
            kind = "memout" if message.get("kind") == "memout" else "crash"
            return ChildReport("error", error=str(message.get("error", ""))[:2000],
                               error_kind=kind, **common)
        if final:  # something on the channel that is not a message
            return ChildReport("error", error="the run wrote garbage on the harness's channel",
                               error_kind="crash", **common)
        tail = " | ".join(log.strip().splitlines()[-3:])[-600:]
        return ChildReport("died", error=describe_status(status) + (f": {tail}" if tail else ""),
                           **common)

    def _measures(self, rusage: Any, log: str) -> dict[str, Any]:
        """The run's time, CPU and memory as the harness accepts them."""
        notes = list(self.notes)
        started = self.go_ns > 0
        end_ns = self.done_ns if self.done_ns else stamp_ns()
        span = max(0.0, (end_ns - self.go_ns) / 1e9) if started else 0.0
        meta: dict[str, Any] = {}
        done = [m for m, _ in self.messages if m.get("event") == "done"]
        if done and isinstance(done[0].get("meta"), dict):
            meta = done[0]["meta"]
        cpu: float | None = None  # the solves' CPU time (go → stopped)
        window_cpu: float | None = None  # all of go → done, for the check
        if self.cpu_go is not None and self.cpu_stop is not None:
            cpu = max(0.0, self.cpu_stop - self.cpu_go)
            window_cpu = max(cpu, (self.cpu_done or self.cpu_stop) - self.cpu_go)
        if done and started:
            handover = (self.done_ns - self.stop_ns) / 1e9 if self.stop_ns else 0.0
            timing = check_stamps(meta.get("stamps"), (self.go_ns, self.stop_ns or self.done_ns),
                                  cpu_s=window_cpu, handover_s=handover, span_s=span,
                                  cores=usable_cores() if self.core is None else 1)
            if timing.note:
                notes.append(timing.note)
        else:
            timing = Timing(span, span, 1, "harness")
        if cpu is None:  # the fallback: the run's own rusage delta, bounded by its whole life
            own = _number(meta.get("cpu_s"))
            life = rusage.ru_utime + rusage.ru_stime if rusage is not None else None
            cpu = min(own, life) if own is not None and life is not None else (
                own if own is not None else 0.0)
        peak = self.peak_mb
        if peak is None:
            life_peak = rusage.ru_maxrss / 1024 if rusage is not None else 0.0
            own_peak = _number(meta.get("peak_rss_mb"))
            peak = own_peak if own_peak is not None and 0 < own_peak <= life_peak + 1 else life_peak
        return {
            "wall_s": timing.time_s if started else 0.0,
            "time_min_s": timing.time_min_s if started else 0.0,
            "repeats": timing.repeats,
            "timed_by": timing.timed_by,
            "span_s": span,
            "cpu_s": cpu / max(1, timing.repeats) if started else 0.0,
            "warmup_s": float(self.ready.get("warmup_s", 0.0) or 0.0),
            "startup_s": (self.t_ready if self.t_ready is not None else time.monotonic())
            - self.t_start,
            "rss_base_mb": float(self.ready.get("rss_base_mb", 0.0) or 0.0),
            "peak_rss_mb": peak,
            "measured_by": self.measured_by,
            "core": self.core,
            "notes": tuple(notes),
            "log": log,
        }


def _kill_group(pid: int) -> None:
    if pid <= 0:  # never made: nothing to kill (and killpg(0) would be the harness's group)
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


#: Runs killed after they answered, not yet reaped: (pid, Popen, cgroup, fork server).
_ENDED: list[tuple[int, subprocess.Popen[bytes] | None, RunCgroup, ForkServer | None]] = []


def reap(*, block: bool = False) -> None:
    """Reap the ended runs whose processes are gone and remove their cgroups (with
    ``block``, wait for all of them)."""
    for item in list(_ENDED):
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
            _ENDED.remove(item)


def _reap(pid: int, proc: subprocess.Popen[bytes] | None, server: ForkServer | None = None
          ) -> tuple[int | None, Any]:
    if pid <= 0:
        return None, None
    if server is not None:
        ended = server.wait_exit(pid)
        if ended is None:
            return None, None
        return ended.status, SimpleNamespace(ru_utime=ended.cpu_s, ru_stime=0.0,
                                             ru_maxrss=ended.maxrss_kb)
    try:
        _, status, rusage = os.wait4(pid, 0)
    except ChildProcessError:
        return (proc.returncode if proc is not None else None), None
    if proc is not None:
        proc.returncode = os.waitstatus_to_exitcode(status)
    return os.waitstatus_to_exitcode(status), rusage


def forks_in_server(task: Task) -> bool:
    """Whether the fork server can make this run: its solver is found by reference or by
    registered name (a class that lives only in the harness's memory cannot cross)."""
    return task.factory is None


def _project_module(task: Task) -> str | None:
    """The project module that defines the task's solver, for the server to import before
    forking so that runs inherit it (never a plugin's module: plugin code runs only in its
    run's process)."""
    module = task.project_module
    return module if module.startswith("puzzlebench.") else None


_SERVER: list[ForkServer] = []


def fork_server() -> ForkServer | None:
    """This process's fork server, started on first use (None where it cannot start)."""
    if _SERVER and _SERVER[0].proc.poll() is None:
        return _SERVER[0]
    _SERVER.clear()
    try:
        server = ForkServer()
    except OSError:
        return None
    _SERVER.append(server)
    atexit.register(server.close)
    return server


def describe_status(code: int | None) -> str:
    """'the run's process exited with status 3 without a result' or '... killed by SIGSEGV'."""
    if code is None:
        return "the run's process was lost"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"the run's process was killed by {name}"
    return f"the run's process exited with status {code} without a result"


def _drain(selector: selectors.BaseSelector, running: dict[int, tuple[_Run, int]],
           timeout: float) -> None:
    """Read every pipe that has data (waiting up to ``timeout``); a ``ready`` is answered with
    ``go`` at once, so a run waits for its instance no longer than the loop takes to turn."""
    for key, _ in selector.select(timeout=timeout):
        running[int(key.fd)][0].read()


def _start(task: Task, spawn: bool, measurement: Measurement, core: int | None,
           server: ForkServer | None) -> _Run:
    """A run forked by the fork server (forked from here if the server is gone)."""
    try:
        return _Run(task, spawn, measurement, core, server)
    except ForkServerError:
        _SERVER.clear()
        return _Run(task, spawn, measurement, core, None)


def run_task(task: Task, *, spawn: bool = False, measurement: Measurement | None = None
             ) -> ChildReport:
    """Run one task in a fresh process and wait for it."""
    out: list[ChildReport] = []
    run_tasks([task], workers=1, on_report=lambda _t, r: out.append(r), spawn=spawn,
              measurement=measurement)
    return out[0]


def pinned_cores(workers: int) -> list[int]:
    """The core each worker slot keeps to when runs are pinned: the cores this process may
    use, one per slot (slots beyond the cores share them round-robin)."""
    try:
        cores = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = list(range(os.cpu_count() or 1))
    return [cores[i % len(cores)] for i in range(max(1, workers))]


def run_tasks(tasks: Iterable[Task], *, workers: int,
              on_report: Callable[[Task, ChildReport], None], spawn: bool = False,
              measurement: Measurement | None = None) -> None:
    """Run tasks in fresh processes, at most ``workers`` at once, reporting each as it ends.

    Single-threaded: one selector over the result pipes, deadlines checked between events.
    Nothing the loop does between reading two messages can change a run's time: the run
    stamps its own, and CPU time does not accrue while a run waits. With
    ``measurement.pin`` each worker slot keeps to its own core. Ctrl-C (or any error) kills
    every running process group before it propagates.
    """
    measurement = measurement or Measurement()
    queue = list(tasks)
    queue.reverse()
    if not spawn and any(t.compiled for t in queue):
        # imported here: numba loads only when a compiled solver runs (start-up time)
        from puzzlebench.compiled_clock import prepare_jit

        prepare_jit()
    server = None if spawn else fork_server()
    slots = pinned_cores(workers) if measurement.pin else [None] * max(1, workers)
    free = list(range(len(slots)))
    running: dict[int, tuple[_Run, int]] = {}
    selector = selectors.DefaultSelector()
    try:
        while queue or running:
            while queue and free:
                slot = free.pop(0)
                run = _start(queue.pop(), spawn, measurement, slots[slot], server)
                running[run.fd] = (run, slot)
                selector.register(run.fd, selectors.EVENT_READ)
                _drain(selector, running, 0.0)
            now = time.monotonic()
            timeout = max(0.0, min(r.deadline() for r, _ in running.values()) - now)
            _drain(selector, running, min(timeout, 1.0))
            now = time.monotonic()
            reap()
            for fd, (run, slot) in list(running.items()):
                if not run.finished and now >= run.deadline():
                    if run.t_done is not None:
                        run.kill("killed while comparing its repeats")
                    elif run.t_ready is None:
                        run.kill(f"killed: start-up and warm-up exceeded {STARTUP_LIMIT:.0f} s")
                    else:
                        run.kill(f"killed at the hard limit of {run.task.hard_limit:.3g} s")
                if run.finished or run.killed:
                    selector.unregister(fd)
                    del running[fd]
                    free.append(slot)
                    free.sort()
                    on_report(run.task, run.finish())
                    _drain(selector, running, 0.0)  # answer what arrived meanwhile
    except BaseException:
        for run, _ in running.values():
            run.kill("interrupted")
            run.finish()
        raise
    finally:
        selector.close()
        reap(block=True)
