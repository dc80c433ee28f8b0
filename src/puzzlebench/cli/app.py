"""The Typer application every command module adds its commands to."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="puzzlebench",
    help="Compare N-Queens-family and sliding-tile solvers against independent validators.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
