"""``puzzlebench run STUDY.toml``: run a study into its SQLite store (resumable)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from puzzlebench.cli.app import CommandInterruptedError, app
from puzzlebench.cli.first_run import say_if_first_run
from puzzlebench.cli.options import (
    CliInputError,
    MinTimeOpt,
    PinOpt,
    SandboxOpt,
    StartupLimitOpt,
    with_measurement,
)
from puzzlebench.cli.output import console

#: The most local worker processes a command may ask for (each has a slot made at once).
MAX_WORKERS = 1024


def check_workers(workers: int | None) -> None:
    """``--workers``: 1..``MAX_WORKERS`` (``--workers 1000000000`` made a slot per worker)."""
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise CliInputError(f"--workers must be in 1..{MAX_WORKERS}, got {workers}")


def check_scheduler(address: str) -> None:
    """A Dask scheduler address that parses and answers within a few seconds."""
    # only when a scheduler is named: start-up time
    import re
    import socket

    match = re.fullmatch(r"(?:tcp://)?([^:/\s]+):(\d{1,5})", address.strip())
    if match is None:
        raise CliInputError(f"--scheduler takes tcp://HOST:PORT, got {address!r}")
    host, port = match.group(1), int(match.group(2))
    try:
        with socket.create_connection((host, port), timeout=5):
            pass
    except OSError as exc:
        raise CliInputError(f"cannot reach the Dask scheduler at {address}: "
                            f"{exc.strerror or exc}") from None


@app.command("run")
def run_command(
    study_file: Annotated[Path, typer.Argument(help="The study TOML file.")],
    db: Annotated[str | None, typer.Option(help="SQLite store (default: the study's db).")] = None,
    workers: Annotated[int | None, typer.Option(help="Local worker processes (default: cores).")] = None,
    scheduler: Annotated[str | None, typer.Option(help="Dask scheduler, tcp://HOST:PORT.")] = None,
    min_time: MinTimeOpt = None,
    pin: PinOpt = None,
    sandbox: SandboxOpt = None,
    startup_limit: StartupLimitOpt = None,
    quiet: Annotated[bool, typer.Option(help="No progress output.")] = False,
) -> int:
    """Run every not-yet-stored run of a study; exit 1 if any run is wrong, crashed or was
    killed (judged against the study's other runs too)."""
    say_if_first_run()
    # imported on use: a command loads only the code it runs (CLI start-up time)
    from puzzlebench.harness.campaign.progress import summary_table
    from puzzlebench.harness.campaign.runner import run_study
    from puzzlebench.harness.campaign.store import load_records
    from puzzlebench.harness.campaign.study_file import load_study
    check_workers(workers)
    if scheduler is not None:
        check_scheduler(scheduler)
    study = with_measurement(load_study(study_file), min_time, pin, sandbox,
                             startup_limit)
    target = db or study.db or f"{study.name}.sqlite"
    try:
        result = run_study(study, target, workers=workers, scheduler=scheduler, quiet=quiet)
    except KeyboardInterrupt:  # what is stored, and how to go on: the same command resumes
        keys = [s.key for s in study.runs()]
        stored = len(load_records(target, keys=keys)) if Path(target).exists() else 0
        raise CommandInterruptedError(f"puzzlebench: interrupted — {stored} of the study's "
                                 f"{len(keys)} runs are stored in {target}; run the same "
                                 f"command to resume") from None
    # this definition's runs (not earlier ones under other limits), judged against each other
    records = load_records(target, keys=[s.key for s in study.runs()])
    console().print(summary_table(records))
    typer.echo(f"{len(result.new)} runs made, {result.skipped} already stored, store: {target}")
    return 1 if any(r.outcome.failure for r in records) else 0
