"""``puzzlebench solvers``: the registry as a table or JSON lines."""

from __future__ import annotations

from typing import Annotated

import typer
from rich import box
from rich.table import Table

from puzzlebench.cli.app import app
from puzzlebench.cli.output import console, emit_json
from puzzlebench.problems import get_problem
from puzzlebench.registry import REGISTRY


@app.command("solvers")
def solvers_command(
    problem: Annotated[str | None, typer.Option(help="Only solvers for this problem.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per solver.")] = False,
    wide: Annotated[bool, typer.Option(
        help="Every column: origin, parameters, budget fields honoured, effort unit.")] = False,
) -> int:
    """List every registered solver with its capabilities: name, problems and what it is
    (complete, exact, stochastic, counts); ``--wide`` adds its origin, parameters, the budget
    fields it honours and its effort unit; ``--json`` gives everything, one object a line."""
    if problem is not None:
        get_problem(problem)
    specs = REGISTRY.all(problem)
    if as_json:
        for spec in specs:
            emit_json(spec.to_json())
        return 0
    units = [_unit(s.to_json()) for s in specs]
    columns = ["name", "problems", "is"]
    if wide:
        columns += ["origin", "params", "honours"]
    if wide and any(units):  # a column empty in every row says nothing
        columns.append("effort unit")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for col in columns:
        table.add_column(col, overflow="fold", no_wrap=col == "name")
    for s, unit in zip(specs, units, strict=True):
        params = s.to_json()["params"]
        flags = ", ".join(word for word, on in (("complete", s.complete), ("exact", s.exact),
                                                 ("stochastic", s.stochastic),
                                                 ("counts", s.counts)) if on)
        row = [s.name + (" (unavailable)" if s.unavailable else ""),
               ", ".join(sorted(s.problems)), flags]
        if wide:
            row += [s.origin, ", ".join(f"{k}={v}" for k, v in params.items()),
                    ", ".join(sorted(s.honours))]
        if "effort unit" in columns:
            row.append(unit)
        table.add_row(*row)
    console().print(table)
    for s in specs:
        if s.unavailable:
            typer.echo(f"{s.name} is unavailable here: {s.unavailable}")
    if not wide:
        typer.echo("(--wide: origin, parameters, budget fields honoured, effort unit; "
                   "--json: everything)")
    return 0


def _unit(data: dict) -> str:
    """The effort unit column: the common unit, marked when the solver only approximates it."""
    unit = data.get("effort_unit") or ""
    return f"{unit} (approximate)" if unit and data.get("effort_approximate") else unit
