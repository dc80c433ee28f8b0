"""The Linux system calls a sealed run makes, through the C library (ctypes): namespaces,
mounts and their flags. ``harness.run.sealed.sandbox`` decides what to seal; this module only says
how to ask the kernel, and turns a refusal into a :class:`SandboxError`.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import signal
from functools import lru_cache

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
PR_SET_PDEATHSIG = 1
#: NOROOT, NO_SETUID_FIXUP, KEEP_CAPS (locked), NO_CAP_AMBIENT_RAISE: each set and locked.
SECURE_ALL_LOCKED = 0xEF
LINUX_CAPABILITY_VERSION_3 = 0x20080522
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1


class SandboxError(OSError):
    """The run could not be sealed (it runs unsealed under ``auto``, not at all under
    ``required``)."""


@lru_cache(maxsize=1)
def libc() -> ctypes.CDLL:
    """The C library's calls, from the symbols this process already has (``dlopen(NULL)``):
    ``ctypes.util.find_library`` would run ``ldconfig -p`` in a subprocess, a few ms on every
    one-shot command's path."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong,
                           ctypes.c_char_p]
    libc.unshare.argtypes = [ctypes.c_int]
    libc.syscall.restype = ctypes.c_long
    return libc


def die_with_parent() -> None:
    """Have the kernel SIGKILL this process when the thread that made it ends (its parent
    killed, say): no run outlives the fork server that forked it. Call it only in a child
    made by a process's main thread (the fork server, a keeper): the signal follows the
    thread, not the process. Best effort: without ``prctl`` nothing changes."""
    with contextlib.suppress(Exception):
        libc().prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def check(result: int, what: str) -> None:
    if result != 0:
        code = ctypes.get_errno()
        raise SandboxError(code, f"{what}: {os.strerror(code)}")


def mount(source: str | None, target: str, fstype: str | None, flags: int,
           data: str | None = None) -> None:
    check(libc().mount(source.encode() if source else None, target.encode(),
                         fstype.encode() if fstype else None, flags,
                         data.encode() if data else None), f"mount {target}")


class MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


def set_read_only(path: str, *, recursive: bool, read_only: bool = True) -> None:
    """Set (or clear) the read-only flag of the mount at ``path`` (and every mount below it)."""
    attr = MountAttr(MOUNT_ATTR_RDONLY if read_only else 0, 0 if read_only else MOUNT_ATTR_RDONLY)
    flags = AT_RECURSIVE if recursive else 0
    result = libc().syscall(SYS_MOUNT_SETATTR, AT_FDCWD, path.encode(), flags,
                             ctypes.byref(attr), ctypes.sizeof(attr))
    if result == 0:
        return
    code = ctypes.get_errno()
    if code not in (errno.ENOSYS, errno.EINVAL, errno.EPERM):
        raise SandboxError(code, f"mount_setattr {path}: {os.strerror(code)}")
    # an older kernel: remount each mount point, deepest last (locked flags kept)
    for point in mount_points(path) if recursive else [path]:
        flags = mount_flags(point) | MS_REMOUNT | MS_BIND
        flags = flags | MS_RDONLY if read_only else flags & ~MS_RDONLY
        with contextlib.suppress(SandboxError):  # a mount point hidden by another mount
            mount(None, point, None, flags)


def mount_points(below: str) -> list[str]:
    """The mount points at or below ``below``, from ``/proc/self/mountinfo``."""
    with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as fh:
        points = [line.split()[4].replace("\\040", " ") for line in fh]
    prefix = below.rstrip("/") + "/"
    return sorted({p for p in points if p == below or p.startswith(prefix)}, key=len)


def mount_flags(point: str) -> int:
    """The flags a remount of ``point`` must keep (a user namespace locks them)."""
    st = os.statvfs(point)
    flags = 0
    for bit, flag in ((os.ST_NOSUID, MS_NOSUID), (os.ST_NODEV, MS_NODEV),
                      (os.ST_NOEXEC, MS_NOEXEC), (os.ST_RDONLY, MS_RDONLY)):
        if st.f_flag & bit:
            flags |= flag
    return flags
