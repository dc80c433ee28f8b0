"""The plugin API in one import: the solver contract.

A solver written outside the project imports everything it needs from here::

    from puzzlebench.contract import Budget, Claim, Proposal, Solver

The contract's home is :mod:`puzzlebench.solvers.contract`; this module only re-exports it, so
that the public path never moves. ``@register`` is :func:`puzzlebench.solvers.registry.register`
(not re-exported: the registry reads the problem families, whose plugins import this
module). A run key follows the code, not this re-export (:mod:`puzzlebench.solvers.fingerprint`).
"""

from __future__ import annotations

from puzzlebench.solvers.contract import (
    BUDGET_FIELDS,
    EFFORT_UNIT,
    STOPPED_BY,
    Budget,
    Claim,
    Deadline,
    Enumeration,
    Param,
    Proposal,
    Solver,
    SolverConfigError,
    coerce_param,
    resolve_params,
)

__all__ = ["BUDGET_FIELDS", "EFFORT_UNIT", "STOPPED_BY", "Budget", "Claim", "Deadline",
           "Enumeration", "Param", "Proposal", "Solver", "SolverConfigError", "coerce_param",
           "resolve_params"]
