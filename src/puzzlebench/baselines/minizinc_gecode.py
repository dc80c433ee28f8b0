"""MiniZinc models solved by Gecode (Debian's ``minizinc`` package brings both).

``mzn-gecode`` runs the models in ``puzzlebench/baselines/minizinc/`` — AllDifferent on q, q + i, q − i for
nqueens (modular for the torus), a placement model for queens and knights — through the
``minizinc`` Python package. A user's own model is a solver too: ``--solver path/model.mzn``
(see ``puzzlebench.baselines.minizinc_user``). The time limit is MiniZinc's own ``--time-limit``; the seed
is MiniZinc's ``random_seed``. Counting and listing use all-solutions search.

Where the ``minizinc`` executable (or the Python package) is missing, the solver is still
registered but says why it is unavailable (``puzzlebench solvers``); running it is refused.
"""

from __future__ import annotations

import shutil
import warnings
from datetime import timedelta
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from puzzlebench.contract import Budget, Claim, Enumeration, Param, Proposal, Solver
from puzzlebench.problems.queens_knights import QueensKnightsInstance
from puzzlebench.registry import register

MODELS = Path(__file__).with_name("minizinc")
#: Seconds MiniZinc spends around the solve (driver start, flattening, output read-back).
MZN_OVERHEAD_S = 0.2
FILES = {"nqueens": "nqueens.mzn", "torus-queens": "torus_queens.mzn",
         "queens-knights": "queens_knights.mzn"}


def minizinc_missing() -> str:
    """Why MiniZinc cannot run here ('' when it can)."""
    if shutil.which("minizinc") is None:
        return "the minizinc executable is not installed (Debian: apt-get install minizinc)"
    try:
        import minizinc  # noqa: F401
    except ImportError:
        return "the minizinc Python package is not installed (pip install minizinc)"
    return ""


def run_model(path: Path, data: dict[str, Any], mzn_solver: str, budget: Budget, *,
              seed: int | None = None, all_solutions: bool = False,
              limit: int | None = None) -> Any:
    """Solve a model file with the given data; the minizinc Result."""
    import minizinc

    instance = minizinc.Instance(minizinc.Solver.lookup(mzn_solver), minizinc.Model(path))
    for key, value in data.items():
        instance[key] = value
    kwargs: dict[str, Any] = {}
    if budget.time_limit is not None:  # MiniZinc's limit, less its own start and read-back
        kwargs["timeout"] = timedelta(seconds=max(0.9 * budget.time_limit - MZN_OVERHEAD_S, 0.001))
    if seed is not None:
        kwargs["random_seed"] = seed
    if all_solutions:
        kwargs["all_solutions"] = limit is None
        if limit is not None:
            kwargs["nr_solutions"] = limit
    with warnings.catch_warnings():  # Debian's library layout warns on every call
        warnings.simplefilter("ignore")
        return instance.solve(**kwargs)


def decode(instance: Any, solution: Any, answer: str = "q") -> Any:
    """A model solution as the problem's answer (queens from the array named ``answer``)."""
    if isinstance(instance, QueensKnightsInstance):
        return [("Q" if v == 1 else "N", r, c) for r, row in enumerate(solution.piece)
                for c, v in enumerate(row) if v]
    return [int(c) for c in getattr(solution, answer)]


def counters(result: Any) -> dict[str, int]:
    stats = result.statistics or {}
    return {k: int(stats[k]) for k in ("nodes", "failures", "propagations") if k in stats}


def model_data(instance: Any) -> dict[str, int]:
    if isinstance(instance, QueensKnightsInstance):
        return {"n": instance.n, "queens": instance.queens}
    return {"n": instance.n}


class MiniZincSolver(Solver):
    """Shared solve/count/enumerate over a model file per problem."""

    complete: ClassVar[bool] = True
    counts: ClassVar[bool] = True
    params: ClassVar[dict[str, Any]] = {"mzn_solver": Param("gecode", choices=("gecode",))}
    unavailable: ClassVar[str] = minizinc_missing()

    def model_for(self, instance: Any) -> Path:
        return MODELS / FILES[instance.problem]

    @property
    def answer_array(self) -> str:
        return str(self.config.get("answer", "q"))

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
        from minizinc import Status

        result = run_model(self.model_for(instance), model_data(instance),
                           self.config["mzn_solver"], budget, seed=int(rng.integers(2**31 - 1)))
        if result.status.has_solution():
            return Proposal(answer=decode(instance, result.solution, self.answer_array),
                            claim=Claim.SOLVED,
                            counters=counters(result))
        if result.status is Status.UNSATISFIABLE:
            return Proposal(claim=Claim.INFEASIBLE, counters=counters(result))
        return Proposal(counters=counters(result), note=f"MiniZinc status {result.status.name}")

    def count(self, instance: Any, budget: Budget, *, unique: bool = False) -> Proposal:
        from minizinc import Status

        result = run_model(self.model_for(instance), model_data(instance),
                           self.config["mzn_solver"], budget, all_solutions=True)
        found = len(result.solution) if result.status.has_solution() else 0
        if result.status in (Status.ALL_SOLUTIONS, Status.UNSATISFIABLE):
            return Proposal(claim=Claim.SOLVED if found else Claim.INFEASIBLE, count=found,
                            counters=counters(result))
        return Proposal(counters=counters(result), note=f"stopped after {found} solutions")

    def enumerate(self, instance: Any, budget: Budget, *, limit: int | None = None) -> Enumeration:
        from minizinc import Status

        result = run_model(self.model_for(instance), model_data(instance),
                           self.config["mzn_solver"], budget, all_solutions=True, limit=limit)
        sols = ([decode(instance, s, self.answer_array) for s in result.solution]
                if result.status.has_solution() else [])
        complete = result.status in (Status.ALL_SOLUTIONS, Status.UNSATISFIABLE) and (
            limit is None or len(sols) < limit)
        return Enumeration(sols, complete=complete)


@register
class MiniZincGecode(MiniZincSolver):
    """MiniZinc models (AllDifferent; placement for queens-knights) solved by Gecode."""

    name: ClassVar[str] = "mzn-gecode"
    problems: ClassVar[frozenset[str]] = frozenset(FILES)
