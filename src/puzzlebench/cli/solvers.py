"""``puzzlebench solvers``: the registry as a table or JSON lines."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from puzzlebench.cli.app import app
from puzzlebench.cli.output import console, emit_json
from puzzlebench.problems import get_problem
from puzzlebench.registry import REGISTRY


@app.command("solvers")
def solvers_command(
    problem: Annotated[str | None, typer.Option(help="Only solvers for this problem.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per solver.")] = False,
) -> int:
    """List every registered solver with its capabilities."""
    if problem is not None:
        get_problem(problem)
    specs = REGISTRY.all(problem)
    if as_json:
        for spec in specs:
            emit_json(spec.to_json())
        return 0
    table = Table()
    for col in ("name", "problems", "origin", "complete", "exact", "stochastic", "counts",
                "params", "honours", "effort unit"):
        table.add_column(col, overflow="fold")
    for s in specs:
        params = s.to_json()["params"]
        table.add_row(
            s.name + (" (unavailable)" if s.unavailable else ""), ", ".join(sorted(s.problems)),
            s.origin,
            *("yes" if f else "" for f in (s.complete, s.exact, s.stochastic, s.counts)),
            ", ".join(f"{k}={v}" for k, v in params.items()), ", ".join(sorted(s.honours)),
            _unit(s.to_json()),
        )
    console().print(table)
    for s in specs:
        if s.unavailable:
            typer.echo(f"{s.name} is unavailable here: {s.unavailable}")
    return 0


def _unit(data: dict) -> str:
    """The effort unit column: the common unit, marked when the solver only approximates it."""
    unit = data.get("effort_unit") or ""
    return f"{unit} (approximate)" if unit and data.get("effort_approximate") else unit
