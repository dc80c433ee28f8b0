"""``puzzlebench problems``: the problem families, their options and their solvers."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from puzzlebench.cli.app import app
from puzzlebench.cli.output import emit_json
from puzzlebench.cli.tables import Column, show
from puzzlebench.problems import PROBLEMS
from puzzlebench.solvers.registry import REGISTRY


@app.command("problems")
def problems_command(
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per problem.")] = False,
) -> int:
    """List every problem family (built-in or plugin) with its options and solvers."""
    rows: list[dict[str, Any]] = []
    for pid, prob in PROBLEMS.items():
        rows.append({
            "id": pid, "summary": prob.summary, "module": type(prob).__module__,
            "options": [{"name": o.name, "study_key": o.key, "grid": o.many,
                         "required": o.required, "help": o.help} for o in prob.options],
            "generates": prob.generates,
            "solvers": [s.name for s in REGISTRY.all(pid)],
        })
    if as_json:
        for row in rows:
            emit_json(row)
        return 0
    cells = []
    for row in rows:
        opts = ", ".join(f"--{o['name']}" + (f" ({o['study_key']})" if o["study_key"] != o["name"]
                                             else "") for o in row["options"])
        cells.append([row["id"], row["summary"], opts or "-", "yes" if row["generates"] else "",
                      ", ".join(row["solvers"])])
    show([Column("problem", key=True), Column("summary"), Column("options (study key)"),
          Column("generator"), Column("solvers")], cells)
    return 0
