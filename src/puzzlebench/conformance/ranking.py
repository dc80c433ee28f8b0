"""Where a solver stands beside the built-in solvers: a small standard grid per problem.

The grid is the problem's own conformance cases (its small solvable and unsolvable
instances, the capped and the reproducible one), each run once by every available built-in
solver that declares the problem and by the candidate, with a 1 s limit, isolated and judged
as every run is. Solvers are ranked by verified successes (a solution the validator accepted,
or an infeasibility claim a rule or certificate verified), then by PAR-2 (mean time, a run
without a verified success counted at twice the limit).

The runs are kept in a store (by default in the cache directory), keyed as every run is by
solver code, parameters, seed and budget: the baselines run once per machine and code
version, and certifying a second solver (or the same one after an edit) runs only its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from puzzlebench.harness.campaign.design.study import RunSpec, derive_seed
from puzzlebench.harness.campaign.runner import run_specs
from puzzlebench.harness.campaign.storage.store import load_records
from puzzlebench.harness.run.measure import default_hard_limit
from puzzlebench.host.cache_dir import cache_dir
from puzzlebench.problems import get_problem
from puzzlebench.problems.base import Instance
from puzzlebench.records.record import RunRecord
from puzzlebench.solvers.registry import REGISTRY
from puzzlebench.solvers.spec import SolverSpec

#: The per-run time limit on the ranking grid.
RANK_TIME_LIMIT = 1.0
#: The master seed of the grid's runs (every solver's seed derives from it and the run).
RANK_SEED = 0


@dataclass(frozen=True, slots=True)
class Standing:
    """One solver's place on one problem's grid."""

    problem: str
    solver: str
    rank: int
    verified: int
    runs: int
    par2_s: float
    candidate: bool

    def to_json(self) -> dict[str, Any]:
        return {"problem": self.problem, "solver": self.solver, "rank": self.rank,
                "verified": self.verified, "runs": self.runs, "par2_s": round(self.par2_s, 4),
                "candidate": self.candidate}


def default_db() -> Path:
    """Where the grid's runs are kept between ``certify`` commands."""
    return cache_dir() / "certify.sqlite"


def grid(problem: str) -> list[Instance]:
    """The problem's ranking grid: its conformance cases, each instance once, hard one aside
    (no solver finishes it in a blink, so it ranks nothing)."""
    cases = get_problem(problem).conformance_cases()
    if cases is None:
        return []
    seen: dict[str, Instance] = {}
    for inst in [*cases.solvable, *cases.infeasible, cases.capped, cases.reproducible]:
        seen.setdefault(inst.instance_id, inst)
    return list(seen.values())


def _runs(problem: str, solvers: list[SolverSpec]) -> list[RunSpec]:
    prob = get_problem(problem)
    name = f"certify-{problem}"
    budget = {"time_limit": RANK_TIME_LIMIT}
    out = []
    for inst in grid(problem):
        for spec in solvers:
            params = spec.check_params(None)
            out.append(RunSpec(
                study=name, problem=problem, size=inst.size, options=prob.options_of(inst),
                instance_id=inst.instance_id, solver=spec.reference or spec.name,
                params=params, repeat=0,
                seed=derive_seed(RANK_SEED, name, inst.instance_id, spec.name, params, 0),
                master_seed=RANK_SEED, budget=budget,
                hard_limit=float(default_hard_limit(RANK_TIME_LIMIT) or RANK_TIME_LIMIT),
                memory_limit_mb=None, name=spec.name, fingerprint=spec.fingerprint))
    return out


def standings(records: list[RunRecord], candidate: str) -> list[Standing]:
    """Solvers ranked on one problem's records: verified successes, then PAR-2 (ties share
    a rank)."""
    by_solver: dict[str, list[RunRecord]] = {}
    for rec in records:
        by_solver.setdefault(rec.key.solver, []).append(rec)
    rows = []
    for solver, recs in by_solver.items():
        ok = [r.verdict.outcome.success and r.verdict.verified is True for r in recs]
        limit = max(float(r.key.budget.get("time_limit") or RANK_TIME_LIMIT) for r in recs)
        par2 = sum(r.figures.time_s if good else 2 * limit for r, good in zip(recs, ok, strict=True))
        rows.append((solver, sum(ok), len(recs), par2 / len(recs)))
    rows.sort(key=lambda row: (-row[1], row[3], row[0]))
    out: list[Standing] = []
    for i, (solver, verified, runs, par2) in enumerate(rows):
        tied = out and (out[-1].verified, out[-1].par2_s) == (verified, par2)
        rank = out[-1].rank if tied else i + 1
        out.append(Standing(records[0].key.problem, solver, rank, verified, runs, par2,
                            solver == candidate))
    return out


def rank(spec: SolverSpec, problem: str, *, db: str | Path | None = None,
         workers: int | None = None, quiet: bool = True) -> list[Standing]:
    """Run (or find stored) the grid of ``problem`` for ``spec`` and the built-in solvers that
    declare it, and rank them."""
    baselines = [s for s in REGISTRY.all(problem) if not s.unavailable and s.name != spec.name]
    runs = _runs(problem, [*baselines, spec])
    if not runs:
        return []
    target = Path(db) if db is not None else default_db()
    target.parent.mkdir(parents=True, exist_ok=True)
    run_specs(f"certify-{problem}", runs, target, workers=workers, quiet=quiet)
    records = load_records(target, keys=[r.key for r in runs])
    return standings(records, spec.name)
