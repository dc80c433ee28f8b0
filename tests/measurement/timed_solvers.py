"""Solvers for the measurement tests, loaded by file reference as a user's plugins are.

Each does one thing the harness must measure correctly, or tries to fool its clock.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time

from puzzlebench.contract import Claim, Proposal, Solver


def _answer(n: int) -> list[int]:
    """A valid n-queens board for n = 8 (the tests' size)."""
    return [0, 4, 7, 5, 2, 6, 1, 3][:n]


class _Q(Solver):
    problems = frozenset({"nqueens"})
    compiled = False


class Sleeps20ms(_Q):
    """Takes 20 ms of wall time and almost no CPU."""

    name = "sleeps-20ms"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        time.sleep(0.02)
        return Proposal(answer=_answer(instance.n), claim=Claim.SOLVED)


class Spins(_Q):
    """Burns about 50 ms of CPU in this process, single-threaded."""

    name = "spins"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        end = time.thread_time() + 0.05
        while time.thread_time() < end:
            pass
        return Proposal(answer=_answer(instance.n), claim=Claim.SOLVED)


BURN = ("import time; end = time.process_time() + 0.3; "
        "[0 for _ in iter(lambda: time.process_time() < end, False)]")


class ForksBusyChild(_Q):
    """Leaves behind a grandchild that burns 0.3 s of CPU (a shell starts it in the background
    and exits), so the solver's process never waits for it and its own resource usage never
    sees that CPU. The solver blocks until the grandchild has exited (the end of a pipe only it
    still holds), however slowly a busy host lets it burn, but never reaps it."""

    name = "forks-busy-child"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        read_end, write_end = os.pipe()
        script = f"{sys.executable} -c '{BURN}' &"
        subprocess.run(["sh", "-c", script], check=True, pass_fds=(write_end,))
        os.close(write_end)
        ready, _, _ = select.select([read_end], [], [], 30.0)
        os.close(read_end)
        if not ready:
            raise RuntimeError("the grandchild did not finish its burn within 30 s")
        return Proposal(answer=_answer(instance.n), claim=Claim.SOLVED)


ALLOCATE = ("b = bytearray(400 * 2**20)\n"
            "for i in range(0, len(b), 4096): b[i] = 1\n"
            "import time; time.sleep(5)\n")


class ChildAllocates(_Q):
    """Its child touches 400 MB: past a 150 MB limit for the run's whole process tree, though
    the solver's own process stays small (a per-process limit never sees it)."""

    name = "child-allocates"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        subprocess.run([sys.executable, "-c", ALLOCATE], check=False)
        return Proposal(answer=_answer(instance.n), claim=Claim.SOLVED)


class StampsAtZero(_Q):
    """Replaces the run's clock with one that says 0: its stamps lie outside the harness's
    window and must be refused."""

    name = "stamps-at-zero"

    def __init__(self) -> None:
        import puzzlebench.harness.run.inside.child as child

        child.stamp_ns = lambda: 0  # type: ignore[assignment]

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        time.sleep(0.01)
        return Proposal(answer=_answer(instance.n), claim=Claim.SOLVED)


class ClaimsAMicrosecond(_Q):
    """Burns 0.3 s of CPU but makes its stamps 0.1 ms apart, inside the harness's window: its
    CPU time (from the kernel) contradicts them. The forged stamp is set from the solve's own
    start, so a busy machine (a longer wall time for the same CPU) forges the same lie."""

    name = "claims-a-microsecond"

    def __init__(self) -> None:
        import puzzlebench.harness.run.inside.child as child

        real = time.clock_gettime_ns

        def fake() -> int:  # the end stamp: 0.1 ms after the solve began, however long it ran
            now = real(time.CLOCK_MONOTONIC)
            return min(now, self.began + 100_000) if self.began else now

        self.began = 0
        child.stamp_ns = fake  # type: ignore[assignment]

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        self.began = time.clock_gettime_ns(time.CLOCK_MONOTONIC)  # after the start stamp
        end = time.process_time() + 0.3
        while time.process_time() < end:
            pass
        return Proposal(answer=_answer(instance.n), claim=Claim.SOLVED)


class Drifts(_Q):
    """Proposes a different board on every call in the same process, whatever the seed."""

    name = "drifts"
    calls = 0

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        Drifts.calls += 1
        answer = _answer(instance.n) if Drifts.calls % 2 else _answer(instance.n)[::-1]
        return Proposal(answer=answer, claim=Claim.SOLVED)


class DeepFrame(_Q):
    """Writes a 200,000-deep JSON frame on the harness's channel instead of its proposal."""

    name = "deep-frame"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        import struct

        body = b"[" * 200_000 + b"]" * 200_000
        for fd in range(3, 64):
            try:
                os.fstat(fd)
            except OSError:
                continue
            try:
                os.write(fd, struct.pack("<Q", len(body)) + body)
            except OSError:
                continue
        os._exit(0)


class ReportsPriority(_Q):
    """Reports its own nice value and its session's (autogroup) nice, as the timed phase sees
    them (a counter of -100 where the kernel does not show an autogroup)."""

    name = "reports-priority"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        nice = os.getpriority(os.PRIO_PROCESS, 0)
        try:
            with open("/proc/self/autogroup", encoding="ascii") as fh:
                group = int(fh.read().split()[-1])
        except (OSError, ValueError, IndexError):
            group = -100
        return Proposal(answer=_answer(instance.n), claim=Claim.SOLVED,
                        counters={"nice": nice, "autogroup_nice": group})


class LeavesASleeper(_Q):
    """Starts a sleeping helper in its process group and reports the helper's pid (to see the
    priority the harness leaves the run's processes with once the run is done)."""

    name = "leaves-a-sleeper"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        helper = subprocess.Popen(["sleep", "30"])
        return Proposal(answer=_answer(instance.n), claim=Claim.SOLVED,
                        counters={"helper": helper.pid})


class ReportsNumba(_Q):
    """Reports whether numba is loaded in its run's process, and the process's parent."""

    name = "reports-numba"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        return Proposal(answer=_answer(instance.n), claim=Claim.SOLVED,
                        counters={"numba": int("numba" in sys.modules), "ppid": os.getppid()})


class ReportsNumbaCompiled(ReportsNumba):
    """The same, declared ``compiled``: its runs are forked with numba's compiler started."""

    name = "reports-numba-compiled"
    compiled = True


class ForgesHalfItsTime(_Q):
    """Burns 0.3 s of CPU on one thread but stamps its end after half of it (0.15 s): half its
    time on an idle machine, inside the ``cpu_s / cores`` bound on two cores (the fourth
    hostile sweep's 2× lie). Forged from its CPU time, so a busy machine forges the same lie;
    a lie between a run's CPU time and its wall time is not one this check can see."""

    name = "forges-half-its-time"

    def __init__(self) -> None:
        import puzzlebench.harness.run.inside.child as child

        real = time.clock_gettime_ns

        def fake() -> int:  # the end stamp: half the CPU time the solve used after it began
            now = real(time.CLOCK_MONOTONIC)
            if not self.began:
                return now
            used = time.thread_time_ns() - self.began_cpu
            return min(now, self.began + used // 2)

        self.began = self.began_cpu = 0
        child.stamp_ns = fake  # type: ignore[assignment]

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        self.began = time.clock_gettime_ns(time.CLOCK_MONOTONIC)  # after the start stamp
        self.began_cpu = time.thread_time_ns()
        end = time.thread_time() + 0.3
        while time.thread_time() < end:
            pass
        return Proposal(answer=_answer(instance.n), claim=Claim.SOLVED)
