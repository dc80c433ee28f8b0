"""The one place the judge's process turns a solver reference into a ``SolverSpec``.

Anything ``--solver`` accepts resolves here: a registered name (the registry), or a reference
of one of the kinds in ``puzzlebench.solvers.references`` (a TOML manifest, a MiniZinc model, a Python
``module:attr`` / ``file.py:attr``). A kind whose loading runs the reference's own code is
*described* by a process of its own, which sends back the solver's declared capabilities and
code fingerprint as data: the harness's process never executes a plugin's code — not even its
module's top level — so a plugin cannot patch a validator, exit the command, or hang it while
being loaded. Kinds that run no code (manifests, models) are described from their files.
Descriptions are cached per process by reference.
"""

from __future__ import annotations

from puzzlebench.harness.run.isolation import run_task
from puzzlebench.harness.task import Task
from puzzlebench.solvers.references import kind_of
from puzzlebench.solvers.registry import REGISTRY
from puzzlebench.solvers.spec import (
    RegistryError,
    SolverSpec,
    check_distinct,
    spec_from_description,
)

__all__ = ["DESCRIBE_LIMIT", "describe_reference", "resolve_solver"]

#: Seconds a plugin may take to import and describe itself.
DESCRIBE_LIMIT = 60.0

_DESCRIBED: dict[str, SolverSpec] = {}


def resolve_solver(ref: str) -> SolverSpec:
    """The spec of a registered name or of a solver reference, as the judge may hold it
    (RegistryError, or the kind's own error type, when it cannot be resolved)."""
    kind = kind_of(ref)
    if kind is None:
        return REGISTRY.load(ref)
    if ref not in _DESCRIBED:
        spec = describe_reference(ref) if kind.runs_code else kind.describe(ref)
        held = REGISTRY.find(spec.name)
        if held is not None:  # one name, one solver: a reference never takes a registered name
            check_distinct([held, spec])
        _DESCRIBED[ref] = spec
    return _DESCRIBED[ref]


def describe_reference(reference: str) -> SolverSpec:
    """The spec of a plugin, read in a fresh process (RegistryError when it cannot load)."""
    report = run_task(Task(kind="describe", solver=reference, hard_limit=DESCRIBE_LIMIT))
    if report.status == "done" and report.data is not None and isinstance(
            report.data.get("spec"), dict):
        return spec_from_description(report.data["spec"], reference)
    reason = report.error or "it sent no description"
    if reason.startswith("RegistryError: "):
        reason = reason.removeprefix("RegistryError: ").rsplit(" at ", 1)[0]
    raise RegistryError(reason if reason.startswith("cannot") or "solver" in reason
                        else f"cannot load solver {reference!r}: {reason}")
