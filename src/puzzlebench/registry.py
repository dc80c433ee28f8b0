"""The one registry of solvers: it drives the CLI, the conformance tests and the reports.

Solvers register with ``@register`` when their module is imported. ``discover()`` imports
every module of the solver packages (handwritten ones under ``puzzlebench.search``,
``puzzlebench.local``, ``puzzlebench.evolution``; references under ``baselines``) and the
``puzzlebench.solvers`` entry points, so a new solver is one new file and no other edit.
A user's solver also loads by reference: ``package.module:attr`` or ``path/to/file.py:attr``.

Looking up one solver by name (``get``) need not import every module: after a full discovery
the global registry writes an index (solver name → module) to the cache directory, keyed by a
fingerprint of every solver module's path, size and modification time, the interpreter and
the entry points. While the fingerprint holds, ``get`` imports just the module that defines
the name; any change to the files or the plugins makes a new fingerprint, hence a full
discovery. Listing solvers (``all``) always discovers everything, so duplicates are still
refused there, and an index is only written by a discovery that found none.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import os
import pkgutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from importlib.metadata import entry_points
from pathlib import Path
from types import MappingProxyType
from typing import Any

from puzzlebench.cache_dir import cache_dir
from puzzlebench.code_fingerprint import fingerprint
from puzzlebench.contract import BUDGET_FIELDS, Param, Solver, resolve_params
from puzzlebench.external_program import (
    is_manifest,
    manifest_fingerprint,
    read_manifest,
    solver_class,
)
from puzzlebench.plugin_loader import PluginLoadError, load_attribute
from puzzlebench.problems import PROBLEMS
from puzzlebench.problems.base import PuzzlebenchError

SOLVER_PACKAGES: tuple[str, ...] = (
    "puzzlebench.baselines",
    "puzzlebench.search",
    "puzzlebench.local",
    "puzzlebench.evolution",
)
ENTRY_POINT_GROUP = "puzzlebench.solvers"


class RegistryError(PuzzlebenchError, ValueError):
    """Unknown or duplicate solver name, or a solver reference that does not load."""


@dataclass(frozen=True, slots=True)
class SolverSpec:
    """A registered solver's capabilities, as data.

    ``factory`` is the solver class where this process may run the solver's code; a plugin
    seen from the judge's process is only a description (``factory`` None, its capabilities
    read in a separate process) — see ``Registry.get``. ``reference`` is what loads it
    (a registered name or a plugin reference); ``fingerprint`` digests its code.
    """

    name: str
    factory: type[Solver] | None
    problems: frozenset[str]
    complete: bool
    exact: bool
    stochastic: bool
    counts: bool
    params: Mapping[str, Any]
    enumerates: bool
    origin: str
    summary: str = ""
    module: str = field(default="")
    honours: frozenset[str] = frozenset({"time_limit"})
    compiled: bool = False
    fingerprint: str = ""
    reference: str = ""
    counts_unique: bool = False
    count_max_n: int | None = None
    unavailable: str = ""
    traces: bool = False

    def create(self, **params: Any) -> Solver:
        """A configured solver instance (raises SolverConfigError on bad parameters)."""
        if self.factory is None:
            raise RegistryError(f"solver {self.name!r} is a plugin: its code runs only in a "
                                "run's own process (use the harness's run_solve/run_count)")
        return self.factory(**params)

    def check_params(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        """The full parameter set (defaults filled in, values coerced and range-checked) —
        without running any of the solver's code."""
        return resolve_params(self.name, self.params, params or {})

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "problems": sorted(self.problems),
            "complete": self.complete,
            "exact": self.exact,
            "stochastic": self.stochastic,
            "counts": self.counts,
            "enumerates": self.enumerates,
            "params": {k: v.default if isinstance(v, Param) else v for k, v in self.params.items()},
            "ranges": {k: [v.low, v.high] for k, v in self.params.items() if isinstance(v, Param)},
            "origin": self.origin,
            "summary": self.summary,
            "honours": sorted(self.honours),
            "compiled": self.compiled,
            "fingerprint": self.fingerprint,
            "counts_unique": self.counts_unique,
            "count_max_n": self.count_max_n,
            "unavailable": self.unavailable,
            "traces": self.traces,
        }


def spec_from_description(data: Mapping[str, Any], reference: str) -> SolverSpec:
    """A plugin's spec from the description its own process sent (checked like a class)."""
    try:
        name = data["name"]
        problems = frozenset(str(p) for p in data["problems"])
        params = dict(data.get("params", {}))
        for key, (low, high) in dict(data.get("ranges", {})).items():
            params[key] = Param(params[key], low, high)
        honours = frozenset(str(h) for h in data.get("honours", ["time_limit"]))
        spec = SolverSpec(
            name=str(name), factory=None, problems=problems, complete=bool(data["complete"]),
            exact=bool(data["exact"]), stochastic=bool(data["stochastic"]),
            counts=bool(data["counts"]), params=MappingProxyType(params),
            enumerates=bool(data["enumerates"]), origin="plugin",
            summary=str(data.get("summary", "")), module="", honours=honours,
            compiled=bool(data.get("compiled", False)),
            fingerprint=str(data.get("fingerprint", "")), reference=reference,
            counts_unique=bool(data.get("counts_unique", False)),
            count_max_n=None if data.get("count_max_n") is None else int(data["count_max_n"]),
            unavailable=str(data.get("unavailable", "")),
            traces=bool(data.get("traces", False)),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise RegistryError(f"solver {reference!r} describes itself badly: {exc}") from None
    if not spec.name or not spec.problems or spec.problems - set(PROBLEMS):
        raise RegistryError(
            f"solver {reference!r} must declare a name and problems among {sorted(PROBLEMS)}")
    return spec


def spec_of(cls: type[Solver], origin: str | None = None) -> SolverSpec:
    """Read a solver class's declared capabilities; refuses incomplete declarations."""
    if not (isinstance(cls, type) and issubclass(cls, Solver)):
        raise RegistryError(f"{cls!r} is not a puzzlebench Solver subclass")
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name:
        raise RegistryError(f"solver class {cls.__qualname__} declares no name")
    problems = frozenset(getattr(cls, "problems", frozenset()))
    unknown = problems - set(PROBLEMS)
    if not problems or unknown:
        raise RegistryError(
            f"solver {name!r} must declare problems among {sorted(PROBLEMS)} (got {sorted(problems)})"
        )
    module = cls.__module__
    if origin is None:
        if module.startswith("puzzlebench.baselines."):
            origin = "baseline"
        elif module.startswith("puzzlebench."):
            origin = "handwritten"
        else:
            origin = "plugin"
    doc = (cls.summary or (cls.__doc__ or "").strip().split("\n")[0]).strip()
    honours = frozenset(getattr(cls, "honours", frozenset({"time_limit"})))
    if honours - set(BUDGET_FIELDS):
        raise RegistryError(f"solver {name!r} declares unknown budget fields "
                            f"{sorted(honours - set(BUDGET_FIELDS))} (known: {list(BUDGET_FIELDS)})")
    return SolverSpec(
        name=name,
        factory=cls,
        problems=problems,
        complete=bool(cls.complete),
        exact=bool(cls.exact),
        stochastic=bool(cls.stochastic),
        counts=bool(cls.counts),
        params=MappingProxyType(dict(cls.params)),
        enumerates=cls.enumerate is not Solver.enumerate,
        origin=origin,
        summary=doc,
        module=module,
        honours=honours,
        compiled=bool(getattr(cls, "compiled", False)),
        fingerprint=fingerprint(cls),
        reference=name if origin != "plugin" else "",
        counts_unique=bool(getattr(cls, "counts_unique", False)),
        count_max_n=getattr(cls, "count_max_n", None),
        unavailable=str(getattr(cls, "unavailable", "")),
        traces=bool(getattr(cls, "traces", False)),
    )


class Registry:
    """Name → SolverSpec; refuses duplicate names.

    ``use_index``: look names up through the on-disk index (only meaningful for the registry
    that ``@register`` fills, the global one).
    """

    def __init__(self, *, use_index: bool = False) -> None:
        self._specs: dict[str, SolverSpec] = {}
        self._described: dict[str, SolverSpec] = {}
        self._discovered = False
        self._use_index = use_index

    def add(self, cls: type[Solver], origin: str | None = None) -> SolverSpec:
        spec = spec_of(cls, origin)
        existing = self._specs.get(spec.name)
        if existing is not None:
            if existing.factory is cls:
                return existing
            raise RegistryError(
                f"duplicate solver name {spec.name!r}: {existing.module} and {spec.module}"
            )
        self._specs[spec.name] = spec
        return spec

    def discover(self) -> None:
        """Import every solver module and entry point once."""
        if self._discovered:
            return
        self._discovered = True
        for package in SOLVER_PACKAGES:
            pkg = importlib.import_module(package)
            for info in pkgutil.walk_packages(pkg.__path__, prefix=f"{package}."):
                importlib.import_module(info.name)
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            obj = ep.load()
            if isinstance(obj, type) and issubclass(obj, Solver) and obj.name not in self._specs:
                self.add(obj, origin="plugin")
        if self._use_index:
            self._write_index()

    def get(self, name: str) -> SolverSpec:
        """A registered solver by name, or a plugin reference (``module:attr`` or
        ``file.py:attr``) described by its own process: the plugin's code never runs here."""
        if is_manifest(name) or name.endswith(".mzn"):
            return self._external(name, load=False)
        if ":" in name and name not in self._specs:
            if name not in self._described:
                from puzzlebench.harness.plugins import describe_reference

                self._described[name] = describe_reference(name)
            return self._described[name]
        return self.load(name)

    def _external(self, path: str, *, load: bool) -> SolverSpec:
        """A program's spec from its manifest, or a MiniZinc model's from its file (data
        only: the class is built from the file; the program runs only in a run's process)."""
        where = str(Path(path).resolve())
        if path.endswith(".mzn"):
            from puzzlebench.baselines.minizinc_user import model_class, model_fingerprint

            build, digest = model_class, model_fingerprint(path) if Path(path).is_file() else ""
        else:
            manifest = read_manifest(path)
            build, digest = solver_class, manifest_fingerprint(path, manifest["command"])
        if load:
            return replace(spec_of(build(path), origin="plugin"), reference=where,
                           fingerprint=digest)
        if where not in self._described:
            cls = build(path)  # built from data alone: no program code runs here
            self._described[where] = replace(spec_of(cls, origin="plugin"), factory=None,
                                             reference=where, fingerprint=digest)
        return self._described[where]

    def load(self, name: str) -> SolverSpec:
        """A solver whose code this process may run: registered, or a plugin imported here
        (only in a run's own process, or with ``isolate=False``)."""
        if is_manifest(name) or name.endswith(".mzn"):
            return self._external(name, load=True)
        if not self._discovered and self._use_index and ":" not in name:
            module = self._indexed_module(name)
            if module is not None:
                importlib.import_module(module)
                if name in self._specs:
                    return self._specs[name]
        self.discover()
        if name in self._specs:
            return self._specs[name]
        if ":" in name:
            spec = self.add(load_reference(name), origin="plugin")
            return replace(spec, reference=name)
        raise RegistryError(f"unknown solver {name!r}; see 'puzzlebench solvers'")

    def all(self, problem: str | None = None) -> list[SolverSpec]:
        """Every registered solver (for one problem, if given), sorted by name."""
        self.discover()
        specs = sorted(self._specs.values(), key=lambda s: s.name)
        return [s for s in specs if problem is None or problem in s.problems]

    def _index_path(self) -> Path | None:
        fingerprint = _modules_fingerprint()
        return None if fingerprint is None else cache_dir() / "registry" / f"{fingerprint}.json"

    def _indexed_module(self, name: str) -> str | None:
        try:
            path = self._index_path()
            if path is None or not path.is_file():
                return None
            module = json.loads(path.read_text(encoding="utf-8")).get(name)
        except (OSError, ValueError, AttributeError):
            return None
        return module if isinstance(module, str) else None

    def _write_index(self) -> None:
        index = {s.name: s.module for s in self._specs.values()
                 if any(s.module == p or s.module.startswith(p + ".") for p in SOLVER_PACKAGES)}
        try:
            path = self._index_path()
            if path is None:
                return
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(index, sort_keys=True), encoding="utf-8")
            os.replace(tmp, path)
        except OSError:  # a read-only cache only costs the next lookup a full discovery
            pass


def _modules_fingerprint() -> str | None:
    """A digest of every solver module (path, size, mtime), the interpreter and the entry
    points; None when a solver package cannot be found."""
    parts = [sys.prefix, sys.version]
    for package in SOLVER_PACKAGES:
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            return None
        for root in spec.submodule_search_locations:
            for dirpath, dirnames, filenames in os.walk(root):
                dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
                for fname in sorted(filenames):
                    if fname.endswith(".py"):
                        st = os.stat(os.path.join(dirpath, fname))
                        parts.append(f"{dirpath}/{fname}:{st.st_size}:{st.st_mtime_ns}")
    parts.extend(sorted(f"{ep.name}={ep.value}" for ep in entry_points(group=ENTRY_POINT_GROUP)))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:32]


def load_reference(ref: str) -> type[Solver]:
    """Load ``package.module:attr`` or ``path/to/file.py:attr`` as a Solver class."""
    try:
        obj = load_attribute(ref, "solver")
    except PluginLoadError as exc:
        raise RegistryError(str(exc)) from exc.__cause__
    if not (isinstance(obj, type) and issubclass(obj, Solver)):
        raise RegistryError(f"{ref!r} is not a puzzlebench Solver subclass")
    return obj


REGISTRY = Registry(use_index=True)


def register(cls: type[Solver]) -> type[Solver]:
    """Class decorator: add a solver to the global registry (duplicate names refused)."""
    REGISTRY.add(cls)
    return cls
