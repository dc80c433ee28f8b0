"""Hostile plugins that reach out of their run (issue 32 §2; see test_sealed_runs.py).

Loaded by file reference (``tests/plugins/sealed_runs.py:Name``), exactly as a user's plugin.
Each tries one way out of its run's process: through the harness's ``/proc`` entries, its
siblings, a daemon that outlives the run, the store, or the judge's cached tables. A counter
says how far it got. So that an unsealed run (``--sandbox off``) cannot harm the test session
itself, every plugin aims only at puzzlebench processes that are not pytest, and only where
the test names them (``PUZZLEBENCH_HOSTILE_*`` variables reach runs like every
``PUZZLEBENCH_*`` setting).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import time
from collections import deque
from pathlib import Path

import numpy as np

from puzzlebench.contract import Claim, Proposal, Solver
from puzzlebench_baselines.mod12 import mod12_columns


def board(n: int) -> list[int]:
    """A valid n-queens board for n ≥ 4 (the mod-12 construction, honestly computed)."""
    return [int(c) for c in mod12_columns(n)]  # the project's closed-form board


def parent_of(pid: int) -> int:
    """The parent of ``pid`` as this process's /proc shows it (0: none visible)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            return int(fh.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def ancestors() -> list[int]:
    """Every ancestor of this process that /proc shows, nearest first."""
    out, pid = [], parent_of(os.getpid())
    while pid > 0 and pid not in out:
        out.append(pid)
        pid = parent_of(pid)
    return out


def argv_of(pid: int) -> list[str]:
    """The command line of ``pid`` as its words (NUL-separated in /proc: a path with spaces
    or a folder named puzzlebench is one word)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().decode(errors="replace").split("\0")
    except OSError:
        return []


def is_puzzlebench_command(argv: list[str]) -> bool:
    """``python -m puzzlebench ...`` or the ``puzzlebench`` console script, exactly: never
    pytest or one of its workers (whose interpreter may live in a folder named puzzlebench,
    as in a fresh clone's virtual environment), never the fork server."""
    if argv[1:3] == ["-m", "puzzlebench"]:
        return True
    script = argv[1] if len(argv) > 1 and os.path.basename(argv[0]).startswith("python") \
        else argv[0] if argv else ""
    return os.path.basename(script) == "puzzlebench"


def harness_processes() -> list[int]:
    """Ancestors that are a puzzlebench command (never pytest, never the fork server)."""
    return [pid for pid in ancestors() if is_puzzlebench_command(argv_of(pid))]


def processes() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


class _Q(Solver):
    problems = frozenset({"nqueens"})


FORGED = {"problem": "nqueens", "size": 8, "instance_id": "nqueens-8", "solver": "mod12",
          "params": {}, "seed": 0, "outcome": "solved", "claim": "solved", "valid": True,
          "answer": [0, 4, 7, 5, 2, 6, 1, 3], "counters": {}, "time_s": 0.0, "forged": True}


class ForgeParentStdout(_Q):
    """Writes a record-shaped line into its ancestors' stdout through ``/proc/<pid>/fd/1``,
    answers wrongly."""

    name = "sealed-forge-parent-stdout"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        forged = 0
        for pid in harness_processes():
            try:
                with open(f"/proc/{pid}/fd/1", "a", encoding="utf-8") as out:
                    out.write(json.dumps(FORGED) + "\n")
                forged += 1
            except OSError:
                pass
        return Proposal(answer=[0] * instance.n, claim=Claim.SOLVED, counters={"forged": forged})


class KillSiblings(_Q):
    """Waits for its sibling runs to start, then SIGKILLs every process its parent forked."""

    name = "sealed-kill-siblings"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        time.sleep(0.5)
        parent, killed = parent_of(os.getpid()), 0
        for pid in processes():
            if pid != os.getpid() and parent > 1 and parent_of(pid) == parent:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                    killed += 1
        return Proposal(answer=board(instance.n), claim=Claim.SOLVED, counters={"killed": killed})


class SlowHonest(_Q):
    """Sleeps 2 s, then answers correctly: a sibling to be attacked."""

    name = "sealed-slow-honest"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        time.sleep(2.0)
        return Proposal(answer=board(instance.n), claim=Claim.SOLVED)


class BriefHonest(_Q):
    """Sleeps 0.3 s, then answers correctly: a later run whose pipes stay open long enough
    for a polling daemon to find them, however loaded the machine."""

    name = "sealed-brief-honest"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        time.sleep(0.3)
        return Proposal(answer=board(instance.n), claim=Claim.SOLVED)


def _frame(message: dict) -> bytes:  # type: ignore[type-arg]
    body = json.dumps(message).encode()
    return len(body).to_bytes(8, "little") + body


FORGED_FRAMES = _frame({"event": "ready", "warmup_s": 0.0, "rss_base_mb": 1.0}) + _frame(
    {"event": "done", "payload": {"claim": "infeasible", "counters": {}}, "meta": {}})


def _detach() -> bool:
    """Double fork into a session of its own; True in the daemon (which never returns)."""
    if os.fork() != 0:
        os.wait()
        return False
    os.setsid()
    if os.fork() != 0:
        os._exit(0)
    return True


class PipeForger(_Q):
    """Leaves a setsid daemon that, for 8 s, writes forged ``ready``/``done`` frames into every
    pipe of every later run its fork server makes (through ``/proc/<pid>/fd``)."""

    name = "sealed-pipe-forger"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        server = parent_of(os.getpid())
        if server > 1 and _detach():
            try:
                with contextlib.suppress(OSError, KeyError), open(
                        os.environ["PUZZLEBENCH_HOSTILE_PIDS"], "a", encoding="ascii") as fh:
                    fh.write(f"{os.getpid()}\n")  # so that the test can end it
                hit: set[tuple[int, str]] = set()
                end = time.monotonic() + 8.0
                while time.monotonic() < end:
                    for pid in processes():
                        if pid == os.getpid() or parent_of(pid) != server:
                            continue
                        with contextlib.suppress(OSError):
                            for fd in os.listdir(f"/proc/{pid}/fd"):
                                link = os.readlink(f"/proc/{pid}/fd/{fd}")
                                if link.startswith("pipe:") and (pid, link) not in hit:
                                    hit.add((pid, link))
                                    with contextlib.suppress(OSError):
                                        out = os.open(f"/proc/{pid}/fd/{fd}",
                                                      os.O_WRONLY | os.O_NONBLOCK)
                                        os.write(out, FORGED_FRAMES)
                                        os.close(out)
                    time.sleep(0.005)
            finally:
                os._exit(0)
        return Proposal(answer=board(instance.n), claim=Claim.SOLVED)


class SigintHarness(_Q):
    """Sends SIGINT to the puzzlebench command that runs it, answers correctly."""

    name = "sealed-sigint-harness"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        sent = 0
        for pid in harness_processes():
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGINT)
                sent += 1
        time.sleep(0.2)
        return Proposal(answer=board(instance.n), claim=Claim.SOLVED, counters={"sent": sent})


class DoubleForkSurvivor(_Q):
    """Leaves ``sleep 90`` behind in a session of its own (named by
    ``$PUZZLEBENCH_HOSTILE_TAG``), answers correctly."""

    name = "sealed-double-fork-survivor"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        tag = os.environ.get("PUZZLEBENCH_HOSTILE_TAG", "puzzlebench-survivor")
        started, execed = os.pipe()  # closed on exec: the run waits until ``sleep`` runs
        if _detach():
            try:
                devnull = os.open(os.devnull, os.O_RDWR)
                for fd in (0, 1, 2):
                    os.dup2(devnull, fd)
                os.closerange(3, execed)
                os.closerange(execed + 1, 65536)
                os.execvp("sleep", [tag, "90"])
            finally:
                os._exit(0)
        os.close(execed)
        os.read(started, 1)
        os.close(started)
        return Proposal(answer=board(instance.n), claim=Claim.SOLVED)


def store_paths() -> list[str]:
    """``--db`` from the command lines of the harness's processes (and the test's hint)."""
    found = []
    for pid in harness_processes():
        args = cmdline(pid).split()
        found += [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--db"]
    hint = os.environ.get("PUZZLEBENCH_HOSTILE_DB")
    return found + ([hint] if hint else [])


class StoreRewriter(_Q):
    """Finds the store and marks every stored run of every other solver ``wrong``."""

    name = "sealed-store-rewriter"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        rewritten = 0
        for path in store_paths():
            try:
                with contextlib.closing(sqlite3.connect(path, timeout=1.0)) as db:
                    rewritten += db.execute(
                        "UPDATE runs SET outcome = 'wrong', record = replace(record, "
                        "'\"outcome\": \"solved\"', '\"outcome\": \"wrong\"') "
                        "WHERE solver != ?", (self.name,)).rowcount
                    db.commit()
            except sqlite3.Error:
                pass
        return Proposal(answer=board(instance.n), claim=Claim.SOLVED,
                        counters={"rewritten": rewritten})


def _bfs_path(start: tuple[int, ...], goal: tuple[int, ...]) -> str:
    """An optimal 3×3 path by breadth-first search (honest helper)."""
    moves = {"U": -3, "D": 3, "L": -1, "R": 1}
    seen = {start: ""}
    todo = deque([start])
    while todo:
        state = todo.popleft()
        if state == goal:
            return seen[state]
        blank = state.index(0)
        for move, step in moves.items():
            to = blank + step
            if not 0 <= to < 9 or (move in "LR" and to // 3 != blank // 3):
                continue
            cells = list(state)
            cells[blank], cells[to] = cells[to], 0
            child = tuple(cells)
            if child not in seen:
                seen[child] = seen[state] + move
                todo.append(child)
    return ""


class TablePoisoner(Solver):
    """Rewrites the cached 8-puzzle BFS table with every distance 2 longer, then answers with an
    optimal path made 2 moves longer, claiming it optimal."""

    name = "sealed-table-poisoner"
    problems = frozenset({"sliding"})
    exact = True

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        from puzzlebench.problems import sliding_distances

        poisoned = 0
        for blank in sliding_distances.ROOTS:
            path = sliding_distances.cache_path(blank)
            try:
                codes, dists = sliding_distances.build_table(blank)
                path.parent.mkdir(parents=True, exist_ok=True)
                np.savez_compressed(path, codes=codes, dists=dists + 2)
                poisoned += 1
            except OSError:
                pass
        moves = _bfs_path(tuple(instance.start), tuple(instance.goal))
        blank = instance.start.index(0)
        detour = "LR" if blank % 3 else "RL"
        return Proposal(answer=detour + moves, claim=Claim.SOLVED, optimal=True,
                        counters={"poisoned": poisoned})


class Inspector(_Q):
    """Reports what its run can see and do (no harm): processes, writes, network, capabilities."""

    name = "sealed-inspector"

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        counters: dict[str, int] = {"pid": os.getpid(), "processes": len(processes())}
        target = Path(os.environ.get("PUZZLEBENCH_HOSTILE_FILE", "/nonexistent"))
        try:
            target.write_text("written by a run")
            counters["wrote_file"] = 1
        except OSError:
            counters["wrote_file"] = 0
        import tempfile

        with tempfile.NamedTemporaryFile() as fh:  # TMPDIR is writable, sealed or not
            fh.write(b"ok")
            counters["private_tmp"] = 1
        import socket

        counters["interfaces"] = len(socket.if_nameindex())  # a sealed run: only "lo"
        with open("/proc/self/status", encoding="ascii") as fh:
            caps = [line.split()[1] for line in fh if line.startswith("CapEff:")]
        counters["capabilities"] = int(int(caps[0], 16) != 0) if caps else -1
        counters["devices"] = len(os.listdir("/dev"))
        return Proposal(answer=board(instance.n), claim=Claim.SOLVED, counters=counters)
