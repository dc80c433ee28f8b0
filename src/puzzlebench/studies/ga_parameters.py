"""Source study 002: mutation rate, crossover rate and population size against generations and time.

Beside the seed's one-at-a-time grid, a tuned arm (issue 55): ``puzzlebench tune`` searches
the four parameters together on training sizes the study never compares on (9, 10, 11; quick:
9, 10) with as many runs as the grid makes, and its configuration runs beside the grid and the
defaults on the study's sizes.
"""

from __future__ import annotations

import json
from typing import Any

import pandas as pd

from puzzlebench.records.claims import Claim
from puzzlebench.report.statistics.claim_tests import claim_verdicts, measure
from puzzlebench.report.statistics.findings import Finding, adjust, trend
from puzzlebench.report.statistics.scores import run_time_or_penalty, time_limit_of
from puzzlebench.studies import BuiltinStudy

SWEEPS: dict[str, list[float]] = {"mutation_rate": [0.1, 0.3, 0.5, 0.8, 1.0],
                                  "crossover_rate": [0.0, 0.3, 0.6, 0.9],
                                  "population_size": [20, 50, 100, 200]}


def _grid(repeats: int, n: list[int], limit: float, train: list[int]) -> dict:
    grid_runs = sum(len(v) for v in SWEEPS.values()) * len(n) * repeats
    return {
        "study": {"name": "ga-parameters", "master_seed": 2, "repeats": repeats,
                  "time_limit": limit,
                  # the tuned arm: as many runs as the grid makes, on other sizes
                  "tune": {"budget": grid_runs, "train": train, "repeats": 2}},
        "problems": [{"problem": "nqueens", "sizes": n}],
        "solvers": [
            *({"name": "ga-seed002", "params": {k: v}, "tune": False} for k, v in SWEEPS.items()),
            {"name": "ga-seed002", "tune": True},  # the defaults, and the tuner's beside them
        ],
    }


DEFAULTS: dict[str, float] = {"mutation_rate": 0.8, "crossover_rate": 0.9, "population_size": 100}
#: The grid's configurations as (mutation, crossover, population, k).
GRID = {(DEFAULTS["mutation_rate"] if k != "mutation_rate" else v,
         DEFAULTS["crossover_rate"] if k != "crossover_rate" else v,
         DEFAULTS["population_size"] if k != "population_size" else v, 3)
        for k, values in SWEEPS.items() for v in values}


def arm_of(params: dict[str, Any]) -> str:
    """``defaults``, ``grid`` (one of the seed's one-at-a-time points) or ``tuned``."""
    point = (params.get("mutation_rate"), params.get("crossover_rate"),
             params.get("population_size"), params.get("k"))
    if point == (*DEFAULTS.values(), 3):
        return "defaults"
    return "grid" if point in GRID else "tuned"


def tuned_arm(frame: pd.DataFrame) -> pd.DataFrame:
    """Every configuration on the study's sizes, by PAR-2 (time when verified solved, twice
    the limit otherwise): the seed's grid, the defaults and the tuner's configuration."""
    if frame.empty or "params" not in frame:
        return pd.DataFrame()
    scored = frame.assign(score=measure(frame, Claim("", "a", "b", on="par2")),
                          arm=[arm_of(dict(p)) for p in frame["params"]])
    rows = []
    for key, g in scored.groupby("params_key"):
        params = json.loads(str(key))
        rows.append({"arm": g["arm"].iloc[0],
                     "configuration": ", ".join(f"{k}={params[k]:.3g}" if isinstance(
                         params[k], float) else f"{k}={params[k]}" for k in (
                         "population_size", "crossover_rate", "mutation_rate", "k")),
                     "runs": len(g), "solved %": round(100 * float(g["success"].mean()), 1),
                     "PAR-2 s": round(float(g["score"].mean()), 4)})
    table = pd.DataFrame(rows).sort_values("PAR-2 s", kind="stable").reset_index(drop=True)
    table.insert(0, "rank", range(1, len(table) + 1))
    return table


def tuned_sentence(frame: pd.DataFrame) -> list[str]:
    """Where the tuner's configuration ranks, and its verdict against the defaults."""
    table = tuned_arm(frame)
    if table.empty:
        return []
    if "tuned" not in set(table["arm"]):
        return ["Tuned arm: the tuner's best configuration on the training sizes was the "
                "defaults (the manifest says how it was tuned)."]
    row = table[table["arm"] == "tuned"].iloc[0]
    arms = frame.assign(solver=[arm_of(dict(p)) for p in frame["params"]])
    claim = Claim("the tuned configuration beats the defaults", "tuned", "defaults", on="par2")
    verdict = claim_verdicts(arms[arms["solver"].isin(["tuned", "defaults"])], [claim])[0]
    sizes = ", ".join(str(n) for n in sorted(frame["size"].unique()))
    return [f"Tuned arm: the tuner's configuration ({row['configuration']}), found with as "
            f"many runs as the grid makes on sizes the study does not compare on, ranks "
            f"{row['rank']} of {len(table)} configurations by PAR-2 on n = {sizes}; "
            f"{verdict.sentence()}"]


def sweep_runs(frame: pd.DataFrame, param: str) -> pd.DataFrame:
    """Runs of the one-at-a-time sweep over ``param`` (the others at their defaults)."""
    col = f"param.{param}"
    if col not in frame:
        return frame.iloc[0:0]
    mask = pd.Series(True, index=frame.index)
    for other, value in DEFAULTS.items():
        if other != param and f"param.{other}" in frame:
            mask &= frame[f"param.{other}"] == value
    return frame[mask]


def effect(frame: pd.DataFrame, param: str) -> pd.DataFrame:
    """Per size and value of ``param``: runs, share verified solved, median generations and
    time."""
    sub = sweep_runs(frame, param)
    if sub.empty:
        return pd.DataFrame()
    col = f"param.{param}"
    out = sub.groupby(["size", col]).agg(
        runs=("success", "size"), solved=("success", "mean"),
        median_generations=("counter.generations", "median"),
        median_time_s=("time_s", "median")).reset_index()
    return out.rename(columns={col: param})


#: Source study 002's statements (its report gives no numbers, only these conclusions; translated).
SOURCE_SAYS = {
    "mutation_rate": "Raising the mutation rate up to 0.8 makes the search faster.",
    "crossover_rate": "Raising the crossover rate makes the search steadily faster; at 0 the "
                      "next generation is the previous one except for mutations.",
    "population_size": "Larger populations reach a solution in fewer generations, but each "
                       "generation costs more computation: a trade-off.",
}


def findings(frame: pd.DataFrame) -> list[Finding]:
    """One test per statement of source study 002 and board size; time is PAR-2 per run (unsolved =
    2 × limit), generations over verified solved runs."""
    out = []
    limit = time_limit_of(frame) if len(frame) else 1.0
    for param in SOURCE_SAYS:
        runs = sweep_runs(frame, param)
        for n in sorted(runs["size"].unique()):
            sub = runs[runs["size"] == n]
            sub = sub.assign(score=run_time_or_penalty(sub, 2 * limit))
            x, at = sub[f"param.{param}"], f"n = {n}"
            if param == "mutation_rate":
                upto = sub[x <= 0.8]
                out.append(trend("mutation_rate: time per run falls as the rate rises to 0.8",
                                 upto[f"param.{param}"], upto["score"], expect="decreasing",
                                 stratum=at))
            elif param == "crossover_rate":
                out.append(trend("crossover_rate: time per run falls as the rate rises", x,
                                 sub["score"], expect="decreasing", stratum=at))
            else:
                ok = sub[sub["success"]]
                out.append(trend("population_size: generations to a solution fall as the "
                                 "population grows", ok[f"param.{param}"],
                                 ok["counter.generations"], expect="decreasing",
                                 what="solved runs", stratum=at))
                per_gen = ok["time_s"] / ok["counter.generations"].clip(lower=1)
                out.append(trend("population_size: time per generation rises with the "
                                 "population", ok[f"param.{param}"], per_gen,
                                 expect="increasing", what="solved runs", stratum=at))
    return out


def beside_source(frame: pd.DataFrame) -> pd.DataFrame:
    """Source study 002's statements beside our tests of them (one row per test, Holm-adjusted over
    all of them)."""
    rows = []
    for f in adjust(findings(frame)):
        param = f.claim.split(":")[0]
        p = "" if f.p is None else f"{f.p:.3g} (Holm {f.p_adjusted:.3g})"
        rows.append({"parameter": param, "source study 002 says": SOURCE_SAYS[param],
                     "tested here": f"{f.stratum}: {f.claim.split(': ', 1)[1]}",
                     "test": f"{f.test}, {f.detail}", "p": p, "verdict": f.verdict})
    return pd.DataFrame(rows)


def narrative(frame: pd.DataFrame) -> list[str]:
    """The tuned arm's sentence; every statement of the source study is a test in the
    findings table."""
    return tuned_sentence(frame)


STUDY = BuiltinStudy(
    name="ga-parameters", source="002",
    description="Source study 002: the effect of mutation rate, crossover rate and population size on "
                "generations and time to solution (one parameter varied at a time).",
    full=_grid(10, [8, 12], 20.0, [9, 10, 11]), quick=_grid(4, [8], 5.0, [9, 10]),
    narrative=narrative, findings=findings,
    extras=lambda f: [("Source study 002's statements beside our tests", beside_source(f)),
                      ("The tuned arm beside the seed's grid and the defaults", tuned_arm(f))]
    + [(f"Effect of {p}", effect(f, p)) for p in ("mutation_rate", "crossover_rate",
                                                  "population_size")],
)
