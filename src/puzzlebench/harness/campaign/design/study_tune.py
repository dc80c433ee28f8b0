"""``tune`` in a study file: ``[study] tune = { budget, train, ... }`` for every solver that
declares a param_space, or ``[[solvers]] tune = true | false | { ... }`` for one; checked when
the file is read (training sizes disjoint from the study's, no params beside a tuned entry)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from puzzlebench.harness.campaign.design.study import StudyError
from puzzlebench.harness.campaign.design.study_mistakes import check_keys
from puzzlebench.harness.campaign.design.study_values import number, parse_sizes
from puzzlebench.solvers.spec import SolverSpec

#: ``tune = { ... }`` in [study] or [[solvers]]: what ``puzzlebench tune`` takes.
TUNE_KEYS = {"budget", "train", "budget_unit", "objective", "repeats", "seed"}
TUNE_OBJECTIVES = ("par2", "success", "evaluations")
TUNE_UNITS = ("runs", "cpu-seconds")


def tune_table(raw: Any, where: str) -> dict[str, Any]:
    """A ``tune`` table: a budget, training sizes, and optionally the unit, objective, repeats
    and seed."""
    if not isinstance(raw, dict):
        raise StudyError(f"{where}: must be a table {{ budget = N, train = SIZES }}")
    check_keys(raw, TUNE_KEYS, where)
    for key in ("budget", "train"):
        if key not in raw:
            raise StudyError(f"{where}: {key} is required")
    out: dict[str, Any] = {"budget": number(raw, "budget", float, where),
                           "train": parse_sizes(raw["train"], f"{where}.train")}
    if out["budget"] <= 0:
        raise StudyError(f"{where}.budget: must be positive")
    for key, allowed in (("budget_unit", TUNE_UNITS), ("objective", TUNE_OBJECTIVES)):
        if key in raw:
            if raw[key] not in allowed:
                raise StudyError(f"{where}.{key}: one of {', '.join(allowed)}, got {raw[key]!r}")
            out[key] = raw[key]
    if "repeats" in raw:
        out["repeats"] = number(raw, "repeats", int, where, minimum=1)
    if "seed" in raw:
        out["seed"] = number(raw, "seed", int, where)
    return out


def solver_tune(entry: Mapping[str, Any], where: str, study_tune: dict[str, Any] | None,
                 spec: SolverSpec, study_sizes: list[int]) -> dict[str, Any] | None:
    """What tuning a solver entry asks: its own ``tune`` table, ``tune = true`` (the study's),
    or the study's for every solver that declares a param_space; None for none."""
    raw = entry.get("tune", None if study_tune is None else bool(spec.param_space))
    if raw is False or raw is None:
        return None
    if raw is True:
        if study_tune is None:
            raise StudyError(f"{where}.tune: true needs [study] tune = {{ budget = N, "
                             "train = SIZES }} (or give this solver its own table)")
        tune = dict(study_tune)
    else:
        if not isinstance(raw, dict):
            raise StudyError(f"{where}.tune: true, false or a table")
        tune = tune_table({**(study_tune or {}), **raw}, f"{where}.tune")
    if not spec.param_space:
        raise StudyError(f"{where}.tune: solver {spec.name!r} declares no param_space")
    if entry.get("params"):
        raise StudyError(f"{where}.tune: a tuned solver's params come from the tuner; give "
                         "them in another [[solvers]] entry")
    shared = sorted(set(tune["train"]) & set(study_sizes))
    if shared:
        raise StudyError(f"{where}.tune.train: sizes {shared} are also the study's: a tuned "
                         "configuration is compared on sizes it was not tuned on")
    return tune
