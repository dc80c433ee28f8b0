"""``puzzlebench studies`` lists the built-in studies; ``puzzlebench study NAME`` runs one
and writes its report (default ``reports/NAME``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from puzzlebench.cli.app import app
from puzzlebench.cli.options import (
    CliInputError,
    MinTimeOpt,
    PinOpt,
    SandboxOpt,
    StartupLimitOpt,
    with_measurement,
)
from puzzlebench.cli.run import check_workers
from puzzlebench.cli.tables import Column, say, show


@app.command("studies")
def studies_command() -> int:
    """List the built-in studies and the commands that regenerate their reports."""
    # imported on use: a command loads only the code it runs (CLI start-up time)
    from puzzlebench.studies import catalog

    rows = [[name, study.origin or "(new)", study.description]
            for name, study in catalog().items()]
    show([Column("study", key=True), Column("from"), Column("what it runs")], rows)
    say("Run one, and write its report: puzzlebench study NAME [--quick] [--out DIR]")
    return 0


@app.command("study")
def study_command(
    name: Annotated[str, typer.Argument(help="A built-in study (see 'puzzlebench studies').")],
    quick: Annotated[bool, typer.Option(help="The smaller grid.")] = False,
    out: Annotated[str | None, typer.Option(
        help="Report folder (default study-reports/NAME[-quick], ignored by git).")] = None,
    force: Annotated[bool, typer.Option(
        help="Write into a folder that holds another report (e.g. the committed reports/NAME).")
    ] = False,
    db: Annotated[str | None, typer.Option(help="Store (default OUT/NAME.sqlite).")] = None,
    workers: Annotated[int | None, typer.Option(help="Local worker processes.")] = None,
    min_time: MinTimeOpt = None,
    pin: PinOpt = None,
    sandbox: SandboxOpt = None,
    startup_limit: StartupLimitOpt = None,
    self_contained: Annotated[bool, typer.Option(
        help="Embed plotly.js in report.html instead of sharing OUT/../assets/plotly-V.min.js "
             "with the reports beside it.")] = False,
    quiet: Annotated[bool, typer.Option(help="No progress output.")] = False,
) -> int:
    """Run a built-in study (resumable) and write its report. Reports of studies share one
    plotly.js bundle in the folder beside them (``assets/``), so a folder of reports holds one
    copy of the library; ``--self-contained`` embeds it for a report sent as one file."""
    # imported on use: a command loads only the code it runs (CLI start-up time)
    from puzzlebench.harness.campaign.design.study_file import study_from_dict
    from puzzlebench.harness.campaign.runner import run_study
    from puzzlebench.harness.campaign.storage.records_frame import records_to_frame
    from puzzlebench.harness.campaign.storage.store import load_records, load_traces
    from puzzlebench.report import write_report
    from puzzlebench.report.out_folder import prepare_report_folder
    from puzzlebench.report.summary import run_span
    from puzzlebench.studies import get_study
    check_workers(workers)
    builtin = get_study(name)
    study = with_measurement(study_from_dict(builtin.definition(quick), f"study {name}"),
                             min_time, pin, sandbox, startup_limit)
    given = out or f"study-reports/{name}{'-quick' if quick else ''}"
    folder = prepare_report_folder(given, force=force)  # before the store is made inside it
    store = Path(db) if db else folder / f"{name}.sqlite"
    if (folder / "report.md").exists() and not store.exists() and not force:
        raise CliInputError(f"{str(folder)!r} holds a report made elsewhere (a committed one?); "
                            "pass --force to replace it, or choose another --out")
    folder.mkdir(parents=True, exist_ok=True)
    if any(entry.get("tune") for entry in study.solvers):
        # imported on use: Optuna loads only for a study that tunes its solvers
        from puzzlebench.tune.study_tuning import tuned_study
        study = tuned_study(study, store, workers=workers,
                            progress=None if quiet else lambda line: typer.echo(line, err=True))
    run_study(study, store, workers=workers, quiet=quiet)
    keys = [s.key for s in study.runs()]
    frame = records_to_frame(load_records(store, keys=keys))
    paths = write_report(
        frame, given,
        title=f"Study '{name}'" + (f" ({builtin.origin})" if builtin.origin else "")
        + (" — quick" if quick else ""),
        description=builtin.description, narrative=[*builtin.narrative(frame), run_span(frame)],
        findings=builtin.findings(frame), extras=builtin.extras(frame), claims=study.claims,
        traces=load_traces(store, study.name),
        tuned=[{"solver": e["name"], "params": e["params"], **e["tuned"]}
               for e in study.solvers if e.get("tuned")],
        shared_assets=None if self_contained else folder.parent / "assets", force=force)
    typer.echo(f"wrote {paths['markdown']} and {paths['html']}")
    return 0
