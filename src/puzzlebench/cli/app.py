"""The Typer application every command module adds its commands to."""

from __future__ import annotations

import typer


class CommandInterruptedError(Exception):
    """Ctrl-C in a command that says what is stored and how to go on (its one line);
    ``puzzlebench.cli.main`` prints it and exits 130 (Typer would make a ``typer.Exit`` of
    it a bare status)."""


app = typer.Typer(
    name="puzzlebench",
    help="Compare N-Queens-family and sliding-tile solvers against independent validators.",
    add_completion=False,
    no_args_is_help=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        # imported on use: a command loads only the code it runs (CLI start-up time)
        from puzzlebench import __version__

        typer.echo(f"puzzlebench {__version__}")
        raise typer.Exit(0)


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Compare N-Queens-family and sliding-tile solvers against independent validators."""
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(0)
