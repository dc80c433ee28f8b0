"""``puzzlebench compare``: every applicable solver on a range of sizes, judged, as a table.

A front-end to the study runner: the flags make a study (named ``compare-<problem>``), which
runs in supervised workers with a hard limit per run. With ``--db`` the runs are stored and the
same command continues where it stopped; without it a temporary store is used.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import typer

from puzzlebench.cli.app import app
from puzzlebench.cli.first_run import say_if_first_run
from puzzlebench.cli.options import (
    TIME_LIMIT_HELP,
    CliInputError,
    MinTimeOpt,
    PinOpt,
    SandboxOpt,
    StartupLimitOpt,
    check_limit,
    check_seed,
    parse_sizes,
    with_measurement,
)
from puzzlebench.cli.output import emit_json, print_runs, record_json
from puzzlebench.cli.problem_options import ProblemArg, grid_entry, problem_options
from puzzlebench.cli.run import check_workers
from puzzlebench.cli.summary import print_summary, print_verdict
from puzzlebench.cli.tables import say
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.problems import get_problem
from puzzlebench.records.record import RunRecord
from puzzlebench.solvers.registry import REGISTRY

#: Most runs one ``compare`` makes (a bigger grid belongs in a study file).
MAX_RUNS = 100_000


@app.command("compare")
@problem_options
def compare_command(
    problem: ProblemArg,
    sizes: Annotated[str | None, typer.Option(
        help="Sizes: 4..12, 4,6,8 or 8 (default: the problem's; sliding: the starts').")] = None,
    generate: Annotated[int | None, typer.Option(
        help="Random instances per size from the problem's seeded generator.")] = None,
    solvers: Annotated[str | None, typer.Option(help="Comma-separated solver names.")] = None,
    repeats: Annotated[int, typer.Option(help="Runs per solver and size.")] = 1,
    seed: Annotated[int, typer.Option(help="Master seed.")] = 0,
    time_limit: Annotated[float, typer.Option(help=TIME_LIMIT_HELP)] = 10.0,
    workers: Annotated[int | None, typer.Option(help="Local worker processes.")] = None,
    min_time: MinTimeOpt = None,
    pin: PinOpt = None,
    sandbox: SandboxOpt = None,
    startup_limit: StartupLimitOpt = None,
    db: Annotated[str | None, typer.Option(help="SQLite store; the same command resumes.")] = None,
    report: Annotated[str | None, typer.Option(help="Write a report to this folder.")] = None,
    force: Annotated[bool, typer.Option(
        help="Write --report into a non-empty folder puzzlebench did not write.")] = False,
    details: Annotated[bool, typer.Option(help="Print every run, not only the summary.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per run.")] = False,
    wide: Annotated[bool, typer.Option(
        help="Every column at full width (one per outcome), whatever the terminal.")] = False,
    problem_opts: dict[str, str] | None = None,
) -> int:
    """Compare solvers: exit 1 if any run is wrong, crashed or was killed."""
    say_if_first_run()
    # imported on use: a command loads only the code it runs (CLI start-up time)
    from puzzlebench.harness.campaign.design.study import MAX_REPEATS
    from puzzlebench.harness.campaign.design.study_file import study_from_dict
    from puzzlebench.harness.campaign.runner import run_study
    from puzzlebench.harness.campaign.storage.store import load_records
    if not 1 <= repeats <= MAX_REPEATS:
        raise CliInputError(f"--repeats must be in 1..{MAX_REPEATS:,}, got {repeats}")
    check_limit(time_limit)
    check_seed(seed)
    check_workers(workers)
    if generate is not None and not 1 <= generate <= MAX_RUNS:
        raise CliInputError(f"--generate must be in 1..{MAX_RUNS}, got {generate}")
    prob = get_problem(problem)
    entry = grid_entry(problem, problem_opts or {}, generate=generate)
    problem = prob.id
    size_list = parse_sizes(sizes or prob.default_sizes(entry))
    entry["sizes"] = size_list
    names = ([n.strip() for n in solvers.split(",") if n.strip()] if solvers
             else [s.name for s in REGISTRY.all(problem)])
    for name in names:
        spec = resolve_solver(name)
        if problem not in spec.problems:
            raise CliInputError(f"solver {spec.name!r} does not handle {problem}")
    study = study_from_dict({
        "study": {"name": f"compare-{problem}", "master_seed": seed, "repeats": repeats,
                  "time_limit": time_limit},
        "problems": [entry],
        "solvers": [{"name": n} for n in names],
    }, "compare")
    study = with_measurement(study, min_time, pin, sandbox, startup_limit)
    if study.most_runs() > MAX_RUNS:  # counted before any run is made
        raise CliInputError(f"this comparison would make {study.most_runs():,} runs; at most "
                            f"{MAX_RUNS:,} per command (use a study file and 'run')")
    runs = study.runs()
    if not runs:
        raise CliInputError("this comparison has no runs (no solver handles any instance)")
    if report:
        # imported on use: a command loads only the code it runs (CLI start-up time)
        from puzzlebench.report.out_folder import prepare_report_folder
        prepare_report_folder(report, force=force)
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(db) if db else Path(tmp) / "compare.sqlite"
        run_study(study, target, workers=workers, quiet=as_json)
        specs = [resolve_solver(n) for n in names]
        records = load_records(target, keys=[s.key for s in runs],
                               exact_solvers=[s.name for s in specs if s.exact],
                               complete_solvers=[s.name for s in specs if s.complete])
        records.sort(key=lambda r: (r.key.solver, r.key.size, r.key.instance_id, r.key.repeat))
        if as_json:
            for rec in records:
                emit_json(record_json(rec))
        else:
            if details:
                print_runs(records, title=f"{problem}: {sizes}", wide=wide)
            print_summary(records, borda_scores(records), wide=wide)
            print_verdict(records, wide=wide)
            if db:  # a path is printed whole, to be copied
                typer.echo(f"{len(records)} runs stored in {target}")
            else:
                say(f"{len(records)} runs not kept (--db FILE stores them; --report DIR "
                    "writes a report)", wide=wide)
        if report:
            write_report(records, report, force=force)
            if not as_json:
                typer.echo(f"report written to {report}/report.md and report.html")
    return 1 if any(r.verdict.outcome.failure for r in records) else 0


def borda_scores(records: list[RunRecord]) -> dict[str, float] | None:
    """Solver → its complete Borda score over these runs (MiniZinc Challenge rules), for the
    summary's ``Borda`` column; None without the report package. ``compare`` runs each solver
    with one parameter set, so a configuration's label is its solver's name."""
    # imported on use: a command loads only the code it runs (CLI start-up time)
    try:
        from puzzlebench.report.statistics.borda import borda_by_configuration
    except ImportError:
        return None
    # imported on use: a command loads only the code it runs (CLI start-up time)
    from puzzlebench.harness.campaign.storage.records_frame import records_to_frame

    return borda_by_configuration(records_to_frame(records)) if records else None


def write_report(records: list[RunRecord], out_dir: str, *, force: bool = False) -> None:
    """Write the comparison report (the report package) for these runs."""
    # imported on use: a command loads only the code it runs (CLI start-up time)
    try:
        from puzzlebench.report import write_report as writer
    except ImportError:
        raise CliInputError("--report needs the report package, which is not installed") from None
    # imported on use: a command loads only the code it runs (CLI start-up time)
    from puzzlebench.harness.campaign.storage.records_frame import records_to_frame

    writer(records_to_frame(records), out_dir, force=force)
