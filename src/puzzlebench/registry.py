"""The one registry of solvers: it drives the CLI, the conformance tests and the reports.

Solvers register with ``@register`` when their module is imported. ``discover()`` imports
every module of the solver packages (handwritten ones under ``puzzlebench.search``,
``puzzlebench.local``, ``puzzlebench.evolution``; references under ``puzzlebench.baselines``)
and the ``puzzlebench.solvers`` entry points, so a new solver is one new file and no other
edit. A user's solver also loads by reference: ``package.module:attr`` or
``path/to/file.py:attr`` (``plugin_loader``).

Capabilities as data live in ``solver_spec``; the on-disk index that lets ``get`` import just
the module defining a name (while the solver files are unchanged) in ``solver_index``.
Listing solvers (``all``) always discovers everything, so duplicates are still refused there,
and an index is only written by a discovery that found none.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import replace
from importlib.metadata import entry_points
from pathlib import Path

from puzzlebench.contract import Solver
from puzzlebench.external_program import (
    is_manifest,
    manifest_fingerprint,
    read_manifest,
    solver_class,
)
from puzzlebench.plugin_loader import PluginLoadError, load_attribute
from puzzlebench.solver_index import indexed_module, write_index
from puzzlebench.solver_spec import RegistryError, SolverSpec, spec_from_description, spec_of

SOLVER_PACKAGES: tuple[str, ...] = (
    "puzzlebench.baselines",
    "puzzlebench.search",
    "puzzlebench.local",
    "puzzlebench.evolution",
)
ENTRY_POINT_GROUP = "puzzlebench.solvers"

__all__ = ["ENTRY_POINT_GROUP", "REGISTRY", "SOLVER_PACKAGES", "Registry", "RegistryError",
           "SolverSpec", "load_reference", "register", "spec_from_description", "spec_of"]


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
            write_index({s.name: s.module for s in self._specs.values()
                         if any(s.module == p or s.module.startswith(p + ".")
                                for p in SOLVER_PACKAGES)}, SOLVER_PACKAGES, ENTRY_POINT_GROUP)

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
        if name in self._specs:  # already registered: no index look-up (it walks the tree)
            return self._specs[name]
        if not self._discovered and self._use_index and ":" not in name:
            module = indexed_module(name, SOLVER_PACKAGES, ENTRY_POINT_GROUP)
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
