"""Studies as grids: problems × sizes × solvers × parameters × repeats, expanded into runs.

A :class:`Study` is built by ``harness.campaign.study_file`` (from TOML or a dict, validated completely
before anything runs) or directly. Each run's seed derives from the master seed and the run's
identity (never from scheduling order), so the same study gives the same runs wherever and in
whatever order they execute.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.harness.run.measure import default_hard_limit
from puzzlebench.problems import get_problem
from puzzlebench.problems.base import Instance, PuzzlebenchError
from puzzlebench.records.claims import AnyClaim
from puzzlebench.solvers.contract import Budget


class StudyError(PuzzlebenchError, ValueError):
    """A study definition that cannot run; the message names the key."""


@dataclass(frozen=True, slots=True)
class RunSpec:
    """One run of a study: everything a worker needs, as plain data (picklable, JSON-able)."""

    study: str
    problem: str
    size: int
    options: dict[str, Any]
    instance_id: str
    solver: str
    params: dict[str, Any]
    repeat: int
    seed: int
    master_seed: int
    budget: dict[str, Any]
    hard_limit: float
    memory_limit_mb: int | None
    name: str = ""  # the solver's registered name (the reference may be a path)
    fingerprint: str = ""
    min_time: float | None = None
    pin: bool = False
    #: How the run is sealed off (``harness.run.sealed.sandbox``; None: the default) and its start-up
    #: limit (None: the default): they confine the run, never change its result, so they are
    #: not part of the key.
    sandbox: str | None = None
    startup_limit: float | None = None
    #: What the run asks: ``solve`` (studies), or ``count`` (a split count's sub-problems,
    #: ``harness.campaign.split_count``), with or without the ``unique`` count.
    kind: str = "solve"
    unique: bool = False

    @property
    def key(self) -> str:
        """The run key: everything that changes a run's result — study, instance, solver name
        and code fingerprint, the full parameter set, seed, repeat, budget and limits, what
        the run asks (a count, and whether unique too) — and
        how its time is measured (``min_time``, pinning), which changes what ``time_s`` is.
        The measurement settings join the key only when set, so stores made before them stay
        valid."""
        parts: list[Any] = [
            self.study, self.instance_id, self.name or self.solver, self.fingerprint,
            dict(sorted(self.params.items())), self.seed, self.repeat,
            dict(sorted(self.budget.items())), self.hard_limit, self.memory_limit_mb]
        if self.min_time is not None or self.pin:
            parts.append({"min_time": self.min_time, "pin": self.pin})
        if self.kind != "solve":  # joins the key only when set, as the measurement settings
            parts.append({"kind": self.kind, "unique": self.unique})
        return json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)

    def instance(self) -> Instance:
        return get_problem(self.problem).make(self.size, **self.options)

    def to_json(self) -> str:
        return json.dumps({name: getattr(self, name) for name in self.__dataclass_fields__},
                          sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> RunSpec:
        return cls(**json.loads(text))


def derive_seed(master_seed: int, *identity: Any) -> int:
    """A 63-bit seed from the master seed and a run's identity (order-independent)."""
    digest = hashlib.sha256(json.dumps([master_seed, *identity], sort_keys=True,
                                       default=str).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


#: Bounds on a study's grid, checked when it is read, before anything is made per unit (a
#: study of ``repeats = 10**12`` allocated for a minute, then ran out of memory): repeats of
#: each run, instances generated per size, parameter combinations of one solver entry, and
#: runs in all (the built-in studies have at most 1,920).
MAX_REPEATS = 10_000
MAX_GENERATE = 100_000
MAX_GRID = 10_000
MAX_RUNS = 1_000_000


def grid_size(params: Mapping[str, Any]) -> int:
    """How many parameter combinations ``expand_grid(params)`` makes, without making them."""
    return math.prod(len(v) if isinstance(v, list) else 1 for v in params.values())


@dataclass(frozen=True, slots=True)
class Study:
    """A validated study definition."""

    name: str
    problems: list[dict[str, Any]]
    solvers: list[dict[str, Any]]
    master_seed: int = 0
    repeats: int = 1
    time_limit: float = 10.0
    hard_limit: float | None = None
    memory_limit_mb: int | None = None
    caps: dict[str, int] = field(default_factory=dict)
    db: str | None = None
    description: str = ""
    #: Repeat each run in its process to this many seconds of timed work (``harness.run.measure``).
    min_time: float | None = None
    #: Give each worker its own core.
    pin: bool = False
    #: Seal each run off from the machine: ``auto``, ``required``, ``off`` (None: the default).
    sandbox: str | None = None
    #: Seconds a run may take to start and warm up (None: ``harness.run.measure.STARTUP_LIMIT``).
    startup_limit: float | None = None
    #: Hypotheses stated before the runs (``[[claims]]``); the report tests each one.
    claims: list[AnyClaim] = field(default_factory=list)

    @property
    def kill_after(self) -> float:
        """The hard limit: as given, else the time limit plus 10 % and half a second."""
        return self.hard_limit if self.hard_limit is not None else float(
            default_hard_limit(self.time_limit) or 0.0)

    def budget(self, entry: Mapping[str, Any] | None = None) -> Budget:
        """The budget of the study's runs, or of one solver entry's runs when the entry has
        its own (``budget``: its caps replace the study's)."""
        own = (entry or {}).get("budget")
        if own:
            return Budget(own.get("time_limit", self.time_limit), own.get("max_nodes"),
                          own.get("max_evaluations"), own.get("max_iterations"))
        return Budget(self.time_limit, self.caps.get("max_nodes"),
                      self.caps.get("max_evaluations"), self.caps.get("max_iterations"))

    def kill_after_for(self, budget: Budget) -> float:
        """The hard limit of runs with this budget (as given, else its time limit plus 10 %
        and half a second)."""
        if self.hard_limit is not None:
            return self.hard_limit
        return float(default_hard_limit(budget.time_limit or self.time_limit) or 0.0)

    def instances(self) -> list[tuple[str, int, dict[str, Any], Instance]]:
        """(problem, size, options, instance) for every instance of the grid, in file order:
        the problem's own grid over its options, then ``generate`` random instances per size
        drawn from a generator seeded by the master seed, the problem and the size."""
        return [(problem, size, opts, inst) for _, problem, size, opts, inst in self._grid()]

    def _grid(self) -> list[tuple[Mapping[str, Any], str, int, dict[str, Any], Instance]]:
        """:meth:`instances`, each with its [[problems]] entry (which says the task)."""
        out: list[tuple[Mapping[str, Any], str, int, dict[str, Any], Instance]] = []
        for entry in self.problems:
            problem = entry["problem"]
            prob = get_problem(problem)
            for size in entry["sizes"]:
                for opts in prob.grid(size, entry):
                    out.append((entry, problem, size, opts, prob.make(size, **opts)))
                if entry.get("generate"):
                    rng = np.random.default_rng(
                        derive_seed(self.master_seed, "generate", problem, size))
                    for inst in prob.generate(size, int(entry["generate"]), rng):
                        out.append((entry, problem, size, prob.options_of(inst), inst))
        return out

    def most_runs(self) -> int:
        """At least ``len(self.runs())``, counted without making an instance or a run: every
        instance of the grid × every solver entry's parameter combinations × repeats."""
        units = 0
        for entry in self.problems:
            prob = get_problem(entry["problem"])
            for size in entry["sizes"]:
                units += sum(1 for _ in prob.grid(size, entry)) + int(entry.get("generate") or 0)
        return units * sum(grid_size(s["params"]) * s.get("repeats", self.repeats)
                           for s in self.solvers)

    def runs(self) -> list[RunSpec]:
        """Every run of the study, in a fixed order."""
        specs = []
        for entry, problem, size, options, instance in self._grid():
            kind, unique = entry.get("task", "solve"), bool(entry.get("unique", False))
            for solver in self.solvers:
                if problem not in solver["problems"] or not (
                        solver["min_size"] <= size <= solver["max_size"]):
                    continue
                spec = resolve_solver(solver["name"])
                if kind == "count" and not (spec.counts and (spec.counts_unique or not unique)):
                    continue  # a counting table runs only the solvers that can count
                own = self.budget(solver)
                budget, kill_after = own.to_dict(), self.kill_after_for(own)
                for params in expand_grid(solver["params"]):
                    full = spec.check_params(params)
                    for rep in range(solver.get("repeats", self.repeats)):
                        seed = derive_seed(self.master_seed, self.name, instance.instance_id,
                                           spec.name, params, rep)
                        specs.append(RunSpec(
                            study=self.name, problem=problem, size=size, options=options,
                            instance_id=instance.instance_id, solver=solver["name"],
                            params=full, repeat=rep, seed=seed, master_seed=self.master_seed,
                            budget=budget, hard_limit=kill_after,
                            memory_limit_mb=self.memory_limit_mb, name=spec.name,
                            fingerprint=spec.fingerprint, min_time=self.min_time, pin=self.pin,
                            sandbox=self.sandbox, startup_limit=self.startup_limit,
                            kind=kind, unique=unique,
                        ))
        return specs


def expand_grid(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """{a: [1, 2], b: 3} → [{a: 1, b: 3}, {a: 2, b: 3}] (lists are grids)."""
    keys = sorted(params)
    values = [params[k] if isinstance(params[k], list) else [params[k]] for k in keys]
    return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*values)]
