"""What a sealed run sees of the file system: the OS, its Python, its own code, its scratch.

A sealed run (``harness.run.sealed.sandbox``) has a mount namespace of its own. In it, every
top-level directory that is not the operating system's (:data:`OS_DIRS`: ``/usr``, ``/etc``,
``/var``, …) is covered by an empty read-only tmpfs — ``/home``, ``/root``, ``/tmp``,
``/mnt``, ``/media``, a ``/work`` of checkouts, any other — and only what the run needs is
bound back, read-only, at its own path (:func:`plan_view`):

* the Python installation it runs in (``sys.prefix``, ``sys.base_prefix``, the interpreter);
* the import path (``sys.path``: the environment's site-packages, the project's sources);
* its own plugin: the folder of a plugin file or manifest, or the package it is installed as;
* for a project solver (trusted code) the suite's cache, whose tables it reads and fills;
* numba's cache folder when ``NUMBA_CACHE_DIR`` names one, read-only: compiled kernels only,
  which the primer filled before the run (without it every sealed run compiled while timed).

Then, wherever they are still visible, the judge's known answers are covered too: the data
folder (``problems/data``: published counts, Korf's optimal lengths) of every copy of the
package on the import path, the ``.git`` of any checkout around a visible folder (its history
holds the same files) and its worktrees' common directory, and — for a plugin — the suite's
cache (PUZZLEBENCH_CACHE: the 8-puzzle distance table, pattern databases). The run's
scratch is its private ``TMPDIR`` (``/dev/shm``). Top-level *files* and the OS folders stay
as they are (read-only).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from puzzlebench.harness.run.sealed.linux_calls import (
    MS_BIND,
    MS_NODEV,
    MS_NOEXEC,
    MS_NOSUID,
    MS_RDONLY,
    MS_REC,
    mount,
    set_read_only,
)

#: Top-level directories that are the operating system's: left visible (read-only).
OS_DIRS = frozenset({"bin", "boot", "dev", "etc", "lib", "lib32", "lib64", "libx32", "opt",
                     "proc", "run", "sbin", "snap", "srv", "sys", "usr", "var"})
#: A package's data folder, relative to an import-path entry: the judge's known answers.
DATA = Path("puzzlebench") / "problems" / "data"


@dataclass(frozen=True, slots=True)
class View:
    """A sealed run's file system: ``hidden`` top-level directories (an empty tmpfs each),
    ``visible`` directories bound back into them, ``covered`` paths hidden wherever they
    are still visible (folders under a tmpfs, files under ``/dev/null``)."""

    hidden: tuple[str, ...] = ()
    visible: tuple[str, ...] = ()
    covered: tuple[str, ...] = ()


def plan_view(solver_ref: str, *, project: bool, cache: str | None) -> View:
    """The view of a run of ``solver_ref`` (see the module doc); ``cache`` the suite's cache
    folder, visible to a project solver, covered for a plugin. Computed before sealing."""
    hidden = tuple(sorted(str(p) for p in Path("/").iterdir()
                          if p.name not in OS_DIRS and p.is_dir() and not p.is_symlink()
                          and _has_entries(p)))
    wanted = {sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix,
              str(Path(os.path.realpath(sys.executable)).parent)}
    wanted |= {entry for entry in sys.path if entry and os.path.isdir(entry)}
    plugin = _plugin_folders(solver_ref)
    wanted |= plugin
    numba_cache = os.environ.get("NUMBA_CACHE_DIR")
    if numba_cache and os.path.isdir(numba_cache):  # compiled kernels, no judge's data: a run
        wanted.add(numba_cache)                     # loads what the primer compiled (read-only)
    if project and cache:  # made now, while it can be: the solver fills it (pattern databases)
        with contextlib.suppress(OSError):
            os.makedirs(cache, exist_ok=True)
        wanted.add(cache)
    # the plugin's folder also where its reference reaches it (through a symlink: kept as is)
    visible = _outermost({os.path.realpath(p) for p in wanted if os.path.isdir(p)}
                         | {p for p in plugin if os.path.isdir(p)})
    covered: set[str] = set()
    for entry in {*sys.path, *visible}:
        if entry and (Path(entry) / DATA).is_dir():
            covered.add(str(Path(entry, DATA).resolve()))
    covered.add(str(Path(__file__).resolve().parents[2] / "problems" / "data"))
    for folder in visible:
        covered |= _git_dirs(Path(folder))
    if cache and not project:
        covered.add(os.path.realpath(cache))
    return View(hidden, tuple(visible), tuple(sorted(covered)))


def _has_entries(folder: Path) -> bool:
    """Whether ``folder`` shows anything (an empty or unreadable one needs no cover)."""
    try:
        with os.scandir(folder) as entries:
            return any(True for _ in entries)
    except OSError:
        return False


def _plugin_folders(ref: str) -> set[str]:
    """The folders a solver reference's own code comes from: each existing file it names
    (``file.py:Attr``, a manifest, ``mzn:model.mzn``), or a module's top-level package."""
    out: set[str] = set()
    parts = [ref, *ref.split(":")]
    for part in parts:
        path = Path(part)
        if part and path.exists():
            folder = path if path.is_dir() else path.parent
            out.add(str(folder.resolve()))
            # and where the reference reaches it, through a symlink too (a relative reference
            # resolves from the working folder, which the view keeps only as a path)
            out.add(os.path.abspath(folder))
    module = ref.rpartition(":")[0] or ref
    top = module.split(".")[0]
    if top.isidentifier() and not out:
        with contextlib.suppress(ImportError, ValueError):
            found = importlib.util.find_spec(top)
            if found is not None and found.submodule_search_locations:
                out.update(str(Path(p).resolve()) for p in found.submodule_search_locations)
            elif found is not None and found.origin and os.path.isfile(found.origin):
                out.add(str(Path(found.origin).resolve().parent))
    return out


def _outermost(paths: set[str]) -> list[str]:
    """``paths`` without those inside another of them (binding the outer one shows them)."""
    kept: list[str] = []
    for path in sorted(paths, key=len):
        if not any(path == k or path.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(path)
    return sorted(kept)


def _git_dirs(folder: Path) -> set[str]:
    """The ``.git`` of the checkout around ``folder`` (or inside it), and for a worktree its
    git directory and the common one: a checkout's history holds the judge's files."""
    out: set[str] = set()
    for place in (folder, *folder.parents):
        git = place / ".git"
        if not git.exists():
            continue
        out.add(str(git))
        if git.is_file():  # a worktree: "gitdir: <its directory>"; "commondir" in it
            with contextlib.suppress(OSError, ValueError):
                text = git.read_text(encoding="utf-8").strip()
                if text.startswith("gitdir:"):
                    own = (place / text.partition(":")[2].strip()).resolve()
                    out.add(str(own))
                    common = own / "commondir"
                    if common.is_file():
                        out.add(str((own / common.read_text().strip()).resolve()))
        break
    return out


def _under(path: str, roots: tuple[str, ...]) -> bool:
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


def apply_view(view: View) -> None:
    """Make ``view`` in this process's (new, private) mount namespace: called by the sandbox
    after every mount is read-only and before the run's own mounts (``/dev``, scratch)."""
    keep: list[tuple[str, int]] = []
    for path in view.visible:
        if _under(path, view.hidden):
            with contextlib.suppress(OSError):  # one the run could not open: nothing to show
                keep.append((path, os.open(path, os.O_PATH | os.O_DIRECTORY)))
    cwd = os.getcwd()
    for top in view.hidden:
        mount("tmpfs", top, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=755")
    for path, fd in keep:
        os.makedirs(path, exist_ok=True)  # a mount point in the (still writable) tmpfs
        mount(f"/proc/self/fd/{fd}", path, None, MS_BIND | MS_REC)
        set_read_only(path, recursive=True)
        os.close(fd)
    if _under(cwd, view.hidden):  # the run's working folder, as a path (a relative plugin
        with contextlib.suppress(OSError):  # reference still resolves), never its content
            os.makedirs(cwd, exist_ok=True)
    for top in view.hidden:
        set_read_only(top, recursive=False)
    for path in view.covered:
        if not os.path.lexists(path) or os.path.islink(path):
            continue
        if os.path.isdir(path):
            mount("tmpfs", path, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
                  "mode=555")
        else:
            mount("/dev/null", path, None, MS_BIND)
            set_read_only(path, recursive=False)
    with contextlib.suppress(OSError):  # the old working folder held the hidden tree open
        os.chdir(cwd if os.path.isdir(cwd) else "/")
