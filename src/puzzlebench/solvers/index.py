"""The registry's on-disk index: solver name → defining module, so looking up one solver by
name imports one module instead of all of them.

The index file is keyed by a fingerprint of every solver module's path, size and modification
time — the handwritten solver packages' and the top-level packages the solver entry points
name (the reference solvers of ``baselines/`` among them) — the interpreter and the entry points;
any change makes a new fingerprint, hence a full discovery (which writes a new index).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from collections.abc import Iterable
from importlib.metadata import entry_points
from pathlib import Path

from puzzlebench.host.cache_dir import cache_dir

#: The packages whose modules register the handwritten solvers (``@register``).
SOLVER_PACKAGES: tuple[str, ...] = (
    "puzzlebench.search",
    "puzzlebench.local",
    "puzzlebench.evolution",
)
#: The entry point group plugin packages (the reference solvers among them) register under.
ENTRY_POINT_GROUP = "puzzlebench.solvers"


def index_path(packages: Iterable[str], group: str) -> Path | None:
    """Where the index for the current solver files lives (None when a package is missing)."""
    digest = modules_fingerprint(packages, group)
    return None if digest is None else cache_dir() / "registry" / f"{digest}.json"


def indexed_module(name: str, packages: Iterable[str], group: str) -> str | None:
    """The module the index names for a solver (None: no usable index or no such name)."""
    try:
        path = index_path(packages, group)
        if path is None or not path.is_file():
            return None
        module = json.loads(path.read_text(encoding="utf-8")).get(name)
    except (OSError, ValueError, AttributeError):
        return None
    return module if isinstance(module, str) else None


def indexed_names(packages: Iterable[str], group: str) -> frozenset[str] | None:
    """Every name the index holds (None: no usable index)."""
    try:
        path = index_path(packages, group)
        if path is None or not path.is_file():
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return frozenset(data) if isinstance(data, dict) else None


def write_index(index: dict[str, str], packages: Iterable[str], group: str) -> None:
    """Write the index atomically; a read-only cache only costs the next lookup a discovery."""
    try:
        path = index_path(packages, group)
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(index, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass


def modules_fingerprint(packages: Iterable[str], group: str) -> str | None:
    """A digest of every solver module (path, size, mtime) of ``packages`` and of the top-level
    packages the entry points of ``group`` name, the interpreter and the entry points; None
    when a core solver package cannot be found."""
    parts = [sys.prefix, sys.version]
    eps = sorted(f"{ep.name}={ep.value}" for ep in entry_points(group=group))
    tops = sorted({ep.partition("=")[2].split(":")[0].split(".")[0] for ep in eps} - set(packages))
    for package in [*packages, *tops]:
        spec = importlib.util.find_spec(package)  # a top-level name or a core package: no plugin runs
        if spec is None and package in tops:  # a plugin not installed: discovery will say so
            parts.append(f"{package}:absent")
            continue
        if spec is None:
            return None
        if not spec.submodule_search_locations:  # a plugin module of one file
            parts.append(_stat(spec.origin or package))
            continue
        for root in spec.submodule_search_locations:
            for dirpath, dirnames, filenames in os.walk(root):
                dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
                parts.extend(_stat(os.path.join(dirpath, fname))
                             for fname in sorted(filenames) if fname.endswith(".py"))
    parts.extend(eps)
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:32]


def _stat(path: str) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return f"{path}:absent"
    return f"{path}:{st.st_size}:{st.st_mtime_ns}"
