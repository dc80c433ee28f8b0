"""What a tuning is asked to do (:class:`TuneSettings`), checked before anything runs, and the
grids it runs (training and held-out instances as study grids, so every evaluation is an
ordinary study run: sealed, judged, stored under its run key)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from puzzlebench.harness.campaign.design.study import RunSpec, Study, StudyError
from puzzlebench.harness.campaign.design.study_file import study_from_dict
from puzzlebench.harness.campaign.design.study_tune import TUNE_OBJECTIVES, TUNE_UNITS
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.problems.base import PuzzlebenchError
from puzzlebench.solvers.spec import SolverSpec

#: Objectives (lower is better) → the claims measure the held-out verdict tests.
OBJECTIVES = {name: name for name in TUNE_OBJECTIVES}
UNITS = TUNE_UNITS


class TuneError(PuzzlebenchError, ValueError):
    """A tuning that cannot run (bad input: exit status 2 from the command line)."""


@dataclass(frozen=True, slots=True)
class TuneSettings:
    """A tuning's inputs. ``options`` are the problem's study options (``{"queens": 2}``)."""

    solver: str
    problem: str
    train: tuple[int, ...]
    test: tuple[int, ...]
    budget: float
    budget_unit: str = "runs"
    objective: str = "par2"
    repeats: int = 1
    seed: int = 0
    time_limit: float = 10.0
    max_evaluations: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    #: The solver's registered name, where ``solver`` is a reference (a plugin's path).
    name: str = ""

    @property
    def study_name(self) -> str:
        """The study name of every run a tuning makes (training and held-out)."""
        return f"tune-{self.name or self.solver}-{self.problem}"

    def default_db(self) -> Path:
        return Path(f"{self.study_name}.sqlite")

    def fingerprint(self, spec: SolverSpec) -> str:
        """What a tuning's trials depend on (not its budget, so a larger budget resumes)."""
        data = {k: v for k, v in asdict(self).items() if k not in ("budget", "test")}
        data["code"] = spec.fingerprint
        return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()
                              ).hexdigest()[:12]


def check_settings(s: TuneSettings) -> SolverSpec:
    """The solver's spec when the settings can run, else TuneError naming the fault."""
    spec = resolve_solver(s.solver)
    if not spec.param_space:
        raise TuneError(f"solver {spec.name!r} declares no param_space: nothing to tune "
                        "(docs/how-to/tune.md says how to declare one)")
    if s.problem not in spec.problems:
        raise TuneError(f"solver {spec.name!r} does not handle {s.problem!r} "
                        f"(it handles {', '.join(sorted(spec.problems))})")
    for name, sizes in (("train", s.train), ("test", s.test)):
        if not sizes:
            raise TuneError(f"--{name}: no sizes given")
    if not s.budget > 0:
        raise TuneError(f"--budget must be positive, got {s.budget}")
    if s.budget_unit not in UNITS:
        raise TuneError(f"--budget-unit must be one of {', '.join(UNITS)}, got {s.budget_unit!r}")
    if s.objective not in OBJECTIVES:
        raise TuneError(f"--objective must be one of {', '.join(OBJECTIVES)}, got "
                        f"{s.objective!r}")
    if s.objective == "evaluations" and not s.max_evaluations:
        raise TuneError("--objective evaluations needs --max-evaluations (its PAR-2 penalty is "
                        "twice that cap)")
    if s.objective == "evaluations" and not (spec.traces or spec.evaluation):
        raise TuneError(f"solver {spec.name!r} counts no evaluations (--objective evaluations)")
    if s.repeats < 1:
        raise TuneError(f"--repeats must be at least 1, got {s.repeats}")
    for which in ("train", "test"):
        grid(s, which, {})  # the instances exist (StudyError → TuneError)
    return spec


def grid(s: TuneSettings, which: str, *configs: Mapping[str, Any]) -> Study:
    """The study of ``configs`` (parameter sets) on the training or the held-out sizes."""
    sizes = list(s.train if which == "train" else s.test)
    head: dict[str, Any] = {"name": s.study_name, "master_seed": s.seed, "repeats": s.repeats,
                            "time_limit": s.time_limit}
    if s.max_evaluations:
        head["max_evaluations"] = s.max_evaluations
    data = {"study": head,
            "problems": [{"problem": s.problem, "sizes": sizes, **dict(s.options)}],
            "solvers": [{"name": s.solver, "params": dict(c)} for c in configs]
            or [{"name": s.solver}]}
    try:
        return study_from_dict(data, f"tune --{which}")
    except StudyError as exc:
        raise TuneError(str(exc)) from None


def by_instance(specs: list[RunSpec]) -> list[tuple[str, list[RunSpec]]]:
    """The runs grouped by instance, in the study's instance order."""
    out: dict[str, list[RunSpec]] = {}
    for spec in specs:
        out.setdefault(spec.instance_id, []).append(spec)
    return list(out.items())
