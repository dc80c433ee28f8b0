"""The one solver contract: every solver — handwritten, baseline or a user's — implements it.

A solver receives an instance, a :class:`Budget` and a seeded ``numpy.random.Generator`` and
returns a :class:`Proposal`. It never judges itself: the harness times it, validates the
answer with the problem's independent validator and decides the outcome.

Writing one::

    from puzzlebench.solvers.contract import Budget, Claim, Proposal, Solver, register

    class MySolver(Solver):
        name = "my-solver"
        problems = frozenset({"nqueens"})
        stochastic = True
        params = {"restarts": 10}
        counter_names = frozenset({"iterations"})

        def solve(self, instance, budget, rng):
            ...
            return Proposal(answer=cols, claim=Claim.SOLVED, counters={"iterations": k})

Register it with ``@register`` (``puzzlebench.solvers.registry``) or load it by name
(``module:attr``). Plugins import all of this from ``puzzlebench.solvers.contract``, the one public
import (this module is its home in the solvers' room).
"""

from __future__ import annotations

import importlib
import math
import time
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

import numpy as np

from puzzlebench.problems.base import PuzzlebenchError


class SolverConfigError(PuzzlebenchError, ValueError):
    """A solver was given an unknown parameter or a value of the wrong type."""


class Claim(StrEnum):
    """What a solver says of its own run; the harness checks it."""

    SOLVED = "solved"
    INFEASIBLE = "infeasible"
    UNKNOWN = "unknown"
    #: The solver refuses the instance without trying (beyond a size it handles, a
    #: combination it cannot express); ``note`` says why. Neither a success nor a failure.
    DECLINED = "declined"


@dataclass(frozen=True, slots=True)
class Budget:
    """Limits a solver must honour itself. ``None`` means no limit. ``max_nodes`` counts nodes
    *generated* (children created) in every search that honours it, A*'s and IDA*'s alike.

    The harness may also enforce the wall-clock limit from outside (a killed run is a
    ``timeout``); a solver that stops by its own budget without an answer is a ``budget``.
    """

    time_limit: float | None = None
    max_nodes: int | None = None
    max_evaluations: int | None = None
    max_iterations: int | None = None

    def __post_init__(self) -> None:
        for name in ("time_limit", "max_nodes", "max_evaluations", "max_iterations"):
            v = getattr(self, name)
            if v is None:
                continue
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) or v < 0:
                raise SolverConfigError(f"budget {name} must be a finite number ≥ 0, got {v!r}")
            if name != "time_limit" and not float(v).is_integer():
                raise SolverConfigError(f"budget {name} must be a whole number, got {v!r}")

    def clock(self) -> Deadline:
        """Start the wall clock for this budget."""
        return Deadline(self.time_limit)

    def to_dict(self) -> dict[str, Any]:
        return {
            "time_limit": self.time_limit,
            "max_nodes": self.max_nodes,
            "max_evaluations": self.max_evaluations,
            "max_iterations": self.max_iterations,
        }


class Deadline:
    """A started wall clock; ``expired()`` is cheap enough to call in inner loops."""

    __slots__ = ("end", "limit", "start")

    def __init__(self, limit: float | None) -> None:
        self.start = time.perf_counter()
        self.limit = limit
        self.end = float("inf") if limit is None else self.start + limit

    def expired(self) -> bool:
        return time.perf_counter() >= self.end

    def remaining(self) -> float:
        """Seconds left (inf without a limit, never negative): what to hand a library's own
        time limit once set-up (model building) has spent part of the budget."""
        return max(0.0, self.end - time.perf_counter())


@dataclass(frozen=True, slots=True)
class Proposal:
    """A solver's result: an answer or none, its claim, and its native effort counters.

    ``optimal`` is an exact solver's claim that the answer is optimal (sliding); ``count``
    and ``unique`` are filled by counting runs. ``proof`` is a DRUP/DRAT proof (text) of an
    ``infeasible`` claim and ``cnf`` the DIMACS formula it refutes (None: the judge's own
    encoding, ``puzzlebench.problems.cnf``); the judge checks it (``harness.judging.proofs``).
    ``stopped_by`` says what ended a run without an answer (``STOPPED_BY``; '' when the solver
    does not say): the iterative framework (``puzzlebench.solvers.iterative``) always fills it.
    """

    answer: Any = None
    claim: Claim = Claim.UNKNOWN
    counters: Mapping[str, int | float] = field(default_factory=dict)
    optimal: bool = False
    count: int | None = None
    unique: int | None = None
    note: str = ""
    proof: str | None = None
    cnf: str | None = None
    stopped_by: str = ""


#: What may end a run (``Proposal.stopped_by``, ``RunRecord.stopped_by``): an answer or claim,
#: a budget field, ``param:<name>`` (a solver parameter such as ``max_repairs``), a decline,
#: ``exhausted`` (the solver had nothing left to try), ``memory_cap`` (the solver's own cap on
#: what it holds, such as A*'s stored states) or the harness's hard limit (``killed``).
STOPPED_BY: tuple[str, ...] = ("answer", "time_limit", "max_evaluations", "max_iterations",
                               "max_nodes", "declined", "exhausted", "memory_cap", "killed")


@dataclass(frozen=True, slots=True)
class Enumeration:
    """Solutions listed by ``Solver.enumerate``; ``complete`` only when the search space was
    exhausted (not stopped by the budget or the limit), so agreement checks know whether
    membership in the set means anything."""

    solutions: list[Any]
    complete: bool


#: The common effort unit of every tracing solver (issue 27): one *evaluation* is one candidate
#: state whose conflict count was computed — by a full count or by an incremental delta. A repair
#: that scores every square of a row of n is n evaluations; a start (or restart) placement whose
#: conflicts are counted is one; a GA individual whose fitness is computed is one. A solver's own
#: natural steps (repairs, swaps, generations) are separate counters. ``Budget.max_evaluations``
#: caps this unit: a solver stops at its first check with ``evaluations`` ≥ the cap, checking at
#: least once per natural step (so the counter passes the cap by less than one step).
EFFORT_UNIT = "evaluations"

#: Budget fields a solver may declare it honours (``Solver.honours``).
BUDGET_FIELDS: tuple[str, ...] = ("time_limit", "max_nodes", "max_evaluations", "max_iterations")


class Solver(ABC):
    """The abstract base: declare capabilities as class data, implement ``solve``.

    ``stochastic``: the answer depends on the seed (runs under different seeds are
    independent draws); a solver that declares it False must give the same answer whatever
    the seed (``certify``'s ``deterministic`` check). Under one seed every solver must give
    the same record.

    Counting solvers (``counts = True``) also implement ``count``; ``counts_unique`` says it
    can count solutions distinct up to symmetry, ``count_max_n`` the largest n it can count
    (larger requests are refused as bad input before anything runs). ``honours`` names the
    budget fields the solver checks (the conformance suite tests each; the CLI warns when a
    user sets one the solver ignores). ``compiled`` (numba, a native library loaded on first
    use) makes the harness start numba before forking and, for a plugin, warm it on a small
    instance, untimed, before the timed run (project solvers are always warmed).
    """

    name: ClassVar[str]
    problems: ClassVar[frozenset[str]]
    complete: ClassVar[bool] = False
    exact: ClassVar[bool] = False
    stochastic: ClassVar[bool] = False
    counts: ClassVar[bool] = False
    counts_unique: ClassVar[bool] = False
    count_max_n: ClassVar[int | None] = None
    params: ClassVar[Mapping[str, Any]] = {}
    honours: ClassVar[frozenset[str]] = frozenset({"time_limit"})
    compiled: ClassVar[bool] = False
    #: Modules ``solve`` imports on first use (kept out of the module's own import so that
    #: other commands do not pay for them): the default ``prepare_runs`` imports them in the
    #: fork server, so no run pays for them in its warm-up (OR-Tools' CP-SAT: 0.4 s a run).
    run_imports: ClassVar[tuple[str, ...]] = ()
    #: Why the solver cannot run on this machine ('' when it can), e.g. a missing executable.
    unavailable: ClassVar[str] = ""
    #: The solver reports anytime traces: the harness hands ``solve`` a ``trace=`` keyword
    #: argument (a ``puzzlebench.records.trace.Trace``) to call ``trace.improve(evaluations, best)`` on.
    traces: ClassVar[bool] = False
    #: What one evaluation (``EFFORT_UNIT``) is in this solver, in words ('' for a solver that
    #: counts none), and whether its count only approximates the unit (a library that hides
    #: its steps).
    evaluation: ClassVar[str] = ""
    evaluation_approximate: ClassVar[bool] = False
    #: The names of every native counter the solver's proposals may report (``Proposal.counters``),
    #: so that a study's claim on a counter it never records is refused before any run. None:
    #: not declared (a plugin's claims on counters are then taken on trust, with a warning);
    #: the conformance checks hold every run's counters to the declaration.
    counter_names: ClassVar[frozenset[str] | None] = None
    summary: ClassVar[str] = ""

    def __init__(self, **params: Any) -> None:
        self.config: dict[str, Any] = resolve_params(self.name, self.params, params)

    @classmethod
    def prepare_runs(cls, params: Mapping[str, Any], instance: Any) -> None:
        """Load, once in a fork server, what every run of this project solver with these
        parameters reads before its search on boards like ``instance`` (the runs' warm-up
        instance, never a run's own): the runs are forked from the server and inherit it.
        Must not build what is missing (the runs do, each within its start-up limit) and must
        not depend on a run's instance. Each run still makes its own untimed warm-up. Default:
        import ``run_imports``. Never called for a plugin's solver (its code runs only in its
        runs)."""
        for name in cls.run_imports:
            importlib.import_module(name)

    @abstractmethod
    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
        """Look for an answer within the budget; never mutate the instance.

        ``instance`` is one of the problems' Instance types (typed Any so that each solver can
        annotate the concrete instance type it handles).
        """

    def count(self, instance: Any, budget: Budget, *, unique: bool = False) -> Proposal:
        """Count all solutions (and, with ``unique``, those distinct up to symmetry)."""
        raise NotImplementedError(f"solver {self.name!r} does not count solutions")

    def enumerate(self, instance: Any, budget: Budget, *, limit: int | None = None) -> Enumeration:
        """Every solution (at most ``limit``), for agreement checks; optional."""
        raise NotImplementedError(f"solver {self.name!r} does not enumerate solutions")


@dataclass(frozen=True, slots=True)
class Param:
    """A parameter's default with its allowed range (inclusive; ``None`` leaves a side open).

    Declared in ``Solver.params`` in place of a bare default: ``{"population": Param(100, 2)}``,
    or with the allowed values: ``Param("row", choices=("row", "swap"))``. Values outside the
    range are refused before anything runs.
    """

    default: Any
    low: float | None = None
    high: float | None = None
    choices: tuple[Any, ...] | None = None


def resolve_params(solver: str, declared: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """Every declared parameter, given values coerced to the default's type and range-checked."""
    unknown = set(given) - set(declared)
    if unknown:
        known = ", ".join(sorted(declared)) or "none"
        raise SolverConfigError(
            f"solver {solver!r} has no parameter {sorted(unknown)[0]!r} (known: {known})")
    out: dict[str, Any] = {}
    for key, decl in declared.items():
        default = decl.default if isinstance(decl, Param) else decl
        value = coerce_param(solver, key, default, given[key]) if key in given else default
        if isinstance(value, float) and not math.isfinite(value):
            raise SolverConfigError(f"parameter {key!r} of solver {solver!r} must be finite, got {value!r}")
        if isinstance(decl, Param) and decl.choices is not None and value not in decl.choices:
            raise SolverConfigError(f"parameter {key!r} of solver {solver!r} must be one of "
                                    f"{', '.join(map(str, decl.choices))}; got {value!r}")
        if isinstance(decl, Param) and value is not None and not isinstance(value, bool | str):
            _check_range(solver, key, decl, value)
        out[key] = value
    return out


def _check_range(solver: str, key: str, decl: Param, value: Any) -> None:
    if (decl.low is not None and value < decl.low) or (decl.high is not None and value > decl.high):
        lo = "-inf" if decl.low is None else f"{decl.low:g}"
        hi = "inf" if decl.high is None else f"{decl.high:g}"
        raise SolverConfigError(
            f"parameter {key!r} of solver {solver!r} must be in [{lo}, {hi}], got {value!r}")


def coerce_param(solver: str, key: str, default: Any, value: Any) -> Any:
    """Convert a parameter value (possibly a CLI string) to the type of its default."""
    if default is None or (isinstance(value, type(default)) and not isinstance(value, bool)) \
            or (isinstance(default, bool) and isinstance(value, bool)):
        return value
    try:
        if isinstance(default, bool):
            text = str(value).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
            raise ValueError(value)
        if isinstance(default, int):
            if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
                return int(value.strip())
            as_float = float(value)
            if not math.isfinite(as_float) or as_float != int(as_float) or abs(as_float) > 2**62:
                raise ValueError(value)
            return int(as_float)
        if isinstance(default, float):
            return float(value)
        if isinstance(default, str):
            return str(value)
    except (TypeError, ValueError):
        pass
    else:
        return value
    raise SolverConfigError(
        f"parameter {key!r} of solver {solver!r} expects {type(default).__name__}, got {value!r}"
    )
