"""A harness killed outright takes its runs with it: no run is left working, orphaned, until
its own time limit (found when a split count's command was killed half-way: its two runs went
on counting for minutes). Runs die with the fork server that forked them, and a PID
namespace's init dies with the process that made it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from puzzlebench.harness.run.sealed.pid_namespace import start_init

NAPPING = Path(__file__).resolve().parents[1] / "plugins" / "napping.py"


def alive(pid: int) -> bool:
    """Whether the process exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def descendants(root: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int(
                    (entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    out: set[int] = set()
    todo = [root]
    while todo:
        pid = todo.pop()
        for child, parent in parents.items():
            if parent == pid and child not in out:
                out.add(child)
                todo.append(child)
    return out


def wait_until_gone(pids: set[int], seconds: float = 60) -> set[int]:
    deadline = time.monotonic() + seconds
    while (left := {p for p in pids if alive(p)}) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def test_a_namespace_init_dies_with_the_process_that_made_it() -> None:
    read, write = os.pipe()
    maker = os.fork()
    if maker == 0:  # its main thread makes the init, then ends
        try:
            os.write(write, str(start_init()).encode())
        finally:
            os._exit(0)
    os.close(write)
    init = int(os.read(read, 64).decode())
    os.close(read)
    os.waitpid(maker, 0)
    left = wait_until_gone({init})
    if left:  # do not leave it behind for the next test
        os.kill(init, signal.SIGKILL)
    assert not left, "the init outlived the process that made it"


def test_a_run_dies_with_the_command_that_started_it(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "puzzlebench", "solve", "nqueens", "8", "--solver",
               f"{NAPPING}:Napping", "--param", "nap=60", "--time-limit", "120"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    family: set[int] = set()
    try:
        while len(family) < 3:  # the fork server, the run and its namespace's init (or more)
            assert proc.poll() is None and time.monotonic() < deadline, "the run never started"
            time.sleep(0.2)
            family = descendants(proc.pid)
        time.sleep(1.0)  # the run is napping now
        family = descendants(proc.pid)
        os.killpg(proc.pid, signal.SIGKILL)  # the command and its process group, at once
        proc.wait(timeout=60)
        left = wait_until_gone(family)
    finally:
        for pid in descendants(proc.pid) | family:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
    assert not left, f"{len(left)} processes of the killed command went on"
