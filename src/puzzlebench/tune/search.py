"""The search: Optuna's TPE sampler proposes configurations, each raced over the training
instances as ordinary stored runs, its trials kept in Optuna's SQLite storage beside the store.

Why Optuna (docs/how-to/tune.md): a maintained Python library with define-by-run spaces (ints,
log-scale floats, categoricals: the three kinds a solver declares), an ask-and-tell interface
that leaves every evaluation to the harness, intermediate values for pruning, and an SQLite
storage that survives a kill. SMAC3 would bring ConfigSpace and a random-forest model for
a handful of parameters and a C++ dependency (pyrfr); irace is R only.

Resuming to the same incumbent. Trials finished before an interrupt are read back from the
storage; a trial a kill left running is marked failed and asked again. The sampler is seeded
per trial from ``--seed`` and the number of trials finished (never one generator drawn from
across the process's life), so a resumed tuning proposes what an uninterrupted one would
have, and the runs it asks for again are found stored, not made again.

Racing. The defaults are the first trial, always run on every training instance (a budget
in runs too small for it is refused before any run; one in CPU seconds may be overrun by
it). A configuration is run on the training instances a block at a time (as many instances
as workers can take), and stopped (Optuna's ``PRUNED``)
when, on the instances seen, (a) its summed score already exceeds the incumbent's total over
every training instance (scores are never negative, so it cannot win), or (b) after at least
two instances and before the last, its mean is more than :data:`CLEARLY_WORSE` times the
incumbent's on the same instances.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from puzzlebench.harness.campaign.design.study import derive_seed
from puzzlebench.harness.campaign.runner import run_specs
from puzzlebench.harness.campaign.storage.store import load_records
from puzzlebench.solvers.param_space import Choice, IntRange
from puzzlebench.solvers.spec import SolverSpec
from puzzlebench.tune.scoring import instance_score, mean_score
from puzzlebench.tune.settings import TuneError, TuneSettings, by_instance, grid

#: Racing rule (b): a configuration this many times worse than the incumbent on the instances
#: both ran is stopped.
CLEARLY_WORSE = 1.5


@dataclass(frozen=True, slots=True)
class Trial:
    """One configuration tried: its tuned parameters, its mean score over the instances it
    ran, whether it ran all of them (``complete``) or was raced out, and what it spent."""

    number: int
    params: dict[str, Any]
    score: float
    complete: bool
    scores: dict[str, float]
    runs: int
    cpu_s: float


@dataclass(frozen=True, slots=True)
class SearchOutcome:
    """The finished trials, the incumbent (best complete trial, the earliest among equals),
    the defaults' trial and the budget spent; ``finished`` is False when stopped early."""

    trials: tuple[Trial, ...]
    incumbent: Trial
    defaults: Trial
    runs: int
    cpu_s: float
    finished: bool


def storage_path(db: Path) -> Path:
    """Optuna's trial storage, beside the study's store."""
    return db.with_name(db.stem + ".optuna.sqlite")


def search(s: TuneSettings, spec: SolverSpec, db: Path, *, workers: int | None = None,
           scheduler: str | None = None, stop_after: int | None = None,
           progress: Callable[[str], None] | None = None) -> SearchOutcome:
    """Tune until the budget is spent (or ``stop_after`` trials are finished)."""
    # imported on use: Optuna and SQLAlchemy take ~1 s to load, only tune needs them
    import optuna
    from optuna.trial import TrialState

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = optuna.storages.RDBStorage(f"sqlite:///{storage_path(db).resolve()}")
    study = optuna.create_study(storage=storage, load_if_exists=True, direction="minimize",
                                study_name=f"{s.study_name}-{s.fingerprint(spec)}")
    for stale in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        storage.set_trial_state_values(stale._trial_id, TrialState.FAIL)  # a killed trial
    defaults = {k: v for k, v in spec.check_params({}).items() if k in spec.param_space}
    if s.budget_unit == "runs" and s.budget < len(grid(s, "train", defaults).runs()):
        raise _nothing(s)  # before any run: the defaults' trial must fit
    block = max(1, math.ceil((workers or os.cpu_count() or 1) / s.repeats))
    started = time.monotonic()
    finished = True
    while True:
        done = _trials(study)
        runs, cpu = _spent(study)
        spent = runs if s.budget_unit == "runs" else cpu
        if stop_after is not None and len(done) >= stop_after:
            finished = False
            break
        first_block = block * s.repeats
        if study.user_attrs.get("exhausted_at", -1) >= s.budget or spent >= s.budget or (
                s.budget_unit == "runs" and spent + first_block > s.budget):
            break
        if not done and not study.get_trials(deepcopy=False, states=(TrialState.WAITING,)):
            study.enqueue_trial(defaults)
        study.sampler = optuna.samplers.TPESampler(
            seed=derive_seed(s.seed, "tpe", len(done)) % 2**32)
        trial = study.ask()
        params = {k: _suggest(trial, k, dim) for k, dim in spec.param_space.items()}
        incumbent = _best(done)
        state = _race(s, trial, params, incumbent, spent, block, db, workers, scheduler)
        if state == "budget":
            study.set_user_attr("exhausted_at", s.budget)
            storage.set_trial_state_values(trial._trial_id, TrialState.FAIL)
            break
        if state == "pruned":
            study.tell(trial, state=TrialState.PRUNED)
        else:
            study.tell(trial, trial.user_attrs["score"])
        if progress is not None:
            progress(_line(s, _trials(study), time.monotonic() - started))
    done = _trials(study)
    best = _best(done)
    if best is None:
        raise _nothing(s)
    return SearchOutcome(tuple(done), best, done[0], *_spent(study), finished)


def _nothing(s: TuneSettings) -> TuneError:
    return TuneError(f"a budget of {s.budget:g} {s.budget_unit} does not cover one evaluation "
                     f"of the defaults on the training instances ({s.repeats} repeats each)")


def _suggest(trial: Any, name: str, dim: Any) -> Any:
    if isinstance(dim, Choice):
        return trial.suggest_categorical(name, list(dim.values))
    if isinstance(dim, IntRange):
        return trial.suggest_int(name, dim.low, dim.high, log=dim.log)
    return trial.suggest_float(name, dim.low, dim.high, log=dim.log)


def _race(s: TuneSettings, trial: Any, params: Mapping[str, Any], incumbent: Trial | None,
          spent: float, block: int, db: Path, workers: int | None,
          scheduler: str | None) -> str:
    """Run one configuration over the training instances, a block at a time: ``complete``,
    ``pruned`` (raced out) or ``budget`` (the budget ran out before it finished)."""
    groups = by_instance(grid(s, "train", params).runs())
    scores: dict[str, float] = {}
    runs, cpu = 0, 0.0
    for start in range(0, len(groups), block):
        chunk = [spec for _, specs in groups[start:start + block] for spec in specs]
        used = runs if s.budget_unit == "runs" else cpu
        if incumbent is not None and (spent + used >= s.budget or (
                s.budget_unit == "runs" and spent + used + len(chunk) > s.budget)):
            _keep(trial, scores, runs, cpu)
            trial.set_user_attr("abandoned", True)  # its runs were made: they count as spent
            return "budget"
        run_specs(s.study_name, chunk, db, workers=workers, scheduler=scheduler, quiet=True)
        records = load_records(db, keys=[spec.key for spec in chunk])
        for instance_id, _ in groups[start:start + block]:
            scores[instance_id] = instance_score(
                [r for r in records if r.key.instance_id == instance_id], s)
        runs += len(chunk)
        cpu += sum(float(r.figures.cpu_s or 0.0) for r in records)
        trial.report(mean_score(scores.values()), step=len(scores))
        if incumbent is not None and len(scores) < len(groups) and _raced_out(
                scores, incumbent, len(groups)):
            _keep(trial, scores, runs, cpu)
            return "pruned"
    _keep(trial, scores, runs, cpu)
    return "complete"


def _raced_out(scores: Mapping[str, float], incumbent: Trial, total: int) -> bool:
    """The racing rule (module docstring): cannot win, or clearly worse so far."""
    if sum(scores.values()) > sum(incumbent.scores.values()):
        return True
    if len(scores) < 2:
        return False
    theirs = mean_score(incumbent.scores[k] for k in scores if k in incumbent.scores)
    return mean_score(scores.values()) > CLEARLY_WORSE * theirs


def _keep(trial: Any, scores: Mapping[str, float], runs: int, cpu: float) -> None:
    trial.set_user_attr("scores", dict(scores))
    trial.set_user_attr("score", mean_score(scores.values()))
    trial.set_user_attr("runs", runs)
    trial.set_user_attr("cpu_s", cpu)


def _spent(study: Any) -> tuple[int, float]:
    """Runs and CPU seconds of the finished trials and of a trial the budget stopped (not of
    one a kill left running: it is asked again, and its runs found stored)."""
    from optuna.trial import TrialState  # with Optuna itself (see ``search``)

    trials = [t for t in study.get_trials(deepcopy=False)
              if t.state in (TrialState.COMPLETE, TrialState.PRUNED)
              or t.user_attrs.get("abandoned")]
    return (sum(int(t.user_attrs.get("runs", 0)) for t in trials),
            sum(float(t.user_attrs.get("cpu_s", 0.0)) for t in trials))


def _trials(study: Any) -> list[Trial]:
    """The finished trials (complete or raced out), in order."""
    from optuna.trial import TrialState  # with Optuna itself (see ``search``)

    out = []
    for t in study.get_trials(deepcopy=False,
                              states=(TrialState.COMPLETE, TrialState.PRUNED)):
        attrs = t.user_attrs
        out.append(Trial(t.number, dict(t.params), float(attrs.get("score", math.inf)),
                         t.state == TrialState.COMPLETE, dict(attrs.get("scores", {})),
                         int(attrs.get("runs", 0)), float(attrs.get("cpu_s", 0.0))))
    return sorted(out, key=lambda t: t.number)


def _best(trials: list[Trial]) -> Trial | None:
    complete = [t for t in trials if t.complete]
    return min(complete, key=lambda t: (t.score, t.number)) if complete else None


def _line(s: TuneSettings, trials: list[Trial], elapsed: float) -> str:
    """One progress line: configurations tried, the incumbent and its score, budget left."""
    last, best = trials[-1], _best(trials)
    spent = sum(t.runs for t in trials) if s.budget_unit == "runs" else sum(
        t.cpu_s for t in trials)
    left = max(0.0, s.budget - spent)
    eta = f", ~{elapsed / spent * left:.0f} s left" if spent > 0 else ""
    how = "complete" if last.complete else f"raced out after {len(last.scores)} instances"
    inc = "none" if best is None else f"#{best.number} {best.score:.4g} {_show(best.params)}"
    return (f"tune: {len(trials)} configurations; #{last.number} {how}, {last.score:.4g} "
            f"{_show(last.params)}; incumbent {inc}; {spent:g}/{s.budget:g} {s.budget_unit} "
            f"spent{eta}")


def _show(params: Mapping[str, Any]) -> str:
    return "{" + ", ".join(f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}"
                           for k, v in sorted(params.items())) + "}"
