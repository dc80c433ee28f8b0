"""``puzzlebench compare``: every applicable solver on a range of sizes, judged, as a table.

Runs in this process, one after another, each solver honouring its own budget.
"""

from __future__ import annotations

from typing import Annotated

import typer

from puzzlebench.cli.app import app
from puzzlebench.cli.options import CliInputError, build_instance, make_budget, parse_sizes
from puzzlebench.cli.output import console, emit_json, record_json, runs_table
from puzzlebench.contract import Budget
from puzzlebench.harness.execute import run_solve
from puzzlebench.harness.outcome import Outcome, RunRecord
from puzzlebench.registry import REGISTRY


@app.command("compare")
def compare_command(
    problem: Annotated[str, typer.Argument(help="nqueens, torus-queens, queens-knights, sliding")],
    sizes: Annotated[str, typer.Option(help="Sizes: 4..12, 4,6,8 or 8.")] = "4..10",
    solvers: Annotated[str | None, typer.Option(help="Comma-separated solver names.")] = None,
    repeats: Annotated[int, typer.Option(help="Runs per solver and size.")] = 1,
    seed: Annotated[int, typer.Option(help="Master seed.")] = 0,
    time_limit: Annotated[float, typer.Option(help="Per-run wall-clock budget (s).")] = 10.0,
    queens: Annotated[int | None, typer.Option(help="Queens A (queens-knights).")] = None,
    start: Annotated[str | None, typer.Option(help="Sliding start state.")] = None,
    db: Annotated[str | None, typer.Option(help="SQLite store (study runner).")] = None,
    report: Annotated[str | None, typer.Option(help="Write a report to this folder.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per run.")] = False,
) -> int:
    """Compare solvers: exit 1 if any run is wrong or crashed."""
    if repeats < 1:
        raise CliInputError(f"--repeats must be at least 1, got {repeats}")
    if db is not None or report is not None:
        raise CliInputError("--db and --report need the study runner, which is not installed")
    budget = make_budget(time_limit)
    size_list = parse_sizes(sizes)
    instances = [build_instance(problem, n, queens=queens, start=start) for n in size_list]
    specs = (
        [REGISTRY.get(name.strip()) for name in solvers.split(",") if name.strip()]
        if solvers else REGISTRY.all(problem)
    )
    records = []
    for spec in specs:
        if problem not in spec.problems:
            raise CliInputError(f"solver {spec.name!r} does not handle {problem}")
        for inst in instances:
            for rep in range(repeats):
                rec = run_solve(spec, inst, seed=seed + rep, budget=Budget(budget.time_limit),
                                repeat=rep, master_seed=seed)
                records.append(rec)
                if as_json:
                    emit_json(record_json(rec))
    if not as_json:
        console().print(runs_table(records, title=f"{problem}: {sizes}"))
    return 1 if any(_failed(r) for r in records) else 0


def _failed(record: RunRecord) -> bool:
    return record.outcome in (Outcome.WRONG, Outcome.CRASH)
