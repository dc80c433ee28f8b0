"""One run's process as the harness sees it: made, fed its instance, read, measured, killed.

A ``RunProcess`` is forked by the fork server (``harness.run.forkserver``), forked from the harness
(a solver class that lives only in the harness's memory) or spawned as ``python -m
puzzlebench.harness.run.inside.child`` (Dask workers), in a new session and, where the machine allows, a
cgroup of its own. It reads the run's framed messages (``ready`` → the harness sends ``go``
with the instance; ``stopped``; ``done``/``error``; ``repeats``), records the harness's own
window around them (``harness.run.run_figures.RunWindow``), and on ``finish`` kills what is left
and turns everything into a ``ChildReport``. The loop that drives many of them is
``harness.run.isolation``.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pickle
import subprocess
import tempfile
import time
from dataclasses import replace
from typing import IO, Any

from puzzlebench.harness.run.child_report import ChildReport, describe_status
from puzzlebench.harness.run.forking.forkserver import ForkServer, ForkServerError, prime_key
from puzzlebench.harness.run.inside.child import RunSetup
from puzzlebench.harness.run.measure import Measurement, pre_go_charge, stamp_ns
from puzzlebench.harness.run.protocol.messages import MessageReader, ProtocolError, write_message
from puzzlebench.harness.run.reaping import ENDED, kill_group, wait_for
from puzzlebench.harness.run.run_figures import RunWindow, accepted_figures
from puzzlebench.harness.run.sealed.cgroups import CgroupError, RunCgroup, detect
from puzzlebench.harness.run.sealed.sandbox import SEALED, verify
from puzzlebench.harness.run.starting import (
    fork_here,
    forks_in_server,
    prepare_blob,
    project_module,
    spawn_run,
)
from puzzlebench.harness.run_request import RunRequest

#: Seconds a run may spend comparing its repeats' answers after ``done``.
REPEATS_CHECK_LIMIT = 30.0
#: This machine's memory in MiB: no run's figure can exceed it.
PHYSICAL_MB = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20
#: Bytes of the run's log kept in its record.
LOG_TAIL = 2000
#: The result pipe's buffer (the kernel's default is 64 KiB; 1 MiB is what it allows any user):
#: the 8 MB answer of 10^6 queens then crosses in 8 reads of the harness's loop, not 128.
RESULT_PIPE_BYTES = 1 << 20


class RunProcess:
    """One child process and what has arrived from it so far."""

    def __init__(self, task: RunRequest, spawn: bool, measurement: Measurement, core: int | None,
                 server: ForkServer | None = None) -> None:
        self.task = task
        self.server: ForkServer | None = None  # the fork server that forked this run
        self._pid: int | None = None
        self._request = 0
        self.measurement = measurement
        self.w = RunWindow(t_start=time.monotonic(), core=core)
        self.log: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed in finish()
        self.cgroup: RunCgroup | None = None
        layout, _ = detect() if measurement.cgroups else (None, "")
        if layout is not None:
            try:
                self.cgroup = layout.make(cpus=str(core) if core is not None and layout.pins
                                          else None)
            except CgroupError as exc:
                self.w.notes.append(f"measured by rusage: {exc}")
        self.w.measured_by = layout.source if self.cgroup is not None and layout else "rusage"
        sealed = task.sealed()
        read_fd, write_fd = os.pipe()
        with contextlib.suppress(OSError):  # a big answer in a few reads, not hundreds
            fcntl.fcntl(read_fd, fcntl.F_SETPIPE_SZ, RESULT_PIPE_BYTES)
        control_read, self.control = os.pipe()
        self.w.t_start = time.monotonic()  # the process is made from here on
        setup = RunSetup(tuple(self.cgroup.procs_files) if self.cgroup else (), core,
                         measurement.sandbox, started_at=self.w.t_start)
        self.proc: subprocess.Popen[bytes] | None = None
        if spawn:
            self.proc = spawn_run(write_fd, control_read, self.log)
            self._pid = self.proc.pid
            os.close(write_fd)
            os.close(control_read)
            with contextlib.suppress(OSError):  # a child that died at once: its status says why
                write_message(self.control, (sealed, setup))
        elif server is not None and forks_in_server(task):
            self.server = server
            self._request = server.start(pickle.dumps((sealed, setup)),
                                         (write_fd, control_read, self.log.fileno()),
                                         preload=project_module(task),
                                         sandbox=measurement.sandbox,
                                         solver=task.solver if task.project_module else None,
                                         prime=prime_key(sealed),
                                         prepare=prepare_blob(sealed))
            self._pid = None  # known when the server replies (``pid``)
            os.close(write_fd)
            os.close(control_read)
        else:
            pid = fork_here(sealed, setup, write_fd, control_read, self.log.fileno(),
                            close=(read_fd, self.control))
            self._pid = pid
            os.close(write_fd)
            os.close(control_read)
        self.fd = read_fd
        os.set_blocking(read_fd, False)
        self.reader = MessageReader()
        self.messages: list[tuple[dict[str, Any], bytes | None]] = []
        self.eof = False
        self.killed = ""
        self.kill_is_crash = False
        self.broken = ""  # why a frame broke the protocol (the run is a crash)
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
            self.reader.feed(chunk)
        self._parse()

    def _parse(self) -> None:
        try:
            for message, raw in self.reader.messages():
                self._take(message, raw)
        except ProtocolError as exc:
            self._refuse(str(exc))

    def _refuse(self, why: str) -> None:
        """End the run for a frame that breaks the protocol: a crash, even after its answer
        (``broken``); nothing after it is read."""
        self.reader.clear()
        self.messages.append(({"event": "garbage"}, None))
        self.broken = self.broken or why
        if self.w.t_done is None:
            self.kill(why, crash=True)

    def _take(self, message: dict[str, Any], raw: bytes | None) -> None:
        event = message.get("event")
        if event == "ready" and self.w.t_ready is None:
            self.w.t_ready = time.monotonic()
            watched = self.w.t_ready - self.w.t_start  # the run cannot have warmed up longer
            if float(message["warmup_s"]) > watched + 0.05 or float(
                    message["rss_base_mb"]) > PHYSICAL_MB:
                self.kill("the run sent a malformed ready frame (warm-up or memory beyond what "
                          "the harness watched)", crash=True)
                return
            self.w.ready = message
            self._sandbox(message)
            self._prioritise()
            self._go()
        elif event == "stopped" and self.w.go_ns and not self.w.stop_ns and self.w.t_done is None:
            self.w.stop_ns = stamp_ns()  # the solves are over: read the counters, then let the
            self._read_counters()  # run turn its result into data, unmeasured
            with contextlib.suppress(OSError):
                os.write(self.control, b"\x01")
            return
        elif (event == "error" or (event == "done" and self.w.go_ns)) and self.w.t_done is None:
            self.w.done_ns = stamp_ns()  # an error may come before ready (a plugin that fails
            self.w.t_done = time.monotonic()  # to load): it ends the run all the same
            self._read_counters()
            self._prioritise(done=True)
            if event == "done":  # fields checked by message_problem: meta is an object if present
                self.w.answered, self.w.done_meta = True, message.get("meta", {})
                self.awaits_repeats = self.w.done_meta.get("repeats_follow") is True
        elif event == "repeats" and self.awaits_repeats:
            self.repeats_agree = message.get("agree")  # a boolean or None (message_problem)
            self.awaits_repeats = False
            return
        else:  # an event out of turn (a second ready, done before go, ...): the protocol broken
            self._refuse(f"the run sent a {event} frame out of turn")
            return
        self.messages.append((message, raw))

    def _sandbox(self, ready: dict[str, Any]) -> None:
        """The run's sandbox as the harness sees it from outside: sealed only if its keeper's
        mount, network and PID namespaces are not the harness's (a run's word is not enough)."""
        claimed, why = ready.get("sandbox"), ready.get("sandbox_why")
        if claimed == SEALED and verify(self.pid):
            self.w.sandbox = SEALED
        elif claimed == SEALED:
            self.w.notes.append("the run said it was sealed, but its namespaces are the "
                                "harness's: sandbox none")
        elif isinstance(why, str) and why and self.measurement.sandbox != "off" and \
                "off" not in why:
            self.w.notes.append(f"not sealed: {why[:300]}")

    def _prioritise(self, *, done: bool = False) -> None:
        """Raise the priority of the run's process group (every process it has made) for its
        timed phase, where this process may (``Measurement.nice``); a run cannot undo it but
        by lowering its own priority. With ``done``, give it back the harness's priority: its
        teardown (milliseconds of unmapping) must not preempt other runs' timed phases, nor
        the loop that starts the next run."""
        nice = self.measurement.nice
        if nice is None or self.pid <= 0 or (done and self.w.nice is None):
            return
        if done:
            nice = os.getpriority(os.PRIO_PROCESS, 0)
        try:
            os.setpriority(os.PRIO_PGRP, self.pid, nice)
            if not done:
                self.w.nice = nice
        except OSError:  # not root, or the run has gone: its record says nice is not known
            return
        # A run leads a session of its own, and where the kernel groups sessions for
        # scheduling (autogroup), a process's nice counts only inside its session: the
        # session's own weight is what a neighbour competes with.
        with contextlib.suppress(OSError), open(f"/proc/{self.pid}/autogroup", "w",
                                                encoding="ascii") as fh:
            fh.write(str(nice))

    def _go(self) -> None:
        """Send the instance and the seed: the timed phase starts now, its CPU and memory
        counted from here."""
        if self.cgroup is not None:
            try:
                if self.pid not in self.cgroup.pids():
                    raise CgroupError("the run's process is not in its cgroup")
                if self.task.memory_limit_mb is not None:
                    self.cgroup.limit_memory(self.cgroup.memory_bytes()
                                             + self.task.memory_limit_mb * 2**20)
                self.cgroup.reset_peak()
                self.w.cpu_go = self.cgroup.cpu_ns() / 1e9
            except (OSError, ValueError) as exc:
                if self.task.memory_limit_mb is not None:  # never a limit silently dropped:
                    self.kill(f"the run's memory limit could not be set on its cgroup: {exc}",
                              crash=True)  # the run, in a cgroup, sets no limit of its own
                    return
                self.w.notes.append(f"measured by rusage: {exc}")
                self.cgroup, self.w.measured_by, self.w.cpu_go = None, "rusage", None
        self.w.go_ns = stamp_ns()
        with contextlib.suppress(OSError):  # the run died meanwhile: its end says why
            write_message(self.control, self.task.go())

    def _read_counters(self) -> None:
        """CPU and peak memory at ``stopped`` (the figures recorded) and again at ``done`` (the
        whole window, for checking the run's stamps)."""
        if self.cgroup is None or self.w.cpu_go is None or self.w.cpu_done is not None:
            return
        try:
            now = self.cgroup.cpu_ns() / 1e9
            if self.w.cpu_stop is None:
                self.w.cpu_stop = now
                self.w.peak_mb = self.cgroup.peak_bytes() / 2**20
            if self.w.t_done is not None:
                self.w.cpu_done = now
        except (OSError, ValueError) as exc:
            self.w.notes.append(f"measured by rusage: {exc}")
            self.cgroup, self.w.measured_by, self.w.cpu_go = None, "rusage", None

    @property
    def startup_limit(self) -> float:
        """Seconds the run may take to be ready (a project solver's may build its tables)."""
        return self.measurement.startup_limit_for(bool(self.task.project_module))

    @property
    def finished(self) -> bool:
        return (self.w.t_done is not None and not self.awaits_repeats) or self.eof

    def deadline(self) -> float:
        if self.w.t_done is not None:  # done: the comparison of repeats has a limit of its own
            return self.w.t_done + REPEATS_CHECK_LIMIT
        if self.w.t_ready is None:
            return self.w.t_start + self.startup_limit
        if self.task.hard_limit is None:
            return float("inf")
        # the time limit counts from the run's start: what start-up and warm-up used of their
        # share is the solver's no more (``harness.run.measure.pre_go_charge``, as the run does)
        charge = pre_go_charge(self.task.budget.time_limit, self.w.t_ready - self.w.t_start)
        return self.w.t_ready + self.task.hard_limit - charge

    # -- ending --------------------------------------------------------------------------
    def kill(self, why: str, *, crash: bool = False) -> None:
        """Kill the run's group: at a limit (a timeout), or for breaking the protocol (crash).
        Its cgroup's CPU time and peak memory are read first: a killed run keeps them."""
        self.killed, self.kill_is_crash = why, crash
        if self.w.go_ns and self.w.t_done is None:
            self._read_counters()
        if self.w.t_ready is None:
            self.w.notes.append("killed before it said whether it was sealed")
        self._kill_all()

    def _count_survivors(self) -> None:
        """Name, in the notes, processes of the run still running at its end besides its own
        (the keeper, init and the run when sealed): they are killed with it."""
        if self.cgroup is None or self.w.t_done is None:
            return
        own = self.w.ready.get("own_processes")  # the run's word, for a note only
        own = own if type(own) is int and 1 <= own <= 3 else 1
        extra = len(self.cgroup.pids()) - own
        if extra > 0:
            self.w.notes.append(f"{extra} process{'es' if extra > 1 else ''} of the run still "
                                "running at its end (killed with it)")

    def _kill_all(self) -> None:
        kill_group(self.pid)
        if self.cgroup is not None:
            self.cgroup.kill()

    def finish(self) -> ChildReport:
        """Kill what is left of the run, reap it, and say what happened."""
        answered = self.cgroup is not None and self.w.t_done is not None and not self.killed
        self._count_survivors()
        ending = not self.killed and (
            (self.eof and self.w.t_done is None)
            or (self.cgroup is None and self.w.t_done is not None and self.w.sandbox == SEALED))
        if not answered and not ending:
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
            ENDED.append((self.pid, self.proc, self.cgroup, self.server))
        else:
            reaped = wait_for(self.pid, self.proc, self.server, within=1.0 if ending else None)
            if reaped is None:  # it did not end: killed like any other
                self._kill_all()
                reaped = wait_for(self.pid, self.proc, self.server)
            elif ending:
                kill_group(self.pid)  # helpers it left in its process group
            assert reaped is not None
            status, rusage = reaped
            if self.cgroup is not None:
                oom = self.cgroup.oom_kills()
                self.cgroup.kill()
                if not self.cgroup.remove(wait_s=1.0):
                    self.w.notes.append("the run's cgroup could not be removed")
        self.log.seek(0, os.SEEK_END)
        size = self.log.tell()
        self.log.seek(max(0, size - LOG_TAIL))
        log = self.log.read().decode("utf-8", "replace")
        self.log.close()
        common = accepted_figures(self.w, rusage, log)
        if oom:
            return ChildReport("error", error=f"the run's process tree exceeded its memory limit "
                               f"of {self.task.memory_limit_mb} MB (the kernel killed {oom} "
                               f"process{'es' if oom > 1 else ''})", error_kind="memout", **common)
        if self.broken:
            return ChildReport("error", error=self.broken, error_kind="crash", **common)
        final = [m for m in self.messages if m[0].get("event") in ("done", "error", "garbage")]
        done_first = bool(final) and final[0][0].get("event") == "done"
        if self.killed and self.kill_is_crash and not done_first:
            return ChildReport("error", error=self.killed, error_kind="crash", **common)
        if self.killed and not done_first:
            kind = "startup" if self.w.t_ready is None else "timeout"
            return ChildReport(kind, error=self.killed, **common)
        if final and final[0][0].get("event") == "done":
            message, raw = final[0]
            payload = message.get("payload")  # an object (message_problem)
            if self.awaits_repeats:
                common["notes"] = (*common["notes"], "the run's repeats were not compared "
                                   f"within {REPEATS_CHECK_LIMIT:.0f} s")
            common["figures"] = replace(common["figures"], repeats_agree=self.repeats_agree)
            return ChildReport("done", data=payload, raw=raw,
                               mutated=self.w.done_meta.get("mutated") is True, **common)
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
