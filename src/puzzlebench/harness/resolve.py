"""The one place the judge's process turns a ``--solver`` string into a ``SolverSpec``
(``resolve_solver``; every command and the Python API call it).

Anything ``--solver`` accepts resolves here: a registered name (the registry, through
``solvers.locators.load_solver``, the loader a run's own process uses too), or a solver locator
of one of the kinds in ``puzzlebench.solvers.locators`` (a TOML manifest, a MiniZinc model, a Python
``module:attr`` / ``file.py:attr``). A kind whose loading runs the locator's own code is
*described* by a process of its own, which sends back the solver's declared capabilities and
code fingerprint as data: the harness's process never executes a plugin's code — not even its
module's top level — so a plugin cannot patch a validator, exit the command, or hang it while
being loaded. Kinds that run no code (manifests, models) are described from their files.
Descriptions are cached per process by locator.
"""

from __future__ import annotations

from puzzlebench.harness.run.isolation import run_request
from puzzlebench.harness.run_request import RunRequest
from puzzlebench.solvers.locators import kind_of, load_solver
from puzzlebench.solvers.registry import REGISTRY
from puzzlebench.solvers.spec import (
    RegistryError,
    SolverSpec,
    check_distinct,
    spec_from_description,
)

__all__ = ["DESCRIBE_LIMIT", "describe_locator", "resolve_solver"]

#: Seconds a plugin may take to import and describe itself.
DESCRIBE_LIMIT = 60.0

_DESCRIBED: dict[str, SolverSpec] = {}


def resolve_solver(solver: str | SolverSpec) -> SolverSpec:
    """The spec of a registered name or of a solver locator, as the judge may hold it (a spec
    is its own); RegistryError, or the kind's own error type, when it cannot be resolved."""
    if isinstance(solver, SolverSpec):
        return solver
    kind = kind_of(solver)
    if kind is None:
        return load_solver(solver)
    if solver not in _DESCRIBED:
        spec = describe_locator(solver) if kind.runs_code else kind.describe(solver)
        held = REGISTRY.find(spec.name)
        if held is not None:  # one name, one solver: a locator never takes a registered name
            check_distinct([held, spec])
        _DESCRIBED[solver] = spec
    return _DESCRIBED[solver]


def describe_locator(locator: str) -> SolverSpec:
    """The spec of a plugin, read in a fresh process (RegistryError when it cannot load)."""
    report = run_request(RunRequest(kind="describe", solver=locator, hard_limit=DESCRIBE_LIMIT))
    if report.status == "done" and report.data is not None and isinstance(
            report.data.get("spec"), dict):
        return spec_from_description(report.data["spec"], locator)
    reason = report.error or "it sent no description"
    if reason.startswith("RegistryError: "):
        reason = reason.removeprefix("RegistryError: ").rsplit(" at ", 1)[0]
    raise RegistryError(reason if reason.startswith("cannot") or "solver" in reason
                        else f"cannot load solver {locator!r}: {reason}")
