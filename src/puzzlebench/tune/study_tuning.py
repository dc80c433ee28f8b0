"""Fair comparisons: a study that tunes its solvers before it compares them
(``[study] tune = { budget = N, train = SIZES }`` or ``[[solvers]] tune = true``).

Each tuned solver is tuned with the same budget on the training sizes of each of its problems
(``puzzlebench tune``, its runs and trials in ``STORE.tune.sqlite`` beside the study's store),
and the study then runs the tuned configuration beside the defaults on its own sizes, which the
training sizes never include. The tuned entry carries the record of how it was found, which
``run`` keeps and ``report`` lists in the manifest; its runs are keyed by its parameters as any.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from puzzlebench.harness.campaign.design.study import Study
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.tune import tune

#: Keys of a [[problems]] entry that are not the problem's own options.
NOT_OPTIONS = ("problem", "sizes", "generate")


def tuning_db(db: str | Path) -> Path:
    """Where a study's tunings are stored: beside its store, apart from its runs."""
    path = Path(db)
    return path.with_name(path.stem + ".tune.sqlite")


def planned(study: Study) -> list[str]:
    """One line per tuning the study asks for (``run --check``)."""
    return [f"tunes {e['name']} on {p} sizes {', '.join(map(str, e['tune']['train']))} with "
            f"{e['tune']['budget']:g} {e['tune'].get('budget_unit', 'runs')} before the runs"
            for e in study.solvers if e.get("tune") for p in e["problems"]]


def tuned_study(study: Study, db: str | Path, *, workers: int | None = None,
                scheduler: str | None = None,
                progress: Callable[[str], None] | None = None) -> Study:
    """The study with every tuning it asks for done: a tuned entry beside each tuned solver's
    default one (or, where the tuner kept the defaults, the default entry marked tuned)."""
    solvers: list[dict[str, Any]] = []
    extra: list[dict[str, Any]] = []
    for entry in study.solvers:
        ask = entry.get("tune")
        if not ask:
            solvers.append(entry)
            continue
        entry = {k: v for k, v in entry.items() if k != "tune"}
        solvers.append(entry)
        spec = resolve_solver(entry["name"])
        budget = study.budget(entry)
        for problem in entry["problems"]:
            table = next(p for p in study.problems if p["problem"] == problem)
            sizes = [n for n in table["sizes"] if entry["min_size"] <= n <= entry["max_size"]]
            result = tune(entry["name"], problem, train=ask["train"], test=sizes,
                          budget=ask["budget"], budget_unit=ask.get("budget_unit", "runs"),
                          objective=ask.get("objective", "par2"),
                          repeats=ask.get("repeats", study.repeats),
                          seed=ask.get("seed", study.master_seed),
                          time_limit=budget.time_limit or study.time_limit,
                          max_evaluations=budget.max_evaluations,
                          options={k: v for k, v in table.items() if k not in NOT_OPTIONS},
                          db=tuning_db(db), workers=workers, scheduler=scheduler,
                          held_out_runs=False, progress=progress)
            record = {**result.record, "problem": problem}
            if spec.check_params(result.params) == spec.check_params({}):
                record["kept_defaults"] = True
            extra.append({**entry, "params": dict(result.params), "problems": [problem],
                          "tuned": record})
    return replace(study, solvers=_merge(solvers, extra))


def _merge(solvers: list[dict[str, Any]], extra: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tuned entries after the defaults; one that equals its default entry's parameters
    marks that entry tuned instead of repeating its runs."""
    out = [dict(e) for e in solvers]
    for tuned in extra:
        if tuned["tuned"].get("kept_defaults"):
            for entry in out:
                if entry["name"] == tuned["name"] and not entry.get("params"):
                    entry.setdefault("tuned", tuned["tuned"])
            continue
        out.append(tuned)
    return out
