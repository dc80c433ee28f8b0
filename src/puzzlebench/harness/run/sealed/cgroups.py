"""A cgroup per run: CPU time and peak memory of the run's whole process tree, read from the
kernel, a memory limit on the tree, optional pinning to a core, and a kill that spares no
process the run started — as BenchExec measures and limits its runs.

Both cgroup layouts are handled: v2 (one unified hierarchy whose ``cgroup.controllers`` offers
``cpu`` and ``memory``) and v1 (one hierarchy per controller: ``cpuacct`` and ``memory``
required, ``cpuset`` and ``freezer`` used when present). Each run's group is made below the
harness's own group in every hierarchy, so a harness that is itself confined (a container, a
CI job) confines its runs too.

When no usable layout is found — no cgroup file system, no permission to make groups, a
missing controller — :func:`detect` says why and the harness falls back to resource-usage
readings (see ``harness.run.measure``); it never refuses to run. ``PUZZLEBENCH_CGROUP_ROOT``
points the detection at another mount point (``off`` disables it), which is also how the
tests simulate a machine without cgroups.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import signal
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

#: Environment variable: the cgroup mount point to use (``off``: never use cgroups).
ROOT_ENV = "PUZZLEBENCH_CGROUP_ROOT"
DEFAULT_ROOT = "/sys/fs/cgroup"
_counter = itertools.count()


class CgroupError(OSError):
    """A run's cgroup could not be made or read (the run falls back to rusage)."""


@dataclass(frozen=True, slots=True)
class Layout:
    """Where runs' groups are made: ``version`` 1 or 2; ``parents`` maps a controller (v1) or
    ``unified`` (v2) to the directory below which each run gets its own group."""

    version: int
    parents: dict[str, Path]

    @property
    def source(self) -> str:
        """The record's ``measured_by`` for runs measured here."""
        return f"cgroup-v{self.version}"

    @property
    def pins(self) -> bool:
        return self.version == 2 or "cpuset" in self.parents

    def make(self, *, cpus: str | None = None) -> RunCgroup:
        """A fresh, empty group for one run (``cpus``: a cpuset such as ``"1"``). An unpinned
        run gets no v1 cpuset group: it would only repeat its parent's (a directory made,
        filled, joined and removed per run for nothing)."""
        name = f"run-{os.getpid()}-{next(_counter)}"
        dirs = {ctrl: parent / name for ctrl, parent in self.parents.items()
                if ctrl != "cpuset" or cpus is not None}
        made: list[Path] = []
        try:
            for ctrl, path in dirs.items():
                path.mkdir()
                made.append(path)
                if ctrl == "cpuset" or (self.version == 2 and cpus is not None):
                    _inherit_cpuset(path, cpus)
        except OSError as exc:
            for path in reversed(made):
                with contextlib.suppress(OSError):
                    path.rmdir()
            raise CgroupError(f"cannot make the run's cgroup: {exc}") from exc
        return RunCgroup(self.version, dirs)


def _inherit_cpuset(path: Path, cpus: str | None) -> None:
    """A v1 cpuset group starts empty and takes no process until it has cpus and mems."""
    parent = path.parent
    if (path / "cpuset.mems").exists() and not (path / "cpuset.mems").read_text().strip():
        (path / "cpuset.mems").write_text((parent / "cpuset.mems").read_text())
    if cpus is not None:
        (path / "cpuset.cpus").write_text(cpus)
    elif (path / "cpuset.cpus").exists() and not (path / "cpuset.cpus").read_text().strip():
        (path / "cpuset.cpus").write_text((parent / "cpuset.cpus").read_text())


def _read(path: str) -> str:
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.read(fd, 1 << 16).decode()
    finally:
        os.close(fd)


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


@dataclass(frozen=True, slots=True)
class RunCgroup:
    """One run's group in every hierarchy of the layout."""

    version: int
    dirs: dict[str, Path]

    @property
    def procs_files(self) -> list[str]:
        """The ``cgroup.procs`` files a process writes its pid into to join the group."""
        return [str(d / "cgroup.procs") for d in self.dirs.values()]

    def _file(self, ctrl: str, name: str) -> str:
        return f"{self.dirs['unified' if self.version == 2 else ctrl]}/{name}"

    def cpu_ns(self) -> int:
        """CPU time (user + system) of every process that was ever in the group."""
        if self.version == 2:
            for line in _read(self._file("cpu", "cpu.stat")).splitlines():
                if line.startswith("usage_usec "):
                    return int(line.split()[1]) * 1000
            raise CgroupError("cpu.stat has no usage_usec")
        return int(_read(self._file("cpuacct", "cpuacct.usage")))

    def memory_bytes(self) -> int:
        """Memory charged to the group now."""
        name = "memory.current" if self.version == 2 else "memory.usage_in_bytes"
        return int(_read(self._file("memory", name)))

    def reset_peak(self) -> None:
        """Start the memory high-water mark again from the current usage."""
        name = "memory.peak" if self.version == 2 else "memory.max_usage_in_bytes"
        with contextlib.suppress(OSError):  # v2 before Linux 6.12 cannot reset: kept whole-life
            _write(self._file("memory", name), "0")

    def peak_bytes(self) -> int:
        """The group's memory high-water mark (since the last reset)."""
        name = "memory.peak" if self.version == 2 else "memory.max_usage_in_bytes"
        return int(_read(self._file("memory", name)))

    def limit_memory(self, limit_bytes: int) -> None:
        """Cap the whole group's memory: past it the kernel kills a process of the group."""
        name = "memory.max" if self.version == 2 else "memory.limit_in_bytes"
        _write(self._file("memory", name), str(int(limit_bytes)))

    def oom_kills(self) -> int:
        """How many processes of the group the kernel killed for its memory limit."""
        name = "memory.events" if self.version == 2 else "memory.oom_control"
        try:
            for line in _read(self._file("memory", name)).splitlines():
                if line.startswith("oom_kill "):
                    return int(line.split()[1])
        except OSError:
            pass
        return 0

    def pids(self) -> list[int]:
        """Every process in the group now."""
        try:
            return [int(x) for x in _read(f"{next(iter(self.dirs.values()))}/cgroup.procs").split()]
        except (OSError, ValueError):
            return []

    def kill(self) -> None:
        """SIGKILL every process in the group, whatever session or process group it made."""
        if not self.pids():  # an empty group cannot fork: nothing to do
            return
        if self.version == 2:
            with contextlib.suppress(OSError):
                _write(f"{self.dirs['unified']}/cgroup.kill", "1")
                return
        freezer = self.dirs.get("freezer")
        if freezer is not None:  # frozen, no process can fork while the group is emptied
            with contextlib.suppress(OSError):
                _write(f"{freezer}/freezer.state", "FROZEN")
        signalled: set[int] = set()
        for _ in range(100):  # frozen: one round finds them all; unfrozen: until none is new
            pids = set(self.pids()) - signalled
            if not pids:
                break
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            signalled |= pids
        if freezer is not None:  # thawed, the killed can die
            with contextlib.suppress(OSError):
                _write(f"{freezer}/freezer.state", "THAWED")

    def remove(self, wait_s: float = 0.0) -> bool:
        """Remove the group once it is empty; False when a process is still in it."""
        end = time.monotonic() + wait_s
        while True:
            try:
                for path in self.dirs.values():
                    with contextlib.suppress(FileNotFoundError):
                        os.rmdir(path)
                return True
            except OSError:
                if time.monotonic() >= end:
                    return False
                time.sleep(0.001)


def _own_groups() -> dict[str, str]:
    """This process's group path in each hierarchy (``/proc/self/cgroup``): v1 controllers by
    name, the unified hierarchy as ``unified``."""
    out: dict[str, str] = {}
    try:
        text = Path("/proc/self/cgroup").read_text()
    except OSError:
        return out
    for line in text.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if not controllers:
            out["unified"] = path
        for ctrl in controllers.split(","):
            if ctrl:
                out[ctrl] = path
    return out


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep_orphans(base: Path, version: int, ctrl: str) -> list[Path]:
    """Remove the groups a harness that died left below ``base`` in one hierarchy (``ctrl``;
    ``unified`` on v2): ``puzzlebench-<pid>`` whose pid is gone — a SIGKILLed Dask worker or
    runner never ran its cleanup. Each run group is killed and removed as the harness does its
    own (:meth:`RunCgroup.kill`, :meth:`RunCgroup.remove`); a live harness's groups are never
    touched. The parent groups removed."""
    removed: list[Path] = []
    for parent in sorted(base.glob("puzzlebench-*")):
        pid = parent.name.removeprefix("puzzlebench-")
        if not pid.isdigit() or int(pid) == os.getpid() or _alive(int(pid)):
            continue
        for group in sorted(parent.glob("run-*")):
            orphan = RunCgroup(version, {ctrl: group})
            orphan.kill()
            orphan.remove(wait_s=1.0)
        with contextlib.suppress(OSError):
            parent.rmdir()
            removed.append(parent)
    return removed


def _writable_parent(base: Path) -> Path | None:
    """A directory below ``base`` where this harness may make run groups (made now)."""
    parent = base / f"puzzlebench-{os.getpid()}"
    try:
        parent.mkdir(exist_ok=True)
        probe = parent / "probe"
        probe.mkdir()
        probe.rmdir()
    except OSError:
        return None
    return parent


def _v2_layout(root: Path, own: dict[str, str]) -> Layout | None:
    mount = root / "unified" if (root / "unified" / "cgroup.controllers").exists() else root
    controllers = mount / "cgroup.controllers"
    if not controllers.exists():
        return None
    base = mount / own.get("unified", "/").lstrip("/")
    try:  # what the harness's own group hands down to groups below it
        offered = set((base / "cgroup.subtree_control").read_text().split())
        if not {"cpu", "memory"} <= offered:  # possible only where base holds no process
            (base / "cgroup.subtree_control").write_text("+cpu +memory")
            offered = set((base / "cgroup.subtree_control").read_text().split())
    except OSError:
        return None
    if not {"cpu", "memory"} <= offered:
        return None
    parent = _writable_parent(base)
    if parent is None:
        return None
    wanted = [c for c in ("cpu", "memory", "cpuset", "pids") if c in offered]
    try:
        (parent / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in wanted))
    except OSError:
        return None
    return Layout(2, {"unified": parent})


def _v1_layout(root: Path, own: dict[str, str]) -> Layout | None:
    parents: dict[str, Path] = {}
    for ctrl in ("cpuacct", "memory", "cpuset", "freezer"):
        mount = root / ctrl
        if not (mount / "cgroup.procs").exists():
            if ctrl in ("cpuacct", "memory"):
                return None
            continue
        parent = _writable_parent(mount / own.get(ctrl, "/").lstrip("/"))
        if parent is None:
            if ctrl in ("cpuacct", "memory"):
                return None
            continue
        if ctrl == "cpuset":
            try:
                _inherit_cpuset(parent, None)
            except OSError:
                continue
        parents[ctrl] = parent
    return Layout(1, parents)


@lru_cache(maxsize=4)
def _detect(root: str) -> tuple[Layout | None, str]:
    if root == "off":
        return None, f"{ROOT_ENV}=off"
    path = Path(root)
    if not path.is_dir():
        return None, f"no cgroup file system at {root}"
    own = _own_groups()
    layout = _v2_layout(path, own) or _v1_layout(path, own)
    if layout is None:
        return None, f"no writable cgroup with cpu and memory accounting under {root}"
    for ctrl, parent in layout.parents.items():  # what dead harnesses left beside ours
        with contextlib.suppress(OSError):
            sweep_orphans(parent.parent, layout.version, ctrl)
    atexit.register(cleanup)
    return layout, ""


def detect() -> tuple[Layout | None, str]:
    """The layout runs are measured in, or None and why not (cached per root)."""
    return _detect(os.environ.get(ROOT_ENV, DEFAULT_ROOT))


def cleanup() -> None:
    """Remove this harness's (empty) parent groups; called at exit."""
    layout, _ = detect()
    if layout is None:
        return
    for parent in layout.parents.values():
        with contextlib.suppress(OSError):
            parent.rmdir()
