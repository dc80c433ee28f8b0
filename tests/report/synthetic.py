"""A synthetic store for layout tests: 20 solver configurations × n-queens sizes 4..10^6.

Times grow with n at different rates (so the data span many decades), one configuration never
solves anything (its series must still be named), and one solver runs with two parameter sets
(so short ``solver#k`` labels are needed)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from puzzlebench.harness.campaign.storage.store import Store, load
from puzzlebench.records.record import Outcome, RunRecord

SIZES = (4, 8, 16, 64, 1_000, 10_000, 100_000, 1_000_000)
FAMILIES = ("astar", "greedy", "ga", "hc", "mc", "cp")


def configurations() -> list[tuple[str, dict]]:
    """19 solvers, one of them with two parameter sets: 20 configurations."""
    solvers = [f"{FAMILIES[i % len(FAMILIES)]}-v{i}" for i in range(19)]
    out = [(s, {}) for s in solvers[1:]]
    out += [(solvers[0], {"rate": 0.1, "population_size": 50}),
            (solvers[0], {"rate": 0.9, "population_size": 50})]
    return out


def synthetic_store(path: Path, *, repeats: int = 3) -> pd.DataFrame:
    """Write the synthetic runs to a real store at ``path`` and load them back as a frame."""
    rng = np.random.default_rng(7)
    store = Store(path)
    for c, (solver, params) in enumerate(configurations()):
        for n in SIZES:
            for rep in range(repeats):
                never = c == 3
                t = 1e-5 * n ** (0.4 + 0.05 * c) * (1 + 0.2 * rng.random())
                solved = not never and t < 60
                rec = RunRecord.of(
                    problem="nqueens", size=n, instance_id=f"nqueens-{n}", solver=solver,
                    params=params, seed=rep, outcome=Outcome.SOLVED if solved else Outcome.TIMEOUT,
                    claim="solved" if solved else "", valid=True if solved else None,
                    verified=True if solved else None, time_s=min(t, 60.0),
                    counters={"nodes": int(10 * n ** (1 + 0.05 * c))},
                    budget={"time_limit": 60.0}, study="synthetic", repeat=rep)
                store.add(f"{solver}|{params}|{n}|{rep}", rec)
    store.close()
    return load(path, rejudged=False)
