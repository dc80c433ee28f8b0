"""``puzzlebench solvers``: the registry as a table or JSON lines."""

from __future__ import annotations

from typing import Annotated

import typer

from puzzlebench.cli.app import app
from puzzlebench.cli.legend import SOLVER_TERMS, legend
from puzzlebench.cli.output import emit_json
from puzzlebench.cli.tables import Column, say, show
from puzzlebench.problems import get_problem
from puzzlebench.solvers.registry import REGISTRY


@app.command("solvers")
def solvers_command(
    problem: Annotated[str | None, typer.Option(help="Only solvers for this problem.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per solver.")] = False,
    wide: Annotated[bool, typer.Option(
        help="Every column: origin, parameter defaults, budget fields honoured, effort unit.")] = False,
) -> int:
    """List every registered solver with its capabilities: name, problems, what it is
    (complete, exact, stochastic, counts) and its parameters. ``--wide`` adds the parameters'
    defaults, its origin, the budget fields it honours and its effort unit. ``--json`` gives
    everything, one object a line."""
    if problem is not None:
        get_problem(problem)
    specs = REGISTRY.all(problem)
    if as_json:
        for spec in specs:
            emit_json(spec.to_json())
        return 0
    columns = [Column("name", key=True), Column("problems"), Column("is"),
               Column("params"),
               *([Column("origin"), Column("honours"), Column("effort unit")] if wide else [])]
    rows = []
    for s in specs:
        data = s.to_json()
        flags = ", ".join(word for word, on in (("complete", s.complete), ("exact", s.exact),
                                                 ("stochastic", s.stochastic),
                                                 ("counts", s.counts)) if on)
        params = (", ".join(f"{k}={v}" for k, v in data["params"].items()) if wide
                  else ", ".join(data["params"]))
        row = [s.name + (" (unavailable)" if s.unavailable else ""),
               ", ".join(sorted(s.problems)), flags, params]
        if wide:
            row += [s.origin, ", ".join(sorted(s.honours)), _unit(data)]
        rows.append(row)
    # a column empty in every row says nothing: dropped, --wide or not
    keep = [i for i, c in enumerate(columns) if c.key or any(r[i] for r in rows)]
    show([columns[i] for i in keep], [[r[i] for i in keep] for r in rows],
         legend=legend(" ".join(r[2] for r in rows).split(", "), SOLVER_TERMS), wide=wide)
    for s in specs:
        if s.unavailable:
            say(f"{s.name} is unavailable here: {s.unavailable}", wide=wide)
    if not wide:
        say("(--wide: origin, parameter defaults, budget fields honoured, effort unit; "
            "--json: everything)")
    return 0


def _unit(data: dict) -> str:
    """The effort unit column: the common unit, marked when the solver only approximates it."""
    unit = data.get("effort_unit") or ""
    return f"{unit} (approximate)" if unit and data.get("effort_approximate") else unit
