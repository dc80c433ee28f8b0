"""Where a report may be written: a new or empty folder, or one the suite wrote before.

A report folder gets a marker file, :data:`MARKER`, when the suite first writes into it; a
folder that holds anything else and no marker is the user's own and is refused (``force``
replaces the report's files in it, nothing else) — unless it holds exactly what an earlier
puzzlebench wrote (report.md, report.html, figures/*.png, tables/*.csv, a store). The root,
system folders (and anything inside ``/etc``, ``/usr`` and the like) and home folders
themselves are refused whatever ``force`` says. Nothing is written through a symlink: each
file is written to a fresh temporary file in its folder and renamed over its name (a symlink
there is replaced, its target untouched), and a sub-folder that is a symlink is replaced by a
real folder.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from puzzlebench.problems.base import PuzzlebenchError

#: The file that says "the suite wrote this folder" (its text says so for a reader too).
MARKER = ".puzzlebench-report"
_MARKER_TEXT = "This folder holds a report puzzlebench wrote; it writes here again.\n"

#: Folders never written as a report folder, nor anything inside the first group.
SYSTEM_TREES = ("/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc",
                "/sbin", "/sys", "/usr")
SYSTEM_FOLDERS = ("/", "/home", "/root", "/media", "/mnt", "/opt", "/run", "/snap", "/srv",
                  "/tmp", "/var", "/var/tmp")


class ReportFolderError(PuzzlebenchError, ValueError):
    """A report folder that is not safe to write: a system folder, a home folder, or a
    non-empty folder the suite did not write."""


def _refused_place(real: Path) -> str:
    """Why ``real`` (a resolved path) may never hold a report; empty when it may."""
    text = str(real)
    if text in SYSTEM_FOLDERS or real.parent == Path("/home"):
        return "a system or home folder"
    if any(text == t or text.startswith(t + "/") for t in SYSTEM_TREES):
        return "inside a system folder"
    with contextlib.suppress(RuntimeError, KeyError):
        if real == Path.home().resolve():
            return "your home folder"
    return ""


#: What a report folder held before the marker existed (beside a ``study`` command's store).
_REPORT_FILES = {"report.md", "report.html"}
_REPORT_FOLDERS = {"figures": ".png", "tables": ".csv"}


def _earlier_report(folder: Path) -> bool:
    """Whether ``folder`` holds exactly what an earlier puzzlebench wrote there (report.md,
    report.html, figures/*.png, tables/*.csv, a study's store) and nothing else, no symlink."""
    if not folder.is_dir():
        return False
    names = set()
    for entry in folder.iterdir():
        names.add(entry.name)
        if entry.is_symlink():
            return False
        if entry.name in _REPORT_FILES and entry.is_file():
            continue
        if entry.name.endswith((".sqlite", ".sqlite-wal", ".sqlite-shm")) and entry.is_file():
            continue
        suffix = _REPORT_FOLDERS.get(entry.name)
        if suffix and entry.is_dir() and all(f.suffix == suffix and f.is_file()
                                             and not f.is_symlink() for f in entry.iterdir()):
            continue
        return False
    return _REPORT_FILES | {"tables"} <= names


def prepare_report_folder(out: str | Path, *, force: bool = False) -> Path:
    """The folder a report goes to, checked, made and marked; its resolved path.

    Raises ReportFolderError for a system or home folder, a file, or a non-empty folder
    without the marker (unless ``force``)."""
    real = Path(os.path.realpath(Path(out).expanduser()))
    why = _refused_place(real)
    if why:
        raise ReportFolderError(f"refusing to write a report into {str(out)!r}: it is {why}; "
                                "choose a folder of its own")
    if real.exists() and not real.is_dir():
        raise ReportFolderError(f"{str(out)!r} is not a folder")
    marker = real / MARKER
    ours = (marker.is_file() and not marker.is_symlink()) or _earlier_report(real)
    if real.is_dir() and not force and not ours and any(real.iterdir()):
        raise ReportFolderError(
            f"refusing to write a report into {str(out)!r}: it holds files puzzlebench did "
            f"not write (no {MARKER} in it); choose a new or empty folder, or pass --force "
            "to replace the report's files there")
    try:
        real.mkdir(parents=True, exist_ok=True)
        write_file(real, MARKER, _MARKER_TEXT.encode())
    except OSError as exc:
        raise ReportFolderError(f"cannot write to folder {str(out)!r}: "
                                f"{exc.strerror or exc}") from None
    return real


def subfolder(folder: Path, name: str) -> Path:
    """``folder/name`` as a real folder of its own: a symlink there is removed (never its
    target) and a folder made in its place."""
    path = folder / name
    if path.is_symlink():
        path.unlink()
    path.mkdir(exist_ok=True)
    return path


def write_file(folder: Path, name: str, data: bytes) -> Path:
    """Write ``data`` as ``folder/name`` without following a symlink or a hard link there: a
    fresh temporary file in ``folder`` renamed over the name."""
    if "/" in name or name in ("", ".", ".."):
        raise ReportFolderError(f"not a file name: {name[:80]!r}")
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix="-" + name[-40:])
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, folder / name)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return folder / name
