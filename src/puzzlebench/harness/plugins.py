"""Plugins seen from the judge's process: described by a process of their own.

A plugin reference (``module:attr`` or ``file.py:attr``) is imported only in a separate
process, which sends back the solver's declared capabilities and code fingerprint as data.
The harness's process thus never executes a plugin's code — not even its module's top level —
so a plugin cannot patch a validator, exit the command, or hang it while being loaded.
Descriptions are cached per process by reference.
"""

from __future__ import annotations

from puzzlebench.harness.child import Task
from puzzlebench.harness.isolation import run_task
from puzzlebench.registry import RegistryError, SolverSpec, spec_from_description

#: Seconds a plugin may take to import and describe itself.
DESCRIBE_LIMIT = 60.0


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
