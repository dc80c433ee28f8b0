"""``puzzlebench solve``: one judged run of one solver on one instance.

The run executes in a process of its own under a hard limit (the time limit plus 10 % and
half a second); the harness validates its answer here. Exit status: 0 when the run is
``solved`` or ``infeasible``, 1 for any other outcome (``wrong``, ``budget``, ``timeout``,
``crash``, ...), 2 for bad input.
"""

from __future__ import annotations

from typing import Annotated

import typer

from puzzlebench.cli.app import app
from puzzlebench.cli.first_run import say_if_first_run
from puzzlebench.cli.options import (
    DEFAULT_TIME_LIMIT,
    TIME_LIMIT_HELP,
    MinTimeOpt,
    PinOpt,
    SandboxOpt,
    StartupLimitOpt,
    check_limit,
    check_seed,
    make_budget,
    measurement_of,
    parse_int,
    parse_params,
    warn_ignored_caps,
)
from puzzlebench.cli.output import (
    counters_text,
    emit_json,
    measurement_text,
    record_json,
    time_text,
)
from puzzlebench.cli.problem_options import ProblemArg, build_instance, problem_options
from puzzlebench.harness.campaign.progress import first_reason
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.host.terminal import clip
from puzzlebench.problems import problem_of

SolverOpt = Annotated[str, typer.Option("--solver", "-s", help="Registered name or module:attr.")]


@app.command("solve")
@problem_options
def solve_command(
    problem: ProblemArg,
    size: Annotated[str, typer.Argument(help="n for the queens problems; 8 or 15 for sliding")],
    solver: SolverOpt,
    seed: Annotated[int, typer.Option(help="Seed of the solver's random generator.")] = 0,
    time_limit: Annotated[float, typer.Option(
        help=TIME_LIMIT_HELP)] = DEFAULT_TIME_LIMIT,
    max_nodes: Annotated[int | None, typer.Option(help="Node budget.")] = None,
    max_iterations: Annotated[int | None, typer.Option(help="Iteration budget.")] = None,
    max_evaluations: Annotated[int | None, typer.Option(help="Evaluation budget.")] = None,
    param: Annotated[list[str] | None, typer.Option(help="Solver parameter KEY=VALUE.")] = None,
    min_time: MinTimeOpt = None,
    pin: PinOpt = None,
    sandbox: SandboxOpt = None,
    startup_limit: StartupLimitOpt = None,
    show: Annotated[bool, typer.Option(help="Draw the answer.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the run as JSON.")] = False,
    problem_opts: dict[str, str] | None = None,
) -> int:
    """Solve one instance with one solver; the harness validates and judges the answer."""
    say_if_first_run()
    check_seed(seed)
    check_limit(min_time, "--min-time")
    measurement = measurement_of(min_time, pin, sandbox, startup_limit)
    instance = build_instance(problem, parse_int(size, "size"), problem_opts or {})
    budget = make_budget(time_limit, max_nodes, max_iterations, max_evaluations)
    # imported on use: `puzzlebench --help` loads every command, and this pulls in numba
    from puzzlebench.harness.execute import run_solve

    spec = resolve_solver(solver)  # once in this process; the run's process loads it itself
    warn_ignored_caps(spec, budget)
    record = run_solve(spec, instance, params=parse_params(param), seed=seed, budget=budget,
                       measurement=measurement)
    verdict, figures = record.verdict, record.figures
    if as_json:
        emit_json(record_json(record))
    else:
        validity = {True: "valid", False: "INVALID", None: "no answer"}[verdict.valid]
        unverified = (" unverified" if verdict.verified is False
                      else f" verified_by={verdict.verified_by}") if verdict.outcome.success else ""
        why = first_reason(record) if verdict.outcome.failure else ""
        why = f" ({clip(why, 100)})" if why else ""  # a failed run's line says why, first
        line = (f"{record.key.instance_id} solver={record.key.solver} "
                f"outcome={verdict.outcome.value}{why}"
                f"{unverified} ({validity}) time={time_text(record)} "
                f"(start-up {figures.startup_s:.2f}s, warm-up {figures.warmup_s:.2f}s, untimed) "
                f"{counters_text(figures.counters)}")
        prob = problem_of(instance)
        headline, details = prob.answer_text(verdict.answer) if verdict.valid else ("", [])
        typer.echo(f"{line.rstrip()} {headline}".rstrip())
        for text in details:
            typer.echo(f"  {text}")
        stop = "" if verdict.stopped_by in ("", "answer") or verdict.stopped_by in verdict.reason \
            else verdict.stopped_by
        shown = first_reason(record) if why and len(first_reason(record)) <= 100 else None
        for label, text in (("reason", verdict.reason), ("stopped by", stop), ("error", verdict.error),
                            ("note", record.provenance.notes), ("certificate", verdict.certificate)):
            if text and (label != "error" or text != verdict.reason) and text.strip() != shown:
                typer.echo(f"  {label}: {text}")
        typer.echo(f"  measured: {measurement_text(record)}")
        if show and verdict.answer is not None and verdict.valid:
            typer.echo(prob.render(instance, prob.answer_from_json(verdict.answer)))
    return 0 if verdict.outcome.success else 1
