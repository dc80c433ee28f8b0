"""The ga-parameters study's tuned arm: the grid asks for a tuning with as many runs as the
grid makes, on sizes it does not compare on; the report ranks the tuner's configuration among
the grid's and tests it against the defaults."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from puzzlebench.harness.campaign.design.study_file import study_from_dict
from puzzlebench.studies import get_study
from puzzlebench.studies.ga_parameters import arm_of, tuned_arm, tuned_sentence

DEFAULTS = {"population_size": 100, "k": 3, "crossover_rate": 0.9, "mutation_rate": 0.8,
            "time_cap": 20.0}


def test_the_tuning_gets_the_grids_runs_on_other_sizes() -> None:
    for quick in (True, False):
        study = study_from_dict(get_study("ga-parameters").definition(quick))
        grid = study.runs()  # the sweeps and the defaults entry (the tuned one comes later)
        tuned = [e for e in study.solvers if e.get("tune")]
        assert len(tuned) == 1 and not tuned[0]["params"]
        sweep_runs = 13 * len(study.problems[0]["sizes"]) * study.repeats
        assert tuned[0]["tune"]["budget"] == sweep_runs
        assert len(grid) == sweep_runs + len(study.problems[0]["sizes"]) * study.repeats
        assert not set(tuned[0]["tune"]["train"]) & set(study.problems[0]["sizes"])


def _frame() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    configs = [DEFAULTS, {**DEFAULTS, "mutation_rate": 0.1},
               {**DEFAULTS, "population_size": 40, "k": 5, "mutation_rate": 0.95}]
    rows = []
    for i, params in enumerate(configs):
        for n in (8, 12):
            for rep in range(8):
                rows.append({"problem": "nqueens", "solver": "ga-seed002", "size": n,
                             "instance_id": f"nqueens-{n}", "repeat": rep,
                             "params": params, "params_key": json.dumps(params, sort_keys=True),
                             "budget": {"time_limit": 20.0}, "outcome": "solved",
                             "time_s": float(rng.uniform(1, 2)) * (1.0, 3.0, 0.2)[i]})
    frame = pd.DataFrame(rows)
    frame["success"] = True
    return frame


def test_the_tuned_configuration_is_ranked_and_tested_against_the_defaults() -> None:
    assert arm_of(DEFAULTS) == "defaults"
    assert arm_of({**DEFAULTS, "crossover_rate": 0.3}) == "grid"
    assert arm_of({**DEFAULTS, "crossover_rate": 0.31}) == "tuned"
    table = tuned_arm(_frame())
    assert list(table["arm"]) == ["tuned", "defaults", "grid"]
    assert list(table["rank"]) == [1, 2, 3]
    [sentence] = tuned_sentence(_frame())
    assert "ranks 1 of 3" in sentence and "beats the defaults: confirmed" in sentence
