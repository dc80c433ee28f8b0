"""The judge's side of a run: a fresh process per run, watched and killed from outside.

Every run gets a process of its own — forked from the harness (locally) or spawned as
``python -m puzzlebench.harness.child`` (on Dask workers) — in a new session, so the run and
every process it starts form one group that the harness kills at the hard limit. The harness
opens the result pipe and the log file before the solver's code is loaded; the child writes
only framed messages on the pipe (see ``harness.child``). Nothing a run does can reach the
judge's process, the next run, or the command's output:

* the clock is the harness's: the timed phase runs from the child's ``ready`` message to its
  ``done`` message as the harness receives them; CPU time is read from the kernel
  (``/proc`` at ready, ``wait4`` at the end);
* the hard limit counts from ``ready``; warm-up and start-up have their own limit;
* a process that ends without a ``done`` or ``error`` message is a crash with its exit status
  (or signal), whatever the status — the harness's own codes cannot collide with a solver's;
* after every run the whole process group is killed, so no helper process outlives its run.

A solver can still write to the pipe itself (it shares the process); the most it can do is
propose an answer, which is judged like any other, at a time the harness measures.
"""

from __future__ import annotations

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
from typing import IO, Any

from puzzlebench.harness.child import Task, child_main
from puzzlebench.harness.payload import MAX_FRAME_BYTES

#: Seconds a run may spend starting and warming up before its timed phase.
STARTUP_LIMIT = 120.0
#: Bytes of the run's log kept in its record.
LOG_TAIL = 2000
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True, slots=True)
class ChildReport:
    """What the harness saw of one run's process.

    ``status``: ``done`` (a proposal arrived: ``data``/``raw``), ``error`` (the child reported
    ``error_kind``: crash or memout), ``timeout`` (killed at the hard limit), ``died`` (ended
    without a report), ``startup`` (killed before its timed phase began).
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


class _Run:
    """One child process and what has arrived from it so far."""

    def __init__(self, task: Task, spawn: bool) -> None:
        self.task = task
        self.log: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed in finish()
        read_fd, write_fd = os.pipe()
        self.t_start = time.perf_counter()
        self.proc: subprocess.Popen[bytes] | None = None
        if spawn:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "puzzlebench.harness.child", str(write_fd)],
                stdin=subprocess.PIPE, stdout=self.log, stderr=self.log, pass_fds=(write_fd,),
                start_new_session=True,
            )
            self.pid = self.proc.pid
            os.close(write_fd)
            assert self.proc.stdin is not None
            try:
                self.proc.stdin.write(pickle.dumps(task))
                self.proc.stdin.close()
            except OSError:
                pass  # the child died at once; its exit status tells why
        else:
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:  # the child: never returns
                try:
                    os.close(read_fd)
                    os.setsid()
                    signal.signal(signal.SIGINT, signal.SIG_DFL)
                    signal.signal(signal.SIGTERM, signal.SIG_DFL)
                    child_main(task, write_fd, self.log.fileno())
                finally:
                    os._exit(70)
            self.pid = pid
            os.close(write_fd)
        self.fd = read_fd
        os.set_blocking(read_fd, False)
        self.buffer = bytearray()
        self.messages: list[tuple[dict[str, Any], bytes | None]] = []
        self.t_ready: float | None = None
        self.t_done: float | None = None
        self.cpu_ready = 0.0
        self.ready: dict[str, Any] = {}
        self.pending_raw: dict[str, Any] | None = None
        self.eof = False
        self.killed = ""
        self.kill_is_crash = False

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
            except ValueError:
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
        now = time.perf_counter()
        event = message.get("event")
        if event == "ready" and self.t_ready is None:
            self.t_ready = now
            self.cpu_ready = _cpu_of(self.pid)
            self.ready = message
        elif event in ("done", "error") and self.t_done is None:
            self.t_done = now
        else:
            message = {"event": "garbage"}
        self.messages.append((message, raw))

    @property
    def finished(self) -> bool:
        return self.t_done is not None or self.eof

    def deadline(self) -> float:
        if self.t_ready is None:
            return self.t_start + STARTUP_LIMIT
        if self.task.hard_limit is None:
            return float("inf")
        return self.t_ready + self.task.hard_limit

    # -- ending --------------------------------------------------------------------------
    def kill(self, why: str, *, crash: bool = False) -> None:
        """Kill the run's group: at a limit (a timeout), or for breaking the protocol (crash)."""
        self.killed, self.kill_is_crash = why, crash
        _kill_group(self.pid)

    def finish(self) -> ChildReport:
        """Reap the child, kill what is left of its group, and say what happened."""
        _kill_group(self.pid)
        status, rusage = _reap(self.pid, self.proc)
        os.close(self.fd)
        self.log.seek(0, os.SEEK_END)
        size = self.log.tell()
        self.log.seek(max(0, size - LOG_TAIL))
        log = self.log.read().decode("utf-8", "replace")
        self.log.close()
        cpu_end = rusage.ru_utime + rusage.ru_stime if rusage is not None else 0.0
        t_ready = self.t_ready if self.t_ready is not None else time.perf_counter()
        end = self.t_done if self.t_done is not None else time.perf_counter()
        common: dict[str, Any] = {
            "wall_s": max(0.0, end - t_ready) if self.t_ready is not None else 0.0,
            "cpu_s": max(0.0, cpu_end - self.cpu_ready) if self.t_ready is not None else 0.0,
            "warmup_s": float(self.ready.get("warmup_s", 0.0) or 0.0),
            "startup_s": t_ready - self.t_start,
            "rss_base_mb": float(self.ready.get("rss_base_mb", 0.0) or 0.0),
            "peak_rss_mb": rusage.ru_maxrss / 1024 if rusage is not None else 0.0,
            "log": log,
        }
        if self.killed and self.kill_is_crash:
            return ChildReport("error", error=self.killed, error_kind="crash", **common)
        if self.killed:
            kind = "startup" if self.t_ready is None else "timeout"
            return ChildReport(kind, error=self.killed, **common)
        final = [m for m in self.messages if m[0].get("event") in ("done", "error", "garbage")]
        if final and final[0][0].get("event") == "done":
            message, raw = final[0]
            meta = message.get("meta") if isinstance(message.get("meta"), dict) else {}
            assert isinstance(meta, dict)
            peak = meta.get("peak_rss_mb")
            if isinstance(peak, int | float) and 0 < peak <= common["peak_rss_mb"] + 1:
                common["peak_rss_mb"] = float(peak)
            payload = message.get("payload")
            return ChildReport("done", data=payload if isinstance(payload, dict) else None,
                               raw=raw, mutated=bool(meta.get("mutated")), **common)
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


def _cpu_of(pid: int) -> float:
    """CPU seconds (user + system) the process has used so far, from /proc."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS
    except (OSError, IndexError, ValueError):
        return 0.0


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _reap(pid: int, proc: subprocess.Popen[bytes] | None) -> tuple[int | None, Any]:
    try:
        _, status, rusage = os.wait4(pid, 0)
    except ChildProcessError:
        return (proc.returncode if proc is not None else None), None
    if proc is not None:
        proc.returncode = os.waitstatus_to_exitcode(status)
    return os.waitstatus_to_exitcode(status), rusage


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


_jit_ready = False


def prepare_jit() -> None:
    """Start numba's compiler in this process once, by calling the harness's own compiled
    clock (no solver code), so that every forked run inherits it: a compiled solver's warm-up
    then only loads its cached kernels (~0.03 s) instead of starting the compiler (~0.35 s)."""
    global _jit_ready
    if not _jit_ready:
        from puzzlebench.compiled_clock import now

        now()
        _jit_ready = True


def _drain(selector: selectors.BaseSelector, running: dict[int, _Run], timeout: float) -> None:
    """Read every pipe that has data (waiting up to ``timeout``): messages are time-stamped
    when read, so the harness reads as often as it can between its other work."""
    for key, _ in selector.select(timeout=timeout):
        running[int(key.fd)].read()


def run_task(task: Task, *, spawn: bool = False) -> ChildReport:
    """Run one task in a fresh process and wait for it."""
    out: list[ChildReport] = []
    run_tasks([task], workers=1, on_report=lambda _t, r: out.append(r), spawn=spawn)
    return out[0]


def run_tasks(tasks: Iterable[Task], *, workers: int,
              on_report: Callable[[Task, ChildReport], None], spawn: bool = False) -> None:
    """Run tasks in fresh processes, at most ``workers`` at once, reporting each as it ends.

    Single-threaded: one selector over the result pipes, deadlines checked between events.
    Ctrl-C (or any error) kills every running process group before it propagates.
    """
    queue = list(tasks)
    queue.reverse()
    if not spawn and any(t.compiled for t in queue):
        prepare_jit()
    running: dict[int, _Run] = {}
    selector = selectors.DefaultSelector()
    try:
        while queue or running:
            while queue and len(running) < max(1, workers):
                run = _Run(queue.pop(), spawn)
                running[run.fd] = run
                selector.register(run.fd, selectors.EVENT_READ)
                _drain(selector, running, 0.0)
            now = time.perf_counter()
            timeout = max(0.0, min(r.deadline() for r in running.values()) - now)
            _drain(selector, running, min(timeout, 1.0))
            now = time.perf_counter()
            for fd, run in list(running.items()):
                if not run.finished and now >= run.deadline():
                    if run.t_ready is None:
                        run.kill(f"killed: start-up and warm-up exceeded {STARTUP_LIMIT:.0f} s")
                    else:
                        run.kill(f"killed at the hard limit of {run.task.hard_limit:.3g} s")
                if run.finished or run.killed:
                    selector.unregister(fd)
                    del running[fd]
                    on_report(run.task, run.finish())
                    _drain(selector, running, 0.0)  # stamp what arrived meanwhile
    except BaseException:
        for run in running.values():
            run.kill("interrupted")
            run.finish()
        raise
    finally:
        selector.close()
