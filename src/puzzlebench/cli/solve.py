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
    if as_json:
        emit_json(record_json(record))
    else:
        validity = {True: "valid", False: "INVALID", None: "no answer"}[record.valid]
        unverified = (" unverified" if record.verified is False
                      else f" verified_by={record.verified_by}") if record.outcome.success else ""
        why = first_reason(record) if record.outcome.failure else ""
        why = f" ({clip(why, 100)})" if why else ""  # a failed run's line says why, first
        line = (f"{record.instance_id} solver={record.solver} outcome={record.outcome.value}{why}"
                f"{unverified} ({validity}) time={time_text(record)} "
                f"(start-up {record.startup_s:.2f}s, warm-up {record.warmup_s:.2f}s, untimed) "
                f"{counters_text(record.counters)}")
        prob = problem_of(instance)
        headline, details = prob.answer_text(record.answer) if record.valid else ("", [])
        typer.echo(f"{line.rstrip()} {headline}".rstrip())
        for text in details:
            typer.echo(f"  {text}")
        stop = "" if record.stopped_by in ("", "answer") or record.stopped_by in record.reason \
            else record.stopped_by
        shown = first_reason(record) if why and len(first_reason(record)) <= 100 else None
        for label, text in (("reason", record.reason), ("stopped by", stop), ("error", record.error),
                            ("note", record.notes), ("certificate", record.certificate)):
            if text and (label != "error" or text != record.reason) and text.strip() != shown:
                typer.echo(f"  {label}: {text}")
        typer.echo(f"  measured: {measurement_text(record)}")
        if show and record.answer is not None and record.valid:
            typer.echo(prob.render(instance, prob.answer_from_json(record.answer)))
    return 0 if record.outcome.success else 1
