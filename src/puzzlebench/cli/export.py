"""``puzzlebench export``: a store as CSV (stdout or file) or Parquet."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from puzzlebench.cli.app import app


@app.command("export")
def export_command(
    db: Annotated[str, typer.Option(help="The SQLite store.")],
    fmt: Annotated[str, typer.Option("--format", help="csv or parquet.")] = "csv",
    out: Annotated[str | None, typer.Option(help="Output file (CSV: stdout when absent).")] = None,
) -> int:
    """Export every stored run, one row per run, nested fields as JSON text."""
    from puzzlebench.cli.options import check_out_file
    from puzzlebench.harness.store import export
    if out is not None:
        check_out_file(out)
    text = export(db, fmt, out)
    if text is not None:
        sys.stdout.write(text)
    return 0
