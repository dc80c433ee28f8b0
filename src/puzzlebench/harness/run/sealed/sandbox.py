"""A sealed run: Linux namespaces around a run's process, made before any solver code is loaded.

A run's process is an ordinary process of the harness's user; unsealed, it could see and touch
the harness (its ``/proc/<pid>/fd``, its command line, its signals), its sibling runs, the store
and the judge's cached tables. Where the machine allows, :func:`seal` closes all of that, in the
run's own process, right after it joined its cgroup and before the solver is imported:

* new PID, mount, network, IPC and UTS namespaces (``unshare``; with a user namespace as well
  when the harness is not root). A PID namespace applies to children only. Locally, as root,
  the fork server makes it as it forks the run (:func:`enter_pid_namespace`): the run is PID 2,
  the namespace's init (PID 1, a spawned ``sleep infinity``) is killed by the server when the
  run has ended. Elsewhere the process the harness made becomes the run's *keeper*, outside
  the namespace (its pid, process group and cgroup are the ones the harness accounts for): it
  spawns the init and forks the run, waits for it, kills the init, and ends as the run ended
  (its status or signal). Either way, when init dies the kernel kills every process left in
  the namespace, whatever sessions it made; the cgroup kill covers them too;
* every mount read-only (``mount_setattr`` recursively; on older kernels one remount per mount
  point), so the store, the cache (judge tables, BFS distances, pattern databases), ``/tmp``
  and the rest of the file system cannot be written; and only the OS, the run's Python, its
  own code and (for a project solver) the cache stay visible: home folders, ``/tmp``,
  checkouts and their ``.git``, other environments, the judge's data folders are covered
  (``harness.run.sealed_view``); a private, writable temporary directory (``/dev/shm``, ``TMPDIR``), freed
  with the run; ``/run`` (daemons' sockets) hidden; the judge's own data (published counts,
  ``problems.known_counts``) an empty directory; a ``/dev`` with only ``null``, ``zero``,
  ``full``, ``random`` and ``urandom``; a ``/proc`` of the run's own namespace (``/proc/sys``
  read-only);
* no network: a network namespace with only a loopback device;
* no capabilities, and no way to gain any (``PR_SET_NO_NEW_PRIVS``): the run can neither remount
  nor mount, nor raise a limit, even as root.

Project solvers (trusted code) may be given writable directories (``SandboxPlan.writable``: the
pattern-database cache, which they fill); a plugin never is.

Where namespaces are not available (``unshare`` refused: no privilege, a container's seccomp
policy, a kernel without them), the run goes on as before (``auto``) and says why — the record's
``sandbox`` is then ``none`` — or refuses to start (``required``). Written with ``ctypes`` on the
C library (Python 3.11 has no ``os.unshare``): a few system calls made in the run's own process,
which BenchExec's container mode (built to run a command line in a container of its own making)
would replace with a dependency and an ``exec``.

Numba's on-disk caches sit in the (now read-only) source tree: in a sealed run, cached kernels
load as before and new compilations stay in memory (:func:`harness.run.numba_kernels.read_only_caches`).
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import fcntl
import os
import socket
import struct
import tempfile
from dataclasses import dataclass
from functools import lru_cache

from puzzlebench.harness.run.inside.numba_kernels import read_only_caches
from puzzlebench.harness.run.sealed.linux_calls import (
    CLONE_NEWPID,
    CLONE_NEWUSER,
    IFF_UP,
    LINUX_CAPABILITY_VERSION_3,
    MS_BIND,
    MS_NODEV,
    MS_NOEXEC,
    MS_NOSUID,
    MS_PRIVATE,
    MS_RDONLY,
    MS_REC,
    NAMESPACES,
    PR_SET_NO_NEW_PRIVS,
    PR_SET_SECUREBITS,
    SECURE_ALL_LOCKED,
    SIOCGIFFLAGS,
    SIOCSIFFLAGS,
    SandboxError,
    check,
    libc,
    mount,
    set_read_only,
)
from puzzlebench.harness.run.sealed.pid_namespace import keep, start_init
from puzzlebench.harness.run.sealed.sealed_view import View, apply_view
from puzzlebench.problems.known_counts import JUDGE_DATA

#: ``--sandbox`` values: seal where possible, refuse to run unsealed, never seal.
MODES = ("auto", "required", "off")
#: Environment variable: the default mode (the command-line option wins).
MODE_ENV = "PUZZLEBENCH_SANDBOX"
#: The record's ``sandbox`` values.
SEALED, NONE = "namespaces", "none"

#: The device nodes a sealed run keeps.
DEVICES = ("null", "zero", "full", "random", "urandom")


@dataclass(frozen=True, slots=True)
class SandboxPlan:
    """How a run is sealed: ``mode`` (one of :data:`MODES`) and the directories the run may
    write besides its private ``TMPDIR`` (made if missing; a project solver's caches only)."""

    mode: str = "auto"
    writable: tuple[str, ...] = ()
    #: What of the file system the run sees (``harness.run.sealed_view``); None: all of it,
    #: read-only, the judge's data hidden.
    view: View | None = None


@dataclass(frozen=True, slots=True)
class Sealed:
    """What :func:`seal` did: ``status`` :data:`SEALED` or :data:`NONE`, and why not."""

    status: str
    why: str = ""


def default_mode() -> str:
    """``$PUZZLEBENCH_SANDBOX`` when it names a mode, else ``auto``."""
    mode = os.environ.get(MODE_ENV, "auto").strip().lower()
    return mode if mode in MODES else "auto"


def check_mode(mode: str | None) -> str:
    """A mode from a flag or a study file (None: the default); ValueError names the choices."""
    if mode is None:
        return default_mode()
    if mode not in MODES:
        raise ValueError(f"sandbox must be one of {', '.join(MODES)}, got {mode!r}")
    return mode


# -- sealing -------------------------------------------------------------------------------

def seal(plan: SandboxPlan, *, in_pid_namespace: bool = False) -> Sealed:
    """Seal this process (see the module docstring); returns in the process that is to load
    the solver — PID 2 of a new PID namespace, or this same process when unsealed.
    ``in_pid_namespace``: this process was forked as PID 2 of a new PID namespace already (by
    the fork server, :func:`enter_pid_namespace`), so no keeper and no fork are needed.

    Under ``required`` a failure raises SandboxError; under ``auto`` it returns :data:`NONE`
    and the reason. Call it after the run's descriptors are in place and before any solver code.
    """
    if plan.mode == "off":
        return Sealed(NONE, "the sandbox is off")
    try:
        return _seal(plan, in_pid_namespace)
    except SandboxError as exc:
        if plan.mode == "required":
            raise
        return Sealed(NONE, str(exc))


def _seal(plan: SandboxPlan, in_pid_namespace: bool) -> Sealed:
    uid, gid = os.geteuid(), os.getegid()
    flags = NAMESPACES | (CLONE_NEWUSER if uid != 0 else 0)
    if in_pid_namespace:
        flags &= ~CLONE_NEWPID
    for path in plan.writable:  # made now, while the file system can be written
        with contextlib.suppress(OSError):
            os.makedirs(path, exist_ok=True)
    check(libc().unshare(flags), "unshare")
    if uid != 0:
        _map_user(uid, gid)
    failed = ""
    try:
        _seal_mounts(plan)
        _loopback_up()
    except (SandboxError, OSError) as exc:
        if plan.mode == "required":
            raise SandboxError(exc.errno or errno.EPERM, f"sealing the run: {exc}") from None
        failed = str(exc)
    if not in_pid_namespace:
        _seal_fds()
        init = start_init()
        run = os.fork()
        if run != 0:  # the keeper: outside the namespace, the process the harness accounts for
            keep(run, init)
    try:  # the run (PID 2): a /proc of its own namespace, then no privilege at all
        _mount_proc()
    except (SandboxError, OSError) as exc:
        if plan.mode == "required":
            raise SandboxError(exc.errno or errno.EPERM, f"sealing the run: {exc}") from None
        failed = failed or str(exc)
    _drop_capabilities()
    _private_environment()
    return Sealed(NONE, failed) if failed else Sealed(SEALED)


def _seal_fds() -> None:
    """The run's pipes reach neither init nor any program the run executes (close-on-exec)."""
    for fd in (int(name) for name in os.listdir("/proc/self/fd")):
        if fd > 2:
            with contextlib.suppress(OSError):
                os.set_inheritable(fd, False)


def _mount_proc() -> None:
    """A /proc of the run's own PID namespace (mounted from inside it), ``/proc/sys`` and the
    like read-only."""
    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    for part in ("/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs"):
        if os.path.exists(part):
            mount(part, part, None, MS_BIND | MS_REC)
            set_read_only(part, recursive=True)


def _map_user(uid: int, gid: int) -> None:
    """Map the harness's user onto itself in the new user namespace."""
    with contextlib.suppress(OSError), open("/proc/self/setgroups", "w", encoding="ascii") as fh:
        fh.write("deny")
    for name, ident in (("uid_map", uid), ("gid_map", gid)):
        try:
            with open(f"/proc/self/{name}", "w", encoding="ascii") as fh:
                fh.write(f"{ident} {ident} 1")
        except OSError as exc:
            raise SandboxError(exc.errno or errno.EPERM, f"writing {name}: {exc}") from None


#: The run's private, writable temporary directory (``TMPDIR``): a tmpfs of its own, freed
#: with the run. ``/tmp`` itself stays visible (read-only): plugins and data may live there.
PRIVATE_TMP = "/dev/shm"


def _seal_mounts(plan: SandboxPlan) -> None:
    """Inside the new mount namespace: no propagation, everything read-only, then the run's
    private places."""
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    # held open: the new /dev hides the device nodes, and a writable directory is bound anew
    nodes = [(name, os.open(f"/dev/{name}", os.O_PATH)) for name in DEVICES
             if os.path.exists(f"/dev/{name}")]
    writable = [(path, os.open(path, os.O_PATH | os.O_DIRECTORY)) for path in plan.writable
                if os.path.isdir(path)]
    set_read_only("/", recursive=True)
    if plan.view is not None:  # home folders, /tmp, checkouts, caches, the judge's data
        apply_view(plan.view)
    # a /dev of a few harmless nodes (no disk, no terminal), and a private /dev/shm
    mount("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=755")
    for name, fd in nodes:
        open(f"/dev/{name}", "w").close()  # an empty mount point
        mount(f"/proc/self/fd/{fd}", f"/dev/{name}", None, MS_BIND)
        os.close(fd)
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                         ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
        os.symlink(target, f"/dev/{name}")
    os.mkdir(PRIVATE_TMP)
    mount("tmpfs", PRIVATE_TMP, "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777")
    if os.path.isdir("/run") and not os.path.islink("/run"):  # daemons' sockets, out of reach
        mount("tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=755")
    for path, fd in writable:
        mount(f"/proc/self/fd/{fd}", path, None, MS_BIND)
        set_read_only(path, recursive=False, read_only=False)
        os.close(fd)
    if JUDGE_DATA.is_dir():  # the judge's known answers: an empty directory to the run
        mount("tmpfs", str(JUDGE_DATA), "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
               "mode=555")


def _loopback_up() -> None:
    """The new network namespace's loopback device, up (no other device exists)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        ifreq = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(sock, SIOCGIFFLAGS, ifreq))[1]
        fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))


def _drop_capabilities() -> None:
    """No capability now or after an ``exec`` (root's ``exec`` grants none: ``SECBIT_NOROOT``,
    locked), no privilege gained by set-user-ID programs or file capabilities."""
    c = libc()
    check(c.prctl(PR_SET_SECUREBITS, SECURE_ALL_LOCKED, 0, 0, 0),
          "prctl(PR_SET_SECUREBITS)")
    check(c.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")
    header = struct.pack("<Ii", LINUX_CAPABILITY_VERSION_3, 0)
    data = bytes(24)  # effective, permitted, inheritable: empty (two 32-bit words each)
    head_buf = ctypes.create_string_buffer(header, len(header))
    data_buf = ctypes.create_string_buffer(data, len(data))
    check(c.syscall(126 if _is_x86_64() else 91, head_buf, data_buf), "capset")


@lru_cache(maxsize=1)
def _is_x86_64() -> bool:
    return os.uname().machine in ("x86_64", "amd64")


def _private_environment() -> None:
    """``TMPDIR`` is the run's private temporary directory; numba's caches are read-only."""
    os.environ["TMPDIR"] = PRIVATE_TMP
    tempfile.tempdir = None
    read_only_caches(PRIVATE_TMP)


# -- the harness's side ------------------------------------------------------------------------

def namespaces_of(pid: int) -> dict[str, str]:
    """The namespaces of process ``pid`` as the kernel names them (``pid`` here means the
    namespace its children are made in)."""
    out = {}
    for name in ("mnt", "net", "pid_for_children"):
        with contextlib.suppress(OSError):
            out[name] = os.readlink(f"/proc/{pid}/ns/{name}")
    return out


def verify(pid: int) -> bool:
    """Whether the run whose keeper is ``pid`` is in mount, network and PID namespaces of its
    own — seen from outside, so that a run cannot claim a sandbox it does not have."""
    theirs, ours = namespaces_of(pid), namespaces_of(os.getpid())
    return len(theirs) == 3 and all(theirs[k] != ours.get(k) for k in theirs)


@lru_cache(maxsize=1)
def available() -> tuple[bool, str]:
    """Whether runs can be sealed on this machine (tried once, in a throwaway process)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            sealed = seal(SandboxPlan("auto"))
            os.write(write, (sealed.status + "\n" + sealed.why).encode()[:4000])
        finally:
            os._exit(0)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 4096):
        chunks.append(chunk)
    os.close(read)
    os.waitpid(pid, 0)
    status, _, why = b"".join(chunks).decode(errors="replace").partition("\n")
    if status == SEALED:
        return True, ""
    return False, why or "the sandbox probe failed"
