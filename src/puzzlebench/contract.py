"""The plugin API in one import: the solver contract and ``@register``.

A solver written outside the project imports everything it needs from here::

    from puzzlebench.contract import Budget, Claim, Proposal, Solver, register

The contract's home is :mod:`puzzlebench.solvers.contract`; this module only re-exports it, so
that the public path never moves. (A run key follows the code, not this re-export: see
:mod:`puzzlebench.solvers.fingerprint`.)
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
from puzzlebench.solvers.registry import register

__all__ = ["BUDGET_FIELDS", "EFFORT_UNIT", "STOPPED_BY", "Budget", "Claim", "Deadline",
           "Enumeration", "Param", "Proposal", "Solver", "SolverConfigError", "coerce_param",
           "register", "resolve_params"]
