"""MiniZinc models solved by Gecode (Debian's ``minizinc`` package brings both).

``mzn-gecode`` runs the models in ``minizinc/`` beside this module — AllDifferent on q, q + i, q − i for
nqueens (modular for the torus), a placement model for queens and knights — through the
``minizinc`` Python package. A user's own model is a solver too: ``--solver path/model.mzn``
(see ``puzzlebench_baselines.minizinc_user``). The time limit is MiniZinc's own ``--time-limit``; the seed
is MiniZinc's ``random_seed``. Counting and listing use all-solutions search.

Where the ``minizinc`` executable (or the Python package) is missing, the solver is still
registered but says why it is unavailable (``puzzlebench solvers``); running it is refused.
"""

from __future__ import annotations

import importlib.util
import shutil
import warnings
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from puzzlebench.contract import Budget, Claim, Enumeration, Param, Proposal, Solver
from puzzlebench.problems.queens_knights import QueensKnightsInstance

MODELS = Path(__file__).with_name("minizinc")
#: Seconds MiniZinc spends around the solve (driver start, flattening, output read-back).
MZN_OVERHEAD_S = 0.2
#: The problems with a model here: ``minizinc/<id with _ for ->.mzn`` each.
MODELLED = frozenset({"nqueens", "torus-queens", "queens-knights"})


def minizinc_missing() -> str:
    """Why MiniZinc cannot run here ('' when it can)."""
    if shutil.which("minizinc") is None:
        return "the minizinc executable is not installed (Debian: apt-get install minizinc)"
    # looked up, not imported: importing the package runs `minizinc --version` (0.1 s on
    # every start-up of every process that lists the solvers)
    if importlib.util.find_spec("minizinc") is None:
        return "the minizinc Python package is not installed (pip install minizinc)"
    return ""


#: One analysed ``minizinc.Instance`` per model file (as it is on disk), solver and process:
#: see ``analysed``.
_ANALYSED: dict[tuple[str, int, int, str], Any] = {}


def analysed(path: Path, mzn_solver: str) -> Any:
    """The process's analysed ``minizinc.Instance`` of a model file, to branch each solve from.
    The library analyses a model's interface (a ``minizinc --model-interface-only`` run, about
    40 ms) for every new instance; a branch (``Instance.branch``) inherits its parent's
    analysis instead. The fork server analyses the model once for all its runs
    (``MiniZincSolver.prepare_runs``). Keyed by the file's size and modification time, so an
    edited model is analysed again."""
    import minizinc  # on first use: start-up time

    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size, mzn_solver)
    parent = _ANALYSED.get(key)
    if parent is None:
        with warnings.catch_warnings():  # Debian's library layout warns on every call
            warnings.simplefilter("ignore")
            # a new Model's first Instance is analysed as it is made
            parent = minizinc.Instance(minizinc.Solver.lookup(mzn_solver), minizinc.Model(path))
        _ANALYSED[key] = parent
    return parent


def run_model(path: Path, data: dict[str, Any], mzn_solver: str, budget: Budget, *,
              seed: int | None = None, all_solutions: bool = False,
              limit: int | None = None) -> Any:
    """Solve a model file with the given data (on a branch of its analysed instance); the
    minizinc Result."""
    parent = analysed(path, mzn_solver)
    with parent.branch() as instance:
        # a branch copies its parent's interface but not whether it has an output item (the
        # library would analyse the model again for that alone)
        instance._has_output_item_cache = getattr(parent, "_has_output_item_cache", None)
        return _solve(instance, data, budget, seed=seed, all_solutions=all_solutions,
                      limit=limit)


def _solve(instance: Any, data: dict[str, Any], budget: Budget, *, seed: int | None,
           all_solutions: bool, limit: int | None) -> Any:
    """One solve of ``instance`` (a branch) with ``data`` within the budget."""
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


#: Names an enum's value may have for a queen or a knight (a piece array declared over an enum).
QUEEN_NAMES = frozenset({"Q", "QUEEN"})
KNIGHT_NAMES = frozenset({"N", "K", "KNIGHT"})


def piece_kind(value: Any, base: int) -> str:
    """``'Q'``, ``'N'`` or ``''`` (empty) for one square of a piece array: an int counted from
    ``base`` (base empty, base + 1 queen, base + 2 knight) or an enum value's name."""
    if isinstance(value, str):
        name = value.upper()
        return "Q" if name in QUEEN_NAMES else "N" if name in KNIGHT_NAMES else ""
    v = int(value) - base
    return "Q" if v == 1 else "N" if v == 2 else ""


def decode(instance: Any, solution: Any, answer: str = "q", base: int = 0) -> Any:
    """A model solution as the problem's answer, read from the array named ``answer``: queens'
    columns counted from ``base``, or a queens-knights piece array (``piece_kind``)."""
    if isinstance(instance, QueensKnightsInstance):
        return [(kind, r, c) for r, row in enumerate(getattr(solution, answer))
                for c, v in enumerate(row) if (kind := piece_kind(v, base))]
    return [int(c) - base for c in getattr(solution, answer)]


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
    counter_names: ClassVar[frozenset[str] | None] = frozenset({"nodes", "failures", "propagations"})
    run_imports: ClassVar[tuple[str, ...]] = ("minizinc",)  # by the fork server, before runs
    params: ClassVar[dict[str, Any]] = {"mzn_solver": Param("gecode", choices=("gecode",))}
    unavailable: ClassVar[str] = minizinc_missing()

    @classmethod
    def prepare_runs(cls, params: Mapping[str, Any], instance: Any) -> None:
        """In the fork server: import the library, and look up the solver and analyse the
        model of the warm-up instance's problem once, for every run forked afterwards."""
        super().prepare_runs(params, instance)
        if cls.unavailable:
            return
        solver = cls(**params)
        analysed(solver.model_for(instance), solver.config["mzn_solver"])

    def model_for(self, instance: Any) -> Path:
        return MODELS / f"{instance.problem.replace('-', '_')}.mzn"

    def answer_array(self, instance: Any) -> str:
        """The output array the answer is read from (``q``; ``piece`` for queens-knights)."""
        default = "piece" if isinstance(instance, QueensKnightsInstance) else "q"
        return str(self.config.get("answer", default))

    def answer_base(self, instance: Any) -> int:
        """The number the model counts the answer from (the shipped models: 0)."""
        return 0

    def answer_note(self, instance: Any) -> str:
        """What the run's record should say about how its answer was read ('' for the
        shipped models; a user's model says which base it chose and why)."""
        return ""

    def decode(self, instance: Any, solution: Any) -> Any:
        return decode(instance, solution, self.answer_array(instance), self.answer_base(instance))

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
        from minizinc import Status  # on first use: start-up time

        self.answer_base(instance)  # a model whose answer cannot be read fails before it runs
        result = run_model(self.model_for(instance), model_data(instance),
                           self.config["mzn_solver"], budget, seed=int(rng.integers(2**31 - 1)))
        if result.status.has_solution():
            return Proposal(answer=self.decode(instance, result.solution),
                            claim=Claim.SOLVED,
                            counters=counters(result), note=self.answer_note(instance))
        if result.status is Status.UNSATISFIABLE:
            return Proposal(claim=Claim.INFEASIBLE, counters=counters(result),
                            note=self.answer_note(instance))
        status = f"MiniZinc status {result.status.name}"
        note = "; ".join(filter(None, (self.answer_note(instance), status)))
        return Proposal(counters=counters(result), note=note)

    def count(self, instance: Any, budget: Budget, *, unique: bool = False) -> Proposal:
        from minizinc import Status  # on first use: start-up time

        result = run_model(self.model_for(instance), model_data(instance),
                           self.config["mzn_solver"], budget, all_solutions=True)
        found = len(result.solution) if result.status.has_solution() else 0
        if result.status in (Status.ALL_SOLUTIONS, Status.UNSATISFIABLE):
            return Proposal(claim=Claim.SOLVED if found else Claim.INFEASIBLE, count=found,
                            counters=counters(result))
        return Proposal(counters=counters(result), note=f"stopped after {found} solutions")

    def enumerate(self, instance: Any, budget: Budget, *, limit: int | None = None) -> Enumeration:
        from minizinc import Status  # on first use: start-up time

        self.answer_base(instance)
        result = run_model(self.model_for(instance), model_data(instance),
                           self.config["mzn_solver"], budget, all_solutions=True, limit=limit)
        sols = ([self.decode(instance, s) for s in result.solution]
                if result.status.has_solution() else [])
        complete = result.status in (Status.ALL_SOLUTIONS, Status.UNSATISFIABLE) and (
            limit is None or len(sols) < limit)
        return Enumeration(sols, complete=complete)


class MiniZincGecode(MiniZincSolver):
    """MiniZinc models (AllDifferent; placement for queens-knights) solved by Gecode."""

    name: ClassVar[str] = "mzn-gecode"
    problems: ClassVar[frozenset[str]] = MODELLED
