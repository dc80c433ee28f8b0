"""Seed 002: mutation rate, crossover rate and population size against generations and time."""

from __future__ import annotations

import pandas as pd

from puzzlebench.studies import BuiltinStudy


def _grid(repeats: int, n: list[int], limit: float) -> dict:
    return {
        "study": {"name": "ga-parameters", "master_seed": 2, "repeats": repeats,
                  "time_limit": limit},
        "problems": [{"problem": "nqueens", "sizes": n}],
        "solvers": [
            {"name": "ga-seed002", "params": {"mutation_rate": [0.1, 0.3, 0.5, 0.8, 1.0]}},
            {"name": "ga-seed002", "params": {"crossover_rate": [0.0, 0.3, 0.6, 0.9]}},
            {"name": "ga-seed002", "params": {"population_size": [20, 50, 100, 200]}},
        ],
    }


DEFAULTS = {"mutation_rate": 0.8, "crossover_rate": 0.9, "population_size": 100}


def effect(frame: pd.DataFrame, param: str) -> pd.DataFrame:
    """Runs of the one-at-a-time sweep over ``param`` (the others at their defaults)."""
    col = f"param.{param}"
    if col not in frame:
        return pd.DataFrame()
    mask = pd.Series(True, index=frame.index)
    for other, value in DEFAULTS.items():
        if other != param and f"param.{other}" in frame:
            mask &= frame[f"param.{other}"] == value
    sub = frame[mask]
    if sub.empty:
        return pd.DataFrame()
    solved = sub.assign(ok=sub["success"])
    out = solved.groupby(["size", col]).agg(
        runs=("ok", "size"), solved=("ok", "mean"),
        median_generations=("counter.generations", "median"),
        median_time_s=("time_s", "median")).reset_index()
    return out.rename(columns={col: param})


def _trend(table: pd.DataFrame, param: str, value: str) -> float:
    if table.empty:
        return float("nan")
    return float(table[[param, value]].corr(method="spearman").iloc[0, 1])


def narrative(frame: pd.DataFrame) -> list[str]:
    lines = []
    checks = [("mutation_rate", "seed 002: raising the mutation rate up to 0.8 speeds the search"),
              ("crossover_rate", "seed 002: raising the crossover rate speeds the search"),
              ("population_size", "seed 002: larger populations need fewer generations but more "
                                  "computation per generation")]
    for param, claim in checks:
        table = effect(frame, param)
        if table.empty:
            continue
        rho_t = _trend(table, param, "median_time_s")
        rho_g = _trend(table, param, "median_generations")
        if param == "population_size":
            holds = rho_g < 0
            lines.append(f"{claim} — generations vs population: Spearman ρ = {rho_g:+.2f}; time: "
                         f"ρ = {rho_t:+.2f}. {'Confirmed' if holds else 'Not confirmed'} here.")
        else:
            holds = rho_t < 0
            lines.append(f"{claim} — median time vs {param}: Spearman ρ = {rho_t:+.2f} "
                         f"(generations ρ = {rho_g:+.2f}). "
                         f"{'Confirmed' if holds else 'Not confirmed'} here.")
    return lines


STUDY = BuiltinStudy(
    name="ga-parameters", seed="002",
    description="Seed 002: the effect of mutation rate, crossover rate and population size on "
                "generations and time to solution (one parameter varied at a time).",
    full=_grid(10, [8, 12], 20.0), quick=_grid(4, [8], 5.0), narrative=narrative,
    extras=lambda f: [(f"Effect of {p}", effect(f, p))
                      for p in ("mutation_rate", "crossover_rate", "population_size")],
)
