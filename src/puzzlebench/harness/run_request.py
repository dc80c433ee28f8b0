"""The harness's job: one unit of solver work as plain picklable data.

Every front door (``execute``, the scheduler, a study's runner) makes tasks; the run side
(``harness.run``) carries one out in a process of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from puzzlebench.problems import problem_of
from puzzlebench.problems.base import Instance
from puzzlebench.solvers.contract import Budget


class Go(NamedTuple):
    """What the harness sends a run with ``go``, and only then: its instance and its seed
    (a per-run seed derives from the run's instance, so before ``go`` it would identify it)."""

    instance: Instance | None
    seed: int


@dataclass(frozen=True, slots=True)
class RunRequest:
    """One unit of solver work, as plain picklable data (never a live solver object).

    ``hard_limit`` counts from the start of the timed phase; ``None`` means no kill.
    """

    kind: str  # "solve", "count", "enumerate" or "describe" (a plugin's capabilities)
    solver: str  # a registered name or a module:attr / file.py:attr reference
    instance: Instance | None = None
    params: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    budget: Budget = field(default_factory=Budget)
    unique: bool = False
    limit: int | None = None
    hard_limit: float | None = None
    memory_limit_mb: int | None = None
    warmup: bool = True
    compiled: bool = False  # the harness starts numba once before forking such runs
    #: Forked by the fork server that has started numba's compiler: a compiled solver, or one
    #: whose code imports numba (else the lean server, which never loads it).
    jit: bool = False
    #: The instance the untimed warm-up runs on (``Problem.warmup_like``), never the run's.
    warmup_instance: Instance | None = None
    #: Repeat the solve (same seed) until this many seconds of timed work (None: once). It is
    #: ``Measurement.min_time`` copied here on purpose: the run's process gets the task, never
    #: the harness's measurement settings.
    min_time: float | None = None
    #: The module of a project solver (handwritten or baseline), which the fork server
    #: imports once so that every run inherits it; empty for plugins.
    project_module: str = ""
    #: The solver class itself, when the caller holds one (an API user's class, a test's);
    #: reaches a forked child through memory, never a spawned one (use a reference there).
    factory: type | None = None

    def __getstate__(self) -> dict[str, Any]:  # pickled for spawned children: no class
        return {**{k: getattr(self, k) for k in self.__dataclass_fields__}, "factory": None}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            object.__setattr__(self, k, v)

    def sealed(self) -> RunRequest:
        """The task as a run's process gets it: everything but the instance and the seed,
        which the harness sends only with ``go`` (:meth:`go`): nothing a run can read before
        ``go`` identifies its instance (a split's per-run seeds derive from the sub-problem)."""
        if self.instance is None:
            return replace(self, seed=0)
        warm = self.warmup_instance
        if warm is None:
            warm = problem_of(self.instance).warmup_like(self.instance)
        return replace(self, instance=None, seed=0, warmup_instance=warm)

    def go(self) -> Go:
        """The ``go`` message of this task's run."""
        return Go(self.instance, self.seed)
