"""References of the kind ``package.module:attr`` or ``path/to/file.py:attr``: a Python
Solver class. Loading imports the plugin's code, so the judge's process never loads one: it is
described by a process of its own (``puzzlebench.harness.resolve``)."""

from __future__ import annotations

from dataclasses import replace

from puzzlebench.solvers.contract import Solver
from puzzlebench.solvers.plugin_loader import PluginLoadError, load_attribute
from puzzlebench.solvers.registry import REGISTRY
from puzzlebench.solvers.spec import RegistryError, SolverSpec, spec_of


def load_reference(ref: str) -> type[Solver]:
    """Import ``package.module:attr`` or ``path/to/file.py:attr`` as a Solver class."""
    try:
        obj = load_attribute(ref, "solver")
    except PluginLoadError as exc:
        raise RegistryError(str(exc)) from exc.__cause__
    if not (isinstance(obj, type) and issubclass(obj, Solver)):
        raise RegistryError(f"{ref!r} is not a puzzlebench Solver subclass")
    return obj


class PythonPluginKind:
    """A Solver class named by module or file and attribute."""

    name = "python-plugin"
    runs_code = True

    def claims(self, ref: str) -> bool:
        return ":" in ref

    def load(self, ref: str) -> SolverSpec:
        cls = load_reference(ref)
        # A plugin may not take a built-in solver's name: the built-in of that name, if any,
        # is registered first, so that adding the plugin is refused. Through the registry's
        # index only its module is imported, not every solver's (nor numba, in a run forked
        # by the lean server); without a usable index, every solver is discovered.
        REGISTRY.find(spec_of(cls).name)
        return replace(REGISTRY.add(cls, origin="plugin"), reference=ref)

    def describe(self, ref: str) -> SolverSpec:
        raise RegistryError(f"{ref!r} runs code when loaded: describe it in its own process")


KIND = PythonPluginKind()
