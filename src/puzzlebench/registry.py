"""The one registry of solvers: it drives the CLI, the conformance tests and the reports.

Solvers register with ``@register`` when their module is imported. ``discover()`` imports
every module of the solver packages (handwritten ones under ``puzzlebench.search``,
``puzzlebench.local``, ``puzzlebench.evolution``; references under ``puzzlebench.baselines``)
and the ``puzzlebench.solvers`` entry points, so a new solver is one new file and no other
edit. The registry is a name → spec map and nothing more: a user's solver named by reference
(``package.module:attr``, ``path/to/file.py:attr``, a TOML manifest, a ``.mzn`` model) is
resolved above it, in ``puzzlebench.references`` (and, in the judge's process,
``puzzlebench.harness.resolve``); the registry imports nothing of either.

Capabilities as data live in ``solver_spec``; the on-disk index that lets ``load`` import just
the module defining a name (while the solver files are unchanged) in ``solver_index``.
Listing solvers (``all``) always discovers everything, so duplicates are still refused there,
and an index is only written by a discovery that found none.
"""

from __future__ import annotations

import importlib
import pkgutil
from importlib.metadata import entry_points

from puzzlebench.contract import Solver
from puzzlebench.solver_index import indexed_module, indexed_names, write_index
from puzzlebench.solver_spec import RegistryError, SolverSpec, spec_from_description, spec_of

SOLVER_PACKAGES: tuple[str, ...] = (
    "puzzlebench.baselines",
    "puzzlebench.search",
    "puzzlebench.local",
    "puzzlebench.evolution",
)
ENTRY_POINT_GROUP = "puzzlebench.solvers"

__all__ = ["ENTRY_POINT_GROUP", "REGISTRY", "SOLVER_PACKAGES", "Registry", "RegistryError",
           "SolverSpec", "register", "spec_from_description", "spec_of"]


class Registry:
    """Name → SolverSpec; refuses duplicate names.

    ``use_index``: look names up through the on-disk index (only meaningful for the registry
    that ``@register`` fills, the global one).
    """

    def __init__(self, *, use_index: bool = False) -> None:
        self._specs: dict[str, SolverSpec] = {}
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

    def known(self, name: str) -> bool:
        """Whether ``name`` is registered already (no discovery, no index look-up)."""
        return name in self._specs

    def find(self, name: str) -> SolverSpec | None:
        """The registered solver named ``name``, or None. Never raises; imports no solver
        module when the on-disk index holds every project solver and no entry point exists."""
        if name in self._specs:
            return self._specs[name]
        if not self._discovered and self._use_index and not entry_points(
                group=ENTRY_POINT_GROUP):
            names = indexed_names(SOLVER_PACKAGES, ENTRY_POINT_GROUP)
            if names is not None and name not in names:
                return None
        try:
            return self.load(name)
        except RegistryError:
            return None

    def load(self, name: str) -> SolverSpec:
        """A registered solver by name (a reference to a plugin, a manifest or a model is
        resolved above the registry: ``puzzlebench.references``)."""
        if name in self._specs:  # already registered: no index look-up (it walks the tree)
            return self._specs[name]
        if not self._discovered and self._use_index:
            module = indexed_module(name, SOLVER_PACKAGES, ENTRY_POINT_GROUP)
            if module is not None:
                importlib.import_module(module)
                if name in self._specs:
                    return self._specs[name]
        self.discover()
        if name in self._specs:
            return self._specs[name]
        raise RegistryError(f"unknown solver {name!r}; see 'puzzlebench solvers'")

    def all(self, problem: str | None = None) -> list[SolverSpec]:
        """Every registered solver (for one problem, if given), sorted by name."""
        self.discover()
        specs = sorted(self._specs.values(), key=lambda s: s.name)
        return [s for s in specs if problem is None or problem in s.problems]


REGISTRY = Registry(use_index=True)


def register(cls: type[Solver]) -> type[Solver]:
    """Class decorator: add a solver to the global registry (duplicate names refused)."""
    REGISTRY.add(cls)
    return cls
