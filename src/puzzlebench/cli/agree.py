"""``puzzlebench agree PROBLEM --sizes 1..12 [--solver NAME ...]``: the agreement matrix.

Exit status 0 when every solver agrees with the facts and with every other solver, 1 when
any disagreement is found (each one is named), 2 for bad input.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from puzzlebench.cli.app import app
from puzzlebench.cli.options import CliInputError, check_limit, parse_counts, parse_sizes
from puzzlebench.cli.output import console, emit_json
from puzzlebench.harness.agreement import check_agreement
from puzzlebench.problems import get_problem


@app.command("agree")
def agree_command(
    problem: Annotated[str, typer.Argument(help="nqueens, torus-queens, queens-knights, sliding")],
    sizes: Annotated[str | None, typer.Option(
        help="Sizes: 1..12, 4,6,8 or 8 (default 1..10; sliding 8).")] = None,
    solver: Annotated[list[str] | None, typer.Option(
        help="Solver(s) to check beside every baseline (repeatable; module:attr allowed).")] = None,
    queens: Annotated[str | None, typer.Option(help="queens-knights A values (default 0..n).")] = None,
    time_limit: Annotated[float, typer.Option(
        help="Per-run budget (s); each run is killed at 1.1×+0.5 s.")] = 10.0,
    count_time_limit: Annotated[float | None, typer.Option(
        help="Budget of each count (s; default: --time-limit); counting is exhaustive.")] = None,
    start: Annotated[str | None, typer.Option(
        help="sliding: one start state (default: three fixed scrambles per size).")] = None,
    workers: Annotated[int | None, typer.Option(help="Runs at once (default: cores).")] = None,
    count_up_to: Annotated[int, typer.Option(help="Counts are compared up to this n.")] = 10,
    enumerate_up_to: Annotated[int, typer.Option(help="Answers checked against the enumerated "
                                                       "set up to this n.")] = 8,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> int:
    """Cross-check every applicable solver; name every disagreement."""
    from puzzlebench.cli.run import check_workers
    from puzzlebench.harness.progress import StudyProgress

    prob = get_problem(problem)
    check_limit(time_limit)
    check_limit(count_time_limit, "--count-time-limit")  # None passes
    check_workers(workers)
    queens_list = None
    if queens is not None:
        if problem != "queens-knights":
            raise CliInputError(f"--queens applies to queens-knights, not {problem}")
        queens_list = parse_counts(queens)
    if start is not None and problem != "sliding":
        raise CliInputError(f"--start applies to sliding, not {problem}")
    size_list = parse_sizes(sizes or ("8" if problem == "sliding" else "1..10"))
    insts = []
    for n in size_list:
        options: dict[str, object] = {"queens": queens_list} if queens_list is not None else {}
        if start is not None:
            options["start"] = start
        insts.extend(prob.agreement_instances(n, **options))
    progress = StudyProgress(0, 0, quiet=as_json, unknown_total=True)
    try:
        report = check_agreement(problem, size_list, solver or None, time_limit=time_limit,
                                 count_time_limit=count_time_limit,
                                 count_up_to=count_up_to, enumerate_up_to=enumerate_up_to,
                                 instances=insts, workers=workers, progress=progress.update)
    finally:
        progress.close()
    if as_json:
        emit_json({"problem": problem, "agreed": report.agreed,
                   "matrix": report.cells, "skipped": report.skipped,
                   "disagreements": [vars_of(d) for d in report.disagreements]})
    else:
        table = Table(title=f"agreement: {problem}")
        table.add_column("solver")
        for iid in report.instances:
            table.add_column(iid.replace(f"{problem}-", ""), overflow="fold")
        for name in sorted(report.cells):
            table.add_row(name, *(report.cells[name].get(i, "-") for i in report.instances))
        console().print(table)
        for name, why in report.skipped.items():
            typer.echo(f"skipped {name}: {why}")
        if report.agreed:
            typer.echo("all solvers agree with the facts and with each other")
        for d in report.disagreements:
            typer.echo(f"DISAGREEMENT: {d}")
    return 0 if report.agreed else 1


def vars_of(d: object) -> dict[str, str]:
    return {k: getattr(d, k) for k in ("solver", "instance_id", "claimed", "truth")}
