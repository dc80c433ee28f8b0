"""``puzzlebench tune``: algorithm configuration in which every evaluation is a judged,
stored run, tuned on training instances and tested on held-out ones.

:func:`tune` searches the parameters a solver declares in ``param_space`` (``tune.search``:
Optuna's TPE with racing, its trials in an SQLite file beside the store, so a killed tuning
resumes), then runs the incumbent and the defaults on the test sizes and compares them with
the report's statistics (``tune.heldout``), and writes the configuration as a study fragment
(``tune.fragment``). Every run is an ordinary study run of ``tune-<solver>-<problem>``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from puzzlebench.harness.campaign.storage.store import Store
from puzzlebench.tune.fragment import fragment_text, write_fragment
from puzzlebench.tune.heldout import HeldOut, held_out
from puzzlebench.tune.search import Trial, search, storage_path
from puzzlebench.tune.settings import TuneError, TuneSettings, check_settings

__all__ = ["HeldOut", "Trial", "TuneError", "TuneResult", "TuneSettings", "tune"]


@dataclass(frozen=True, slots=True)
class TuneResult:
    """What a tuning found: the incumbent's tuned parameters (the rest at their defaults) and
    training score, the defaults', every trial, the budget spent, the held-out comparison
    (None when stopped early by ``stop_after``), the fragment and the wall time."""

    settings: TuneSettings
    params: dict[str, Any]
    defaults: dict[str, Any]
    score: float
    default_score: float
    trials: tuple[Trial, ...]
    runs: int
    cpu_s: float
    heldout: HeldOut | None
    record: dict[str, Any]
    fragment: str
    db: Path
    seconds: float

    @property
    def raced_out(self) -> int:
        return sum(not t.complete for t in self.trials)


def tune(solver: str, problem: str, *, train: Sequence[int], test: Sequence[int],
         budget: float, budget_unit: str = "runs", objective: str = "par2", repeats: int = 1,
         seed: int = 0, time_limit: float = 10.0, max_evaluations: int | None = None,
         options: Mapping[str, Any] | None = None, db: str | Path | None = None,
         workers: int | None = None, scheduler: str | None = None, out: str | Path | None = None,
         stop_after: int | None = None, held_out_runs: bool = True,
         progress: Callable[[str], None] | None = None) -> TuneResult:
    """Tune ``solver`` on ``problem`` (raises TuneError or another PuzzlebenchError on bad
    input, before any run). The same call again resumes: stored runs are not made again and
    Optuna's storage keeps the trials. ``stop_after`` stops after that many trials, without
    the held-out runs (an interrupted tuning, for tests); ``held_out_runs=False`` leaves them
    to the caller (a study that compares the tuned and default configurations itself)."""
    started = time.monotonic()
    s = TuneSettings(solver, problem, tuple(train), tuple(test), float(budget), budget_unit,
                     objective, int(repeats), int(seed), float(time_limit), max_evaluations,
                     dict(options or {}))
    spec = check_settings(s)
    s = replace(s, name=spec.name)
    store = Path(db) if db is not None else s.default_db()
    found = search(s, spec, store, workers=workers, scheduler=scheduler,
                   stop_after=stop_after, progress=progress)
    best, base = found.incumbent, found.defaults
    heldout = None
    if found.finished and held_out_runs:
        heldout = held_out(s, spec, best.params, base.params, (best.score, base.score), store,
                           workers=workers, scheduler=scheduler, progress=progress)
    record = _record(s, found.runs, found.cpu_s, len(found.trials), heldout)
    if heldout is not None:  # ``report --db`` on the tuning's store: its manifest says how
        _keep_definition(store, s, {"solver": spec.name, "params": dict(best.params), **record})
    text = fragment_text(spec.name, best.params, record, _comment(s, heldout))
    if out is not None and found.finished:
        write_fragment(out, text)
    return TuneResult(s, dict(best.params), dict(base.params), best.score, base.score,
                      found.trials, found.runs, found.cpu_s, heldout, record, text, store,
                      time.monotonic() - started)


def _record(s: TuneSettings, runs: int, cpu_s: float, trials: int,
            heldout: HeldOut | None) -> dict[str, Any]:
    """How the configuration was found, for the fragment and the report's manifest."""
    import optuna  # imported on use: the version string only (Optuna loads in ``search``)

    record: dict[str, Any] = {
        "tuner": f"optuna {optuna.__version__} TPE, racing", "objective": s.objective,
        "budget": int(s.budget) if s.budget.is_integer() else s.budget,
        "budget_unit": s.budget_unit, "spent_runs": runs,
        "spent_cpu_s": round(cpu_s, 3), "trials": trials, "seed": s.seed,
        "problem": s.problem, "train": list(s.train), "test": list(s.test),
        "repeats": s.repeats, "time_limit": s.time_limit}
    if s.options:
        record["options"] = dict(s.options)
    if s.max_evaluations:
        record["max_evaluations"] = s.max_evaluations
    if heldout is not None:
        record["verdict"] = heldout.verdict
        record["gap"] = heldout.gap
    return record


def _keep_definition(db: Path, s: TuneSettings, tuned: dict[str, Any]) -> None:
    """The tuning study's definition in its store, as ``run`` keeps a study's."""
    description = (f"Tuning of {s.solver} on {s.problem} sizes {', '.join(map(str, s.train))} "
                   f"(every configuration tried), and the tuned and default configurations on "
                   f"the held-out sizes {', '.join(map(str, s.test))}.")
    with Store(db) as store:
        store.save_study(s.study_name, {"description": description, "claims": [],
                                        "tuned": [tuned]})


def _comment(s: TuneSettings, heldout: HeldOut | None) -> str:
    head = (f"puzzlebench tune {s.solver} --problem {s.problem}: tuned on sizes "
            f"{', '.join(map(str, s.train))}, tested on {', '.join(map(str, s.test))}")
    return head + (f"\nheld out: {heldout.sentence}" if heldout is not None else "")


__all__ += ["storage_path"]
