"""Solver locators: everything ``--solver`` accepts besides a registered name (the word
"reference" is kept for the reference solvers; see the glossary).

A *kind* of locator (a TOML manifest, a Python ``module:attr`` or ``file.py:attr``, a
MiniZinc model) is an object with ``claims(ref)``, ``load(ref)`` and, for kinds whose loading
runs no code of the reference (``runs_code`` False), ``describe(ref)``. The core's kinds are
the modules of this package that define ``KIND`` (found by scanning it); a package brings its
own through an entry point of the ``puzzlebench.references`` group naming such an object — the
MiniZinc model kind arrives that way, with the MiniZinc adapter in ``baselines/``. Either way a
new kind is no edit to the registry, which stays a plain name → spec map.

``load_solver`` is for a process that may run the solver's code (a run's own process, or an
unisolated run); the judge's process resolves every ``--solver`` string through
``puzzlebench.harness.resolve.resolve_solver`` (which calls this for registered names, and
describes a code-running locator in a process of its own).
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from importlib.metadata import entry_points
from typing import Protocol

from puzzlebench.solvers.registry import REGISTRY
from puzzlebench.solvers.spec import SolverSpec

__all__ = ["ENTRY_POINT_GROUP", "LocatorKind", "kind_of", "kinds", "load_solver"]

#: The entry-point group through which a package brings a kind of locator. It keeps its
#: first name, though the package is now ``solvers.locators``: plugin packages name it.
ENTRY_POINT_GROUP = "puzzlebench.references"


class LocatorKind(Protocol):
    """One kind of solver locator."""

    #: A short name for messages and ``solvers --json`` (e.g. ``manifest``).
    name: str
    #: Whether loading the reference runs its own code (then the judge's process never loads
    #: it: it is described by a process of its own).
    runs_code: bool

    def claims(self, ref: str) -> bool:
        """Whether ``ref`` is a locator of this kind."""

    def load(self, ref: str) -> SolverSpec:
        """The spec with its solver class, for a process that may run it."""

    def describe(self, ref: str) -> SolverSpec:
        """The spec as data only (``factory`` None); only for kinds that run no code."""


@cache
def kinds() -> tuple[LocatorKind, ...]:
    """Every kind of locator: this package's in module-name order, then the entry points'
    in name order (the first kind that claims a reference takes it)."""
    found: list[LocatorKind] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        kind = getattr(module, "KIND", None)
        if kind is not None:
            found.append(kind)
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        found.append(ep.load())
    return tuple(found)


def kind_of(ref: str) -> LocatorKind | None:
    """The kind that claims ``ref``; None for a name (registered, or unknown)."""
    if REGISTRY.known(ref):  # a registered name wins (``mzn:model`` names contain a colon)
        return None
    return next((k for k in kinds() if k.claims(ref)), None)


def load_solver(ref: str) -> SolverSpec:
    """A registered solver or a locator's solver loaded in this process, to be run here
    (RegistryError otherwise)."""
    kind = kind_of(ref)
    return REGISTRY.load(ref) if kind is None else kind.load(ref)
