"""The one registry of solvers: the CLI, the conformance tests, the studies and the store's
re-judging (which solvers are exact or complete) read it; reports read records, never the registry.

Solvers register in two ways, and the registry names none of them. The handwritten solvers
(``puzzlebench.search``, ``puzzlebench.local``, ``puzzlebench.evolution``) register with
``@register`` when their module is imported: ``discover()`` imports every module of those
packages, so a new handwritten solver is one new file and no other edit. Every other solver —
the reference solvers of ``baselines/`` (the ``puzzlebench_baselines`` package) and a user's
installed package alike — is a class named by an entry point of the ``puzzlebench.solvers``
group; those of the ``puzzlebench`` distribution itself are the references (origin
``baseline``), the rest plugins. The registry is a name → spec map and nothing more: a user's
solver named by reference (``package.module:attr``, ``path/to/file.py:attr``, a TOML manifest,
a ``.mzn`` model) is resolved above it, in ``puzzlebench.solvers.locators`` (and, in the judge's
process, ``puzzlebench.harness.resolve``); the registry imports nothing of either.

Capabilities as data live in ``solver_spec``; the on-disk index that lets ``load`` import just
the module defining a name (while the solver files and entry points are unchanged) in
``solver_index``. Listing solvers (``all``) always discovers everything, so duplicates are
still refused there, and an index is only written by a discovery that found none.
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
from collections.abc import Iterable
from importlib.metadata import EntryPoint, entry_points

from puzzlebench.solvers.contract import Solver
from puzzlebench.solvers.index import (
    ENTRY_POINT_GROUP,
    SOLVER_PACKAGES,
    indexed_module,
    indexed_names,
    write_index,
)
from puzzlebench.solvers.spec import RegistryError, SolverSpec, spec_from_description, spec_of

#: The distribution whose own entry points are the reference solvers (origin ``baseline``).
REFERENCE_DISTRIBUTION = "puzzlebench"

__all__ = ["ENTRY_POINT_GROUP", "REGISTRY", "SOLVER_PACKAGES", "Registry", "RegistryError",
           "SolverSpec", "register", "spec_from_description", "spec_of"]


class Registry:
    """Name → SolverSpec; refuses duplicate names.

    ``use_index``: look names up through the on-disk index (only meaningful for the registry
    that ``@register`` fills, the global one). ``solver_entry_points``: the entry points to
    load instead of the installed ``puzzlebench.solvers`` group (tests: ``()`` gives the core
    alone). Another registry than the global one takes the handwritten solvers from it.
    """

    def __init__(self, *, use_index: bool = False,
                 solver_entry_points: Iterable[EntryPoint] | None = None) -> None:
        self._specs: dict[str, SolverSpec] = {}
        self._discovered = False
        self._use_index = use_index
        self._entry_points = None if solver_entry_points is None else tuple(solver_entry_points)

    def entry_points(self) -> tuple[EntryPoint, ...]:
        """The solver entry points this registry loads."""
        if self._entry_points is not None:
            return self._entry_points
        return tuple(entry_points(group=ENTRY_POINT_GROUP))

    def _load_entry_point(self, ep: EntryPoint) -> None:
        """Add the solver class an entry point names (the first of a name wins, as before)."""
        obj = ep.load()
        if isinstance(obj, type) and issubclass(obj, Solver) and obj.name not in self._specs:
            dist = getattr(ep, "dist", None)
            ours = dist is not None and dist.name == REFERENCE_DISTRIBUTION
            self.add(obj, origin="baseline" if ours else "plugin")

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
        if self is not REGISTRY:  # ``@register`` fills the global registry only
            for spec in REGISTRY._specs.values():
                if _in_packages(spec.module, SOLVER_PACKAGES) and spec.name not in self._specs:
                    self._specs[spec.name] = spec
        eps = self.entry_points()
        for ep in eps:
            self._load_entry_point(ep)
        if self._use_index:
            ep_modules = {ep.module for ep in eps}
            write_index({s.name: s.module for s in self._specs.values()
                         if _in_packages(s.module, SOLVER_PACKAGES) or s.module in ep_modules},
                        SOLVER_PACKAGES, ENTRY_POINT_GROUP)

    def known(self, name: str) -> bool:
        """Whether ``name`` is registered already (no discovery, no index look-up)."""
        return name in self._specs

    def find(self, name: str) -> SolverSpec | None:
        """The registered solver named ``name``, or None. Never raises; imports no solver
        module when the on-disk index (of the solver files and the entry points' modules as
        they are now) does not hold the name."""
        if name in self._specs:
            return self._specs[name]
        if not self._discovered and self._use_index:
            names = indexed_names(SOLVER_PACKAGES, ENTRY_POINT_GROUP)
            if names is not None and name not in names:
                return None
        try:
            return self.load(name)
        except RegistryError:
            return None

    def load(self, name: str) -> SolverSpec:
        """A registered solver by name (a reference to a plugin, a manifest or a model is
        resolved above the registry: ``puzzlebench.solvers.locators``)."""
        if name in self._specs:  # already registered: no index look-up (it walks the tree)
            return self._specs[name]
        if not self._discovered and self._use_index:
            module = indexed_module(name, SOLVER_PACKAGES, ENTRY_POINT_GROUP)
            if module is not None:
                eps = [ep for ep in self.entry_points() if ep.module == module]
                if not eps:
                    importlib.import_module(module)  # a handwritten solver's ``@register``
                for ep in eps:
                    self._load_entry_point(ep)
                if name in self._specs:
                    return self._specs[name]
        why = self.unknown(name)  # the index says no such name: nothing to load
        if why:
            raise RegistryError(why)
        self.discover()
        if name in self._specs:
            return self._specs[name]
        raise RegistryError(self._unknown_text(name, self._specs))

    def unknown(self, name: str) -> str:
        """Why ``name`` is no registered solver ("unknown solver …, did you mean …"), decided
        from the on-disk index without importing a solver module; "" when it is registered
        or when only loading could tell (no usable index)."""
        if name in self._specs:
            return ""
        names = (frozenset(self._specs) if self._discovered
                 else indexed_names(SOLVER_PACKAGES, ENTRY_POINT_GROUP) if self._use_index
                 else None)
        if names is None or name in names:
            return ""
        return self._unknown_text(name, names)

    @staticmethod
    def _unknown_text(name: str, names: Iterable[str]) -> str:
        close = difflib.get_close_matches(name, sorted(names), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return f"unknown solver {name!r}{hint}; see 'puzzlebench solvers'"

    def all(self, problem: str | None = None) -> list[SolverSpec]:
        """Every registered solver (for one problem, if given), sorted by name."""
        self.discover()
        specs = sorted(self._specs.values(), key=lambda s: s.name)
        return [s for s in specs if problem is None or problem in s.problems]


def _in_packages(module: str, packages: Iterable[str]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


REGISTRY = Registry(use_index=True)


def register(cls: type[Solver]) -> type[Solver]:
    """Class decorator: add a solver to the global registry (duplicate names refused)."""
    REGISTRY.add(cls)
    return cls
