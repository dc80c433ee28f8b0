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
  and the rest of the file system cannot be written (they stay readable: a plugin file may
  live anywhere); a private, writable temporary directory (``/dev/shm``, ``TMPDIR``), freed
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
load as before and new compilations stay in memory (:func:`_numba_read_only`).
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import fcntl
import os
import shutil
import signal
import socket
import struct
import sys
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from typing import NoReturn

from puzzlebench.problems.known_counts import JUDGE_DATA

#: ``--sandbox`` values: seal where possible, refuse to run unsealed, never seal.
MODES = ("auto", "required", "off")
#: Environment variable: the default mode (the command-line option wins).
MODE_ENV = "PUZZLEBENCH_SANDBOX"
#: The record's ``sandbox`` values.
SEALED, NONE = "namespaces", "none"

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
NAMESPACES = CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWPID | CLONE_NEWNET

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_MOVE, MS_REC, MS_PRIVATE = 32, 4096, 8192, 16384, 1 << 18
MOUNT_ATTR_RDONLY = 0x1
AT_FDCWD, AT_RECURSIVE = -100, 0x8000
SYS_MOUNT_SETATTR = 442  # the same number on every architecture (Linux ≥ 5.12)
PR_SET_SECUREBITS, PR_SET_NO_NEW_PRIVS = 28, 38
#: NOROOT, NO_SETUID_FIXUP, KEEP_CAPS (locked), NO_CAP_AMBIENT_RAISE: each set and locked.
SECURE_ALL_LOCKED = 0xEF
LINUX_CAPABILITY_VERSION_3 = 0x20080522
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
#: The device nodes a sealed run keeps.
DEVICES = ("null", "zero", "full", "random", "urandom")


class SandboxError(OSError):
    """The run could not be sealed (it runs unsealed under ``auto``, not at all under
    ``required``)."""


@dataclass(frozen=True, slots=True)
class SandboxPlan:
    """How a run is sealed: ``mode`` (one of :data:`MODES`) and the directories the run may
    write besides its private ``TMPDIR`` (made if missing; a project solver's caches only)."""

    mode: str = "auto"
    writable: tuple[str, ...] = ()


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


# -- the C library ----------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
    libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong,
                           ctypes.c_char_p]
    libc.unshare.argtypes = [ctypes.c_int]
    libc.syscall.restype = ctypes.c_long
    return libc


def _check(result: int, what: str) -> None:
    if result != 0:
        code = ctypes.get_errno()
        raise SandboxError(code, f"{what}: {os.strerror(code)}")


def _mount(source: str | None, target: str, fstype: str | None, flags: int,
           data: str | None = None) -> None:
    _check(_libc().mount(source.encode() if source else None, target.encode(),
                         fstype.encode() if fstype else None, flags,
                         data.encode() if data else None), f"mount {target}")


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


def _set_read_only(path: str, *, recursive: bool, read_only: bool = True) -> None:
    """Set (or clear) the read-only flag of the mount at ``path`` (and every mount below it)."""
    attr = _MountAttr(MOUNT_ATTR_RDONLY if read_only else 0, 0 if read_only else MOUNT_ATTR_RDONLY)
    flags = AT_RECURSIVE if recursive else 0
    result = _libc().syscall(SYS_MOUNT_SETATTR, AT_FDCWD, path.encode(), flags,
                             ctypes.byref(attr), ctypes.sizeof(attr))
    if result == 0:
        return
    code = ctypes.get_errno()
    if code not in (errno.ENOSYS, errno.EINVAL, errno.EPERM):
        raise SandboxError(code, f"mount_setattr {path}: {os.strerror(code)}")
    # an older kernel: remount each mount point, deepest last (locked flags kept)
    for point in _mount_points(path) if recursive else [path]:
        flags = _mount_flags(point) | MS_REMOUNT | MS_BIND
        flags = flags | MS_RDONLY if read_only else flags & ~MS_RDONLY
        with contextlib.suppress(SandboxError):  # a mount point hidden by another mount
            _mount(None, point, None, flags)


def _mount_points(below: str) -> list[str]:
    """The mount points at or below ``below``, from ``/proc/self/mountinfo``."""
    with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as fh:
        points = [line.split()[4].replace("\\040", " ") for line in fh]
    prefix = below.rstrip("/") + "/"
    return sorted({p for p in points if p == below or p.startswith(prefix)}, key=len)


def _mount_flags(point: str) -> int:
    """The flags a remount of ``point`` must keep (a user namespace locks them)."""
    st = os.statvfs(point)
    flags = 0
    for bit, flag in ((os.ST_NOSUID, MS_NOSUID), (os.ST_NODEV, MS_NODEV),
                      (os.ST_NOEXEC, MS_NOEXEC), (os.ST_RDONLY, MS_RDONLY)):
        if st.f_flag & bit:
            flags |= flag
    return flags


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
    _check(_libc().unshare(flags), "unshare")
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
        init = _start_init()
        run = os.fork()
        if run != 0:  # the keeper: outside the namespace, the process the harness accounts for
            _keep(run, init)
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


def _start_init() -> int:
    """PID 1 of the new PID namespace: ``sleep infinity``, spawned (no copy of this process's
    memory; a fork where there is no ``sleep``). Its death ends every process of the namespace."""
    sleep = shutil.which("sleep")
    if sleep is not None:
        null = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
        try:
            return os.posix_spawn(sleep, [sleep, "infinity"], {}, file_actions=[
                (os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, null, 1),
                (os.POSIX_SPAWN_DUP2, null, 2)], setsigdef=(signal.SIGINT, signal.SIGTERM))
        except OSError:
            pass
        finally:
            os.close(null)
    init = os.fork()
    if init == 0:
        try:
            os.closerange(0, 65536)
            signal.signal(signal.SIGCHLD, lambda *_: None)  # so that pause() wakes to reap
            while True:  # reap whatever is orphaned to it, until killed
                with contextlib.suppress(ChildProcessError, InterruptedError):
                    os.wait()
                signal.pause()
        finally:
            os._exit(0)
    return init


def _mount_proc() -> None:
    """A /proc of the run's own PID namespace (mounted from inside it), ``/proc/sys`` and the
    like read-only."""
    _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    for part in ("/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs"):
        if os.path.exists(part):
            _mount(part, part, None, MS_BIND | MS_REC)
            _set_read_only(part, recursive=True)


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
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    # held open: the new /dev hides the device nodes, and a writable directory is bound anew
    nodes = [(name, os.open(f"/dev/{name}", os.O_PATH)) for name in DEVICES
             if os.path.exists(f"/dev/{name}")]
    writable = [(path, os.open(path, os.O_PATH | os.O_DIRECTORY)) for path in plan.writable
                if os.path.isdir(path)]
    _set_read_only("/", recursive=True)
    # a /dev of a few harmless nodes (no disk, no terminal), and a private /dev/shm
    _mount("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=755")
    for name, fd in nodes:
        open(f"/dev/{name}", "w").close()  # an empty mount point
        _mount(f"/proc/self/fd/{fd}", f"/dev/{name}", None, MS_BIND)
        os.close(fd)
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                         ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
        os.symlink(target, f"/dev/{name}")
    os.mkdir(PRIVATE_TMP)
    _mount("tmpfs", PRIVATE_TMP, "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777")
    if os.path.isdir("/run") and not os.path.islink("/run"):  # daemons' sockets, out of reach
        _mount("tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=755")
    for path, fd in writable:
        _mount(f"/proc/self/fd/{fd}", path, None, MS_BIND)
        _set_read_only(path, recursive=False, read_only=False)
        os.close(fd)
    if JUDGE_DATA.is_dir():  # the judge's known answers: an empty directory to the run
        _mount("tmpfs", str(JUDGE_DATA), "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
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
    libc = _libc()
    _check(libc.prctl(PR_SET_SECUREBITS, SECURE_ALL_LOCKED, 0, 0, 0),
           "prctl(PR_SET_SECUREBITS)")
    _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")
    header = struct.pack("<Ii", LINUX_CAPABILITY_VERSION_3, 0)
    data = bytes(24)  # effective, permitted, inheritable: empty (two 32-bit words each)
    head_buf = ctypes.create_string_buffer(header, len(header))
    data_buf = ctypes.create_string_buffer(data, len(data))
    _check(libc.syscall(126 if _is_x86_64() else 91, head_buf, data_buf), "capset")


@lru_cache(maxsize=1)
def _is_x86_64() -> bool:
    return os.uname().machine in ("x86_64", "amd64")


def _private_environment() -> None:
    """``TMPDIR`` is the run's private temporary directory; numba's caches are read-only."""
    os.environ["TMPDIR"] = PRIVATE_TMP
    tempfile.tempdir = None
    _numba_read_only()


def _numba_read_only() -> None:
    """Numba's in-tree caches can no longer be written: cached kernels load, new ones stay in
    memory. Numba refuses ``cache=True`` functions whose cache directory it cannot write, and
    fails a compilation whose result it cannot save; both are relaxed in this process only."""
    caching = sys.modules.get("numba.core.caching")
    if caching is None:
        # numba not loaded yet: point its cache at the private TMPDIR (kernels compile anew)
        os.environ.setdefault("NUMBA_CACHE_DIR", f"{PRIVATE_TMP}/numba-cache")
        return
    locator = caching._CacheLocator
    ensure = locator.ensure_cache_path

    def ensure_cache_path(self: object) -> None:
        with contextlib.suppress(OSError):
            ensure(self)

    locator.ensure_cache_path = ensure_cache_path
    save = caching.Cache.save_overload

    def save_overload(self: object, sig: object, data: object) -> None:
        with contextlib.suppress(OSError):
            save(self, sig, data)

    caching.Cache.save_overload = save_overload


def _keep(run: int, init: int) -> NoReturn:
    """The keeper: wait for the run, end its namespace (init's death kills whatever the run
    left), then end as the run ended — its exit status or its signal — so the harness sees the
    run's own end, and its resource usage covers the run."""
    try:
        os.closerange(0, 65536)
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
            signal.signal(sig, signal.SIG_IGN)
        status = 70 << 8
        while True:
            try:
                _, status = os.waitpid(run, 0)
                break
            except InterruptedError:
                continue
            except ChildProcessError:
                break
        with contextlib.suppress(OSError):
            os.kill(init, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.waitpid(init, 0)
        _end_as(status)
    finally:
        os._exit(70)


def _end_as(status: int) -> NoReturn:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        with contextlib.suppress(OSError, ValueError):
            signal.signal(sig, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {sig})
            os.kill(os.getpid(), sig)
        os._exit(128 + sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 70)


# -- the fork server's side ---------------------------------------------------------------------

def enter_pid_namespace() -> int:
    """Make this process's next child PID 2 of a new PID namespace (the fork server, as root,
    before forking a run: the run then needs no keeper and no fork of its own). Returns the
    namespace's init, which the caller kills when the run has ended; :func:`leave_pid_namespace`
    after the fork. Raises SandboxError where it cannot."""
    if os.geteuid() != 0:  # a user namespace would be the server's own, for good
        raise SandboxError(errno.EPERM, "a PID namespace per run needs root in the fork server")
    _own_pid_namespace()
    _check(_libc().unshare(CLONE_NEWPID), "unshare(CLONE_NEWPID)")
    try:
        return _start_init()
    except OSError:
        leave_pid_namespace()
        raise


def leave_pid_namespace() -> None:
    """This process's children are made in its own PID namespace again."""
    _check(_libc().setns(_own_pid_namespace(), CLONE_NEWPID), "setns(CLONE_NEWPID)")


@lru_cache(maxsize=1)
def _own_pid_namespace() -> int:
    return os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)


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
