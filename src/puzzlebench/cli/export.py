"""``puzzlebench export``: a store as CSV (stdout or file) or Parquet."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from puzzlebench.cli.app import app


@app.command("export")
def export_command(
    db: Annotated[str, typer.Option(help="The SQLite store.")],
    fmt: Annotated[str, typer.Option("--format", help="csv, parquet or ioh (IOHprofiler folder).")] = "csv",
    out: Annotated[str | None, typer.Option(
        help="Output file (CSV: stdout when absent); for ioh, a folder.")] = None,
    traces: Annotated[bool, typer.Option(
        "--traces", help="Export the anytime traces (one row per improvement) instead of the runs.")] = False,
    study: Annotated[str | None, typer.Option(help="Only this study's traces (ioh, --traces).")] = None,
) -> int:
    """Export every stored run (one row per run, nested fields as JSON text), the traces, or
    the traces in the IOHprofiler format."""
    # imported on use: a command loads only the code it runs (CLI start-up time)
    from puzzlebench.cli.options import CliInputError, check_out_dir, check_out_file
    from puzzlebench.harness.campaign.storage.exports import export, export_traces
    from puzzlebench.harness.campaign.storage.store import load_traces
    if fmt == "ioh":
        # imported on use: a command loads only the code it runs (CLI start-up time)
        from puzzlebench.harness.campaign.storage.ioh_export import export_ioh
        if out is None:
            raise CliInputError("--format ioh needs --out DIR")
        check_out_dir(out)
        done = export_ioh(load_traces(db, study), out)
        typer.echo(f"wrote {done['runs']} runs of {done['algorithms']} algorithms to {out} "
                   "(open the folder, zipped, in IOHanalyzer)")
        return 0
    if out is not None:
        check_out_file(out)
    text = export_traces(db, fmt, out, study) if traces else export(db, fmt, out)
    if text is not None:
        sys.stdout.write(text)
    return 0
