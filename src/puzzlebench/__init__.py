"""puzzlebench: N-Queens-family and sliding-tile solvers compared against independent validators.

The data flow is instance → solver → harness → record → store → report. Public entry points:
``puzzlebench.problems`` (instances, validators, facts), ``puzzlebench.solvers.contract`` (the solver
contract and ``@register``), ``puzzlebench.solvers.registry`` (the solver registry),
``puzzlebench.harness.execute``
(one judged run), ``puzzlebench.load`` (a store as a pandas DataFrame) and
``puzzlebench.load_traces`` (its anytime traces, one row per improvement); ``puzzlebench.solve``
and ``puzzlebench.count`` make one judged run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from puzzlebench import old_paths

if TYPE_CHECKING:
    # imported on use (type checking only): `import puzzlebench` stays light (start-up time)
    from puzzlebench.records.record import RunRecord

old_paths.install()  # modules that moved into rooms (issue 56) still import by their old paths

__version__ = "0.1.0"


def load(db: str) -> Any:
    """The runs stored in a study database, as a pandas DataFrame (one row per run)."""
    # imported on use: `import puzzlebench` stays light (start-up time)
    from puzzlebench.harness.campaign.storage.store import load as _load

    return _load(db)


def load_traces(db: str, study: str | None = None) -> Any:
    """The anytime traces stored in a study database, as a pandas DataFrame: run key columns,
    ``evaluations``, ``time_s`` and ``best`` (one row per improvement)."""
    # imported on use: `import puzzlebench` stays light (start-up time)
    from puzzlebench.harness.campaign.storage.store import load_traces as _load_traces

    return _load_traces(db, study)


def solve(problem: str, size: int, solver: str, *, seed: int = 0, time_limit: float | None = 60.0,
          params: dict[str, Any] | None = None, isolate: bool = True,
          **options: Any) -> RunRecord:
    """Build an instance, run one solver on it and return the judged RunRecord (read through
    its parts: ``record.verdict.outcome``, ``record.figures.time_s``).

    The solver runs in a process of its own (killed at 1.1 × ``time_limit`` + 0.5 s) and is
    judged here; ``isolate=False`` runs it in this process for debugging, and the record says
    so (``record.provenance.isolated`` is False).
    """
    # imported on use: `import puzzlebench` stays light (start-up time)
    from puzzlebench.harness.execute import run_solve
    from puzzlebench.problems import get_problem
    from puzzlebench.solvers.contract import Budget

    instance = get_problem(problem).make(size, **options)
    return run_solve(solver, instance, params=params, seed=seed, budget=Budget(time_limit),
                     isolate=isolate)


def count(problem: str, size: int, solver: str | None = None, *, unique: bool = False,
          time_limit: float | None = 60.0, params: dict[str, Any] | None = None,
          isolate: bool = True, **options: Any) -> RunRecord:
    """Build an instance, count its solutions with one solver and return the judged RunRecord.

    With ``solver`` None, the fastest counter measured for the board
    (``puzzlebench.harness.default_counter``: ``constellations`` for nqueens from n = 13,
    else ``bitboard``); the record's ``solver`` names the one used. Runs sealed, as ``solve``.
    """
    # imported on use: `import puzzlebench` stays light (start-up time)
    from puzzlebench.harness.default_counter import default_counter
    from puzzlebench.harness.execute import run_count
    from puzzlebench.problems import get_problem
    from puzzlebench.solvers.contract import Budget

    instance = get_problem(problem).make(size, **options)
    name = solver or default_counter(instance.problem, getattr(instance, "n", instance.size))
    return run_count(name, instance, unique=unique, params=params, budget=Budget(time_limit),
                     isolate=isolate)


__all__ = ["__version__", "count", "load", "load_traces", "solve"]
